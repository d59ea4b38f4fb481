"""The settlement of a round as a typed object, read from its hand history.

:class:`Settlement` holds, per seat, each wager's stake, result and payout, the Envy Bonuses,
the progressive awards, the vigorish (baccarat) and the net in cents.  Its :meth:`to_json` is the
stable JSON of ``Round.settlement()`` (the server, the replay output and the stored summaries
show it): ``{"<seat>": {"wagers": {...}, "envy": [...], "net": n, "progressive": [...],
"vig": {...}}}``, the last two only where the seat has them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from croupier.games.records import EnvyPaid, ProgressivePaid, Record, Result, WagerSettled

__all__ = ["EnvyAward", "ProgressiveAward", "SeatSettlement", "Settlement", "Vig", "WagerOutcome"]


@dataclass(frozen=True, slots=True)
class WagerOutcome:
    """How one wager was settled (the figures of its ``WagerSettled`` record)."""

    stake: int
    result: Result
    paid: int
    returned: int
    line: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "stake": self.stake,
            "result": self.result.value,
            "paid": self.paid,
            "returned": self.returned,
        }
        return {**out, "line": self.line} if self.line else out


@dataclass(frozen=True, slots=True)
class EnvyAward:
    """An Envy Bonus paid to the seat for another seat's hand."""

    for_seat: int
    line: str
    amount: int

    def to_json(self) -> dict[str, Any]:
        return {"for_seat": self.for_seat, "line": self.line, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class ProgressiveAward:
    """A progressive line paid to the seat (from the meter, or at fixed odds)."""

    line: str
    amount: int
    from_meter: bool

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "amount": self.amount, "from_meter": self.from_meter}


@dataclass(frozen=True, slots=True)
class Vig:
    """Vigorish on the seat's winning Banker wagers: collected now, or marked as owed."""

    collected: int = 0
    marked: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"collected": self.collected, "marked": self.marked}


@dataclass(frozen=True, slots=True)
class SeatSettlement:
    """One seat's settlement; ``net`` is what the seat won (positive) or lost, in cents."""

    wagers: Mapping[str, WagerOutcome] = field(default_factory=lambda: MappingProxyType({}))
    envy: tuple[EnvyAward, ...] = ()
    progressive: tuple[ProgressiveAward, ...] = ()
    vig: Vig | None = None
    net: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "wagers": {name: w.to_json() for name, w in self.wagers.items()},
            "envy": [e.to_json() for e in self.envy],
            "net": self.net,
        }
        if self.progressive:
            out["progressive"] = [p.to_json() for p in self.progressive]
        if self.vig is not None:
            out["vig"] = self.vig.to_json()
        return out


@dataclass(frozen=True, slots=True)
class Settlement:
    """Every seat's settlement, seats in the order the hand history first settles them."""

    seats: Mapping[int, SeatSettlement] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def of(cls, records: Iterable[Record]) -> Settlement:
        """The settlement the records show (wagers settled, Envy Bonuses, progressive awards)."""
        seats: dict[int, SeatSettlement] = {}
        for rec in records:
            if isinstance(rec, WagerSettled):
                entry = seats.get(rec.seat, SeatSettlement())
                outcome = WagerOutcome(rec.stake, rec.result, rec.paid, rec.returned, rec.line)
                wagers = MappingProxyType({**entry.wagers, rec.wager: outcome})
                seats[rec.seat] = replace(entry, wagers=wagers, net=entry.net + rec.net)
            elif isinstance(rec, EnvyPaid):
                entry = seats.get(rec.seat, SeatSettlement())
                award = EnvyAward(rec.for_seat, rec.line, rec.amount)
                seats[rec.seat] = replace(
                    entry, envy=(*entry.envy, award), net=entry.net + rec.amount
                )
            elif isinstance(rec, ProgressivePaid):
                entry = seats.get(rec.seat, SeatSettlement())
                paid = ProgressiveAward(rec.line, rec.amount, rec.from_meter)
                seats[rec.seat] = replace(entry, progressive=(*entry.progressive, paid))
        return cls(MappingProxyType(seats))

    def charged(self, seat: int, *, collected: int = 0, marked: int = 0) -> Settlement:
        """This settlement with vigorish charged to ``seat``, taken off its net (a marked
        vigorish is owed from this round on)."""
        entry = self.seats.get(seat, SeatSettlement())
        vig = entry.vig or Vig()
        vig = Vig(vig.collected + collected, vig.marked + marked)
        net = entry.net - collected - marked
        return Settlement(MappingProxyType({**self.seats, seat: replace(entry, vig=vig, net=net)}))

    def net(self, seat: int) -> int:
        """The seat's net in cents (0 for a seat with nothing settled)."""
        entry = self.seats.get(seat)
        return entry.net if entry is not None else 0

    def to_json(self) -> dict[str, Any]:
        """The stable JSON: per seat (a string key), its wagers, Envy Bonuses and net."""
        return {str(seat): entry.to_json() for seat, entry in self.seats.items()}
