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

from croupier.core.errors import IllegalAction, InvalidInput, RulesViolation, shown_value

__all__ = [
    "MemoryMeters",
    "MeterBank",
    "MeterMove",
    "MeterSpec",
    "pay_share",
    "verify_same_config",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class MeterSpec:
    """How a meter behaves: its reset (also the initial amount), its rate of progression and,
    where the Rules Submission gives them, the progressive wager amount and pay table.

    A linked meter has one configuration: the first table to create it stores it, and a table
    whose Rules Submission differs is refused (:func:`verify_same_config`).  ``wager`` and
    ``paytable`` left ``None`` are not compared.
    """

    name: str
    reset: int
    rate: Fraction
    wager: int | None = None
    paytable: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise InvalidInput(
                f"progressive meter name {shown_value(self.name)} must be non-empty text"
            )
        if isinstance(self.reset, bool) or not isinstance(self.reset, int) or self.reset <= 0:
            raise InvalidInput(
                f"meter {shown_value(self.name)} reset "
                f"{shown_value(self.reset)} must be positive cents"
            )
        if not isinstance(self.rate, Fraction) or not 0 < self.rate <= 1:
            raise InvalidInput(
                f"meter {shown_value(self.name)} rate {shown_value(self.rate)} is outside (0, 1]"
            )
        wager = self.wager
        if wager is not None and (isinstance(wager, bool) or not isinstance(wager, int)):
            raise InvalidInput(
                f"meter {shown_value(self.name)} wager {shown_value(wager)} must be whole cents"
            )
        if wager is not None and wager <= 0:
            raise InvalidInput(
                f"meter {shown_value(self.name)} wager {shown_value(wager)} must be positive cents"
            )
        if self.paytable is not None and not isinstance(self.paytable, str):
            raise InvalidInput(
                f"meter {shown_value(self.name)} pay table "
                f"{shown_value(self.paytable)} must be text"
            )

    def config(self) -> dict[str, object]:
        """The configuration as JSON (exact rate as text ``"p/q"``)."""
        return {
            "reset": self.reset,
            "rate": str(self.rate),
            "wager": self.wager,
            "paytable": self.paytable,
        }


def verify_same_config(stored: MeterSpec, wanted: MeterSpec) -> None:
    """Refuse a table whose meter configuration differs from the meter's stored one, naming
    the meter and both values of every difference (one configuration per linked meter)."""
    diffs: list[str] = []
    if wanted.reset != stored.reset:
        diffs.append(f"reset {wanted.reset} cents, the meter's is {stored.reset}")
    if wanted.rate != stored.rate:
        diffs.append(f"rate of progression {wanted.rate}, the meter's is {stored.rate}")
    for what in ("wager", "paytable"):
        mine, theirs = getattr(wanted, what), getattr(stored, what)
        if mine is not None and theirs is not None and mine != theirs:
            diffs.append(f"{what} {shown_value(mine)}, the meter's is {shown_value(theirs)}")
    if diffs:
        raise RulesViolation(
            f"progressive meter {shown_value(stored.name)} "
            "is linked with another configuration: this "
            f"Rules Submission gives {'; '.join(diffs)}; tables sharing a meter must share "
            "its reset, rate, wager and pay table"
        )


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
    if not isinstance(amount, Fraction | int) or isinstance(amount, bool):
        raise InvalidInput(f"meter amount {shown_value(amount)} is not an exact number of cents")
    if not isinstance(share, Fraction | int) or isinstance(share, bool) or not 0 < share <= 1:
        raise InvalidInput(f"share {shown_value(share)} is not an exact share in (0, 1]")
    if isinstance(reset, bool) or not isinstance(reset, int) or reset < 0:
        raise InvalidInput(f"reset {shown_value(reset)} is not whole cents")
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
        """Pay ``share`` of the meter atomically (see :func:`pay_share`); a meter whose
        configuration is stored resets to its stored reset."""
        ...


class MemoryMeters:
    """Meters held in memory: for simulation, replay and tests."""

    def __init__(self, amounts: dict[str, int] | None = None) -> None:
        self._amounts: dict[str, Fraction] = {k: Fraction(v) for k, v in (amounts or {}).items()}
        self._specs: dict[str, MeterSpec] = {}

    def ensure(self, spec: MeterSpec) -> int:
        """Create the meter at its reset (or adopt the configuration of a meter given by
        amount only); a meter configured otherwise is refused (:func:`verify_same_config`)."""
        if not isinstance(spec, MeterSpec):
            raise InvalidInput(f"meter {shown_value(spec)} is not a MeterSpec")
        stored = self._specs.get(spec.name)
        if stored is not None:
            verify_same_config(stored, spec)
        else:
            self._specs[spec.name] = spec
        self._amounts.setdefault(spec.name, Fraction(spec.reset))
        return self.amount(spec.name)

    def spec(self, meter: str) -> MeterSpec | None:
        """The meter's configuration, where one was given."""
        return self._specs.get(meter)

    def _get(self, meter: str) -> Fraction:
        try:
            return self._amounts[meter]
        except (KeyError, TypeError):  # TypeError: an unhashable value is no meter's name
            raise IllegalAction(f"progressive meter {shown_value(meter)} does not exist") from None

    def amount(self, meter: str) -> int:
        return math.floor(self._get(meter))

    def exact(self, meter: str) -> Fraction:
        return self._get(meter)

    def contribute(self, meter: str, amount: Fraction) -> MeterMove:
        before = self._get(meter)
        if before + amount < 0:
            raise InvalidInput(
                f"reversal {amount} would take meter {shown_value(meter)} below zero"
            )
        self._amounts[meter] = before + amount
        return MeterMove(meter=meter, before=math.floor(before), after=self.amount(meter))

    def pay(self, meter: str, share: Fraction, reset: int) -> MeterMove:
        before = self._get(meter)
        stored = self._specs.get(meter)
        paid, after = pay_share(before, share, stored.reset if stored is not None else reset)
        self._amounts[meter] = after
        return MeterMove(meter=meter, before=math.floor(before), after=math.floor(after), paid=paid)

    def snapshot(self) -> dict[str, int]:
        return {k: math.floor(v) for k, v in self._amounts.items()}
