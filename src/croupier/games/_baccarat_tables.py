"""Minibaccarat and Midibaccarat data: sections, pay tables (cited data), the records and
actions of the baccarat rounds, and the table's vigorish markers (:class:`VigLedger`).  The game
itself is :mod:`croupier.games.baccarat`, which exports all of these.

Chapter numbers.  The seed (41 Pa.B. 2962, temporary Chapters 541 and 543 as amended in 2011)
gives §§ 541.1, 541.2, 541.8, 541.12, 541.13 and the same sections of Chapter 543; the permanent
Chapters 627a (Minibaccarat) and 629a (Midibaccarat) renumber them one lower from the wagers on
(§ 541.8 -> § 627a.7, § 541.9 -> § 627a.8, ..., § 541.13 -> § 627a.12), per the section lists in
../shared/regs/baccarat.md.  Sections are cited in the temporary numbering of the seed; where
only a permanent section's text was available (§ 627a.8(c), the dealing options) it is cited.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from croupier.cards import Card
from croupier.errors import IllegalAction, InvalidInput
from croupier.games.paytables import PayLine, PayTable, to
from croupier.games.records import Action, PlaceWager, Record, Reveal, WagerPlaced
from croupier.games.round import SEATS, Round
from croupier.hands.baccarat import is_natural, point_count
from croupier.rules import Problem, RulesSubmission, VigRules

if TYPE_CHECKING:
    from croupier.games.baccarat import BaccaratGame

__all__ = [
    "BANKER",
    "DRAGON_7",
    "DRAGON_BONUS",
    "PLAYER",
    "TIE",
    "TIE_VIG_RATE",
    "VIG_RATES",
    "WAGERS",
    "CardsPickedUp",
    "CollectReason",
    "CutCardOut",
    "MarkerCollected",
    "ResultAnnounced",
    "ShoeOpened",
    "VerbalWager",
    "VerbalWagerPlaced",
    "VigCollected",
    "VigLedger",
    "VigMarked",
    "dragon_bonus_key",
    "effective_vig",
    "sections",
    "vig_problems",
]

PLAYER = "player"
"""Recipient of the Player's Hand cards (the deal plan's ``to``)."""
BANKER = "banker"
"""Recipient of the Banker's Hand cards."""

WAGERS = ("banker", "player", "tie", "dragon_7", "dragon_bonus_banker", "dragon_bonus_player")


def sections(temp: str, perm: str) -> dict[str, str]:
    """The sections of one chapter (``temp`` "541" or "543", ``perm`` "627a" or "629a") by rule.

    Keys used by the shared Round machinery (``no_more_bets``, ...) and by the baccarat round.
    Irregularities (§ 541.14 / § 627a.13) are not in the texts at hand: no section is cited.

    Written out, for each chapter: § 541.2(c)(4), (c)(6), (c)(7), § 541.8(a)(1)(i)-(iv),
    (a)(2)(i)-(iii), (a)(3), (a)(5), (b), (c), § 541.12(a)-(c), § 541.13(c), (e)-(i); and
    § 543.2(c)(4), (c)(6), (c)(7), § 543.8(a)(1)(i)-(iv), (a)(2)(i)-(iii), (a)(3), (a)(5), (b),
    (c), § 543.12(a)-(c), § 543.13(c), (e)-(i).
    """
    s = f"§ {temp}"
    return {
        "definitions": f"{s}.1",
        "layout_vig_marker": f"{s}.2(c)(4)",
        "layout_dragon_bonus": f"{s}.2(c)(6)",
        "layout_ez": f"{s}.2(c)(7)",
        "banker_wins": f"{s}.8(a)(1)(i)",
        "banker_loses": f"{s}.8(a)(1)(ii)",
        "banker_tie_returned": f"{s}.8(a)(1)(iii)(A)",
        "banker_tie_vig": f"{s}.8(a)(1)(iii)(B)",
        "banker_dragon_7": f"{s}.8(a)(1)(iv)",
        "player_wins": f"{s}.8(a)(2)(i)",
        "player_loses": f"{s}.8(a)(2)(ii)",
        "player_tie": f"{s}.8(a)(2)(iii)",
        "tie_wager": f"{s}.8(a)(3)",
        "dragon_7": f"{s}.8(a)(5)",
        "verbal": f"{s}.8(b)",
        "no_more_bets": f"{s}.8(c)",
        "initial_deal": f"§ {perm}.8(c)",
        "third_card": f"{s}.10, {s}.11 (rules read from § 631a.11 and its Table 1)",
        "announce": f"{s}.12(a)",
        "settle_order": f"{s}.12(b)",
        "pick_up": f"{s}.12(c)",
        "vig": f"{s}.13(c)",
        "dragon_7_odds": f"{s}.13(e)",
        "vig_rounding": f"{s}.13(f)",
        "vig_deferred": f"{s}.13(g)",
        "tie_vig": f"{s}.13(h)",
        "same_vig": f"{s}.13(i)",
        "dragon_bonus": "§ 631b.9",
    }


# -- pay tables -----------------------------------------------------------------------------

_TIE_NOTE = (
    "the Tie Wager's odds (§ 541.8(a)(3), § 541.13) are elided in the seed; 8 to 1 is the odds "
    "the casino guides publish (../shared/regs/baccarat.md)"
)

# The Tie Wager: 8 to 1 (table A) unless the Rules Submission names table B (9 to 1, also
# published by casinos).  Neither is verified against the PA text, which is not at hand.
TIE = {
    "A": PayTable(
        wager="tie",
        letter="A",
        section="§ 541.13",
        lines=(PayLine(hand="tie", odds=to(8)),),
        verified=False,
        note=_TIE_NOTE,
    ),
    "B": PayTable(
        wager="tie",
        letter="B",
        section="§ 541.13",
        lines=(PayLine(hand="tie", odds=to(9)),),
        verified=False,
        note=_TIE_NOTE,
    ),
}

# § 541.13(e), § 543.13(e): a winning Dragon 7 Insurance Wager pays 40 to 1 (EZ tables only).
DRAGON_7 = PayTable(
    wager="dragon_7",
    letter="-",
    section="§ 541.13(e)",
    lines=(PayLine(hand="dragon_7", odds=to(40)),),
)

_DB_NOTE = (
    "Golden Talons table {letter} of § 631b.9(f) (the Baccarat chapter's margin wager, the same "
    "shape as the Dragon Bonus); the Minibaccarat/Midibaccarat Dragon Bonus odds are not in the "
    "texts at hand{extra}"
)
_DB_EXTRA = {
    "A": "; equals the Rivers Des Plaines (IL) Dragon Bonus table",
    "B": "; its natural tie at 2 to 1 was read from a flattened table and is doubtful",
    "C": "",
    "D": "",
    "E": "; equals the Two Kings Dragon Bonus table",
}


def _dragon_bonus(
    wager: str, letter: str, margins: tuple[int, int, int, int, int, int], natural_tie: int | None
) -> PayTable:
    by_9, by_8, by_7, by_6, by_5, by_4 = margins
    lines = [
        PayLine(hand="win_by_9", odds=to(by_9)),
        PayLine(hand="win_by_8", odds=to(by_8)),
        PayLine(hand="win_by_7", odds=to(by_7)),
        PayLine(hand="win_by_6", odds=to(by_6)),
        PayLine(hand="win_by_5", odds=to(by_5)),
        PayLine(hand="win_by_4", odds=to(by_4)),
        PayLine(hand="natural_win", odds=to(1)),
    ]
    if natural_tie is not None:
        lines.append(PayLine(hand="natural_tie", odds=to(natural_tie)))
    return PayTable(
        wager=wager,
        letter=letter,
        section="§ 631b.9(f)",
        lines=tuple(lines),
        verified=False,
        note=_DB_NOTE.format(letter=letter, extra=_DB_EXTRA[letter]),
    )


# § 631b.9(f) tables A-E, win by 9 down to win by 4; a natural win pays 1 to 1; a natural tie
# pushes (no line) except in table B.
_DB_TABLES: dict[str, tuple[tuple[int, int, int, int, int, int], int | None]] = {
    "A": ((30, 10, 6, 4, 2, 1), None),
    "B": ((20, 10, 5, 4, 2, 1), 2),
    "C": ((30, 12, 5, 3, 3, 1), None),
    "D": ((20, 8, 7, 4, 3, 1), None),
    "E": ((30, 10, 4, 4, 2, 2), None),
}

DRAGON_BONUS: dict[str, dict[str, PayTable]] = {
    wager: {letter: _dragon_bonus(wager, letter, *spec) for letter, spec in _DB_TABLES.items()}
    for wager in ("dragon_bonus_banker", "dragon_bonus_player")
}


def dragon_bonus_key(side: tuple[Card, ...], other: tuple[Card, ...]) -> str:
    """The Dragon Bonus line the hand wagered on (``side``) reaches against ``other``.

    § 631b.9(e): a natural win (``natural_win``), a natural tie (``natural_tie``), or a win by
    ``n`` points (``win_by_n``, paid from 4 up); ``tie`` and ``lose`` reach no line.
    """
    mine, theirs = point_count(side), point_count(other)
    if mine > theirs:
        return "natural_win" if is_natural(side) else f"win_by_{mine - theirs}"
    if mine == theirs:
        return "natural_tie" if is_natural(side) and is_natural(other) else "tie"
    return "lose"


# -- actions and records --------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class VerbalWager(Action):
    """A verbal wager accompanied by cash, confirmed by the dealer calling the game; the cash
    is converted into chips (§ 541.8(b)).  ``cash`` at least covers ``amount``."""

    name: ClassVar[str] = "verbal_wager"
    seat: int
    wager: str
    amount: int
    cash: int
    confirmed_by: str

    def as_place_wager(self) -> PlaceWager:
        return PlaceWager(seat=self.seat, wager=self.wager, amount=self.amount)


@dataclass(frozen=True, kw_only=True)
class VerbalWagerPlaced(WagerPlaced):
    """A verbal wager accepted: ``cash`` converted into chips, ``cash - amount`` handed back."""

    kind: ClassVar[str] = "verbal_wager_placed"
    cash: int
    confirmed_by: str

    def to_action(self) -> Action:
        return VerbalWager(
            seat=self.seat,
            wager=self.wager,
            amount=self.amount,
            cash=self.cash,
            confirmed_by=self.confirmed_by,
        )


@dataclass(frozen=True, kw_only=True)
class ResultAnnounced(Record):
    """The dealer announces each hand's final Point Count and which hand won; "Tie Hand" on
    equal counts, "Dragon 7" on an EZ table (§ 541.12(a))."""

    kind: ClassVar[str] = "result_announced"
    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    player_count: int
    banker_count: int
    winner: str
    announcement: str
    dragon_7: bool
    section: str

    def to_action(self) -> Action:
        return Reveal()


@dataclass(frozen=True, kw_only=True)
class VigCollected(Record):
    """Vigorish taken from a player: ``basis`` cents at ``rate`` (a fraction as text), rounded
    up to 5 cents (§ 541.13(f)); ``how`` is ``commission`` (§ 541.13(c)), ``tie`` (§ 541.13(h))."""

    kind: ClassVar[str] = "vig_collected"
    seat: int
    amount: int
    basis: int
    rate: str
    how: str
    section: str


@dataclass(frozen=True, kw_only=True)
class VigMarked(Record):
    """Vigorish deferred: a marker button for ``amount`` in the box numbered ``seat``
    (§ 541.13(g)); the table's :class:`~croupier.games.baccarat.VigLedger` holds it."""

    kind: ClassVar[str] = "vig_marked"
    seat: int
    amount: int
    basis: int
    rate: str
    section: str


@dataclass(frozen=True, kw_only=True)
class MarkerCollected(Record):
    """Deferred vigorish collected and the marker removed: the player leaves, or the shoe is
    about to be reshuffled (§ 541.13(g))."""

    kind: ClassVar[str] = "vig_marker_collected"
    seat: int
    amount: int
    reason: str
    section: str


@dataclass(frozen=True, kw_only=True)
class CardsPickedUp(Record):
    """The round's cards go to the discard rack in order, so that the hands can be rebuilt
    (§ 541.12(c)), or into the discard bucket (§ 543.12(c))."""

    kind: ClassVar[str] = "cards_picked_up"
    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    to: str
    in_order: bool
    section: str


@dataclass(frozen=True, kw_only=True)
class ShoeOpened(Record):
    """A new shoe: ``decks`` shuffled, the cut card ``cut_card`` cards from the bottom, the
    first card turned up and ``burned`` more cards burned by its value (casino practice)."""

    kind: ClassVar[str] = "shoe_opened"
    decks: int
    first_card: Card
    burned: int
    cut_card: int
    note: str


@dataclass(frozen=True, kw_only=True)
class CutCardOut(Record):
    """The cut card came out: one more round, then the shoe is done (casino practice)."""

    kind: ClassVar[str] = "cut_card_out"
    rounds_left: int


# -- vigorish ------------------------------------------------------------------------------

VIG_RATES = (Fraction(4, 100), Fraction(5, 100))
"""§ 541.13(c): a commission of 4% or 5% of the amount won on a Banker wager."""
TIE_VIG_RATE = Fraction(25, 100)
"""§ 541.13(h): 25% of every Banker wager when the hands tie."""


def effective_vig(rules: RulesSubmission) -> VigRules:
    """The vigorish a submission puts in force (EZ: none; unnamed: 5% at payout)."""
    if rules.table.ez or rules.game == "ez-baccarat":
        return VigRules(type="none", rate=Fraction(0), collect="at_payout")
    return rules.vig if rules.vig is not None else VigRules()


def vig_problems(rules: RulesSubmission, chapter: str, *, ez: bool) -> list[Problem]:
    """Every problem with the ``[vig]`` of a submission for Chapter ``chapter`` (541, 543)."""
    vig = rules.vig
    if vig is None:
        return []
    s = f"§ {chapter}.13"
    pct = f"{float(vig.rate * 100):g}%"
    problems: list[Problem] = []
    if ez and vig.type != "none":
        problems.append(
            (f"an EZ Baccarat table collects no vigorish (type {vig.type!r})", f"{s}(c)")
        )
    elif vig.type == "none" and not ez:
        problems.append(("only an EZ Baccarat table may collect no vigorish", f"{s}(c)"))
    elif vig.type == "commission" and vig.rate not in VIG_RATES:
        problems.append((f"vigorish rate {pct} is neither 4% nor 5% of the win", f"{s}(c)"))
    elif vig.type == "tie" and vig.rate != TIE_VIG_RATE:
        problems.append((f'tie vigorish rate {pct} is not 25% (rate = "0.25")', f"{s}(h)"))
    if vig.type not in ("commission", "tie", "none"):
        problems.append((f"vig type {vig.type!r} is not 'commission', 'tie' or 'none'", None))
    if vig.collect not in ("at_payout", "deferred"):
        problems.append((f"vig collect {vig.collect!r} is not 'at_payout' or 'deferred'", None))
    elif vig.type == "tie" and vig.collect == "deferred":
        problems.append(("the 25% tie vigorish is collected at the end of the round", f"{s}(h)"))
    return problems


# -- deferred vigorish ----------------------------------------------------------------------


class CollectReason(StrEnum):
    """Why deferred vigorish is collected (§ 541.13(g))."""

    PLAYER_LEAVES = "player_leaves"
    RESHUFFLE = "reshuffle"
    """Before the cards of the shoe are reshuffled (Midi: before a new dealing shoe)."""


class VigLedger:
    """The marker buttons of one table: deferred vigorish owed, by seat (§ 541.13(g)).

    Rounds record into it once they are over (:meth:`record`); :meth:`collect` takes a seat's
    vigorish when its player leaves and :meth:`collect_all` every seat's before the shoe is
    reshuffled.  A marker stays on the layout until collected.  Every refused call changes
    nothing.
    """

    def __init__(self, game: BaccaratGame) -> None:
        self.game = game
        self._owed: dict[int, int] = {}
        self._recorded: weakref.WeakSet[Round] = weakref.WeakSet()
        self.history: list[Record] = []
        """The markers placed (``VigMarked``) and collected (``MarkerCollected``), in order."""

    @property
    def section(self) -> str:
        return f"§ {self.game.temp_chapter}.13(g)"

    def owed(self, seat: int) -> int:
        return self._owed.get(self._seat(seat), 0)

    def markers(self) -> dict[int, int]:
        """Vigorish owed by seat (seats with a marker only)."""
        return dict(sorted(self._owed.items()))

    def _seat(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
            raise InvalidInput(f"seat {seat!r} is not a betting position 1-7")
        return seat

    def record(self, rnd: Round) -> tuple[VigMarked, ...]:
        """Take the markers a finished round placed; returns them."""
        from croupier.games.baccarat import BaccaratRound

        if not isinstance(rnd, BaccaratRound) or rnd.game.temp_chapter != self.game.temp_chapter:
            raise IllegalAction(
                f"a {rnd.game.slug} round does not record into this {self.game.slug} table's "
                "vigorish markers"
            )
        if not rnd.is_over:
            raise IllegalAction(
                f"the round is still {rnd.phase.value}: markers are recorded after settlement",
                section=self.section,
            )
        if rnd in self._recorded:
            raise IllegalAction("this round's markers are already recorded", section=self.section)
        marked = tuple(r for r in rnd.records if isinstance(r, VigMarked))
        self._recorded.add(rnd)
        for rec in marked:
            self._owed[rec.seat] = self._owed.get(rec.seat, 0) + rec.amount
        self.history += marked
        return marked

    def collect(
        self, seat: int, *, reason: CollectReason = CollectReason.PLAYER_LEAVES
    ) -> MarkerCollected:
        """Collect the vigorish owed at ``seat`` and remove its marker."""
        seat = self._seat(seat)
        reason = CollectReason(reason)
        owed = self._owed.get(seat, 0)
        if owed == 0:
            raise IllegalAction(
                f"seat {seat} has no vigorish marker to collect (markers: {self.markers()})",
                section=self.section,
            )
        del self._owed[seat]
        rec = MarkerCollected(seat=seat, amount=owed, reason=reason.value, section=self.section)
        self.history.append(rec)
        return rec

    def collect_all(
        self, *, reason: CollectReason = CollectReason.RESHUFFLE
    ) -> tuple[MarkerCollected, ...]:
        """Collect every marker, from the highest-numbered seat down (before the reshuffle,
        § 541.13(g); Midibaccarat before a new dealing shoe, § 543.13(g))."""
        reason = CollectReason(reason)
        return tuple(self.collect(seat, reason=reason) for seat in sorted(self._owed, reverse=True))
