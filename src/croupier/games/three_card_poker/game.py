"""Three Card Poker (58 Pa. Code Chapter 649a; temporary Chapter 565).

===========  ===========  ===============================  ============  ========================
phase        who acts     legal actions                    next phase    sections
===========  ===========  ===============================  ============  ========================
betting      players      place ante / pair_plus /         dealing       § 649a.7
                          six_card_bonus / progressive;
                          dealer: no more bets
dealing      chance       deal 3 cards to each wagering    stub_count    § 649a.8-§ 649a.10
                          seat and to the dealer           or decisions
stub_count   dealer       count the stub                   decisions     § 649a.8
decisions    each Ante    play (equal to the Ante) or      reveal        § 649a.11(b)
             seat, 1→7    fold (Ante and Pair Plus lost)
reveal       dealer       collect forfeits, reveal the     settlement    § 649a.11(b)(1),
                          dealer's three cards                           § 649a.11(c)
settlement   dealer       settle seat 7→1, each            over          § 649a.11(c),
                          completely                                     § 649a.12
===========  ===========  ===============================  ============  ========================

Irregularities (§ 649a.13) may be reported while dealing; a void returns every wager.

**What the sources hold.**  No Chapter 649a text was available (see
``shared/regs/three-card-poker.md``; the 2011 proposed chapter in the seed, 41 Pa.B. 3836, stops
inside Chapter 643a).  What is followed, and from where:

* § 649a.6 rankings, the Play equal to the Ante (§ 649a.11(b)), the fold forfeiting the Ante and
  the Pair Plus (§ 649a.11(b)(1)), Pair Plus settled whatever the dealer holds (§ 649a.11(c)(4)),
  the Ante Bonus on the Ante whatever the dealer holds (§ 649a.12(b)), the Pair Plus tables A-E
  (§ 649a.12(d)) and the queen-high qualifier: a third-party design document quoting Chapter 649a
  (a secondary source, **not verified** against the PA text).  The letters A-E and the Ante
  Bonus "Paytable A" are that document's; every table here is ``verified=False``.
* Section numbers other than those above (§ 649a.3, § 649a.7, § 649a.8-§ 649a.10, § 649a.13) are
  inferred from the chapter's announced layout (41 Pa.B. 3836: decks, opening, shuffle, rankings,
  wagers, dealing, payout odds, irregularities), which matches Chapter 641a section for section;
  their content follows the parallel Four Card Poker rules and is cited at section level only.
* Dealing one card at a time clockwise from seat 1 to each wagering seat and to the dealer until
  each has three, and stacks of three from an automated shoe: the issue's description and the
  parallel § 641a.8(d) and § 641a.10(b); no New Jersey or PA Three Card Poker dealing text was
  found.
* Six Card Bonus (best five of the player's three and the dealer's three, poker5 ranking):
  the widely published tables 1000-200-50-25-20-10-5 and 1000-200-50-25-15-10-5 (casino guides,
  the digest's "non-regulatory reference"), both ``verified=False``.  It may be made with an
  Ante or a Pair Plus (a casino guide) and stays in action after a fold (the Wild Horse Pass
  guide says so; not PA text).
* Progressive: the widely published Three Card Poker progressive ($1 wager; mini royal in spades
  100% of the meter, any other mini royal 500 for 1, straight flush 100 for 1, three of a kind
  50 for 1 or 90 for 1; Envy Bonus $100 / $25 for another player's spade / other mini royal),
  from casino guides (3cardpoker.com, MotorCity Casino), **not verified** against the PA text.
  A fold forfeits it (as § 641a.11(b) does in Four Card Poker) but keeps Envy eligibility.
* A Rules Submission may define its own table for ``pair_plus``, ``six_card_bonus`` or
  ``ante_bonus`` under ``[custom_paytables.<wager>]`` (hand = "N to 1" / "N for 1"), checked
  as in every game (:func:`croupier.games.paytables.custom_table`: a line for every hand from
  the top down to its lowest, so a royal flush never loses where a lesser hand is paid).
  Custom progressive tables are not supported.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar

from croupier.core.cards import Card, Suit
from croupier.core.errors import IllegalAction
from croupier.core.frozen import frozen_dict
from croupier.games._made import dealer_revealed, folded, wager_settled
from croupier.games.amounts import Multiples, PlayRule
from croupier.games.base import DealStep, EnvyRule, Game, Round
from croupier.games.paytables import EnvySchedule, PayLine, PayTable
from croupier.games.records import (
    DEALER,
    Action,
    Fold,
    Play,
    Record,
    Result,
    WagerSettled,
)
from croupier.games.states import known_plan
from croupier.games.three_card_poker.paytables import (
    ANTE_BONUS,
    CUSTOM_HANDS,
    CUSTOM_SHAPES,
    ENVY,
    PAIR_PLUS,
    PROGRESSIVE,
    SIX_CARD_BONUS,
)
from croupier.games.three_card_poker.regs import THREE_CARD_POKER_REGS
from croupier.hands import Category, HandRank, Ranking, pack
from croupier.rules.submission import DealMethod, Problem, RulesSubmission

__all__ = [
    "ANTE_BONUS",
    "CUSTOM_HANDS",
    "CUSTOM_SHAPES",
    "ENVY",
    "GAME_CLASSES",
    "PAIR_PLUS",
    "PROGRESSIVE",
    "QUEEN_HIGH",
    "SIX_CARD_BONUS",
    "Decision",
    "Showdown",
    "ThreeCardPoker",
    "ThreeCardPokerRound",
    "ante_bonus_line",
    "ante_bonus_net",
    "ante_play",
    "ante_play_net",
    "base_net",
    "dealer_qualifies",
    "hand_keys",
    "plays_by_q64",
    "showdown",
]

_RANKING = "§ 649a.6"
_WAGERS = "§ 649a.7"
_DEAL = "§ 649a.8"
_PLAY = "§ 649a.11(b)"
PLAY_RULE = Multiples(label="Play wager", section=_PLAY, multiples=(1,))
"""The Play wager is exactly equal to the Ante (the secondary source's § 649a.11(b); Three Card
Prime's § 679a.7(d)(1) words it "in an amount equal to the player's Ante Wager")."""
_FOLD = "§ 649a.11(b)(1)"
_SETTLE = "§ 649a.11(c)"
_PP_SETTLE = "§ 649a.11(c)(4)"
_PAYOUTS = "§ 649a.12"
_IRREG = "§ 649a.13"


# --- hands ---------------------------------------------------------------------------------------


def hand_keys(rank: HandRank) -> frozenset[str]:
    """The pay-table names a three-card hand satisfies: its category, plus ``mini_royal``
    (A-K-Q suited) and ``mini_royal_spades`` for the progressive."""
    keys = {rank.category._value_}  # .value, without the enum property call
    if rank.category is Category.STRAIGHT_FLUSH and rank.top_rank == 14:
        keys.add("mini_royal")
        if all(card.suit is Suit.SPADES for card in rank.cards):
            keys.add("mini_royal_spades")
    return frozenset(keys)


# --- the base settlement: pure functions over hand keys and decisions ------------------------
#
# A three-card hand's key for the Ante and the Play is its order value (``HandRank.value`` in the
# THREE_CARD ranking, § 649a.6: equal values tie); the Ante Bonus and the Pair Plus read its
# pay-table names (:func:`hand_keys`).  The round settles with these functions and the analysis
# tabulates them (:mod:`croupier.analysis.three_card_poker`).


class Decision(StrEnum):
    """The player's decision on the Ante (§ 649a.11(b))."""

    PLAY = "play"
    """A Play wager equal to the Ante."""
    FOLD = "fold"
    """The Ante (and the Pair Plus) forfeited (§ 649a.11(b)(1))."""


class Showdown(StrEnum):
    """How a played hand meets the dealer's three cards (§ 649a.11(c))."""

    DEALER_DOES_NOT_QUALIFY = "dealer does not qualify"
    WIN = "win"
    TIE = "tie"
    LOSE = "lose"


QUEEN_HIGH = pack(0, (12, 3, 2))
"""The lowest qualifying dealer hand: queen high (Q-3-2); every pair or better is above it."""


def dealer_qualifies(dealer: int) -> bool:
    """Queen high or better (the secondary source's rules summary; § 679a.1 defines the same
    qualifier for Three Card Prime); ``dealer``: the order value of the dealer's three cards.
    The one statement of the qualifier: the round and every analysis use it."""
    return dealer >= QUEEN_HIGH


def showdown(player: int, dealer: int) -> Showdown:
    """A played hand (order value ``player``) against the dealer's (``dealer``)."""
    if not dealer_qualifies(dealer):
        return Showdown.DEALER_DOES_NOT_QUALIFY
    if player == dealer:
        # § 649a.6(c): equal hands tie.
        return Showdown.TIE
    return Showdown.WIN if player > dealer else Showdown.LOSE


_ANTE_PLAY: dict[Showdown, tuple[Result, Result]] = {
    # The dealer does not qualify: the Ante wins 1 to 1 and the Play pushes (§ 649a.11(c)).
    Showdown.DEALER_DOES_NOT_QUALIFY: (Result.WIN, Result.PUSH),
    # Otherwise the higher hand wins the Ante and the Play 1 to 1; a tie pushes both.
    Showdown.WIN: (Result.WIN, Result.WIN),
    Showdown.TIE: (Result.PUSH, Result.PUSH),
    Showdown.LOSE: (Result.LOSE, Result.LOSE),
}
_UNIT_NET = {Result.WIN: 1, Result.PUSH: 0, Result.LOSE: -1, Result.FORFEIT: -1}
"""The net of a wager paid 1 to 1, per unit staked."""


def ante_play(decision: Decision, result: Showdown) -> tuple[Result, Result | None]:
    """The Ante's and the Play's results (``None``: no Play wager): a fold forfeits the Ante
    before the reveal whatever the dealer holds (§ 649a.11(b)(1))."""
    if decision is Decision.FOLD:
        return Result.FORFEIT, None
    return _ANTE_PLAY[result]


def ante_play_net(decision: Decision, result: Showdown) -> int:
    """The net of the Ante and the Play in units of the Ante (the Play equals it, § 649a.11(b)),
    both paid 1 to 1."""
    ante, play = ante_play(decision, result)
    return _UNIT_NET[ante] + (0 if play is None else _UNIT_NET[play])


def base_net(player: int, dealer: int, decision: Decision) -> int:
    """The net of the Ante and the Play, in units of the Ante, of the player's hand (order value
    ``player``) against the dealer's (``dealer``) after ``decision``."""
    return ante_play_net(decision, showdown(player, dealer))


def ante_bonus_line(
    table: PayTable | None, keys: Iterable[str], decision: Decision
) -> PayLine | None:
    """The Ante Bonus line the hand with pay-table names ``keys`` earns on its Ante: a played
    hand only, whatever the dealer holds (§ 649a.12(b)); ``None``: no bonus."""
    if table is None or decision is Decision.FOLD:
        return None
    line = table.line_for(keys)
    return line if line is not None and line.odds is not None else None


def ante_bonus_net(table: PayTable | None, keys: Iterable[str], decision: Decision) -> Fraction:
    """The Ante Bonus per unit Ante (0 without a line)."""
    line = ante_bonus_line(table, keys, decision)
    return Fraction(0) if line is None or line.odds is None else line.odds.net


def plays_by_q64(rank: HandRank) -> bool:
    """The well-known simple rule: play any pair or better and high-card hands of Q-6-4 or
    higher, fold the rest (Wizard of Odds; not a regulation)."""
    if rank.category is not Category.HIGH_CARD:
        return True
    return rank.tie_ranks >= (12, 6, 4)


def deal_plan(method: DealMethod, active: tuple[int, ...]) -> list[DealStep]:
    """The initial deal to the wagering seats ``active`` (seat 1 first) by ``method``."""
    seats = [str(s) for s in active]
    if method is DealMethod.AUTOMATED_SHOE:
        # § 649a.10 (as § 641a.10(b)): a stack of three to each wagering seat from the far
        # left, clockwise, then a stack of three to the dealer.
        plan = [DealStep(to=s, note="stack of three") for s in seats for _ in range(3)]
        return plan + [DealStep(to=DEALER, note="stack of three") for _ in range(3)]
    # § 649a.8, § 649a.9 (as § 641a.8(d)): one card at a time, face down, clockwise from the
    # far left to each wagering seat and then the dealer, until each holds three.
    plan = []
    for _ in range(3):
        plan += [DealStep(to=s) for s in seats]
        plan.append(DealStep(to=DEALER))
    return plan


_FOLD_SETTLED = frozenset({"ante", "play", "pair_plus"})
"""The wagers of a folded hand settled before the reveal (the progressive too where no Envy
Bonus is offered: :data:`_FOLD_SETTLED_ALL`)."""
_FOLD_SETTLED_ALL = _FOLD_SETTLED | {"progressive"}


# --- the round -----------------------------------------------------------------------------------


class ThreeCardPokerRound(Round):
    sections: ClassVar[dict[str, str]] = {
        "seated": _WAGERS,
        "no_more_bets": _WAGERS,
        "adjacent_boxes": _WAGERS,
        "progressive_count": _DEAL,
        # The progressive table game system (§ 605a.7): its wagering device at each betting
        # position and its lock-out.  Chapter 649a's table section was not available (see the
        # module); § 605a.7 is the system every chapter's progressive refers to (shared/regs).
        "progressive_sensors": "§ 605a.7",
        "progressive_lock_out": "§ 605a.7",
        # A progressive payout's verification: the hand wins, the light, a floorperson's
        # validation.  Chapter 649a's text is not at hand (module docstring): its settlement
        # section, as § 641a.11(c)(5)(i)-(iii) in Four Card Poker, § 557.11(f)(1)-(3) temporary.
        "declared_hand": _SETTLE,
        "declared_light": _SETTLE,
        "stub_count": _DEAL,
        "decision_order": _PLAY,
        # after the decisions the dealer reveals, then settles (the secondary source's (c), as
        # § 641a.11(c) in Four Card Poker)
        "reveal_order": _SETTLE,
        "settlement_order": _SETTLE,
        "card_face_up_in_deck": _IRREG,
        "card_drawn_in_error": _IRREG,
        "wrong_card_count": _IRREG,
        "dealer_card_exposed": _IRREG,
        "automated_shoe_jam": _IRREG,
    }
    game: ThreeCardPoker
    # As § 641a.11(c): forfeited wagers and their cards are collected to the discard rack before
    # the reveal; the Six Card Bonus stays in action after a fold, so its hand stays.  A hand so
    # collected qualifies nobody for an Envy Bonus (:meth:`Round.hand_held`).
    kept_after_fold = frozenset({"six_card_bonus"})

    # -- wagers ----------------------------------------------------------------------------

    def _verify_wager(self, seat: int, wager: str, amount: int) -> None:
        placed = self._stakes.of(seat)
        if wager == "play":
            raise IllegalAction(
                f"a Play wager at seat {seat} is made after the cards are seen, equal to the Ante",
                section=_PLAY,
            )
        if wager in ("six_card_bonus", "progressive") and not ({"ante", "pair_plus"} & set(placed)):
            # A casino guide: the Six Card Bonus (and the progressive) go with an Ante or a
            # Pair Plus wager; § 649a.7 itself was not available.
            raise IllegalAction(
                f"{wager} wager at seat {seat} refused: it follows an Ante or Pair Plus wager",
                section=_WAGERS,
            )

    # -- dealing ---------------------------------------------------------------------------

    def _deal_plan(self) -> Sequence[DealStep]:
        return known_plan(deal_plan, self.game.rules.table.deal, self._stakes.in_action)

    # -- decisions -------------------------------------------------------------------------

    def next_decider(self) -> int | None:
        stakes, decided = self._wagers, self._decided
        for seat in self._stakes.in_action:
            if "ante" in stakes[seat] and seat not in decided:
                return seat
        return None

    def decision_candidates(self, seat: int) -> Iterable[Action]:
        yield Play(seat=seat, multiple=1)
        yield Fold(seat=seat)

    def _verify_play(self, action: Play) -> None:
        if "ante" not in self._stakes.of(action.seat):
            raise IllegalAction(
                f"Play wager at seat {action.seat} refused: no Ante wager", section=_PLAY
            )
        self._verify_decider(action.seat, "Play wager")
        self.verify_play_size(action)

    def play_rule(self, seat: int) -> PlayRule:
        return PLAY_RULE

    def _do_play(self, action: Play) -> list[Record]:
        record = self.play_record(action)
        self._stakes.add(action.seat, "play", record.amount)
        self._decisions.decide(action.seat)
        rec: list[Record] = [record]
        return rec + self._after_decision()

    def _verify_fold(self, action: Fold) -> None:
        if "ante" not in self._stakes.of(action.seat):
            raise IllegalAction(f"seat {action.seat} has no Ante wager to forfeit", section=_PLAY)
        self._verify_decider(action.seat, "fold")

    def _do_fold(self, action: Fold) -> list[Record]:
        self._decisions.fold(action.seat)
        rec: list[Record] = [folded(action.seat)]
        return rec + self._after_decision()

    def simple_strategy(self, seat: int) -> Action:
        """Play Q-6-4 or better, else fold (the well-known rule; see :func:`plays_by_q64`)."""
        if plays_by_q64(self.player_rank(seat)):
            return Play(seat=seat, multiple=1)
        return Fold(seat=seat)

    def describe(self, action: Action) -> str:
        if isinstance(action, Play):
            return "play (a Play wager equal to the Ante)"
        return super().describe(action)

    # -- reveal and settlement -------------------------------------------------------------

    def player_rank(self, seat: int) -> HandRank:
        return self.rank_of(self._hands[str(seat)], Ranking.THREE_CARD)

    def dealer_rank(self) -> HandRank:
        return self.rank_of(self._hands[DEALER], Ranking.THREE_CARD)

    def six_card_rank(self, seat: int) -> HandRank:
        """The best five of the player's three and the dealer's three cards (poker5)."""
        return self.rank_of([*self._hands[str(seat)], *self._hands[DEALER]], Ranking.POKER5)

    _FORFEITED_ON_FOLD: ClassVar[tuple[str, ...]] = ("ante", "pair_plus", "progressive")

    def _reveal(self) -> list[Record]:
        # § 649a.11(b)(1): a fold forfeits the Ante and the Pair Plus; the progressive goes with
        # them (as § 641a.11(b) in Four Card Poker).  They are collected before the reveal; the
        # Six Card Bonus and Envy eligibility stay.
        new: list[Record] = []
        for seat in sorted(self._folded):
            for wager in self._FORFEITED_ON_FOLD:
                if wager in self._wagers[seat]:
                    new.append(self.settle(seat, wager, Result.FORFEIT))
        dealer = self.dealer_rank()
        new.append(dealer_revealed(tuple(self._hands[DEALER]), dealer))
        return new

    def _settlement_order(self) -> list[int]:
        # § 649a.11(c), following § 641a.11(c): from the dealer's right, counterclockwise, each
        # player settled completely; a folded seat with nothing left in action is skipped.
        settled, folded = self._settled, self._folded
        if folded:
            gone = _FOLD_SETTLED if self.game.envy_schedule is not None else _FOLD_SETTLED_ALL
        return [
            seat
            for seat in reversed(self._stakes.in_action)
            if seat not in settled and (seat not in folded or not self._wagers[seat].keys() <= gone)
        ]

    def _settle_seat(self, seat: int) -> list[Record]:
        """Ante and Play, Ante Bonus, Pair Plus, Six Card Bonus, progressive (and Envy)."""
        stakes = self._wagers[seat]
        rank = self.player_rank(seat)
        keys = hand_keys(rank)
        new: list[Record] = []
        if self.hand_held(seat):
            # § 649a.11(c) (its text is not among the project's sources; as § 641a.11(c)(1)):
            # the dealer turns the player's three cards face up to settle them; a folded hand
            # left under a Six Card Bonus is settled on its cards too.
            new.append(self.show_hand(seat, rank))
        if seat not in self._folded and "play" in stakes:
            new += self._settle_ante_and_play(seat, rank)
            bonus = ante_bonus_line(self.game.paytable("ante_bonus"), keys, Decision.PLAY)
            if bonus is not None and bonus.odds is not None:
                # § 649a.12(b): paid on the Ante of a played hand whatever the dealer holds.
                paid = bonus.odds.winnings(stakes["ante"])
                new.append(wager_settled(seat, "ante_bonus", 0, Result.WIN, paid, 0, bonus.hand))
        if "pair_plus" in stakes and seat not in self._folded:
            # § 649a.11(c)(4): on the player's own three cards, whatever the dealer holds.
            new.append(self._settle_table(seat, "pair_plus", keys))
        if "six_card_bonus" in stakes:
            new.append(
                self._settle_table(
                    seat, "six_card_bonus", frozenset({self.six_card_rank(seat).category.value})
                )
            )
        if "progressive" in stakes:
            if seat not in self._folded:
                # the highest hand only, at the meter's amount in turn (as § 641a.12(d))
                new += self.settle_progressive(seat)
            # an Envy Bonus for each other player's qualifying hand (as § 641a.11(c)(5)(v))
            new += self.award_envy(seat, self.game.envy_schedule, self._player_keys)
        return new

    def _settle_ante_and_play(self, seat: int, rank: HandRank) -> list[Record]:
        ante, play = ante_play(Decision.PLAY, showdown(rank.value, self.dealer_rank().value))
        assert play is not None
        line = rank.category.value
        return [
            self.settle(seat, wager, result, paid=stake if result is Result.WIN else 0, line=line)
            for wager, result, stake in (
                ("ante", ante, self._wagers[seat]["ante"]),
                ("play", play, self._wagers[seat]["play"]),
            )
        ]

    def _settle_table(self, seat: int, wager: str, keys: frozenset[str]) -> WagerSettled:
        table = self.game.paytable(wager)
        assert table is not None
        line = table.line_for(keys)
        if line is None or line.odds is None:
            return self.settle(seat, wager, Result.LOSE)
        paid = line.odds.winnings(self._wagers[seat][wager])
        return self.settle(seat, wager, Result.WIN, paid=paid, line=line.hand)

    def _player_keys(self, seat: int) -> frozenset[str]:
        return hand_keys(self.player_rank(seat))

    declared_cards: ClassVar[Mapping[str, int]] = frozen_dict({"progressive": 3})
    """A hand declared at a table whose cards croupier does not see: the player's three cards,
    the progressive's hand (:mod:`croupier.games.declared`)."""

    def _declared_keys(self, cards: tuple[Card, ...], wager: str) -> frozenset[str]:
        return hand_keys(self.rank_of(cards, Ranking.THREE_CARD))  # as _player_keys


# --- the game ------------------------------------------------------------------------------------


class ThreeCardPoker(Game):
    """Three Card Poker: Ante/Play against the dealer's three cards (queen high qualifies),
    Ante Bonus, Pair Plus, Six Card Bonus, progressive."""

    slug = "three-card-poker"
    required_wagers = ("ante",)
    title = "Three Card Poker"
    chapter = "58 Pa. Code Ch. 649a"
    aliases = ("3cp", "three-card")
    wagers = ("ante", "play", "pair_plus", "six_card_bonus", "progressive")
    paytables: ClassVar[Mapping[str, Mapping[str, PayTable]]] = {
        "pair_plus": PAIR_PLUS,
        "six_card_bonus": SIX_CARD_BONUS,
        "ante_bonus": ANTE_BONUS,
    }
    default_paytables: ClassVar[Mapping[str, str]] = {
        "pair_plus": "A",
        "six_card_bonus": "1000-200-50-25-20-10-5",
        "ante_bonus": "A",
    }
    progressive_paytables: ClassVar[Mapping[str, PayTable]] = PROGRESSIVE
    envy_schedules: ClassVar[Mapping[str, EnvySchedule]] = ENVY
    progressive_wager_amounts = (frozenset({100}), _WAGERS)
    decision_wagers = frozenset({"play"})
    decision_section = _PLAY  # the Play equals the Ante
    # The progressive comes with its Envy Bonus (the published game, 3cardpoker.com: Ch. 649a's
    # progressive text is not at hand); its amounts are the casino's, so it must select them.
    envy_rule = EnvyRule.SELECTED
    envy_section = _PAYOUTS
    paytables_section = _PAYOUTS
    hand_rankings = (Ranking.THREE_CARD, Ranking.POKER5)  # the Six Card Bonus: best five
    extra_hands = frozenset({"mini_royal", "mini_royal_spades"})
    custom_shapes = CUSTOM_SHAPES
    round_class = ThreeCardPokerRound
    table_regs = THREE_CARD_POKER_REGS
    """Deck life, stub counts, shuffle and cut, seats (§ 649a.3-649a.10, inferred from
    Ch. 641a): :mod:`.regs`."""
    example_rules: ClassVar[dict[str, Any]] = {
        "game": "three-card-poker",
        "paytables": {"pair_plus": "D", "six_card_bonus": "1000-200-50-25-15-10-5"},
        "progressive": {
            "paytable": "jackpot-500-100-90",
            "envy": "100-25",
            "wager": 100,
            "reset": 500_000,
            "rate": "0.25",
            "meter": "three-card-poker",
        },
        "table": {"adjacent_boxes": 2},
    }

    @classmethod
    def check_table(cls, rules: RulesSubmission) -> list[Problem]:
        problems: list[Problem] = []
        if rules.payout_limit is not None:
            problems.append(
                ("no Three Card Poker payout limit is in the texts croupier follows", _PAYOUTS)
            )
        return problems

    @cached_property
    def custom_paytables(self) -> dict[str, PayTable]:
        """The tables the Rules Submission defines itself, by wager."""
        return self.parse_custom(self.rules)[0]

    def paytable(self, wager: str) -> PayTable | None:
        return self.custom_paytables.get(wager) or super().paytable(wager)

    def fixed_tables(self) -> tuple[PayTable, ...]:
        bonus = self.paytable("ante_bonus")
        return (bonus,) if bonus is not None else ()


GAME_CLASSES = (ThreeCardPoker,)
