"""Ultimate Texas Hold 'Em Poker (temporary 58 Pa. Code Ch. 569 as amended, seed 002; Ch. 653a).

===========  ============  ================================  ============  =====================
phase        who acts      legal actions                     next phase    sections
===========  ============  ================================  ============  =====================
betting      players       place equal ante and blind;       dealing       § 569.1, § 569.2(b)(2),
                           trips; progressive ($1/$5) after                § 569.7(b), (f)-(h)
                           ante and blind; dealer: no more
                           bets
dealing      chance        two cards to each player and the  decisions     § 569.8(b), § 569.9,
                           dealer (cover card on the                       § 569.10 (see below)
                           dealer's)
decisions    each player   check, or play 3x or 4x the Ante  dealing       § 569.11 (see below)
(preflop)    1→7
dealing      chance        burn, the flop (3 face up)        decisions     § 569.1 (Flop)
decisions    each player   check, or play 2x the Ante        dealing       § 569.11 (see below)
(flop)       without Play
dealing      chance        burn, the final two community     [stub_count]  § 569.11(e)
                           cards face up at once             decisions
decisions    each player   play 1x the Ante, or fold         reveal        § 569.11(e)
(river)      without Play  (Ante and Blind collected)
reveal       dealer        turn the dealer's two cards,      settlement    § 569.11(f)
                           best five of seven
settlement   dealer        players with a Play 7→1, then     over          § 569.11(g)-(i),
                           folded players with Trips or                    § 569.12(f)
                           progressive, each completely;
                           the progressive and Envy on the
                           two cards and the flop
===========  ============  ================================  ============  =====================

Hands are the best five of the player's (or dealer's) two cards and the five community cards
(§ 569.1 "Hand"); the dealer qualifies with a pair (§ 569.11(g)).

The Progressive Payout Hand and the Envy Bonus Qualifying Hand are the best five of the player's
two cards and the three-card flop (:func:`progressive_cards`), not of all seven.  § 569.12(f)(1)
pays "the highest ranking hand formed" without saying from which cards, and § 569.1 defines
both as "an Ultimate Texas Hold 'Em Poker hand" ranked by § 569.6; read as the best five of
seven, the § 569.12(f) table returns 5.4 times each wager at a $10,000 reset (a house edge of
-443%).  The game as played pays it on the two cards and the flop: Prairie Band Casino's report
of a $1,018,643 Ultimate Texas Hold 'Em royal flush "hit on the flop" from the player's king and
jack of hearts and a flop of the ace, queen and ten of hearts (KSN News, 2023-03-02,
https://www.ksn.com/news/dont-miss-this/man-wins-1m-with-royal-flush-in-high-stakes-game-of-texas-holdem-in-a-kansas-casino/);
and Pennsylvania settles the same progressive table (§ 571.12(c), Mississippi Stud, seed 002)
on "the two player cards and three community cards" (§ 571.1, § 571.12(d)).  The maker's rules
and another state's code for this wager were not in the sources searched.  At the reset the
sheet then prices it at a 44.02% house edge (``croupier par ultimate-texas-holdem``).

What the available texts do not give, and what this module does instead:

* The dealing sections (§ 569.8(c) ff., § 569.9(b) ff., § 569.10(b) ff.) and § 569.11(a)-(d):
  the hole cards go one at a time clockwise, the dealer last in each pass (from an automated
  shoe: a stack of two to each player, then the dealer); one card is burnt before the flop and
  one before the final two community cards, which come out together (§ 569.11(e) speaks of
  "the final two community cards" being dealt at once).  The Play multiples (3x/4x before the
  flop, 2x after it) follow the Rivers Casino Philadelphia player guide (a PA licensee).
* Ante and Blind must be equal: the layout joins them by an "=" (§ 569.2(b)(2)) and the guide
  says so; both are required to take part (§ 569.1).
* Irregularities (§ 569.13 / § 653a.13): not in the texts; the shared defaults apply.
* The Bad Beat wager (§ 653b.3) is not offered: what triggers it (§ 653a.7(d)(6),
  § 653a.12(g)-(h)) is not in the texts; table C is kept as data in :mod:`.paytables`.
* The payout limitation named in the heading of § 653a.12 is not in the texts: a Rules
  Submission giving ``payout_limit`` is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.core.frozen import frozen_dict
from croupier.core.money import Odds
from croupier.games import streets
from croupier.games._made import checked, dealer_revealed, folded
from croupier.games.base import DealStep, EnvyRule, Game, Phase
from croupier.games.irregularities import chapter_irregularities
from croupier.games.paytables import EnvySchedule, PayLine, PayTable, to
from croupier.games.records import (
    DEALER,
    Action,
    Check,
    Fold,
    PlaceWager,
    Play,
    Record,
    Result,
    WagerSettled,
)
from croupier.games.states import known_plan
from croupier.games.streets import StreetRound
from croupier.games.ultimate_texas_holdem.paytables import (
    BLIND,
    ENVY,
    MIN_RESET,
    PROGRESSIVE,
    PROGRESSIVE_WAGERS,
    TRIPS,
)
from croupier.games.ultimate_texas_holdem.regs import ULTIMATE_TEXAS_HOLDEM_REGS
from croupier.hands import CATEGORY_SHIFT, Category, HandRank, Ranking
from croupier.rules.submission import DealMethod, Problem, RulesSubmission

__all__ = [
    "ANTE_ODDS",
    "BOARD",
    "GAME_CLASSES",
    "PLAY_ODDS",
    "BaseSettlement",
    "HandKey",
    "Street",
    "UltimateTexasHoldem",
    "UltimateTexasHoldemRound",
    "base_net",
    "blind_line",
    "dealer_qualifies",
    "hand_category",
    "hand_key",
    "hand_keys",
    "key_names",
    "progressive_cards",
    "settle_base",
    "trips_line",
]

BOARD = "board"
"""The recipient name of the community cards."""
BURN = "burn"

_ROUND = "§ 569.11"
_RIVER = "§ 569.11(e)"


class Street(StrEnum):
    """Where the decisions stand: before the flop, after it, after the final two cards."""

    PREFLOP = "preflop"
    FLOP = "flop"
    RIVER = "river"


PLAY_MULTIPLES: dict[Street, tuple[int, ...]] = {
    # Before the flop 3x or 4x, after the flop 2x (operator guide; § 569.11(a)-(d) not in the
    # texts); after the final two cards 1x, equal to the Ante (§ 569.11(e)).
    Street.PREFLOP: (3, 4),
    Street.FLOP: (2,),
    Street.RIVER: (1,),
}

# The three streets (:mod:`croupier.games.streets`).  Each player decides once a street, from the
# player farthest to the dealer's left, clockwise (§ 569.11(e)); check or play before the final
# two community cards, play or fold after them.  The Play multiples are exact: "equal in amount
# to his Ante Wager" after the final two cards (§ 569.11(e)); 3x or 4x before the flop and 2x
# after it from the operator guide.  The guide's "three to four times" is read as the two
# multiples, not a range: the layout states the Play's required amount "as a multiple of the
# player's Ante Wager" (§ 569.2(b)(7)(iii)), unlike Four Card Poker's "an amount from one to
# three times" (§ 641a.7(d)(1)).
STREETS: tuple[streets.Street, ...] = (
    streets.Street(
        name=Street.PREFLOP,
        label="preflop",
        decisions=(Play, Check),
        multiples=PLAY_MULTIPLES[Street.PREFLOP],
        wager="play",
        bet_label="Play wager on the preflop",
        section=_ROUND,
    ),
    streets.Street(
        name=Street.FLOP,
        label="flop",
        decisions=(Play, Check),
        multiples=PLAY_MULTIPLES[Street.FLOP],
        wager="play",
        bet_label="Play wager on the flop",
        # § 569.1 "Flop": the first three community cards, dealt face up; a burn first.
        dealt=(
            DealStep(to=BURN, note="burn"),
            *(DealStep(to=BOARD, face_up=True, note="flop") for _ in range(3)),
        ),
        section=_ROUND,
        opening_section="§ 569.1",
    ),
    streets.Street(
        name=Street.RIVER,
        label="river",
        decisions=(Play, Fold),
        multiples=PLAY_MULTIPLES[Street.RIVER],
        wager="play",
        bet_label="Play wager on the river",
        # § 569.11(e): the final two community cards are dealt together; a burn first.
        dealt=(
            DealStep(to=BURN, note="burn"),
            DealStep(to=BOARD, face_up=True, note="turn"),
            DealStep(to=BOARD, face_up=True, note="river"),
        ),
        section=_RIVER,
        opening_section=_RIVER,
    ),
)

_RANKS = Ranking.POKER5.categories


def _at_least(rank: HandRank, category: Category) -> bool:
    return rank.category_index >= _RANKS.index(category)


# -- the settlement as pure functions over hand keys -----------------------------------------

HandKey = int
"""A hand key: the ``poker5`` order value of a best five of seven cards (§ 569.1 "Hand"; the
:attr:`~croupier.hands.HandRank.value` of :func:`croupier.hands.evaluate`).  The higher key is
the higher hand and equal keys tie (§ 569.11(h)); the solvers tabulate the functions below over
every key."""

ANTE_ODDS = to(1)
"""§ 653a.12(a): a winning Ante is paid 1 to 1 (when the dealer qualifies, § 569.11(g))."""
PLAY_ODDS = to(1)
"""§ 653a.12(a): a winning Play is paid 1 to 1."""
DECISIONS = (0, 1, 2, 3, 4)
"""A hand's decision: the multiple of its Play wager (:data:`PLAY_MULTIPLES`), 0 for a fold."""
_PAIR = _RANKS.index(Category.PAIR)


def hand_key(rank: HandRank) -> HandKey:
    """The key of an evaluated hand."""
    return rank.value


def hand_category(key: HandKey) -> Category:
    """The category of the hand of ``key`` (the category index is the key's top field)."""
    return _RANKS[key >> CATEGORY_SHIFT]


def key_names(key: HandKey) -> frozenset[str]:
    """The pay-table names the hand of ``key`` satisfies: its category."""
    return frozenset({hand_category(key)._value_})  # .value, without the enum property call


def hand_keys(rank: HandRank) -> frozenset[str]:
    """The pay-table names an Ultimate Texas Hold 'Em hand satisfies: its category."""
    return key_names(rank.value)


FLOP = 3
"""The flop: the first three community cards dealt (§ 569.1 "Flop")."""


def progressive_cards(hole: Sequence[Card], board: Sequence[Card]) -> list[Card]:
    """The cards of the Progressive Payout Hand and of the Envy Bonus Qualifying Hand: the
    player's two cards and the flop (the first three of ``board``, in the order dealt).

    § 569.12(f)(1) does not say which cards form the hand; the reading and its sources are in
    the module docstring.  Every set of five cards is equally likely, so the par sheet prices
    the progressive over the C(52, 5) five-card hands."""
    return [*hole, *board[:FLOP]]


def dealer_qualifies(dealer: HandKey) -> bool:
    """§ 569.11(g)-(h): the dealer's hand qualifies with a pair or better."""
    return _RANKS.index(hand_category(dealer)) >= _PAIR


def blind_line(player: HandKey, table: PayTable) -> PayLine | None:
    """The line of Blind table ``table`` a winning hand of key ``player`` is paid by, or None:
    a win below the table's lowest line pushes the Blind (§ 569.11(h)(2), § 653a.12(b))."""
    line = table.line_for(key_names(player))
    return line if line is not None and line.odds is not None else None


def trips_line(player: HandKey, table: PayTable) -> PayLine | None:
    """§ 569.11(h)(4), § 653a.12(c): the Trips line the hand of ``player`` is paid by, whatever
    the other wagers did, or None: the Trips wager loses."""
    line = table.line_for(key_names(player))
    return line if line is not None and line.odds is not None else None


def _net(result: Result | None, odds: Odds | None, units: int) -> Fraction:
    if result is Result.WIN:
        assert odds is not None
        return odds.net * units
    return -Fraction(units) if result in (Result.LOSE, Result.FORFEIT) else Fraction(0)


@dataclass(frozen=True, slots=True)
class BaseSettlement:
    """How the Ante, Blind and Play of one hand end (§ 569.11(e)-(h), § 653a.12(a)-(b))."""

    ante: Result
    blind: Result
    play: Result | None
    """None after a fold: the hand has no Play wager."""
    multiple: int
    """The Play wager in units of the Ante (0 after a fold)."""
    blind_line: PayLine | None = None
    """The Blind table's line where the Blind wins."""

    @property
    def nets(self) -> tuple[Fraction, Fraction, Fraction]:
        """The net of the Ante, the Blind and the Play, per unit Ante (the Ante and Blind are
        equal, § 569.2(b)(2))."""
        blind = self.blind_line.odds if self.blind_line is not None else None
        return (
            _net(self.ante, ANTE_ODDS, 1),
            _net(self.blind, blind, 1),
            _net(self.play, PLAY_ODDS, self.multiple),
        )

    @property
    def net(self) -> Fraction:
        """The hand's net on the Ante, Blind and Play, per unit Ante."""
        return sum(self.nets, Fraction(0))


_FOLDED = BaseSettlement(ante=Result.FORFEIT, blind=Result.FORFEIT, play=None, multiple=0)


def settle_base(player: HandKey, dealer: HandKey, multiple: int, blind: PayTable) -> BaseSettlement:
    """The Ante, Blind and Play of a hand of key ``player`` that played ``multiple`` times the
    Ante (0: folded) against the dealer's hand of key ``dealer``, under Blind table ``blind``."""
    if multiple not in DECISIONS:
        raise InvalidInput(
            f"Play multiple {multiple}: a hand plays 1x to 4x the Ante or folds (0)",
            section=_ROUND,
        )
    if multiple == 0:
        # § 569.11(e)(2): a fold forfeits the Ante and the Blind.
        return _FOLDED
    if player == dealer:
        # § 569.11(h)(3): a tie; Ante, Blind and Play neither paid nor collected.
        return BaseSettlement(Result.PUSH, Result.PUSH, Result.PUSH, multiple)
    # § 569.11(g): a dealer below a pair returns the Ante; the rest is settled by (h).
    qualifies = dealer_qualifies(dealer)
    if player > dealer:
        # § 569.11(h)(2): the Blind by its table from its lowest line up, else a push;
        # § 653a.12(a): the Ante and the Play 1 to 1.
        line = blind_line(player, blind)
        return BaseSettlement(
            ante=Result.WIN if qualifies else Result.PUSH,
            blind=Result.PUSH if line is None else Result.WIN,
            play=Result.WIN,
            multiple=multiple,
            blind_line=line,
        )
    # § 569.11(h)(1): a lower hand loses the Blind and the Play, and the Ante when the dealer
    # qualifies.
    ante = Result.LOSE if qualifies else Result.PUSH
    return BaseSettlement(ante, Result.LOSE, Result.LOSE, multiple)


def base_net(player: HandKey, dealer: HandKey, multiple: int, blind: PayTable) -> Fraction:
    """The net per unit Ante of :func:`settle_base`."""
    return settle_base(player, dealer, multiple, blind).net


def deal_plan(method: DealMethod, active: tuple[int, ...]) -> list[DealStep]:
    """The initial deal to the wagering seats ``active`` (seat 1 first) by ``method``."""
    seats = [str(s) for s in active]
    cover = "cover card placed on the dealer's cards"
    if method is DealMethod.AUTOMATED_SHOE:
        # § 569.10(a)(2) speaks of stacks: a stack of two to each player, then the dealer.
        plan = [DealStep(to=s) for s in seats for _ in range(2)]
        return [*plan, DealStep(to=DEALER), DealStep(to=DEALER, note=cover)]
    # One card at a time clockwise from the far left, the dealer last in each pass.
    plan = [DealStep(to=s) for s in seats]
    plan.append(DealStep(to=DEALER))
    plan += [DealStep(to=s) for s in seats]
    plan.append(DealStep(to=DEALER, note=cover))
    return plan


class UltimateTexasHoldemRound(StreetRound):
    sections: ClassVar[dict[str, str]] = {
        "seated": "§ 569.7(g)",
        "no_more_bets": "§ 569.7(b)",
        "adjacent_boxes": "§ 569.7(h)",
        "progressive_count": "§ 569.8(b)",
        "progressive_sensors": "§ 569.2(f)(1)",
        "progressive_lock_out": "§ 569.2(f)(2)",
        # a progressive payout: the hand wins (i), the light verified (ii); § 569.11(h)(5)(iii):
        # a floorperson validates it (the verification is a supervisor's route)
        "declared_hand": "§ 569.11(h)(5)(i)",
        "declared_light": "§ 569.11(h)(5)(ii)",
        "decision_order": _RIVER,
        # the dealer's cards are turned once each player folded or played (f); the players'
        # wagers are settled after it, from the dealer's right (g), (h)
        "reveal_order": "§ 569.11(f)",
        "settlement_order": "§ 569.11(g), (h)",
        # § 653a.13 is the chapter's irregularities section (§ 653b.3(c) cites it); its text
        # is not in the digests, so no letter is cited.
        **chapter_irregularities("§ 653a.13"),
    }
    game: UltimateTexasHoldem
    streets = STREETS

    # -- wagers ----------------------------------------------------------------------------

    def _verify_wager(self, seat: int, wager: str, amount: int) -> None:
        placed = self._stakes.of(seat)
        if wager == "play":
            raise IllegalAction(
                f"a Play wager at seat {seat} is made after the cards are dealt, as a multiple "
                "of the Ante",
                section="§ 569.1",
            )
        partner = {"ante": "blind", "blind": "ante"}.get(wager)
        if partner is not None and partner in placed and placed[partner] != amount:
            raise IllegalAction(
                f"{wager} wager of {amount} cents at seat {seat} refused: the Ante and Blind "
                f"wagers are equal and the {partner} is {placed[partner]} cents",
                section="§ 569.2(b)(2)",
            )
        if wager == "progressive" and not {"ante", "blind"} <= set(placed):
            raise IllegalAction(
                f"progressive wager at seat {seat} refused: it follows an Ante and a Blind wager",
                section="§ 569.7(f)",
            )

    def _verify_ready(self) -> None:
        # § 569.1: the Ante and the Blind are both required to take part in the round; a Trips
        # wager alone is not dealt a hand.
        for seat in self._stakes.in_action:
            missing = [w for w in ("ante", "blind") if w not in self._wagers[seat]]
            if missing:
                raise IllegalAction(
                    f'"no more bets" refused: seat {seat} has no {" or ".join(missing)} '
                    "wager; the Ante and Blind wagers are both required",
                    section="§ 569.1",
                )

    def house_wagers(self, seat: int, unit: int = 500) -> list[PlaceWager]:
        """Equal Ante and Blind, and the progressive where offered."""
        wagers = [
            PlaceWager(seat=seat, wager="ante", amount=unit),
            PlaceWager(seat=seat, wager="blind", amount=unit),
        ]
        if self.game.rules.progressive is not None:
            wagers.append(
                PlaceWager(seat=seat, wager="progressive", amount=self.game.rules.progressive.wager)
            )
        return wagers

    # -- dealing ---------------------------------------------------------------------------

    def _deal_plan(self) -> Sequence[DealStep]:
        return known_plan(deal_plan, self.game.rules.table.deal, self._stakes.in_action)

    @staticmethod
    def flop_plan() -> list[DealStep]:
        """The burn and the flop (:data:`STREETS`)."""
        return list(STREETS[1].dealt)

    @staticmethod
    def final_plan() -> list[DealStep]:
        """The burn and the final two community cards (:data:`STREETS`)."""
        return list(STREETS[2].dealt)

    # -- decisions -------------------------------------------------------------------------

    def _deciders(self) -> Iterable[int]:
        # A player with a Play wager makes no further decision.
        return (s for s in super()._deciders() if "play" not in self._wagers[s])

    def next_decider(self) -> int | None:
        # the street machine's (StreetRound.next_decider) over _deciders, in one pass
        if self._phase is not Phase.DECISIONS or not self.streets[self._street_index].decisions:
            return None
        decided, folded, stakes = (
            self._decided,
            self._folded,
            self._wagers,
        )
        for s in self._stakes.in_action:
            if s not in decided and s not in folded and "play" not in stakes[s]:
                return s
        return None

    def _decision(self, kind: type[Action], seat: int) -> Action:
        return Check(seat=seat) if kind is Check else Fold(seat=seat)

    def _verify_in_round(self, seat: int, what: str) -> None:
        stakes = self._stakes.of(seat)
        if "ante" not in stakes:
            raise IllegalAction(
                f"{what} at seat {seat} refused: no Ante and Blind wagers", section="§ 569.1"
            )
        if seat in self._folded:
            raise IllegalAction(f"{what} at seat {seat} refused: the player has folded")
        if "play" in stakes:
            raise IllegalAction(
                f"{what} at seat {seat} refused: the seat already has a Play wager of "
                f"{stakes['play']} cents; one Play wager a round",
                section=_ROUND,
            )
        self._verify_decider(seat, what)

    def _verify_play(self, action: Play) -> None:
        self._verify_in_round(action.seat, "Play wager")
        self.verify_play_size(action)

    def _do_play(self, action: Play) -> list[Record]:
        record = self.play_record(action)
        self._stakes.add(action.seat, "play", record.amount)
        self._decisions.decide(action.seat)
        rec: list[Record] = [record]
        return rec + self._after_decision()

    def _verify_check(self, action: Check) -> None:
        self._verify_in_round(action.seat, "check")
        if Check not in self.street.decisions:
            raise IllegalAction(
                f"check at seat {action.seat} refused: after the final two community cards "
                "the player plays 1x the Ante or folds",
                section=_RIVER,
            )

    def _do_check(self, action: Check) -> list[Record]:
        self._decisions.decide(action.seat)
        rec: list[Record] = [checked(action.seat)]
        return rec + self._after_decision()

    def _verify_fold(self, action: Fold) -> None:
        self._verify_in_round(action.seat, "fold")
        if Fold not in self.street.decisions:
            raise IllegalAction(
                f"fold at seat {action.seat} refused: on the {self.street.label} the player "
                "checks or plays; folding comes after the final two community cards",
                section=_RIVER,
            )

    def _do_fold(self, action: Fold) -> list[Record]:
        seat = action.seat
        self._decisions.fold(seat)
        # § 569.11(e)(2): the Ante and Blind are collected at once; a Trips or progressive
        # wager keeps the cards on the table until it is settled ((e)(2)(i)-(ii)).
        rec: list[Record] = [folded(seat)]
        rec += [self.settle(seat, w, Result.FORFEIT) for w in ("ante", "blind")]
        return rec + self._after_decision()

    def simple_strategy(self, seat: int) -> Action:
        """Play 4x before the flop with any pair or an ace, 2x on the flop with two pair or
        better, 1x after the river with a pair or better, else check or fold (a simple
        published rule, not the optimal strategy)."""
        hole = self._hands[str(seat)]
        if self.street.name is Street.PREFLOP:
            paired = hole[0].rank == hole[1].rank
            if paired or any(c.rank.value == 14 for c in hole):
                return Play(seat=seat, multiple=4)
            return Check(seat=seat)
        rank = self.player_rank(seat)
        if self.street.name is Street.FLOP:
            if _at_least(rank, Category.TWO_PAIR):
                return Play(seat=seat, multiple=2)
            return Check(seat=seat)
        if _at_least(rank, Category.PAIR):
            return Play(seat=seat, multiple=1)
        return Fold(seat=seat)

    # -- reveal and settlement -------------------------------------------------------------

    def player_rank(self, seat: int) -> HandRank:
        return self.rank_of([*self._hands[str(seat)], *self._hands.get(BOARD, ())], Ranking.POKER5)

    def progressive_rank(self, seat: int) -> HandRank:
        """The seat's Progressive Payout Hand and Envy Bonus Qualifying Hand: the best five of
        its two cards and the flop (:func:`progressive_cards`; § 569.12(f)(1)-(2))."""
        cards = progressive_cards(self._hands[str(seat)], self._hands.get(BOARD, ()))
        return self.rank_of(cards, Ranking.POKER5)

    def dealer_rank(self) -> HandRank:
        return self.rank_of([*self._hands[DEALER], *self._hands.get(BOARD, ())], Ranking.POKER5)

    def dealer_qualifies(self) -> bool:
        """§ 569.11(g)-(h): the dealer's hand qualifies with a pair or better."""
        return dealer_qualifies(hand_key(self.dealer_rank()))

    def _reveal(self) -> list[Record]:
        # § 569.11(f): the dealer's two cards are turned up and the best five announced.
        dealer = self.dealer_rank()
        return [dealer_revealed(tuple(self._hands[DEALER]), dealer)]

    def _pending(self, seat: int) -> bool:
        settled_out = {"ante", "blind"} if seat in self._folded else set()
        return bool(set(self._wagers[seat]) - settled_out)

    def _settlement_order(self) -> list[int]:
        # § 569.11(g)-(h): from the player farthest to the dealer's right with a Play wager,
        # counterclockwise, one player at a time; a folded hand's Trips waits for the end of
        # the round (§ 569.11(e)(2)(i)), so folded players with wagers left come last.
        settled, folded = self._settled, self._folded
        pending = [
            s for s in reversed(self._stakes.in_action) if s not in settled and self._pending(s)
        ]
        return [s for s in pending if s not in folded] + [s for s in pending if s in folded]

    def _settle_seat(self, seat: int) -> list[Record]:
        stakes = self._wagers[seat]
        rank = self.player_rank(seat)
        # § 569.11(h): the dealer turns the player's two cards face up and announces the best
        # five with the board; a folded hand kept under its Trips or for the progressive
        # (§ 569.11(e)(2)) is turned when it is resolved at the end of the round.
        new: list[Record] = [self.show_hand(seat, rank)] if self.hand_held(seat) else []
        if seat not in self._folded:
            new += self._settle_main(seat, rank)
        if "trips" in stakes:
            # § 569.11(h)(4): paid on the player's hand whatever the other wagers did.
            table = self.game.paytable("trips")
            assert table is not None
            line = trips_line(hand_key(rank), table)
            if line is not None and line.odds is not None:
                paid = line.odds.winnings(stakes["trips"])
                new.append(self.settle(seat, "trips", Result.WIN, paid=paid, line=line.hand))
            else:
                new.append(self.settle(seat, "trips", Result.LOSE, line=rank.category.value))
        if "progressive" in stakes:
            # § 569.11(h)(5): after the other wagers; a folded player keeps the progressive
            # and the Envy Bonus (§ 569.11(e)(2)(ii) keeps the cards on the table for it).
            # § 569.12(f)(1): on the two cards and the flop, not the best five of seven.
            new += self._settle_progressive(seat, self.progressive_rank(seat))
            new += self._settle_envy(seat)
        return new

    def _settle_main(self, seat: int, rank: HandRank) -> list[Record]:
        # § 569.11(g)-(h), § 653a.12(a)-(b): by :func:`settle_base`, the rule the solvers use.
        stakes = self._wagers[seat]
        table = self.game.paytable("blind")
        assert table is not None
        multiple = stakes["play"] // stakes["ante"]
        outcome = settle_base(hand_key(rank), hand_key(self.dealer_rank()), multiple, table)
        hand = rank.category.value
        blind = outcome.blind_line
        assert outcome.play is not None
        return [
            self._settle_at(seat, "ante", outcome.ante, ANTE_ODDS, hand),
            self._settle_at(
                seat, "blind", outcome.blind, None if blind is None else blind.odds, hand
            ),
            self._settle_at(seat, "play", outcome.play, PLAY_ODDS, hand),
        ]

    def _settle_at(
        self, seat: int, wager: str, result: Result, odds: Odds | None, hand: str
    ) -> WagerSettled:
        if result is Result.WIN:
            assert odds is not None
            paid = odds.winnings(self._wagers[seat][wager])
            return self.settle(seat, wager, result, paid=paid, line=hand)
        return self.settle(seat, wager, result, line=hand)

    def _settle_progressive(self, seat: int, rank: HandRank) -> list[Record]:
        # § 569.12(f)(1): the highest hand only, of the two cards and the flop (``rank``, the
        # reading of the module docstring); (f)(4): at the meter's amount when it is this
        # player's turn to be paid; § 569.11(h)(5): a 100% award is not paid from the table.
        table = self.game.progressive_table
        assert table is not None
        line = table.line_for(hand_keys(rank))
        return self.award_progressive(
            seat, "progressive", line, self.game.meter_spec, lose_line=rank.category.value
        )

    declared_cards: ClassVar[Mapping[str, int]] = frozen_dict({"progressive": 5})
    """A hand declared at a table whose cards croupier does not see: the Progressive Payout
    Hand, the player's two cards and the flop (§ 569.12(f)(1); :mod:`croupier.games.declared`)."""

    def _declared_keys(self, cards: tuple[Card, ...], wager: str) -> frozenset[str]:
        return hand_keys(self.rank_of(cards, Ranking.POKER5))  # as progressive_rank

    # § 569.11(e)(2)(i)-(ii): a folded hand stays on the layout under a Trips wager or for the
    # progressive; other folded hands go straight to the discard rack.
    kept_after_fold = frozenset({"trips", "progressive"})

    def _settle_envy(self, seat: int) -> list[Record]:
        # § 569.12(f)(2): one Envy Bonus for each other player's royal or straight flush, by
        # the receiving player's own wager; never for the player's own hand or the dealer's.
        # The Envy Bonus Qualifying Hand is read as the Progressive Payout Hand is: the other
        # player's two cards and the flop (module docstring).
        return self.award_envy(
            seat, self.game.envy_schedule, lambda other: hand_keys(self.progressive_rank(other))
        )


class UltimateTexasHoldem(Game):
    """Ultimate Texas Hold 'Em: Ante and Blind against the dealer's best five of seven, one
    Play of 4x/3x, 2x or 1x, Trips and the progressive with Envy Bonuses."""

    slug = "ultimate-texas-holdem"
    required_wagers = ("ante", "blind")
    title = "Ultimate Texas Hold 'Em Poker"
    display_name = "Ultimate Texas Hold 'Em"
    chapter = "58 Pa. Code Ch. 569 (temporary), Ch. 653a"
    aliases = ("uth", "ultimate-texas-hold-em", "ultimate-holdem")
    wagers = ("ante", "blind", "play", "trips", "progressive")
    paytables: ClassVar[Mapping[str, Mapping[str, PayTable]]] = {"blind": BLIND, "trips": TRIPS}
    default_paytables: ClassVar[Mapping[str, str]] = {"blind": "A", "trips": "A"}
    progressive_paytables: ClassVar[Mapping[str, PayTable]] = PROGRESSIVE
    envy_schedules: ClassVar[Mapping[str, EnvySchedule]] = ENVY
    progressive_wager_amounts = PROGRESSIVE_WAGERS
    progressive_min_reset: ClassVar[Mapping[str, tuple[int, str]]] = MIN_RESET
    decision_wagers = frozenset({"play"})
    decision_section = _ROUND  # the Play: 4x or 3x, 2x, or 1x the Ante by street
    equal_wagers = ((("ante", "blind"), "§ 569.2(b)(2)"),)  # the Blind equals the Ante
    # § 569.12(f)(2): one Envy schedule, in force whenever the progressive is offered.
    envy_rule = EnvyRule.FIXED
    envy_section = "§ 569.12(f)(2)"
    paytables_section = "§ 653a.12"
    hand_rankings = (Ranking.POKER5,)
    round_class = UltimateTexasHoldemRound
    table_regs = ULTIMATE_TEXAS_HOLDEM_REGS
    """Deck life, stub counts, shuffle and cut, seats (§ 569.3-569.10): :mod:`.regs`."""
    example_rules: ClassVar[dict[str, Any]] = {
        "game": "ultimate-texas-holdem",
        "paytables": {"blind": "A", "trips": "B"},
        "progressive": {
            "paytable": "A",
            "envy": "A",
            "wager": 100,
            "reset": 1_000_000,
            "rate": "0.25",
            "meter": "ultimate-texas-holdem",
        },
        "table": {"adjacent_boxes": 1},
    }

    @classmethod
    def check_table(cls, rules: RulesSubmission) -> list[Problem]:
        table = rules.table
        problems: list[Problem] = []
        if table.adjacent_boxes != 1:
            problems.append(
                (
                    f"adjacent_boxes = {table.adjacent_boxes}: a player plays one position only",
                    "§ 569.7(h)",
                )
            )
        if rules.payout_limit is not None:
            problems.append(
                (
                    "payout_limit: the payout limitation of § 653a.12 is not in the available "
                    "texts and is not supported",
                    "§ 653a.12",
                )
            )
        return problems


GAME_CLASSES = (UltimateTexasHoldem,)
