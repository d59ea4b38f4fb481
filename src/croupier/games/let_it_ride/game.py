"""Let It Ride Poker (58 Pa. Code Chapter 643a; temporary Chapter 559), every optional wager.

===========  ===========  ===============================  ============  ========================
phase        who acts     legal actions                    next phase    sections
===========  ===========  ===============================  ============  ========================
betting      players      place bet1 = bet2 = bet3, then   dealing       § 643a.7(c)-(l)
                          the optional wagers; dealer:
                          no more bets
dealing      chance       3 cards to each player, 2 face-  stub_count    § 643a.8-§ 643a.10
                          down community cards (a third    or decisions
                          burned), 3 Six Card Bonus cards
stub_count   dealer       count the stub                   decisions     § 643a.8
decisions    each seat,   pull (take back) or ride         reveal        § 643a.11(b)
             1→7          Bet Number 1
reveal       dealer       turn the first community card    decisions     § 643a.11(c)
decisions    each seat,   pull or ride Bet Number 2        reveal        § 643a.11(d)
             1→7
reveal       dealer       turn the second community card   settlement    § 643a.11(e)
                          (and the Six Card Bonus cards)
settlement   dealer       settle seat 7→1, each            over          § 643a.11, § 643a.12
                          completely
===========  ===========  ===============================  ============  ========================

Bet Number 3 always stays in action (§ 643a.7(d)); taking back Bet 1 or Bet 2 at its turn is the
only change allowed after "no more bets" (§ 643a.7(c)).  Irregularities (§ 643a.13) may be
reported while dealing or deciding; a void returns every wager still on the layout.

**What the sources hold.**  Seed 000 (41 Pa.B. 3836) holds the proposed § 643a.1-643a.7, seed
003 the current § 643a.7 (with the Three-Card and Five-Card Progressive, Five Card Hand Bonus
and Six Card Bonus wagers) and seed 002 the Three Card Bonus tables A-F of § 559.14(e).  The
text of § 643a.8-643a.13 was **not** available; what this module does there, and from where:

* Dealing (§ 643a.8 manual shoe, § 643a.9 hand, § 643a.10 automated shoe): one card at a time
  clockwise from seat 1 to each player and then to the community area until each has three,
  the third community card going to the discard rack unseen; from an automated shoe, stacks of
  three to each player and one to the community area (its third card discarded).  This is the
  procedure casino dealing guides describe (Hollywood Casino St. Louis, Resorts World Catskills,
  Emerald Queen); not verified against the PA text.  The three Six Card Bonus cards (§ 643a.7(j):
  shared by every Six Card Bonus wager) are dealt last, face down, and only when a Six Card Bonus
  wager was made (as the All-Six Bonus card of § 684a.10(b) is).
* Settlement from the dealer's right (seat 7) counterclockwise, progressives after the player's
  other wagers, at the meter when the player's turn comes; Envy Bonuses for every other
  player's qualifying hand, never the player's own: the parallel § 569.11-569.12, § 571.11-571.12
  and § 641a.11 text (seed 002; engine conventions).
* Payout limit per hand (§ 643a.12(d), named in § 643a.2(b)(8)): caps the aggregate paid at
  fixed odds on one hand (the three bets and the Three Card, Five Card, Five Card Hand and Six
  Card Bonuses, in that order); progressive payouts and Envy Bonuses are paid by the progressive
  system and are not capped (an assumption: the § 643a.12(d) text was not available).  A wager
  whose win the limit leaves nothing for is returned (a push), with a ``payout_limited`` record.
* § 643a.11(b) and (d) are the two decision points § 643a.1 names; (c) and (e) for turning the
  community cards, and the § 643a.13 letters (those of § 641a.13), are inferred.
* Irregularities (§ 643a.13): the five events of § 641a.13, mapped alike; a community card
  exposed before its turn is the "dealer card exposed" event and voids the round.
* Not implemented: the Lucky Bonus and Magic Card Bonus of the Five Card Hand Bonus (§ 643a.1;
  the position or card is drawn by a table game system, and no amounts were available).

Rules Submission keys (two progressives, custom tables): :mod:`.paytables` and
``tests/rules/let-it-ride.toml``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import compress
from operator import attrgetter
from types import MappingProxyType
from typing import Any, ClassVar

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.core.modes import PlayMode
from croupier.core.money import format_cents
from croupier.games._made import checked_record, made_record
from croupier.games.base import DealStep, EnvyRule, Game, ProgressiveOffer
from croupier.games.faces import decision_text
from croupier.games.let_it_ride.declared import DECLARED_SECTIONS, LetItRideDeclaredHands
from croupier.games.let_it_ride.paytables import (
    BASE,
    BASE_DEFAULT,
    BASE_WAGERS,
    CUSTOM_SHAPES,
    FIVE_CARD_BONUS,
    FIVE_CARD_ENVY,
    FIVE_CARD_PROGRESSIVE,
    PROGRESSIVE_WAGERS,
    SECTIONS,
    SIX_CARD_BONUS,
    THREE_CARD_BONUS,
    BetDecision,
    CustomTables,
    PayoutCap,
    ThreeCardProgressive,
    base_net,
    bet_line,
    bet_net,
    bets_in_action,
    check_five_card_progressive,
    check_progressive_meters,
    five_card_keys,
    parse_custom_tables,
    three_card_keys,
)
from croupier.games.let_it_ride.regs import LET_IT_RIDE_REGS
from croupier.games.paytables import EnvySchedule, PayLine, PayTable
from croupier.games.records import (
    Action,
    PlaceWager,
    Record,
    Result,
    Reveal,
)
from croupier.games.round import StubCheck
from croupier.games.states import known_plan
from croupier.games.streets import Street, StreetRound
from croupier.hands import HandRank, Ranking
from croupier.rules.progressive import MeterBank, MeterSpec
from croupier.rules.submission import DealMethod, Problem, RulesSubmission
from croupier.table.shoe import Shoe

__all__ = [
    "GAME_CLASSES",
    "BetDecision",
    "BetRidden",
    "BetWithdrawn",
    "CommunityCardTurned",
    "LetItRide",
    "LetItRideRound",
    "PayoutLimited",
    "Ride",
    "SixCardBonusCardsTurned",
    "Withdraw",
    "base_net",
    "bet_line",
    "bet_net",
    "bets_in_action",
    "five_card_keys",
    "three_card_keys",
]

BOARD = "board"
SIX_CARDS = "six_card_bonus"
"""The recipient of the three Six Card Bonus cards (§ 643a.7(j))."""
BURN = "burn"
_DECIDED = ("bet1", "bet2")
_FIXED_SIDE = ("three_card_bonus", "five_card_bonus", "five_card_hand_bonus", "six_card_bonus")

# --- actions and records ------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Withdraw(Action):
    """The player takes back Bet Number 1 or 2 at its turn (§ 643a.11(b), (d))."""

    name: ClassVar[str] = "withdraw"
    seat: int
    wager: str


@dataclass(frozen=True, kw_only=True)
class Ride(Action):
    """The player lets Bet Number 1 or 2 ride (§ 643a.1 "Let It Ride")."""

    name: ClassVar[str] = "ride"
    seat: int
    wager: str


@dataclass(frozen=True, kw_only=True)
class BetWithdrawn(Record):
    kind: ClassVar[str] = "bet_withdrawn"
    seat: int
    wager: str
    amount: int

    def to_action(self) -> Action:
        return Withdraw(seat=self.seat, wager=self.wager)


@dataclass(frozen=True, kw_only=True)
class BetRidden(Record):
    kind: ClassVar[str] = "let_it_ride"
    seat: int
    wager: str

    def to_action(self) -> Action:
        return Ride(seat=self.seat, wager=self.wager)


@dataclass(frozen=True, kw_only=True)
class CommunityCardTurned(Record):
    """The dealer turns community card ``position`` (1 or 2) face up (§ 643a.11(c), (e))."""

    kind: ClassVar[str] = "community_card_turned"
    card: Card
    position: int

    def to_action(self) -> Action:
        return Reveal()


@dataclass(frozen=True, kw_only=True)
class SixCardBonusCardsTurned(Record):
    kind: ClassVar[str] = "six_card_bonus_cards_turned"
    cards: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True)
class PayoutLimited(Record):
    """The payout limit per hand (§ 643a.12(d)) cut a payout from ``due`` to ``paid``."""

    kind: ClassVar[str] = "payout_limited"
    seat: int
    wager: str
    due: int
    paid: int
    limit: int


# --- the round ----------------------------------------------------------------------------------

# The streets (:mod:`croupier.games.streets`): Bet Number 1 is pulled or ridden after the deal
# (§ 643a.11(b)), Bet Number 2 after the first community card is turned (§ 643a.11(c)-(d)); the
# second community card ends the decisions (§ 643a.11(e)).
STREETS: tuple[Street, ...] = (
    Street(
        name="bet1",
        label="Bet Number 1",
        decisions=(Withdraw, Ride),
        wager="bet1",
        section="§ 643a.11(b)",
    ),
    Street(
        name="bet2",
        label="Bet Number 2",
        decisions=(Withdraw, Ride),
        wager="bet2",
        turns=1,
        section="§ 643a.11(d)",
        opening_section="§ 643a.11(c)",
    ),
    Street(name="showdown", label="showdown", turns=1, opening_section="§ 643a.11(e)"),
)


def deal_plan(method: DealMethod, active: tuple[int, ...], bonus_cards: int) -> list[DealStep]:
    """The initial deal to the wagering seats ``active`` (seat 1 first) by ``method``, then
    ``bonus_cards`` cards for the Six Card Bonus (three where a seat made that wager, else 0)."""
    seats = [str(s) for s in active]
    community = [
        DealStep(to=BOARD, note="community card 1"),
        DealStep(to=BOARD, note="community card 2"),
        DealStep(to=BURN, note="third community card, discarded unseen"),
    ]
    plan: list[DealStep] = []
    if method is DealMethod.AUTOMATED_SHOE:
        # § 643a.10: a stack of three to each player from the far left, then one stack to
        # the community area.
        for seat in seats:
            plan += [DealStep(to=seat, note="stack of three") for _ in range(3)]
        plan += community
    else:
        # § 643a.8, § 643a.9: one card at a time clockwise from the far left, the community
        # area last in each pass, until each has three.
        for card in community:
            plan += [DealStep(to=seat) for seat in seats]
            plan.append(card)
    # § 643a.7(j): three additional cards for the Six Card Bonus, dealt last.
    plan += [DealStep(to=SIX_CARDS, note="Six Card Bonus card") for _ in range(bonus_cards)]
    return plan


_TURNED = frozenset({CommunityCardTurned.kind, SixCardBonusCardsTurned.kind})
"""The kinds of the records that turn community cards face up (:meth:`visible_cards`)."""
_KIND = attrgetter("kind")


class LetItRideRound(LetItRideDeclaredHands, StreetRound):
    sections: ClassVar[dict[str, str]] = {
        "seated": "§ 643a.7(b)",
        "no_more_bets": "§ 643a.7(c)",
        "adjacent_boxes": "§ 643a.7(l)",
        "progressive_count": "§ 643a.8",
        # § 643a.2(c)(1)-(2): the table game system's wagering device at each betting position
        # and its lock-out (the text at hand names the Let It Ride Bonus Wager; this table's
        # Three- and Five-Card Progressives are sensed by it as every chapter's progressive is)
        "progressive_sensors": "§ 643a.2(c)(1)",
        "progressive_lock_out": "§ 643a.2(c)(2)",
        **DECLARED_SECTIONS,
        "stub_count": "§ 643a.8",
        "decision_order": "§ 643a.11(b)",
        # a community card is turned once every seat decided on Bet 1 (c) and on Bet 2 (e);
        # the settlement follows the second (its own subsection's text is not at hand)
        "reveal_order": "§ 643a.11(c), (e)",
        "settlement_order": "§ 643a.11(e)",
        "card_face_up_in_deck": "§ 643a.13(a)",
        "card_drawn_in_error": "§ 643a.13(b)",
        "wrong_card_count": "§ 643a.13(c)",
        "dealer_card_exposed": "§ 643a.13(d)",
        "automated_shoe_jam": "§ 643a.13(f)",
    }
    game: LetItRide
    streets = STREETS

    def __init__(
        self,
        game: Game,
        *,
        shoe: Shoe,
        meters: MeterBank | None = None,
        players: Mapping[int, str] | None = None,
        stub_check: StubCheck = StubCheck.NOT_REQUIRED,
        mode: PlayMode = PlayMode.SIMULATION,
    ) -> None:
        super().__init__(
            game, shoe=shoe, meters=meters, players=players, stub_check=stub_check, mode=mode
        )
        three = self.game.three_card_progressive
        if three is not None:
            self._progressive.ensure(three.spec)

    # -- wagers ----------------------------------------------------------------------------

    def _verify_wager(self, seat: int, wager: str, amount: int) -> None:
        placed = self._stakes.of(seat)
        bets = [placed[w] for w in BASE_WAGERS if w in placed]
        if wager in BASE_WAGERS:
            if bets and amount != bets[0]:
                raise IllegalAction(
                    f"{wager} of {amount} cents at seat {seat} refused: the three Let It Ride "
                    f"wagers are equal ({bets[0]} cents already placed)",
                    section="§ 643a.7(d)",
                )
            return
        missing = [w for w in BASE_WAGERS if w not in placed]
        if missing:
            raise IllegalAction(
                f"{wager} wager at seat {seat} refused: it is made after the three Let It Ride "
                f"wagers ({', '.join(missing)} not placed)",
                section=SECTIONS[wager],
            )
        required = self.game.progressive_amount(wager)
        if required is not None and amount != required:
            raise IllegalAction(
                f"{wager} wager {amount} cents at seat {seat} must be {required} cents, as the "
                "Rules Submission sets it",
                section=SECTIONS[wager],
            )

    def _verify_ready(self) -> None:
        # § 643a.7(d): three equal wagers to take part in the round.
        for seat in self._stakes.in_action:
            missing = [w for w in BASE_WAGERS if w not in self._wagers[seat]]
            if missing:
                raise IllegalAction(
                    f'"no more bets" refused: seat {seat} has not placed {", ".join(missing)}; '
                    "a player places three equal Let It Ride wagers",
                    section="§ 643a.7(d)",
                )

    def _suggested_amount(self, seat: int, wager: str) -> int:
        required = self.game.progressive_amount(wager)
        if required is not None:
            return required
        placed = self._stakes.of(seat)
        return next((placed[w] for w in BASE_WAGERS if w in placed), 100)

    def contribution_meters(self) -> list[tuple[str, MeterSpec]]:
        # Both progressives: the Three-Card and the Five-Card meter, each by its own wager.
        return list(self.game.meter_specs().items())

    # -- dealing ---------------------------------------------------------------------------

    def _deal_plan(self) -> Sequence[DealStep]:
        six = 3 if any(SIX_CARDS in self._wagers[s] for s in self._stakes.in_action) else 0
        return known_plan(deal_plan, self.game.rules.table.deal, self._stakes.in_action, six)

    # -- decisions (§ 643a.11(b), (d)) -----------------------------------------------------

    @property
    def deciding(self) -> str:
        """The bet decided now: Bet Number 1 before the first community card is turned, then
        Bet Number 2 (the last one decided, once every card is turned)."""
        return next(s.wager for s in reversed(self.streets[: self.street_index + 1]) if s.wager)

    def _decision(self, kind: type[Action], seat: int) -> Action:
        return (
            Withdraw(seat=seat, wager=self.deciding)
            if kind is Withdraw
            else Ride(seat=seat, wager=self.deciding)
        )

    def _verify_bet_decision(self, seat: int, wager: str, what: str) -> None:
        if wager == "bet3":
            raise IllegalAction(
                f"{what} bet3 at seat {seat} refused: Bet Number 3 stays in action to the end "
                "of the round",
                section="§ 643a.7(d)",
            )
        if wager not in _DECIDED:
            raise IllegalAction(
                f"{what} {wager!r} at seat {seat} refused: only Bet Number 1 and Bet Number 2 "
                'may be taken back after "no more bets"',
                section="§ 643a.7(c)",
            )
        turned_for = _DECIDED.index(wager) + 1
        if self.turned >= turned_for:
            raise IllegalAction(
                f"{what} {wager} at seat {seat} refused: community card {turned_for} has been "
                f"turned; {wager} can no longer be taken back",
                section="§ 643a.11(b)" if wager == "bet1" else "§ 643a.11(d)",
            )
        if wager != self.deciding:
            raise IllegalAction(
                f"{what} bet2 at seat {seat} refused: Bet Number 2 is decided after the first "
                "community card is turned",
                section="§ 643a.11(d)",
            )
        self._verify_decider(seat, f"{what} {wager}")

    def _verify_withdraw(self, action: Withdraw) -> None:
        self._verify_bet_decision(action.seat, action.wager, "taking back")

    def _do_withdraw(self, action: Withdraw) -> list[Record]:
        stake = self._wagers[action.seat][action.wager]
        new: list[Record] = [
            # the checked Withdraw's seat and wager, and the stake checked when it was placed
            made_record(
                BetWithdrawn, {"seat": action.seat, "wager": action.wager, "amount": stake}
            ),
            self.settle(action.seat, action.wager, Result.PUSH, line="withdrawn"),
        ]
        self._stakes.withdraw(action.seat, action.wager)
        self._decisions.decide(action.seat)
        return new + self._after_decision()

    def _verify_ride(self, action: Ride) -> None:
        self._verify_bet_decision(action.seat, action.wager, "letting ride")

    def _do_ride(self, action: Ride) -> list[Record]:
        self._decisions.decide(action.seat)
        # the checked Ride's seat and wager
        new: list[Record] = [made_record(BetRidden, {"seat": action.seat, "wager": action.wager})]
        return new + self._after_decision()

    def parse_decision(self, seat: int, text: str) -> Action:
        """``pull`` / ``ride`` (``let it ride``), for the bet decided now; ``pull 1``,
        ``ride bet2`` name it."""
        words = decision_text(seat, text).lower().replace("-", " ").split()
        wager = self.deciding
        if len(words) >= 2 and words[-2] == "bet" and words[-1] in ("1", "2", "3"):
            wager, words = f"bet{words[-1]}", words[:-2]
        elif words and words[-1] in ("1", "2", "3", "bet1", "bet2", "bet3"):
            wager, words = f"bet{words[-1][-1]}", words[:-1]
        if words in (["pull"], ["withdraw"], ["take", "back"]):
            return Withdraw(seat=seat, wager=wager)
        if words in (["ride"], ["let", "it", "ride"]):
            return Ride(seat=seat, wager=wager)
        raise InvalidInput(
            f"decision {text!r} for seat {seat} is not understood in {self.game.slug} "
            "(pull, ride, let it ride; optionally naming the bet: pull 1, ride bet2)"
        )

    def describe(self, action: Action) -> str:
        named = self.game.spoken_names()  # "Bet 1", as the chapter names the bet
        if isinstance(action, Withdraw):
            return f"pull: take back {named[action.wager]}"
        if isinstance(action, Ride):
            return f"let {named[action.wager]} ride"
        return super().describe(action)

    def simple_strategy(self, seat: int) -> Action:
        """Ride with a paying hand already made (a pair of tens or better, two pair, three of a
        kind or better) or, on Bet Number 2, four cards to a flush; pull otherwise.  A simple
        house-player rule, not the optimal strategy."""
        cards = self._hands[str(seat)] + self._hands.get(BOARD, ())[: self.turned]
        counts = Counter(c.rank.value for c in cards)
        paying = any(n >= 3 or (n == 2 and rank >= 10) for rank, n in counts.items())
        paying = paying or sum(n == 2 for n in counts.values()) >= 2
        four_flush = len(cards) == 4 and len({c.suit for c in cards}) == 1
        if paying or four_flush:
            return Ride(seat=seat, wager=self.deciding)
        return Withdraw(seat=seat, wager=self.deciding)

    def house_wagers(self, seat: int, unit: int = 500) -> list[PlaceWager]:
        """Three equal bets of ``unit``, and each progressive offered."""
        wagers = [PlaceWager(seat=seat, wager=w, amount=unit) for w in BASE_WAGERS]
        for wager in PROGRESSIVE_WAGERS:
            amount = self.game.progressive_amount(wager)
            if amount is not None:
                wagers.append(PlaceWager(seat=seat, wager=wager, amount=amount))
        return wagers

    # -- turning the community cards (§ 643a.11(c), (e)) -----------------------------------

    def _do_reveal(self, action: Reveal) -> list[Record]:
        return self._turn_street()

    def _turn_records(self) -> list[Record]:
        turned = self.turned
        new: list[Record] = [
            checked_record(
                CommunityCardTurned,
                {"card": self._hands[BOARD][turned - 1], "position": turned},
            )
        ]
        if not self.street.decides and SIX_CARDS in self._hands:
            new.append(SixCardBonusCardsTurned(cards=tuple(self._hands[SIX_CARDS])))
        return new

    def visible_cards(self) -> dict[str, list[Card]]:
        shown = super().visible_cards()
        records = self._records
        for rec in compress(records, map(_TURNED.__contains__, map(_KIND, records))):
            if isinstance(rec, CommunityCardTurned):
                shown.setdefault(BOARD, []).append(rec.card)
            elif isinstance(rec, SixCardBonusCardsTurned):
                shown[SIX_CARDS] = list(rec.cards)
        return shown

    # -- settlement (§ 643a.11, § 643a.12) -------------------------------------------------

    def player_rank(self, seat: int) -> HandRank:
        """The player's three cards and the two community cards (§ 643a.1 "Hand")."""
        return self.rank_of(self._hands[str(seat)] + self._hands[BOARD], Ranking.POKER5)

    def five_card_keys(self, seat: int) -> frozenset[str]:
        return five_card_keys(self.player_rank(seat))

    def three_card_keys(self, seat: int) -> frozenset[str]:
        return three_card_keys(self.rank_of(self._hands[str(seat)], Ranking.THREE_CARD_BONUS))

    def six_card_keys(self, seat: int) -> frozenset[str]:
        """The best five of the player's three cards and the three Six Card Bonus cards."""
        cards = self._hands[str(seat)] + self._hands[SIX_CARDS]
        return five_card_keys(self.rank_of(cards, Ranking.POKER5))

    def _settle_seat(self, seat: int) -> list[Record]:
        stakes = self._wagers[seat]
        rank = self.player_rank(seat)
        five = five_card_keys(rank)
        cap = PayoutCap(self.game.rules.payout_limit)
        # § 643a.11 (its text is not among the project's sources; as § 641a.11(c)(1)): the
        # dealer turns the player's three cards face up to settle the hand.
        new: list[Record] = [self.show_hand(seat, rank)]
        base = bet_line(self.game.base_table, five)  # § 643a.12: each bet in action
        for wager in BASE_WAGERS:
            if wager in stakes:
                new += self._settle_fixed(seat, wager, base, cap)
        for wager in _FIXED_SIDE:
            if wager not in stakes:
                continue
            table = self.game.paytable(wager)
            assert table is not None
            keys = {
                "three_card_bonus": self.three_card_keys,
                "six_card_bonus": self.six_card_keys,
            }.get(wager, self.five_card_keys)(seat)
            new += self._settle_fixed(seat, wager, table.line_for(keys), cap)
        for wager in PROGRESSIVE_WAGERS:
            if wager in stakes:
                new += self._settle_progressive(seat, wager)
        return new

    def _settle_fixed(
        self, seat: int, wager: str, line: PayLine | None, cap: PayoutCap
    ) -> list[Record]:
        if line is None or line.odds is None:
            return [self.settle(seat, wager, Result.LOSE)]
        due = line.odds.winnings(self._wagers[seat][wager])
        paid = cap.take(due)
        result = Result.WIN if paid > 0 else Result.PUSH
        new: list[Record] = [self.settle(seat, wager, result, paid=paid, line=line.hand)]
        if paid < due:
            assert cap.limit is not None
            new.append(PayoutLimited(seat=seat, wager=wager, due=due, paid=paid, limit=cap.limit))
        return new

    def _settle_progressive(self, seat: int, wager: str) -> list[Record]:
        # Paid after the player's other wagers, at the meter's amount when the player's turn
        # comes; a 100% award is not paid from the table inventory (as § 641a.11(c)(5)).
        table, schedule, spec = self.game.progressive(wager)
        keys_of = self.three_card_keys if wager == "three_card_progressive" else self.five_card_keys
        new = self.award_progressive(seat, wager, table.line_for(keys_of(seat)), spec)
        # § 643a.1: an Envy Bonus for every other player's qualifying hand, never for the
        # player's own hand in any of the player's boxes.
        return new + self.award_envy(seat, schedule, keys_of, wager=wager)

    collected_wagers: ClassVar[frozenset[str]] = frozenset(PROGRESSIVE_WAGERS)


# --- the game -----------------------------------------------------------------------------------


class LetItRide(Game):
    """Let It Ride Poker: three equal bets, two of which may be taken back, paid on the player's
    three cards and two community cards; every optional wager of § 643a.7."""

    slug = "let-it-ride"
    required_wagers = ("bet1", "bet2", "bet3")
    equal_wagers = ((("bet1", "bet2", "bet3"), "§ 643a.7(d)"),)  # three equal bets
    title = "Let It Ride Poker"
    display_name = "Let It Ride"
    chapter = "58 Pa. Code Ch. 643a"
    aliases = ("lir", "let-it-ride-poker")
    wagers = (
        "bet1",
        "bet2",
        "bet3",
        "three_card_bonus",
        "five_card_bonus",
        "three_card_progressive",
        "five_card_progressive",
        "five_card_hand_bonus",
        "six_card_bonus",
    )
    paytables: ClassVar[Mapping[str, Mapping[str, PayTable]]] = {
        "base": BASE,
        "three_card_bonus": THREE_CARD_BONUS,
        "five_card_bonus": FIVE_CARD_BONUS,
        "six_card_bonus": SIX_CARD_BONUS,
    }
    default_paytables: ClassVar[Mapping[str, str]] = {"base": BASE_DEFAULT}
    progressive_paytables: ClassVar[Mapping[str, PayTable]] = FIVE_CARD_PROGRESSIVE
    envy_schedules: ClassVar[Mapping[str, EnvySchedule]] = FIVE_CARD_ENVY
    # § 643a.1: the Five-Card (and Three-Card) Envy Bonus is paid to every player who made that
    # progressive wager; its amounts are not in the texts, so the submission selects them.
    envy_rule = EnvyRule.SELECTED
    envy_section = "§ 643a.1"
    custom_shapes = CUSTOM_SHAPES
    paytables_section = "§ 643a.12"
    hand_rankings = (Ranking.POKER5, Ranking.THREE_CARD_BONUS)
    extra_hands = frozenset({"pair_of_tens_or_better"})
    round_class = LetItRideRound
    table_regs = LET_IT_RIDE_REGS
    """Deck life, stub counts, shuffle and cut, seats (§ 643a.3-643a.10): :mod:`.regs`."""
    # The example offers only tables a casino uses, each cited in :mod:`.paytables`.
    # The Five Card Hand Bonus (§ 643a.7(i), flush or better, with Lucky and Magic Card Bonuses
    # croupier does not build) and the Three-Card Progressive (§ 643a.7(g)) have no published
    # table in the sources: the example offers neither, and a Rules Submission offering one
    # defines its table under ``[custom_paytables.<wager>]``.
    example_rules: ClassVar[dict[str, Any]] = {
        "game": "let-it-ride",
        "payout_limit": 2_500_000,
        "paytables": {
            "three_card_bonus": "D",
            "five_card_bonus": "20000-2000-400-200-50-25-5",
            "six_card_bonus": "1000-200-50-25-20-10-5",
        },
        "progressive": {
            "paytable": "royal-meter-sf-10pct-300-50-40-30-9",
            "envy": "1000-300",
            "wager": 100,
            "reset": 1_000_000,
            "rate": "0.20",
            "meter": "let-it-ride-five-card",
        },
        "table": {"adjacent_boxes": 2},
    }

    # -- Rules Submission ------------------------------------------------------------------

    @classmethod
    def check_custom(cls, rules: RulesSubmission) -> list[Problem]:
        custom, problems = parse_custom_tables(rules)
        return problems + check_progressive_meters(rules, custom)

    @classmethod
    def _check_progressive(cls, rules: RulesSubmission) -> list[Problem]:
        return check_five_card_progressive(rules)

    @classmethod
    def check_table(cls, rules: RulesSubmission) -> list[Problem]:
        problems: list[Problem] = []
        return problems

    # -- what the rules chose --------------------------------------------------------------

    @cached_property
    def custom(self) -> CustomTables:
        """The tables the Rules Submission defines itself."""
        return parse_custom_tables(self.rules)[0]

    def paytable(self, wager: str) -> PayTable | None:
        if wager in BASE_WAGERS:
            return self.base_table
        if wager in self.custom.tables:
            return self.custom.tables[wager]
        if wager in PROGRESSIVE_WAGERS:
            return self.progressive(wager)[0] if self.progressive_amount(wager) else None
        return super().paytable(wager)

    @property
    def base_table(self) -> PayTable:
        """The table the three bets are paid by (§ 643a.12)."""
        table = self.custom.tables.get("base") or super().paytable("base")
        assert table is not None
        return table

    @property
    def progressive_table(self) -> PayTable | None:
        if self.rules.progressive is None:
            return None
        return self.custom.tables.get("five_card_progressive") or super().progressive_table

    @property
    def envy_schedule(self) -> EnvySchedule | None:
        prog = self.rules.progressive
        if prog is None or prog.envy is None:
            return None
        return self.custom.envy.get("five_card_progressive") or super().envy_schedule

    @property
    def three_card_progressive(self) -> ThreeCardProgressive | None:
        return self.custom.three_card_progressive

    def progressive_amount(self, wager: str) -> int | None:
        """The fixed amount of a progressive wager at this table, or ``None`` (not offered or
        not a progressive)."""
        if wager == "five_card_progressive" and self.rules.progressive is not None:
            return self.rules.progressive.wager
        if wager == "three_card_progressive" and self.three_card_progressive is not None:
            return self.three_card_progressive.wager
        return None

    def fixed_wager(self, wager: str) -> tuple[int, str] | None:
        amount = self.progressive_amount(wager)  # the Three- and Five-Card Progressives
        return None if amount is None else (amount, SECTIONS[wager])

    def progressive(self, wager: str) -> tuple[PayTable, EnvySchedule | None, MeterSpec]:
        """A progressive wager's table, Envy Bonus schedule and meter."""
        if wager == "three_card_progressive":
            three = self.three_card_progressive
            assert three is not None
            return three.table, three.envy, three.spec
        table, spec = self.progressive_table, self.meter_spec
        assert table is not None and spec is not None
        return table, self.envy_schedule, spec

    def progressive_offers(self) -> tuple[ProgressiveOffer, ...]:
        """The Three-Card and the Five-Card progressive, each with its own meter."""
        offers = []
        for wager in PROGRESSIVE_WAGERS:
            amount = self.progressive_amount(wager)
            if amount:
                table, _, spec = self.progressive(wager)
                meters = {ln.hand: spec for ln in table.lines if ln.meter_share is not None}
                offers.append(
                    ProgressiveOffer(wager=wager, table=table, stake=amount, line_meters=meters)
                )
        return tuple(offers)

    def meter_specs(self) -> Mapping[str, MeterSpec]:
        """Each offered progressive wager's meter (read-only)."""
        return MappingProxyType(
            {w: self.progressive(w)[2] for w in PROGRESSIVE_WAGERS if self.progressive_amount(w)}
        )

    def offered_wagers(self) -> tuple[str, ...]:
        """The three bets, and each optional wager the Rules Submission offers (§ 643a.7(e)-(j):
        "if specified in its Rules Submission")."""
        return tuple(w for w in self.wagers if w in BASE_WAGERS or self.paytable(w) is not None)

    def sign(self) -> str:
        lines = [f"{self.title} ({self.chapter})", "Bet 1, Bet 2 and Bet 3 (three equal wagers):"]
        lines += self.base_table.render(self.sign_name(self.base_table))
        for wager in _FIXED_SIDE:
            table = self.paytable(wager)
            if table is not None:
                lines += table.render(self.sign_name(table))
        for wager in PROGRESSIVE_WAGERS:
            amount = self.progressive_amount(wager)
            if amount is None:
                continue
            table, schedule, spec = self.progressive(wager)
            lines += table.render(self.sign_name(table))
            lines.append(
                f"  {self.sign_name(table)} wager {format_cents(amount)}; its meter resets to "
                f"{format_cents(spec.reset)}"
            )
            if schedule is not None:
                lines += schedule.render()
        if self.rules.payout_limit is not None:
            lines.append(
                f"Payout limit per hand: {format_cents(self.rules.payout_limit)} "
                "(fixed-odds wagers; § 643a.12(d))"
            )
        lines += self.limit_lines()
        return "\n".join(lines)

    def fixed_tables(self) -> tuple[PayTable, ...]:
        return (self.base_table,)


GAME_CLASSES = (LetItRide,)
