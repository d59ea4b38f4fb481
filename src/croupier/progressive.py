"""Progressive meters: contributions, payouts from the meter, resets, Envy Bonus schedules.

A meter is named; tables whose Rules Submissions name the same meter share it.  The amount is
kept exactly (a :class:`~fractions.Fraction` of cents: a rate of progression can produce
fractions of a cent) and shown and paid in whole cents, rounded down.

:class:`MeterBank` is the interface rounds use; :class:`MemoryMeters` keeps meters in memory
(simulation, replay, tests) and :class:`croupier.store.SqlMeters` persists them (production).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from croupier.errors import IllegalAction, InvalidInput

__all__ = ["MemoryMeters", "MeterBank", "MeterMove", "MeterSpec", "pay_share"]


@dataclass(frozen=True, kw_only=True, slots=True)
class MeterSpec:
    """How a meter behaves: its reset (also the initial amount) and its rate of progression."""

    name: str
    reset: int
    rate: Fraction

    def __post_init__(self) -> None:
        if not self.name:
            raise InvalidInput("a progressive meter needs a name")
        if self.reset <= 0:
            raise InvalidInput(f"meter {self.name!r} reset {self.reset!r} must be positive cents")
        if not 0 < self.rate <= 1:
            raise InvalidInput(f"meter {self.name!r} rate {self.rate} is outside (0, 1]")


@dataclass(frozen=True, kw_only=True, slots=True)
class MeterMove:
    """One change of a meter, in whole cents as shown on the meter."""

    meter: str
    before: int
    after: int
    paid: int = 0


def pay_share(amount: Fraction, share: Fraction, reset: int) -> tuple[int, Fraction]:
    """Pay ``share`` of a meter holding ``amount``: (whole cents paid, new exact amount).

    A 100% award resets the meter to its reset amount; a partial award (e.g. 10% of the meter
    for a straight flush, § 569.12) takes the share off the meter, which never falls below its
    reset amount.
    """
    paid = math.floor(amount * share)
    if share >= 1:
        return paid, Fraction(reset)
    return paid, max(Fraction(reset), amount - paid)


class MeterBank(Protocol):
    """What a round needs of the progressive system."""

    def ensure(self, spec: MeterSpec) -> int:
        """Create the meter at its reset amount if it does not exist; return its amount."""
        ...

    def amount(self, meter: str) -> int:
        """Whole cents on the meter now."""
        ...

    def contribute(self, meter: str, amount: Fraction) -> MeterMove:
        """Add ``amount`` cents (exact) to the meter atomically; a negative amount reverses a
        contribution (a voided round returns its progressive wagers)."""
        ...

    def pay(self, meter: str, share: Fraction, reset: int) -> MeterMove:
        """Pay ``share`` of the meter atomically (see :func:`pay_share`)."""
        ...


class MemoryMeters:
    """Meters held in memory: for simulation, replay and tests."""

    def __init__(self, amounts: dict[str, int] | None = None) -> None:
        self._amounts: dict[str, Fraction] = {k: Fraction(v) for k, v in (amounts or {}).items()}

    def ensure(self, spec: MeterSpec) -> int:
        self._amounts.setdefault(spec.name, Fraction(spec.reset))
        return self.amount(spec.name)

    def _get(self, meter: str) -> Fraction:
        try:
            return self._amounts[meter]
        except KeyError:
            raise IllegalAction(f"progressive meter {meter!r} does not exist") from None

    def amount(self, meter: str) -> int:
        return math.floor(self._get(meter))

    def exact(self, meter: str) -> Fraction:
        return self._get(meter)

    def contribute(self, meter: str, amount: Fraction) -> MeterMove:
        before = self._get(meter)
        if before + amount < 0:
            raise InvalidInput(f"reversal {amount} would take meter {meter!r} below zero")
        self._amounts[meter] = before + amount
        return MeterMove(meter=meter, before=math.floor(before), after=self.amount(meter))

    def pay(self, meter: str, share: Fraction, reset: int) -> MeterMove:
        before = self._get(meter)
        paid, after = pay_share(before, share, reset)
        self._amounts[meter] = after
        return MeterMove(meter=meter, before=math.floor(before), after=math.floor(after), paid=paid)

    def snapshot(self) -> dict[str, int]:
        return {k: math.floor(v) for k, v in self._amounts.items()}
