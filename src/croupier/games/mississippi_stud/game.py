"""Mississippi Stud (58 Pa. Code Chapter 655a; temporary Chapter 571 as amended, seed 002).

============  ===========  =================================  ===========  =====================
phase         who acts     legal actions                      next phase   sections
============  ===========  =================================  ===========  =====================
betting       players,     ante; progressive ($1 or $5) after dealing      § 571.7(b)-(f),
              dealer       the ante; no more bets (chips                   § 571.8(b)
                           counted against the system)
dealing       chance       two cards to each player one at a  stub_count   § 571.1 "community
                           time from the far left; three      or           card"; §§ 571.8-.10
                           community cards face down          decisions    (elided, see below)
stub_count    dealer       count the stub (where required)    decisions    table practice
decisions     live seats   bet 1x-3x the Ante or fold: 3rd,   decisions    § 571.11(a), (c), (e)
              1→7          then 4th, then 5th Street
decisions     dealer       turn the next community card once  decisions,   § 571.11(b), (d), (f)
                           every live seat has decided        settlement
settlement    dealer       settle seat 7→1, each completely:  over         § 571.11(h),
                           hand shown, Ante and streets on                 § 655a.12(a)-(b),
                           the pay table, progressive, Envy                § 571.12(c)-(g)
============  ===========  =================================  ===========  =====================

A fold collects the Ante and the street wagers made so far at once (§ 571.11(a), (c), (e)) and
the progressive wager too (§ 571.11(g)); a folded player with a progressive wager keeps the cards
on the table and stays eligible for Envy Bonuses.  While community cards are still face down a
supervisor may rule that a player exchanged information about the hand: ``ForfeitForCollusion``
forfeits every wager of that player in the round (§ 571.11(k)).

Sources: the seed amends §§ 571.1, 571.7-571.12 with parts elided; the pay table of § 571.12(a)
is elided there, so it is taken from § 655a.12(a) (the permanent chapter), which agrees with the
push on a pair of sixes through tens of § 571.11(h)(2).  Progressive tables B-D and the aggregate
payout limit come from § 655a.12(b)-(c).  The dealing procedures (§§ 571.8-571.10) are elided in
the seed: the order used here (two rounds of one card to each player from the far left, then the
three community cards face down) follows the other PA stud chapters and the § 571.1 definition.

Rules Submission keys (beyond DESIGN.md)::

    payout_limit = 5000000        # aggregate payout per hand, cents (§ 655a.12(b)); at least
                                  # $50,000, which applies when the key is left out
    [progressive]                 # pay table "A" uses one meter: meter, reset, rate below
    paytable = "C"                # A-D (§ 655a.12(c)(1))
    envy = "A"                    # the one Envy schedule (§ 571.12(e)); optional
    wager = 100                   # $1 or $5 (§ 571.7(d))
    reset = 1000000               # table A: at least $10,000 (§ 571.12(f)); B-D: the default
    rate = "0.10"                 #   reset and rate of each jackpot
    meter = "mississippi-stud"    # table A: the meter; B-D: meters default to "<meter>-<jackpot>"
    [progressive.meters.mega]     # tables B-D: one entry per jackpot the table pays
    meter = "stud-mega"           # a meter name shared with another table links the two
    reset = 2500000
    rate = "0.05"                 # each progressive wager adds rate x wager to this meter
    [progressive.meters.major]    # table B pays mega and major; C and D also minor
    [progressive.meters.minor]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.core.frozen import frozen_dict
from croupier.core.modes import PlayMode
from croupier.core.money import format_cents, parse_rate
from croupier.games._made import checked_record, folded
from croupier.games.base import DealStep, EnvyRule, Game, Phase, ProgressiveOffer
from croupier.games.faces import decision_text
from croupier.games.irregularities import chapter_irregularities
from croupier.games.mississippi_stud.declared import DECLARED_SECTIONS, StudProgressiveHands
from croupier.games.mississippi_stud.paytables import (
    BASE_PAYS,
    ENVY,
    JACKPOTS,
    LOSE,
    PAY_TABLE,
    PAYOUT_LIMIT,
    PROGRESSIVE,
    PUSH_HAND,
    BasePay,
    base_pay,
    base_pays,
    hand_keys,
    least_payout_limit,
    max_win_at_minimum,
)
from croupier.games.mississippi_stud.regs import MISSISSIPPI_STUD_REGS
from croupier.games.paytables import EnvySchedule, PayTable
from croupier.games.records import (
    Action,
    Fold,
    HandShown,
    IrregularityKind,
    Play,
    Record,
    ReportIrregularity,
    Result,
    WagerSettled,
)
from croupier.games.round import StubCheck
from croupier.games.states import known_plan
from croupier.games.streets import Street, StreetRound, TurnBy
from croupier.hands import HandRank, Ranking
from croupier.rules.progressive import MeterBank, MeterSpec
from croupier.rules.submission import DealMethod, Problem, RulesSubmission
from croupier.table.shoe import Shoe

__all__ = [
    "BASE_PAYS", "BOARD", "ENVY", "GAME_CLASSES", "JACKPOTS", "LOSE", "PAYOUT_LIMIT", "PAY_TABLE",
    "PROGRESSIVE", "PUSH_HAND", "ROUND_STREETS", "STREETS", "BasePay", "CommunityCardTurned",
    "ForfeitForCollusion", "ForfeitedForCollusion", "HandShown", "MississippiStud",
    "MississippiStudRound", "PayoutLimited", "TurnCommunityCard", "base_pay", "base_pays",
    "hand_keys",
    "jackpot_meters", "least_payout_limit", "max_win_at_minimum",
]  # fmt: skip

BOARD = "board"

# The streets (:mod:`croupier.games.streets`): on each, every live player bets one, two or three
# times the Ante or folds (§ 571.11(a), (c), (e); § 655a.1: "equal to one, two or three times",
# exactly those amounts, unlike Four Card Poker's range, § 641a.7(d)(1)); the dealer then turns
# the next community card (§ 571.11(b), (d), (f)); the third ends the decisions.
ROUND_STREETS: tuple[Street, ...] = (
    *(
        Street(
            name=name,
            label=label,
            decisions=(Play, Fold),
            multiples=(1, 2, 3),
            wager=name,
            bet_label=f"{label} wager",
            turns=int(i > 0),
            section=section,
            opening_section=opening,
        )
        for i, (name, label, section, opening) in enumerate(
            (
                ("third_street", "3rd Street", "§ 571.11(a)", ""),
                ("fourth_street", "4th Street", "§ 571.11(c)", "§ 571.11(b)"),
                ("fifth_street", "5th Street", "§ 571.11(e)", "§ 571.11(d)"),
            )
        )
    ),
    Street(name="showdown", label="showdown", turns=1, opening_section="§ 571.11(f)"),
)
STREETS = tuple(s.wager for s in ROUND_STREETS if s.decides)
"""The street wagers, in order."""
_PR = "§ 655a.12(c)(1)"


# --- actions and records of this game ---------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TurnCommunityCard(Action):
    """The dealer turns over the next community card (§ 571.11(b), (d), (f))."""

    name: ClassVar[str] = "turn_community_card"


@dataclass(frozen=True, kw_only=True)
class ForfeitForCollusion(Action):
    """A supervisor's ruling: the player at ``seat`` exchanged information about the hand before
    every community card was shown; every wager of that player in the round is forfeited
    (§ 571.11(k)).  Not offered among ``legal_actions`` (nobody chooses it in play)."""

    name: ClassVar[str] = "forfeit_for_collusion"
    seat: int


@dataclass(frozen=True, kw_only=True)
class CommunityCardTurned(Record):
    kind: ClassVar[str] = "street_card_turned"
    card: Card
    number: int
    section: str = ""

    def to_action(self) -> Action:
        return TurnCommunityCard()


@dataclass(frozen=True, kw_only=True)
class ForfeitedForCollusion(Record):
    kind: ClassVar[str] = "forfeited_for_collusion"
    seat: int
    section: str = "§ 571.11(k)"

    def to_action(self) -> Action:
        return ForfeitForCollusion(seat=self.seat)


@dataclass(frozen=True, kw_only=True)
class PayoutLimited(Record):
    """The aggregate payout limit cut a hand's winnings from ``won`` to ``paid`` (§ 655a.12(b))."""

    kind: ClassVar[str] = "aggregate_payout_limited"
    seat: int
    won: int
    paid: int
    limit: int
    section: str = "§ 655a.12(b)"


# --- progressive meters -------------------------------------------------------------------------


_ENTRY = frozenset({"meter", "reset", "rate"})


def _meter_entry(
    name: str, entry: object, default: MeterSpec, out: list[Problem]
) -> MeterSpec | None:
    where = f"[progressive.meters.{name}]"
    if not isinstance(entry, Mapping):
        out.append((f"{where} must be a table with meter, reset and rate", None))
        return None
    out += [(f"unknown key {k!r} in {where}", None) for k in sorted(set(entry) - _ENTRY)]
    meter, reset = entry.get("meter", default.name), entry.get("reset", default.reset)
    given, bad = entry.get("rate", default.rate), len(out)
    if not isinstance(meter, str) or not meter:
        out.append((f"{where} meter {meter!r} must be a name", None))
    if isinstance(reset, bool) or not isinstance(reset, int) or reset <= 0:
        out.append((f"{where} reset {reset!r} must be a positive whole number of cents", None))
    rate = None
    try:
        rate = parse_rate(given, what=f"{where} rate")
    except InvalidInput as exc:
        out.append((exc.message, None))
    if rate is None:
        pass
    elif not 0 < rate <= 1:
        out.append((f"{where} rate of progression {rate} is outside (0, 1]", None))
    if len(out) > bad or rate is None or not isinstance(meter, str) or not isinstance(reset, int):
        return None
    return MeterSpec(name=meter, reset=reset, rate=rate)


def jackpot_meters(rules: RulesSubmission) -> tuple[dict[str, MeterSpec], list[Problem]]:
    """The meter of each jackpot the progressive table pays, and every problem with them.

    Table A pays from the one meter of ``[progressive]``; tables B-D need an entry for each
    jackpot in ``[progressive.meters]`` (meter name, reset and rate default to ``<meter>-<jackpot>``
    and the ``[progressive]`` reset and rate)."""
    prog, raw = rules.progressive, rules.extra.get("progressive_meters")
    if prog is None or prog.paytable not in JACKPOTS or not 0 < prog.rate <= 1:
        # (a rate outside (0, 1] is refused by the progressive's own check, with the others)
        return {}, []
    letter, names = prog.paytable, tuple(dict.fromkeys(JACKPOTS[prog.paytable].values()))
    out: list[Problem] = []
    if names == ("meter",):
        if raw is not None:
            msg = (
                "pay table A pays from the one [progressive] meter; [progressive.meters] is for B-D"
            )
            out.append((msg, "§ 571.12(c)"))
        one = MeterSpec(
            name=prog.meter,
            reset=prog.reset,
            rate=prog.rate,
            wager=prog.wager,
            paytable=prog.paytable,
        )
        return {"meter": one}, out
    if not isinstance(raw, Mapping):
        msg = f"progressive pay table {letter} pays the {', '.join(names)} jackpots: give each"
        return {}, [(f"{msg} its meter in [progressive.meters]", _PR)]
    out += [
        (f"jackpot {x!r} is not paid by pay table {letter}", _PR)
        for x in sorted(set(raw) - set(names))
    ]
    specs: dict[str, MeterSpec] = {}
    for name in names:
        if name not in raw:
            msg = f"[progressive.meters.{name}] is missing: table {letter} pays the {name} jackpot"
            out.append((msg, _PR))
            continue
        default = MeterSpec(name=f"{prog.meter}-{name}", reset=prog.reset, rate=prog.rate)
        spec = _meter_entry(name, raw[name], default, out)
        if spec is not None:
            specs[name] = spec
    seen: dict[str, str] = {}
    for name, spec in specs.items():
        if spec.name in seen:
            msg = f"jackpots {seen[spec.name]} and {name} both use meter {spec.name!r}"
            out.append((f"{msg}; each jackpot needs its own meter", None))
        seen[spec.name] = name
    total = sum((s.rate for s in specs.values()), Fraction(0))
    if total > 1:
        out.append((f"the jackpots' rates of progression add up to {total}, above 1", None))
    return specs, out


# --- the round ----------------------------------------------------------------------------------


def deal_plan(method: DealMethod, active: tuple[int, ...]) -> list[DealStep]:
    """The initial deal to the wagering seats ``active`` (seat 1 first) by ``method``."""
    seats = [str(s) for s in active]
    board = [DealStep(to=BOARD, note=f"community card {i}") for i in (1, 2, 3)]
    if method is DealMethod.AUTOMATED_SHOE:
        # § 571.10 (elided): stacks of two to each player from the far left, then three: the board
        return [DealStep(to=s) for s in seats for _ in range(2)] + board
    # § 571.8-571.9 (elided), § 571.1: two each, one at a time from the far left; then the board
    return [DealStep(to=s) for _ in range(2) for s in seats] + board


class MississippiStudRound(StudProgressiveHands, StreetRound):
    sections: ClassVar[dict[str, str]] = {
        "seated": "§ 571.7(e)",
        "no_more_bets": "§ 571.7(b)",
        "adjacent_boxes": "§ 571.7(f)",
        "progressive_count": "§ 571.8(b)",
        "progressive_sensors": "§ 571.2(f)(1)",
        "progressive_lock_out": "§ 571.2(f)(2)",
        **DECLARED_SECTIONS,
        "decision_order": "§ 571.11(a)",
        "reveal_order": "§ 571.11(f)",
        "settlement_order": "§ 571.11(h)",
        # § 655a.13, the chapter's irregularities (its text not in the digests: no letter)
        **chapter_irregularities("§ 655a.13"),
    }
    game: MississippiStud
    streets = ROUND_STREETS
    turn_by = TurnBy.DEALER_STEP
    turn_action = TurnCommunityCard

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
        for spec in self.game.jackpots.values():
            self._progressive.ensure(spec)
        self._colluded: set[int] = set()
        self._closed: dict[int, set[str]] = {}
        """Wagers already settled, by seat (a fold collects at once)."""

    # -- who is still in -------------------------------------------------------------------

    def live_seats(self) -> list[int]:
        """Seats still playing their hand: an Ante, no fold, no forfeiture."""
        out = self._folded | self._colluded
        return [s for s in self._stakes.in_action if "ante" in self._wagers[s] and s not in out]

    # § 571.11(a), (c), (e): a folded hand stays for the progressive; others go to the discard rack
    kept_after_fold = frozenset({"progressive"})

    def hand_held(self, seat: int) -> bool:
        # § 571.11(k): a player who exchanged information forfeits every wager and the hand.
        return seat not in self._colluded and super().hand_held(seat)

    def holders(self) -> list[int]:
        """Seats whose cards stay on the table to the end (:meth:`hand_held`)."""
        return [s for s in self._stakes.in_action if self.hand_held(s)]

    def board_shown(self) -> list[Card]:
        return list(self._hands.get(BOARD, ())[: self.turned])

    # -- wagers ----------------------------------------------------------------------------

    def _verify_wager(self, seat: int, wager: str, amount: int) -> None:
        if wager in STREETS:
            i = STREETS.index(wager)
            raise IllegalAction(
                f"{ROUND_STREETS[i].label} wager at seat {seat} refused: it is made after "
                + ("the two cards are dealt" if i == 0 else f"community card {i} is turned")
                + ", one to three times the Ante",
                section=ROUND_STREETS[i].section,
            )
        if wager == "progressive" and "ante" not in self._stakes.of(seat):
            msg = f"progressive wager at seat {seat} refused: it is placed after an Ante wager"
            raise IllegalAction(msg, section="§ 571.7(d)")

    def contribution_meters(self) -> list[tuple[str, MeterSpec]]:
        # Table A: its one meter; tables B-D: each progressive wager adds to every jackpot
        # meter at its own rate.
        if self.game.meter_spec is not None:
            return super().contribution_meters()
        return [("progressive", spec) for spec in self.game.jackpots.values()]

    # -- dealing ---------------------------------------------------------------------------

    def _deal_plan(self) -> Sequence[DealStep]:
        return known_plan(deal_plan, self.game.rules.table.deal, self._stakes.in_action)

    # -- decisions -------------------------------------------------------------------------

    def _deciders(self) -> Iterable[int]:
        return self.live_seats()

    def next_decider(self) -> int | None:
        # the street machine's (StreetRound.next_decider) over live_seats, in one pass
        if self._phase is not Phase.DECISIONS or not self.streets[self._street_index].decisions:
            return None
        decided, folded, colluded = self._decided, self._folded, self._colluded
        stakes = self._wagers
        for s in self._stakes.in_action:
            if s not in decided and s not in folded and s not in colluded and "ante" in stakes[s]:
                return s
        return None

    def _after_decision(self) -> list[Record]:
        # Nobody left to decide: the dealer turns the next card; nobody left at all: over.
        if self.next_decider() is not None:
            return []  # StreetRound._after_decision's own answer: a seat still decides
        new = self._street_decided()
        # nobody decides after _street_decided either (its docstring): the same test as
        # ``self.next_decider() is None`` after StreetRound._after_decision
        if not self.holders():
            self._phase = Phase.OVER
        return new

    def _decision(self, kind: type[Action], seat: int) -> Action:
        return Fold(seat=seat)

    def _verify_street_decision(self, seat: int, what: str) -> None:
        no = f"{what} at seat {seat} refused:"
        if "ante" not in self._stakes.of(seat):
            raise IllegalAction(f"{no} no Ante wager in this round", section="§ 571.7(c)")
        if seat in self._colluded:
            raise IllegalAction(f"{no} its wagers were forfeited", section="§ 571.11(k)")
        if seat in self._folded:
            raise IllegalAction(f"{no} the player folded", section="§ 571.1")
        if self._phase is not Phase.DECISIONS:
            msg = f"{no} the 3rd Street decision follows the deal (phase {self._phase.value})"
            raise IllegalAction(msg, section="§ 571.11(a)")
        if not self.street.decides:
            raise IllegalAction(f"{no} every community card is turned", section="§ 571.11(f)")
        if seat in self._decided:
            after = self.street_index + 1
            following = self.streets[after]
            later = (
                f"the {following.label} decision follows community card {after}"
                if following.decides
                else "the third community card is turned next"
            )
            msg = f"{no} it already decided on {self.street.label}; {later}"
            raise IllegalAction(msg, section=following.opening_section)
        self._verify_decider(seat, what)

    def _verify_play(self, action: Play) -> None:
        self._verify_street_decision(action.seat, "street wager")
        self.verify_play_size(action)

    def _do_play(self, action: Play) -> list[Record]:
        street = self.street.wager
        record = self.play_record(action, street)
        self._stakes.add(action.seat, street, record.amount)
        self._decisions.decide(action.seat)
        rec: list[Record] = [record]
        return rec + self._after_decision()

    def _verify_fold(self, action: Fold) -> None:
        self._verify_street_decision(action.seat, "fold")

    def _close(
        self, seat: int, wager: str, result: Result, *, paid: int = 0, line: str = ""
    ) -> WagerSettled:
        self._closed.setdefault(seat, set()).add(wager)
        return self.settle(seat, wager, result, paid=paid, line=line)

    def _open_wagers(self, seat: int) -> list[str]:
        closed = self._closed.get(seat, set())
        return [w for w in self._stakes.of(seat) if w not in closed]

    def _do_fold(self, action: Fold) -> list[Record]:
        # § 571.11(a), (c), (e): the Ante and the street wagers made so far are collected at
        # once; § 571.11(g): the progressive wager is forfeited too, Envy eligibility is kept.
        seat = action.seat
        self._decisions.fold(seat)
        rec: list[Record] = [folded(seat)]
        rec += [self._close(seat, w, Result.FORFEIT) for w in self._open_wagers(seat)]
        return rec + self._after_decision()

    def _verify_turn_community_card(self, action: TurnCommunityCard) -> None:
        if self._phase is not Phase.DECISIONS or not self._turn_due():
            msg = f"no community card is due (phase {self._phase.value}, {self.turned} turned)"
            raise IllegalAction(msg)
        due = self.next_decider()
        if due is not None:
            msg = f"community card {self.turned + 1} is turned once every player has made the"
            raise IllegalAction(
                f"{msg} {self.street.label} decision; seat {due} has not",
                section=self.streets[self.street_index + 1].opening_section,
            )

    def _do_turn_community_card(self, action: TurnCommunityCard) -> list[Record]:
        return self._turn_street()

    def _turn_records(self) -> list[Record]:
        card, number = self._hands[BOARD][self.turned - 1], self.turned
        section = self.street.opening_section
        fields = {"card": card, "number": number, "section": section}
        return [checked_record(CommunityCardTurned, fields)]

    # -- § 571.11(k) -----------------------------------------------------------------------

    def _verify_forfeit_for_collusion(self, action: ForfeitForCollusion) -> None:
        seat, k = action.seat, "§ 571.11(k)"
        if not self._wagers.get(seat):
            raise IllegalAction(f"seat {seat!r} has no wager in this round to forfeit")
        if self._phase is not Phase.DECISIONS or not self.street.decides:
            msg = (
                f"forfeiture at seat {seat} refused: it follows information exchanged after the "
                "players examine their cards and before every community card is shown (phase "
                f"{self._phase.value}, {self.turned} community card(s) turned)"
            )
            raise IllegalAction(msg, section=k)
        if seat in self._colluded:
            raise IllegalAction(f"seat {seat}'s wagers are already forfeited", section=k)
        if not self._open_wagers(seat) and seat not in self.holders():
            msg = f"seat {seat} folded and its wagers are already collected"
            raise IllegalAction(msg, section="§ 571.11(a)")

    def _do_forfeit_for_collusion(self, action: ForfeitForCollusion) -> list[Record]:
        # § 571.11(k): every wager of the round, and (unlike a fold, § 571.11(g)) no Envy Bonus:
        # the player keeps no wager that could earn one.
        seat = action.seat
        self._colluded.add(seat)
        rec: list[Record] = [ForfeitedForCollusion(seat=seat)]
        rec += [self._close(seat, w, Result.FORFEIT) for w in self._open_wagers(seat)]
        return rec + self._after_decision()

    # -- irregularities --------------------------------------------------------------------

    def _verify_irregularity(self, action: ReportIrregularity) -> None:
        if action.kind is IrregularityKind.DEALER_CARD_EXPOSED:
            raise IllegalAction("Mississippi Stud has no dealer hand to expose")
        super()._verify_irregularity(action)

    # -- settlement ------------------------------------------------------------------------

    def player_rank(self, seat: int) -> HandRank:
        hands = self._hands
        return self.rank_of([*hands[str(seat)], *hands[BOARD]], Ranking.POKER5)

    def _settlement_order(self) -> list[int]:
        # § 571.11(h): from the player farthest to the dealer's right, counterclockwise.
        settled = self._settled
        return [s for s in reversed(self.holders()) if s not in settled]

    def _settle_seat(self, seat: int) -> list[Record]:
        new: list[Record] = []
        rank = self.player_rank(seat)
        if seat not in self._folded:
            # § 571.11(h): each live player's two cards turned face up, the hand announced.
            new.append(self.show_hand(seat, rank))
            new += self._settle_base(seat, rank)
            if "progressive" in self._wagers[seat]:
                # § 571.11(h)(3): after the player's other wagers.
                new += self._settle_progressive(seat, hand_keys(rank))
        if "progressive" in self._wagers[seat]:
            new += self._settle_envy(seat)
        return new

    def _settle_base(self, seat: int, rank: HandRank) -> list[Record]:
        stakes = self._wagers[seat]
        wagers = [w for w in ("ante", *STREETS) if w in stakes]
        pay = base_pay(hand_keys(rank), self.game.base_table)
        if pay.result is not Result.WIN:
            # § 571.11(h)(2): a pair of sixes through tens pushes; (h)(1): all else loses.
            shown = PUSH_HAND if pay.result is Result.PUSH else rank.category.value
            return [self._close(seat, w, pay.result, line=shown) for w in wagers]
        won = {w: pay.winnings(stakes[w]) for w in wagers}
        paid: dict[str, int] = dict(won)
        new: list[Record] = []
        limit = self.game.payout_limit
        total = sum(won.values())
        if total > limit:
            # § 655a.12(b): the aggregate payout of the hand (the wagers of § 655a.12(a); not the
            # progressive or Envy payouts) is capped; the cap is shared in proportion to each
            # wager's winnings, the odd cents going to the first wagers.
            paid = {w: limit * won[w] // total for w in wagers}
            for w in wagers[: limit - sum(paid.values())]:
                paid[w] += 1
            new.append(PayoutLimited(seat=seat, won=total, paid=limit, limit=limit))
        return new + [self._close(seat, w, Result.WIN, paid=paid[w], line=pay.line) for w in wagers]

    def _settle_progressive(self, seat: int, keys: frozenset[str]) -> list[Record]:
        # § 571.12(d): the highest hand only; § 571.12(g): at the meter's amount when it is this
        # player's turn; § 571.11(h)(3): a 100% award is not paid from the table inventory.
        table = self.game.progressive_table
        assert table is not None
        line = table.line_for(keys)
        spec = None
        if line is not None and line.meter_share is not None:
            spec = self.game.jackpots[JACKPOTS[table.letter][line.hand]]
        return self.award_progressive(seat, "progressive", line, spec, settle=self._close)

    # -- faces and house players -----------------------------------------------------------

    def visible_cards(self) -> dict[str, list[Card]]:
        shown = super().visible_cards()
        if self.turned:
            shown[BOARD] = self.board_shown()
        return shown

    def describe(self, action: Action) -> str:
        if isinstance(action, Play) and self.street.decides:
            size = super().describe(action).removeprefix("play ")
            return f"bet {size} on {self.street.label}"
        if isinstance(action, TurnCommunityCard):
            return "turn the next community card"
        return super().describe(action)

    def parse_decision(self, seat: int, text: str) -> Action:
        """``bet N`` (N times the Ante on the street now decided), ``fold``; and, written where
        the ruling is made, ``collusion`` (a supervisor's § 571.11(k) forfeiture)."""
        if decision_text(seat, text).strip().lower() in ("collusion", "forfeit for collusion"):
            return ForfeitForCollusion(seat=seat)
        return super().parse_decision(seat, text)

    def simple_strategy(self, seat: int) -> Action:
        """A simplified point-count rule (after the strategy published by the Wizard of Odds;
        not the optimal strategy): bet 3x with a hand that already pays (a pair of jacks or
        better, two pair, trips); 1x with any other pair, or with enough points (J-A count 2,
        6-10 count 1) among the cards seen: 2 on 3rd Street, 3 on 4th, 4 on 5th; else fold."""
        cards = [*self._hands[str(seat)], *self.board_shown()]
        ranks = [c.rank.value for c in cards]
        counts = sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)
        pairs = [r for n, r in counts if n >= 2]
        if counts[0][0] >= 3 or len(pairs) >= 2 or (pairs and pairs[0] >= 11):
            return Play(seat=seat, multiple=3)
        points = sum(2 if r >= 11 else 1 if r >= 6 else 0 for r in ranks)
        if pairs or points >= (2, 3, 4)[self.street_index]:
            return Play(seat=seat, multiple=1)
        return Fold(seat=seat)


# --- the aggregate payout limit (§ 655a.12(b)) -----------------------------------------------


def _check_payout_limit(rules: RulesSubmission) -> list[Problem]:
    limit, ante = rules.payout_limit, rules.limits.get("ante")
    assert limit is not None
    if ante is None or ante.min is None:
        msg = (
            f"payout_limit {limit} cents cannot be checked: the least limit depends on the "
            "minimum wager; post it as [limits.ante] min (cents)"
        )
        return [(msg, "§ 655a.12(b)")]
    least = least_payout_limit(rules)
    if limit < least:
        win = max_win_at_minimum(ante.min)
        msg = (
            f"payout_limit {limit} cents is below {least} cents: the greater of $50,000 and "
            f"{win} cents, the most one patron wins at the {ante.min}-cent minimum"
        )
        return [(msg, "§ 655a.12(b)")]
    return []


# --- the game -----------------------------------------------------------------------------------


class MississippiStud(Game):
    """Mississippi Stud: Ante and three street bets on a five-card pay table; progressive."""

    slug = "mississippi-stud"
    required_wagers = ("ante",)
    title = "Mississippi Stud"
    chapter = "58 Pa. Code Ch. 655a; temporary Ch. 571"
    aliases = ("mississippi",)
    wagers = ("ante", *STREETS, "progressive")
    progressive_paytables: ClassVar[Mapping[str, PayTable]] = PROGRESSIVE
    envy_schedules: ClassVar[Mapping[str, EnvySchedule]] = frozen_dict({"A": ENVY})
    progressive_wager_amounts = (frozenset({100, 500}), "§ 571.7(d)")
    progressive_min_reset: ClassVar[dict[str, tuple[int, str]]] = {"A": (1_000_000, "§ 571.12(f)")}
    decision_wagers = frozenset(STREETS)
    decision_section = "§ 571.11(a), (c), (e)"  # each street: 1x, 2x or 3x the Ante
    # § 571.12(e): one Envy schedule, paid with every progressive table.
    envy_rule = EnvyRule.FIXED
    envy_section = "§ 571.12(e)"
    paytables_section = "§ 655a.12"
    hand_rankings = (Ranking.POKER5,)
    extra_hands = frozenset({"pair_of_jacks_or_better"})
    fixed_paytables = (PAY_TABLE,)
    round_class = MississippiStudRound
    table_regs = MISSISSIPPI_STUD_REGS
    """Deck life, stub counts, shuffle and cut, seats (§ 571.3-571.10): :mod:`.regs`."""
    example_rules: ClassVar[dict[str, Any]] = {
        "game": "mississippi-stud",
        "payout_limit": PAYOUT_LIMIT,
        "limits": {"ante": {"min": 100, "max": 100_000}},
        "progressive": {
            "paytable": "C",
            "envy": "A",
            "wager": 100,
            "reset": 1_000_000,
            "rate": "0.10",
            "meter": "mississippi-stud",
            "meters": {
                "mega": {"meter": "stud-mega", "reset": 2_500_000, "rate": "0.10"},
                "major": {"meter": "stud-major", "reset": 500_000, "rate": "0.05"},
                "minor": {"meter": "stud-minor", "reset": 50_000, "rate": "0.03"},
            },
        },
    }

    def __init__(self, rules: RulesSubmission | Mapping[str, Any] | None = None) -> None:
        super().__init__(rules)
        self.jackpots: Mapping[str, MeterSpec] = frozen_dict(jackpot_meters(self.rules)[0])
        """The meter of each jackpot the progressive table pays (``"meter"`` for table A)."""

    @classmethod
    def check_table(cls, rules: RulesSubmission) -> list[Problem]:
        table = rules.table
        problems: list[Problem] = []
        if table.adjacent_boxes != 1:
            msg = f"adjacent_boxes {table.adjacent_boxes}: a player wagers on one position only"
            problems.append((msg, "§ 571.7(f)"))
        if rules.payout_limit is not None:
            problems += _check_payout_limit(rules)
        if rules.progressive is None and "progressive_meters" in rules.extra:
            problems.append(("[progressive.meters] without a progressive wager", None))
        return problems + jackpot_meters(rules)[1]

    @property
    def meter_spec(self) -> MeterSpec | None:
        """Table A's one meter; tables B-D have several (:attr:`jackpots`)."""
        prog = self.rules.progressive
        return super().meter_spec if prog is not None and prog.paytable == "A" else None

    def progressive_offers(self) -> tuple[ProgressiveOffer, ...]:
        """The progressive wager; each meter line pays its jackpot's meter (§ 655a.12(c))."""
        prog, table = self.rules.progressive, self.progressive_table
        if prog is None or table is None:
            return ()
        jackpots = JACKPOTS[table.letter]
        meters = {
            ln.hand: self.jackpots[jackpots[ln.hand]]
            for ln in table.lines
            if ln.meter_share is not None
        }
        return (
            ProgressiveOffer(
                wager="progressive", table=table, stake=prog.wager, line_meters=meters
            ),
        )

    @property
    def envy_schedule(self) -> EnvySchedule | None:
        # § 571.12(e): every progressive table pays the Envy Bonus.
        return ENVY if self.rules.progressive is not None else None

    @property
    def payout_limit(self) -> int:
        """Aggregate payout limit per hand, cents (§ 655a.12(b)): the submission's, else the
        least the section allows (which needs the posted Ante minimum)."""
        return self.rules.payout_limit or least_payout_limit(self.rules)

    def fixed_tables(self) -> tuple[PayTable, ...]:
        return (PAY_TABLE,)

    @property
    def base_table(self) -> PayTable:
        """The table the Ante and the street wagers are paid by (§ 655a.12(a): one table, so
        :data:`PAY_TABLE` unless a pricing variant puts another in force for ``ante``)."""
        return self.paytable("ante") or PAY_TABLE

    def sign(self) -> str:
        rows = [f"{self.title} ({self.chapter})"]
        rows.append(f"Ante, 3rd, 4th and 5th Street wagers ({PAY_TABLE.section})")
        rows += [f"  {ln.hand.replace('_', ' '):<26} {ln.describe()}" for ln in PAY_TABLE.lines]
        rows.append(f"  {'pair of sixes to tens':<26} push (§ 571.11(h)(2))")
        rows.append(f"  {'any other hand':<26} loses")
        rows.append("Each street wager is one, two or three times the Ante (§ 571.2(b)(5)(ii))")
        table = self.progressive_table
        prog = self.rules.progressive
        if table is not None and prog is not None:
            rows.append(f"Progressive, pay table {table.letter} ({table.section})")
            for ln in table.lines:
                if ln.meter_share is not None:
                    spec = self.jackpots[JACKPOTS[table.letter][ln.hand]]
                    name = JACKPOTS[table.letter][ln.hand]
                    what = f"{ln.describe()}" if name == "meter" else f"100% of {name} jackpot"
                    shown = f"{what} (resets to {format_cents(spec.reset)})"
                else:
                    shown = ln.describe()
                rows.append(f"  {ln.hand.replace('_', ' '):<26} {shown}")
            rows.append(f"  progressive wager {format_cents(prog.wager)}")
            rows += ENVY.render()
        limit = format_cents(self.payout_limit)
        rows.append(f"Aggregate payout limit per hand: {limit} (§ 655a.12(b))")
        rows += self.limit_lines()
        return "\n".join(rows)


GAME_CLASSES = (MississippiStud,)
