"""Minibaccarat and Midibaccarat data: sections, pay tables (cited data), the records and
actions of the baccarat rounds (the table's vigorish markers: :mod:`.markers`).  The game
itself is :mod:`croupier.games.baccarat`, which exports all of these.

Chapter numbers.  The seed (41 Pa.B. 2962, temporary Chapters 541 and 543 as amended in 2011)
gives §§ 541.1, 541.2, 541.8, 541.12, 541.13 and the same sections of Chapter 543; the permanent
Chapters 627a (Minibaccarat) and 629a (Midibaccarat) renumber them one lower from the wagers on
(§ 541.8 -> § 627a.7, § 541.9 -> § 627a.8, ..., § 541.13 -> § 627a.12), per the section lists in
../shared/regs/baccarat.md.  Sections are cited in the temporary numbering of the seed; where
only a permanent section's text was available (§ 627a.8(c), the dealing options) it is cited.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from croupier.core.cards import Card
from croupier.core.errors import InvalidInput
from croupier.core.frozen import frozen_dict
from croupier.core.money import Odds
from croupier.games.irregularities import chapter_irregularities
from croupier.games.paytables import PayLine, PayTable, to
from croupier.games.records import Action, PlaceWager, Record, Result, Reveal, WagerPlaced
from croupier.hands.baccarat import two_and_final_counts
from croupier.rules.submission import Problem, RulesSubmission, VigRules

if TYPE_CHECKING:
    from croupier.games.baccarat.game import BaccaratGame

__all__ = [
    "BANKER",
    "DRAGON_7",
    "DRAGON_BONUS",
    "EVEN_MONEY",
    "PLAYER",
    "TIE",
    "TIE_VIG_RATE",
    "VIG_RATES",
    "WAGERS",
    "CardsPickedUp",
    "Coup",
    "CutCardOut",
    "Dragon7",
    "HandTurned",
    "ResultAnnounced",
    "ShoeOpened",
    "VerbalWager",
    "VerbalWagerPlaced",
    "VigCollected",
    "VigMarked",
    "WagerPay",
    "banker_pay",
    "dragon_7_pay",
    "dragon_bonus_pay",
    "effective_vig",
    "player_pay",
    "sections",
    "tie_pay",
    "vig_problems",
    "wager_pay",
    "wager_settlement",
]

PLAYER = "player"
"""Recipient of the Player's Hand cards (the deal plan's ``to``)."""
BANKER = "banker"
"""Recipient of the Banker's Hand cards."""

WAGERS = ("banker", "player", "tie", "dragon_7", "dragon_bonus_banker", "dragon_bonus_player")


def sections(temp: str, perm: str) -> dict[str, str]:
    """The sections of one chapter (``temp`` "541" or "543", ``perm`` "627a" or "629a") by rule.

    Keys used by the shared Round machinery (``no_more_bets``, ...) and by the baccarat round.
    Irregularities (§ 627a.13 / § 629a.13) are not in the texts at hand: each is cited to that
    section without a letter.

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
        "initial_face_down": f"§ {perm}.8(c)(2)",
        "third_card": f"{s}.10, {s}.11 (rules read from § 631a.11 and its Table 1)",
        "announce": f"{s}.12(a)",
        "reveal_order": f"{s}.12(a)",  # the result announced once the hands are complete
        "settlement_order": f"{s}.12(b)",
        "pick_up": f"{s}.12(c)",
        "vig": f"{s}.13(c)",
        "dragon_7_odds": f"{s}.13(e)",
        "vig_rounding": f"{s}.13(f)",
        "vig_deferred": f"{s}.13(g)",
        "tie_vig": f"{s}.13(h)",
        "same_vig": f"{s}.13(i)",
        "dragon_bonus": "§ 631b.9",
        # § 627a.13 / § 629a.13 are the chapters' irregularities sections (their section lists,
        # ../shared/regs/baccarat.md); the text is not at hand, so no letter is cited.
        **chapter_irregularities(f"§ {perm}.13"),
    }


# -- pay tables -----------------------------------------------------------------------------

_TIE_NOTE = (
    "the Tie Wager's odds (§ 541.8(a)(3), § 541.13) are elided in the seed; 8 to 1 is the odds "
    "the casino guides publish (../shared/regs/baccarat.md)"
)

# The Tie Wager: 8 to 1 (table A) unless the Rules Submission names table B (9 to 1, also
# published by casinos).  Neither is verified against the PA text, which is not at hand.
TIE: Mapping[str, PayTable] = frozen_dict(
    {
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
)

# § 541.13(e), § 543.13(e): a winning Dragon 7 Insurance Wager pays 40 to 1 (EZ tables only).
DRAGON_7 = PayTable(
    wager="dragon_7",
    letter="-",
    section="§ 541.13(e)",
    lines=(PayLine(hand="dragon_7", odds=to(40)),),
)

# § 541.13(c), § 543.13(c): a winning Banker wager is paid 1 to 1 (less the vigorish), and so is
# a winning Player wager; by the chapter (temporary numbering).
EVEN_MONEY: Mapping[str, PayTable] = frozen_dict(
    {
        "541": PayTable(
            wager="banker_and_player",
            letter="-",
            section="§ 541.13(c)",
            lines=(
                PayLine(hand="banker_wins", odds=to(1)),
                PayLine(hand="player_wins", odds=to(1)),
            ),
        ),
        "543": PayTable(
            wager="banker_and_player",
            letter="-",
            section="§ 543.13(c)",
            lines=(
                PayLine(hand="banker_wins", odds=to(1)),
                PayLine(hand="player_wins", odds=to(1)),
            ),
        ),
    }
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

# § 631b.9(f) tables A-E, win by 9 down to win by 4; a natural win pays 1 to 1; a natural tie
# pushes (no line) except in table B.  The same tables pay the Dragon Bonus on either hand.
_DRAGON_BONUS_BANKER: Mapping[str, PayTable] = frozen_dict(
    {
        "A": PayTable(
            wager="dragon_bonus_banker",
            letter="A",
            section="§ 631b.9(f)",
            lines=(
                PayLine(hand="win_by_9", odds=to(30)),
                PayLine(hand="win_by_8", odds=to(10)),
                PayLine(hand="win_by_7", odds=to(6)),
                PayLine(hand="win_by_6", odds=to(4)),
                PayLine(hand="win_by_5", odds=to(2)),
                PayLine(hand="win_by_4", odds=to(1)),
                PayLine(hand="natural_win", odds=to(1)),
            ),
            verified=False,
            note=_DB_NOTE.format(letter="A", extra=_DB_EXTRA["A"]),
        ),
        "B": PayTable(
            wager="dragon_bonus_banker",
            letter="B",
            section="§ 631b.9(f)",
            lines=(
                PayLine(hand="win_by_9", odds=to(20)),
                PayLine(hand="win_by_8", odds=to(10)),
                PayLine(hand="win_by_7", odds=to(5)),
                PayLine(hand="win_by_6", odds=to(4)),
                PayLine(hand="win_by_5", odds=to(2)),
                PayLine(hand="win_by_4", odds=to(1)),
                PayLine(hand="natural_win", odds=to(1)),
                PayLine(hand="natural_tie", odds=to(2)),
            ),
            verified=False,
            note=_DB_NOTE.format(letter="B", extra=_DB_EXTRA["B"]),
        ),
        "C": PayTable(
            wager="dragon_bonus_banker",
            letter="C",
            section="§ 631b.9(f)",
            lines=(
                PayLine(hand="win_by_9", odds=to(30)),
                PayLine(hand="win_by_8", odds=to(12)),
                PayLine(hand="win_by_7", odds=to(5)),
                PayLine(hand="win_by_6", odds=to(3)),
                PayLine(hand="win_by_5", odds=to(3)),
                PayLine(hand="win_by_4", odds=to(1)),
                PayLine(hand="natural_win", odds=to(1)),
            ),
            verified=False,
            note=_DB_NOTE.format(letter="C", extra=_DB_EXTRA["C"]),
        ),
        "D": PayTable(
            wager="dragon_bonus_banker",
            letter="D",
            section="§ 631b.9(f)",
            lines=(
                PayLine(hand="win_by_9", odds=to(20)),
                PayLine(hand="win_by_8", odds=to(8)),
                PayLine(hand="win_by_7", odds=to(7)),
                PayLine(hand="win_by_6", odds=to(4)),
                PayLine(hand="win_by_5", odds=to(3)),
                PayLine(hand="win_by_4", odds=to(1)),
                PayLine(hand="natural_win", odds=to(1)),
            ),
            verified=False,
            note=_DB_NOTE.format(letter="D", extra=_DB_EXTRA["D"]),
        ),
        "E": PayTable(
            wager="dragon_bonus_banker",
            letter="E",
            section="§ 631b.9(f)",
            lines=(
                PayLine(hand="win_by_9", odds=to(30)),
                PayLine(hand="win_by_8", odds=to(10)),
                PayLine(hand="win_by_7", odds=to(4)),
                PayLine(hand="win_by_6", odds=to(4)),
                PayLine(hand="win_by_5", odds=to(2)),
                PayLine(hand="win_by_4", odds=to(2)),
                PayLine(hand="natural_win", odds=to(1)),
            ),
            verified=False,
            note=_DB_NOTE.format(letter="E", extra=_DB_EXTRA["E"]),
        ),
    }
)
DRAGON_BONUS: Mapping[str, Mapping[str, PayTable]] = frozen_dict(
    {
        "dragon_bonus_banker": _DRAGON_BONUS_BANKER,
        "dragon_bonus_player": frozen_dict(
            {k: replace(t, wager="dragon_bonus_player") for k, t in _DRAGON_BONUS_BANKER.items()}
        ),
    }
)


# -- the settlement, as pure functions of a coup's totals ----------------------------------


@dataclass(frozen=True, slots=True)
class Coup:
    """A coup as the wagers see it: each hand's final Point Count and number of cards, and its
    count on the first two cards (a natural: 8 or 9 on them, § 541.1)."""

    player: int
    banker: int
    player_cards: int
    banker_cards: int
    player_two: int
    banker_two: int

    @classmethod
    def of_hands(cls, player: Sequence[Card], banker: Sequence[Card]) -> Coup:
        """The coup of the Player's and the Banker's Hands as dealt (one object for equal coups:
        a coup is a value, and the settlement memo then finds it by identity)."""
        player_two, player_count = two_and_final_counts(player)
        banker_two, banker_count = two_and_final_counts(banker)
        key = (player_count, banker_count, len(player), len(banker), player_two, banker_two)
        known = _COUPS.get(key) if cls is Coup else None
        if known is None:
            known = cls(
                player=player_count,
                banker=banker_count,
                player_cards=len(player),
                banker_cards=len(banker),
                player_two=player_two,
                banker_two=banker_two,
            )
            if cls is Coup and len(_COUPS) < _COUPS_KEPT:
                _COUPS[key] = known
        return known

    @property
    def natural(self) -> bool:
        return (
            self.player_cards == 2
            and self.banker_cards == 2
            and max(self.player_two, self.banker_two) >= 8
        )

    @property
    def winner(self) -> str:
        """``banker`` or ``player``, the higher Point Count, or ``tie`` (§ 541.12(a))."""
        if self.banker > self.player:
            return BANKER
        return PLAYER if self.player > self.banker else "tie"

    @property
    def dragon_7(self) -> bool:
        """A Dragon 7: the Banker's three-card hand counts 7 and beats the Player's (§ 541.1)."""
        return self.banker == 7 and self.banker_cards == 3 and self.player < 7

    def margin_key(self, side: str) -> str:
        """The Dragon Bonus line the hand ``side`` (banker or player) reaches (§ 631b.9(e)): a
        natural win (``natural_win``), a natural tie (``natural_tie``), a win by ``n`` points
        (``win_by_n``, paid from 4 up); ``tie`` and ``lose`` reach no line."""
        if side == BANKER:
            mine, theirs, my_two, their_two = (
                self.banker, self.player, self.banker_two, self.player_two
            )  # fmt: skip
        else:
            mine, theirs, my_two, their_two = (
                self.player, self.banker, self.player_two, self.banker_two
            )  # fmt: skip
        if mine > theirs:
            return "natural_win" if my_two >= 8 else f"win_by_{mine - theirs}"
        if mine == theirs:
            return "natural_tie" if my_two >= 8 and their_two >= 8 else "tie"
        return "lose"


_COUPS: dict[tuple[int, int, int, int, int, int], Coup] = {}
"""Coups made so far, by their fields (a few hundred occur; bounded all the same)."""
_COUPS_KEPT = 4096


@dataclass(frozen=True, slots=True)
class WagerPay:
    """How one wager settles on a coup: the result, the line, a win's odds and the vigorish owed
    as a share of the stake (§ 541.13(c) on a winning Banker wager, § 541.13(h) on a tie)."""

    result: Result
    line: str
    odds: Odds | None = None
    vig: Fraction = Fraction(0)

    @property
    def net(self) -> Fraction:
        """Net per unit staked, the vigorish at its exact rate (before the rounding to 5 cents
        of § 541.13(f), which depends on the stake)."""
        if self.result is Result.WIN:
            assert self.odds is not None
            return self.odds.net - self.vig
        return (Fraction(-1) if self.result is Result.LOSE else Fraction(0)) - self.vig

    def winnings(self, stake: int) -> int:
        """Cents won on ``stake`` (0 unless the wager wins; the vigorish is apart)."""
        if self.result is Result.WIN and self.odds is not None:
            return self.odds.winnings(stake)
        return 0


class Dragon7(StrEnum):
    """What a Dragon 7 does to the Banker and Player wagers: nothing on a standard table; on an
    EZ Baccarat table the Banker wager pushes and the Player wager loses (§ 541.8(a)(1)(iv),
    (a)(2)(ii))."""

    PLAIN = "plain"
    PUSHES_BANKER = "pushes_banker"


def banker_pay(coup: Coup, vig: VigRules, even: PayTable, dragon_7: Dragon7) -> WagerPay:
    """The Banker wager (§ 541.8(a)(1)): wins 1 to 1 less the commission of § 541.13(c), loses
    to a higher Player's Hand, is returned on a tie (less the 25% of § 541.13(h)) and, on an EZ
    table, on a Dragon 7 (§ 541.8(a)(1)(iv))."""
    if dragon_7 is Dragon7.PUSHES_BANKER and coup.dragon_7:
        return WagerPay(result=Result.PUSH, line="dragon_7")
    if coup.winner == "tie":
        tie_vig = vig.rate if vig.type == "tie" else Fraction(0)
        return WagerPay(result=Result.PUSH, line="tie", vig=tie_vig)
    if coup.winner == BANKER:
        rate = vig.rate if vig.type == "commission" else Fraction(0)
        return WagerPay(result=Result.WIN, line="banker_wins", odds=even.lines[0].odds, vig=rate)
    return WagerPay(result=Result.LOSE, line="player_wins")


def player_pay(coup: Coup, even: PayTable, dragon_7: Dragon7) -> WagerPay:
    """The Player wager (§ 541.8(a)(2)): wins 1 to 1, loses to a higher Banker's Hand and, on
    an EZ table, to a Dragon 7 (§ 541.8(a)(2)(ii)); a tie returns it (§ 541.8(a)(2)(iii))."""
    if dragon_7 is Dragon7.PUSHES_BANKER and coup.dragon_7:
        return WagerPay(result=Result.LOSE, line="dragon_7")
    if coup.winner == "tie":
        return WagerPay(result=Result.PUSH, line="tie")
    if coup.winner == PLAYER:
        return WagerPay(result=Result.WIN, line="player_wins", odds=even.lines[1].odds)
    return WagerPay(result=Result.LOSE, line="banker_wins")


def tie_pay(coup: Coup, table: PayTable) -> WagerPay:
    """The Tie wager (§ 541.8(a)(3)): wins at the table's odds on equal counts, else loses."""
    if coup.winner == "tie":
        return WagerPay(result=Result.WIN, line="tie", odds=table.lines[0].odds)
    return WagerPay(result=Result.LOSE, line=f"{coup.winner}_wins")


def dragon_7_pay(coup: Coup) -> WagerPay:
    """Dragon 7 Insurance (§ 541.8(a)(5)): 40 to 1 on a Dragon 7 (§ 541.13(e)), else loses."""
    if coup.dragon_7:
        return WagerPay(result=Result.WIN, line="dragon_7", odds=DRAGON_7.lines[0].odds)
    return WagerPay(result=Result.LOSE, line="no_dragon_7")


def dragon_bonus_pay(coup: Coup, side: str, table: PayTable) -> WagerPay:
    """The Dragon Bonus on the hand ``side`` (§ 631b.9(e)-(f)): by the margin of the hands'
    counts; a natural tie without a line pushes ("Push" in the table).  The EZ Dragon 7 push
    applies to the Banker wager only (§ 541.8(a)(1)(iv)), not to this side wager."""
    key = coup.margin_key(side)
    line = table.line_for({key})
    if line is not None and line.odds is not None:
        return WagerPay(result=Result.WIN, line=key, odds=line.odds)
    return WagerPay(result=Result.PUSH if key == "natural_tie" else Result.LOSE, line=key)


def wager_settlement(game: BaccaratGame, wager: str) -> Callable[[Coup], WagerPay]:
    """How ``wager`` settles at ``game``'s table (its vigorish, EZ option and pay tables), as a
    function of the coup: the one settlement of the round, the par sheet and the Monte Carlo
    tables."""
    d7 = Dragon7.PUSHES_BANKER if game.ez else Dragon7.PLAIN
    even = EVEN_MONEY[game.temp_chapter]
    if wager == BANKER:
        return partial(banker_pay, vig=game.vig, even=even, dragon_7=d7)
    if wager == PLAYER:
        return partial(player_pay, even=even, dragon_7=d7)
    if wager == "dragon_7":
        return dragon_7_pay
    table = game.paytable(wager)
    if table is None:
        raise InvalidInput(f"wager {wager!r} is not offered at this {game.slug} table")
    if wager == "tie":
        return partial(tie_pay, table=table)
    side = BANKER if wager == "dragon_bonus_banker" else PLAYER
    return partial(dragon_bonus_pay, side=side, table=table)


def wager_pay(game: BaccaratGame, wager: str, coup: Coup) -> WagerPay:
    """How ``wager`` settles on ``coup`` at ``game``'s table (:func:`wager_settlement`)."""
    return wager_settlement(game, wager)(coup)


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
class HandTurned(Record):
    """On a table that deals the first four cards face down (§ 627a.8(c)(2)), the dealer turns
    a hand's two cards face up: the Player's Hand when it is called, then the Banker's cards
    from under the shoe's corner; ``count`` is the hand's Point Count on them."""

    kind: ClassVar[str] = "hand_turned"
    hand: str
    cards: tuple[Card, ...]
    count: int
    section: str


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
        # the vigorish of (c), the tie vigorish of (h), none at EZ Baccarat
        problems.append((f"vig type {vig.type!r} is not 'commission', 'tie' or 'none'", s))
    if vig.collect not in ("at_payout", "deferred"):
        # at payout, or marked and collected later (g)
        problems.append(
            (f"vig collect {vig.collect!r} is not 'at_payout' or 'deferred'", f"{s}(g)")
        )
    elif vig.type == "tie" and vig.collect == "deferred":
        problems.append(("the 25% tie vigorish is collected at the end of the round", f"{s}(h)"))
    return problems
