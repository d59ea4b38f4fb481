"""Deferred vigorish between rounds: the marker buttons of one table (:class:`VigLedger`), owed
by seat from the round that marks them until they are collected, when the player leaves the
table or before the shoe is reshuffled (§ 541.13(g)); and the part of a marker the player's
chips do not cover, owed at the cage (:class:`MarkerTransferred`).  Re-exported by
:mod:`croupier.games.baccarat`.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games.baccarat.paytables import VigMarked
from croupier.games.records import Record
from croupier.games.round import SEATS, Round

if TYPE_CHECKING:
    from croupier.games.baccarat.game import BaccaratGame
    from croupier.games.base import Game

__all__ = ["CollectReason", "MarkerCollected", "MarkerTransferred", "VigLedger"]


class CollectReason(StrEnum):
    """Why deferred vigorish is collected (§ 541.13(g))."""

    PLAYER_LEAVES = "player_leaves"
    RESHUFFLE = "reshuffle"
    """Before the cards of the shoe are reshuffled (Midi: before a new dealing shoe)."""


@dataclass(frozen=True, kw_only=True)
class MarkerCollected(Record):
    """Deferred vigorish collected and the marker removed: the player leaves, or the shoe is
    about to be reshuffled (§ 541.13(g))."""

    kind: ClassVar[str] = "vig_marker_collected"
    seat: int
    amount: int
    reason: str
    section: str


CAGE_PRACTICE = (
    "the chapter is silent on a player who cannot pay: an unpaid marker goes from the table to "
    "the cage, which collects it (Nevada Gaming Control Board, Table Games MICS, marker credit "
    "play); the cage collects it before any chips are cashed out"
)


@dataclass(frozen=True, kw_only=True)
class MarkerTransferred(Record):
    """The part of a vigorish marker the player's chips do not cover when § 541.13(g) has it
    collected (the player leaves, or the shoe ends): the marker leaves the layout and
    ``amount`` stays owed at the cage (``note``: the casino practice followed)."""

    kind: ClassVar[str] = "vig_marker_to_cage"
    seat: int
    amount: int
    reason: str
    section: str
    note: str = CAGE_PRACTICE


class VigLedger:
    """The marker buttons of one table: deferred vigorish owed, by seat (§ 541.13(g)).

    Rounds record into it once they are over (:meth:`record`); :meth:`collect` takes a seat's
    vigorish when its player leaves and :meth:`collect_all` every seat's before the shoe is
    reshuffled; :meth:`settle` collects what the player's chips cover and sends the rest to the
    cage.  A marker stays on the layout until collected.  ``owed``: the markers on the layout
    already (a table carrying on after a restart).  Every refused call changes nothing.
    """

    def __init__(self, game: BaccaratGame, owed: Mapping[int, int] | None = None) -> None:
        self.game = game
        self._owed: dict[int, int] = {}
        for seat, amount in (owed or {}).items():
            if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
                raise InvalidInput(f"marker {amount!r} at seat {seat} is not a positive amount")
            self._owed[self._seat(seat)] = amount
        self._recorded: weakref.WeakSet[Round] = weakref.WeakSet()
        self.history: list[Record] = []
        """The markers placed (``VigMarked``) and collected (``MarkerCollected``), in order."""

    @classmethod
    def of(cls, game: Game, owed: Mapping[int, int] | None = None) -> VigLedger:
        """The markers of a table of ``game``, a game that takes vigorish (``takes_vig``, the
        baccarats); refused (:class:`~croupier.core.errors.InvalidInput`) for any other game, so a
        caller holding a plain :class:`~croupier.games.base.Game` need not name the class."""
        from croupier.games.baccarat.game import BaccaratGame

        if not isinstance(game, BaccaratGame):
            raise InvalidInput(f"a {game.slug} table keeps no vigorish markers")
        return cls(game, owed)

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
        from croupier.games.baccarat.game import BaccaratRound

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

    def _owing(self, seat: int) -> int:
        owed = self._owed.get(seat, 0)
        if owed == 0:
            raise IllegalAction(
                f"seat {seat} has no vigorish marker to collect (markers: {self.markers()})",
                section=self.section,
            )
        return owed

    def collect(
        self, seat: int, *, reason: CollectReason = CollectReason.PLAYER_LEAVES
    ) -> MarkerCollected:
        """Collect the vigorish owed at ``seat`` and remove its marker."""
        seat = self._seat(seat)
        reason = CollectReason(reason)
        owed = self._owing(seat)
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

    def settle(
        self, seat: int, *, reason: CollectReason, chips: int
    ) -> tuple[MarkerCollected | MarkerTransferred, ...]:
        """Remove the marker at ``seat`` as § 541.13(g) requires: collected from the player's
        ``chips`` as far as they cover it, the rest owed at the cage (:class:`MarkerTransferred`,
        :data:`CAGE_PRACTICE`)."""
        seat = self._seat(seat)
        reason = CollectReason(reason)
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise InvalidInput(f"chips {chips!r} at seat {seat} are not a whole amount of cents")
        owed = self._owing(seat)
        covered = min(chips, owed)
        del self._owed[seat]
        out: list[MarkerCollected | MarkerTransferred] = []
        if covered:
            out.append(
                MarkerCollected(
                    seat=seat, amount=covered, reason=reason.value, section=self.section
                )
            )
        if owed > covered:
            out.append(
                MarkerTransferred(
                    seat=seat, amount=owed - covered, reason=reason.value, section=self.section
                )
            )
        self.history += out
        return tuple(out)
