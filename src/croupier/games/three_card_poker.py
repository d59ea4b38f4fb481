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

from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar

from croupier.cards import Suit
from croupier.errors import IllegalAction
from croupier.games._table_regs import THREE_CARD_POKER_REGS
from croupier.games.amounts import Multiples, PlayRule
from croupier.games.base import DealStep, EnvyRule, Game, Round
from croupier.games.paytables import (
    CustomShape,
    EnvySchedule,
    PayLine,
    PayTable,
    for_,
    to,
)
from croupier.games.records import (
    DEALER,
    Action,
    DealerRevealed,
    Fold,
    Folded,
    Play,
    Record,
    Result,
    WagerSettled,
)
from croupier.hands import Category, HandRank, Ranking, evaluate
from croupier.rules import DealMethod, Problem, RulesSubmission

__all__ = [
    "ANTE_BONUS",
    "GAME_CLASSES",
    "PAIR_PLUS",
    "PROGRESSIVE",
    "SIX_CARD_BONUS",
    "ThreeCardPoker",
    "ThreeCardPokerRound",
    "dealer_qualifies",
    "hand_keys",
    "plays_by_q64",
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
_AB = "§ 649a.12(b)"
_PP = "§ 649a.12(d)"
_IRREG = "§ 649a.13"

_SECONDARY = (
    "letter from a third-party document quoting 58 Pa. Code 649a; not verified against the PA text"
)
_GUIDES = "widely published (casino guides); not verified against the PA text"


# --- pay tables (cited data; none verified against the PA text) ---------------------------------


def _pair_plus(letter: str, sf: int, trips: int, straight: int, flush: int) -> PayTable:
    return PayTable(
        wager="pair_plus",
        letter=letter,
        section=_PP,
        lines=(
            PayLine(hand="straight_flush", odds=to(sf)),
            PayLine(hand="three_of_a_kind", odds=to(trips)),
            PayLine(hand="straight", odds=to(straight)),
            PayLine(hand="flush", odds=to(flush)),
            PayLine(hand="pair", odds=to(1)),
        ),
        verified=False,
        note=_SECONDARY,
    )


# § 649a.12(d) per the secondary source: Pair Plus tables A-E, all "to 1".
PAIR_PLUS = {
    "A": _pair_plus("A", 35, 25, 6, 4),
    "B": _pair_plus("B", 40, 30, 5, 4),
    "C": _pair_plus("C", 40, 30, 6, 3),
    "D": _pair_plus("D", 40, 30, 6, 4),
    "E": _pair_plus("E", 40, 25, 6, 4),
}

# § 649a.12(b) per the secondary source ("Paytable A"): the Ante Bonus, paid on the Ante of any
# played hand whatever the dealer holds.
ANTE_BONUS = {
    "A": PayTable(
        wager="ante_bonus",
        letter="A",
        section=_AB,
        lines=(
            PayLine(hand="straight_flush", odds=to(5)),
            PayLine(hand="three_of_a_kind", odds=to(4)),
            PayLine(hand="straight", odds=to(1)),
        ),
        verified=False,
        note=_SECONDARY,
    )
}


def _six_card(flush: int) -> PayTable:
    name = f"1000-200-50-25-{flush}-10-5"
    return PayTable(
        wager="six_card_bonus",
        letter=name,
        section=_PAYOUTS,
        lines=(
            PayLine(hand="royal_flush", odds=to(1000)),
            PayLine(hand="straight_flush", odds=to(200)),
            PayLine(hand="four_of_a_kind", odds=to(50)),
            PayLine(hand="full_house", odds=to(25)),
            PayLine(hand="flush", odds=to(flush)),
            PayLine(hand="straight", odds=to(10)),
            PayLine(hand="three_of_a_kind", odds=to(5)),
        ),
        verified=False,
        note=_GUIDES,
    )


# Six Card Bonus: the two widely published tables (flush 20 or 15 to 1), named by their pays.
SIX_CARD_BONUS = {t.letter: t for t in (_six_card(20), _six_card(15))}


def _progressive(trips: int) -> PayTable:
    name = f"jackpot-500-100-{trips}"
    return PayTable(
        wager="progressive",
        letter=name,
        section=_PAYOUTS,
        lines=(
            PayLine(hand="mini_royal_spades", meter_share=Fraction(1)),
            PayLine(hand="mini_royal", odds=for_(500)),
            PayLine(hand="straight_flush", odds=for_(100)),
            PayLine(hand="three_of_a_kind", odds=for_(trips)),
        ),
        verified=False,
        note=_GUIDES,
    )


# The widely published $1 progressive ("for 1": the collected wager is included); three of a
# kind pays 50 (3cardpoker.com) or 90 (MotorCity Casino) for 1.
PROGRESSIVE = {t.letter: t for t in (_progressive(50), _progressive(90))}

# Envy Bonus for another player's mini royal (3cardpoker.com), on a $1 progressive wager.
ENVY = {
    "100-25": EnvySchedule(
        letter="100-25",
        section=_PAYOUTS,
        by_wager={
            100: (
                PayLine(hand="mini_royal_spades", amount=10_000),
                PayLine(hand="mini_royal", amount=2_500),
            )
        },
    )
}

# What a Rules Submission's own table may look like, per wager: the hands it may pay (highest
# first), where it may end, and a line for every hand above its last (checked as in every game,
# :func:`croupier.games.paytables.custom_table`).  The lowest lines are those of the tables this
# module carries (the texts give none): Pair Plus down to a pair, the Ante Bonus to a straight,
# the Six Card Bonus to three of a kind (as Let It Ride's, § 643a.7(j)).  A mini royal is a
# straight flush here, so its own line is optional.
_THREE_CARD_HANDS = ("mini_royal", "straight_flush", "three_of_a_kind", "straight", "flush", "pair")
_FIVE_CARD_HANDS = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "pair",
)
CUSTOM_SHAPES: dict[str, CustomShape] = {
    "pair_plus": CustomShape(
        hands=_THREE_CARD_HANDS,
        lowest=("pair",),
        section=_PP,
        refinements=frozenset({"mini_royal"}),
    ),
    "ante_bonus": CustomShape(
        hands=_THREE_CARD_HANDS,
        lowest=("straight",),
        section=_AB,
        refinements=frozenset({"mini_royal"}),
    ),
    "six_card_bonus": CustomShape(
        hands=_FIVE_CARD_HANDS, lowest=("three_of_a_kind",), section=_PAYOUTS
    ),
}


CUSTOM_HANDS: dict[str, tuple[str, ...]] = {w: shape.hands for w, shape in CUSTOM_SHAPES.items()}
"""The hands each wager's own table may pay (derived from :data:`CUSTOM_SHAPES`)."""


# --- hands ---------------------------------------------------------------------------------------


def _top(rank: HandRank, position: int = 0) -> int:
    return (rank.value >> (16 - 4 * position)) & 0xF


def hand_keys(rank: HandRank) -> frozenset[str]:
    """The pay-table names a three-card hand satisfies: its category, plus ``mini_royal``
    (A-K-Q suited) and ``mini_royal_spades`` for the progressive."""
    keys = {rank.category.value}
    if rank.category is Category.STRAIGHT_FLUSH and _top(rank) == 14:
        keys.add("mini_royal")
        if all(card.suit is Suit.SPADES for card in rank.cards):
            keys.add("mini_royal_spades")
    return frozenset(keys)


def dealer_qualifies(rank: HandRank) -> bool:
    """Queen high or better (the secondary source's rules summary; § 679a.1 defines the same
    qualifier for Three Card Prime)."""
    return rank.category is not Category.HIGH_CARD or _top(rank) >= 12


def plays_by_q64(rank: HandRank) -> bool:
    """The well-known simple rule: play any pair or better and high-card hands of Q-6-4 or
    higher, fold the rest (Wizard of Odds; not a regulation)."""
    if rank.category is not Category.HIGH_CARD:
        return True
    return (_top(rank, 0), _top(rank, 1), _top(rank, 2)) >= (12, 6, 4)


# --- the round -----------------------------------------------------------------------------------


class ThreeCardPokerRound(Round):
    sections: ClassVar[dict[str, str]] = {
        "seated": _WAGERS,
        "no_more_bets": _WAGERS,
        "adjacent_boxes": _WAGERS,
        "progressive_count": _DEAL,
        "stub_count": _DEAL,
        "decision_order": _PLAY,
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

    def verify_wager(self, seat: int, wager: str, amount: int) -> None:
        placed = self._stakes.get(seat, {})
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

    def deal_plan(self) -> Sequence[DealStep]:
        seats = [str(s) for s in self.active_seats]
        if self.game.rules.table.deal is DealMethod.AUTOMATED_SHOE:
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

    # -- decisions -------------------------------------------------------------------------

    def next_decider(self) -> int | None:
        for seat in self.active_seats:
            if "ante" in self._stakes[seat] and seat not in self._decided:
                return seat
        return None

    def decision_candidates(self, seat: int) -> Iterable[Action]:
        yield Play(seat=seat, multiple=1)
        yield Fold(seat=seat)

    def _verify_play(self, action: Play) -> None:
        if "ante" not in self._stakes.get(action.seat, {}):
            raise IllegalAction(
                f"Play wager at seat {action.seat} refused: no Ante wager", section=_PLAY
            )
        self._verify_decider(action.seat, "Play wager")
        self.verify_play_size(action)

    def play_rule(self, seat: int) -> PlayRule:
        return PLAY_RULE

    def _do_play(self, action: Play) -> list[Record]:
        record = self.play_record(action)
        self._stakes[action.seat]["play"] = record.amount
        self._decided.add(action.seat)
        rec: list[Record] = [record]
        return rec + self.after_decision()

    def _verify_fold(self, action: Fold) -> None:
        if "ante" not in self._stakes.get(action.seat, {}):
            raise IllegalAction(f"seat {action.seat} has no Ante wager to forfeit", section=_PLAY)
        self._verify_decider(action.seat, "fold")

    def _do_fold(self, action: Fold) -> list[Record]:
        self._decided.add(action.seat)
        self._folded.add(action.seat)
        rec: list[Record] = [Folded(seat=action.seat)]
        return rec + self.after_decision()

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
        return evaluate(self._hands[str(seat)], Ranking.THREE_CARD)

    def dealer_rank(self) -> HandRank:
        return evaluate(self._hands[DEALER], Ranking.THREE_CARD)

    def six_card_rank(self, seat: int) -> HandRank:
        """The best five of the player's three and the dealer's three cards (poker5)."""
        return evaluate([*self._hands[str(seat)], *self._hands[DEALER]], Ranking.POKER5)

    _FORFEITED_ON_FOLD: ClassVar[tuple[str, ...]] = ("ante", "pair_plus", "progressive")

    def reveal(self) -> list[Record]:
        # § 649a.11(b)(1): a fold forfeits the Ante and the Pair Plus; the progressive goes with
        # them (as § 641a.11(b) in Four Card Poker).  They are collected before the reveal; the
        # Six Card Bonus and Envy eligibility stay.
        new: list[Record] = []
        for seat in sorted(self._folded):
            for wager in self._FORFEITED_ON_FOLD:
                if wager in self._stakes[seat]:
                    new.append(self.settle(seat, wager, Result.FORFEIT))
        dealer = self.dealer_rank()
        new.append(
            DealerRevealed(
                cards=tuple(self._hands[DEALER]), category=dealer.category.value, best=dealer.cards
            )
        )
        return new

    def settlement_order(self) -> list[int]:
        # § 649a.11(c), following § 641a.11(c): from the dealer's right, counterclockwise, each
        # player settled completely; a folded seat with nothing left in action is skipped.
        order = []
        for seat in reversed(self.active_seats):
            if seat in self._settled:
                continue
            left = set(self._stakes[seat])
            if seat in self._folded:
                left -= {"ante", "play", "pair_plus"}
                if self.game.envy_schedule is None:
                    left.discard("progressive")
            if left:
                order.append(seat)
        return order

    def settle_seat(self, seat: int) -> list[Record]:
        """Ante and Play, Ante Bonus, Pair Plus, Six Card Bonus, progressive (and Envy)."""
        stakes = self._stakes[seat]
        rank = self.player_rank(seat)
        keys = hand_keys(rank)
        new: list[Record] = []
        if seat not in self._folded and "play" in stakes:
            new += self._settle_ante_and_play(seat, rank)
            bonus_table = self.game.paytable("ante_bonus")
            assert bonus_table is not None
            bonus = bonus_table.line_for(keys)
            if bonus is not None and bonus.odds is not None:
                # § 649a.12(b): paid on the Ante of a played hand whatever the dealer holds.
                new.append(
                    WagerSettled(
                        seat=seat,
                        wager="ante_bonus",
                        stake=0,
                        result=Result.WIN,
                        paid=bonus.odds.winnings(stakes["ante"]),
                        returned=0,
                        line=bonus.hand,
                    )
                )
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
            new += self.award_envy(seat, self.game.envy_schedule, self.player_keys)
        return new

    def _settle_ante_and_play(self, seat: int, rank: HandRank) -> list[Record]:
        dealer = self.dealer_rank()
        ante = self._stakes[seat]["ante"]
        play = self._stakes[seat]["play"]
        line = rank.category.value
        if not dealer_qualifies(dealer):
            # The dealer does not qualify: the Ante wins 1 to 1 and the Play pushes.
            return [
                self.settle(seat, "ante", Result.WIN, paid=ante, line=line),
                self.settle(seat, "play", Result.PUSH, line=line),
            ]
        if rank.value == dealer.value:
            # § 649a.6(c): equal hands tie; a tie pushes both.
            result = Result.PUSH
        else:
            result = Result.WIN if rank.value > dealer.value else Result.LOSE
        won = result is Result.WIN
        return [
            self.settle(seat, "ante", result, paid=ante if won else 0, line=line),
            self.settle(seat, "play", result, paid=play if won else 0, line=line),
        ]

    def _settle_table(self, seat: int, wager: str, keys: frozenset[str]) -> WagerSettled:
        table = self.game.paytable(wager)
        assert table is not None
        line = table.line_for(keys)
        if line is None or line.odds is None:
            return self.settle(seat, wager, Result.LOSE)
        paid = line.odds.winnings(self._stakes[seat][wager])
        return self.settle(seat, wager, Result.WIN, paid=paid, line=line.hand)

    def player_keys(self, seat: int) -> frozenset[str]:
        return hand_keys(self.player_rank(seat))


# --- the game ------------------------------------------------------------------------------------


class ThreeCardPoker(Game):
    """Three Card Poker: Ante/Play against the dealer's three cards (queen high qualifies),
    Ante Bonus, Pair Plus, Six Card Bonus, progressive."""

    slug = "three-card-poker"
    title = "Three Card Poker"
    chapter = "58 Pa. Code Ch. 649a"
    aliases = ("3cp", "three-card")
    wagers = ("ante", "play", "pair_plus", "six_card_bonus", "progressive")
    paytables: ClassVar[dict[str, dict[str, PayTable]]] = {
        "pair_plus": PAIR_PLUS,
        "six_card_bonus": SIX_CARD_BONUS,
        "ante_bonus": ANTE_BONUS,
    }
    default_paytables: ClassVar[dict[str, str]] = {
        "pair_plus": "A",
        "six_card_bonus": "1000-200-50-25-20-10-5",
        "ante_bonus": "A",
    }
    progressive_paytables: ClassVar[dict[str, PayTable]] = PROGRESSIVE
    envy_schedules: ClassVar[dict[str, EnvySchedule]] = ENVY
    progressive_wager_amounts = (frozenset({100}), _WAGERS)
    decision_wagers = frozenset({"play"})
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
    Ch. 641a): :mod:`._table_regs`."""
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
