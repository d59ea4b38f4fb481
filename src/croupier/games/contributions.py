"""A round's part in the progressive meters: the bank it moves and what it has added to each.
A collaborator of :class:`~croupier.games.round.Round` (issue 37: each class owns its state).

Every move of a meter by a round goes through here and comes back as its ``MeterChanged``
record: :meth:`contribute` (the rate of progression of the progressive wagers accepted at "no
more bets", § 641a.8(b) and its counterparts), :meth:`take_back` (a void returns those wagers,
so their contributions come off, never more than the round added) and :meth:`pay` (an award, a
share of the meter).  :meth:`attach` moves a rebuilt round onto the store's meters.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.core.frozen import frozen_dict
from croupier.games.records import MeterChanged, shown_value
from croupier.rules.progressive import MemoryMeters, MeterBank, MeterMove, MeterSpec

__all__ = ["Contributions", "verify_meter_bank"]

_BANK_METHODS = ("ensure", "amount", "contribute", "pay")


def verify_meter_bank(meters: object) -> None:
    """Refuse ``meters`` that are not a :class:`~croupier.rules.progressive.MeterBank`."""
    if type(meters) is MemoryMeters:
        return
    for method in _BANK_METHODS:
        if not callable(getattr(meters, method, None)):
            raise InvalidInput(f"meters {shown_value(meters)} are not a MeterBank")


class Contributions:
    """The meters a round contributes to, and its contributions so far (exact), by meter."""

    __slots__ = ("_added", "_meters")
    _meters: MeterBank
    _added: dict[str, Fraction]

    def __init__(self, meters: MeterBank) -> None:
        verify_meter_bank(meters)
        self._meters = meters
        self._added = {}

    def __repr__(self) -> str:
        return f"Contributions({dict(self._added)!r})"

    @property
    def meters(self) -> MeterBank:
        """The bank the round moves (the caller's, or the store's after :meth:`attach`)."""
        return self._meters

    @property
    def added(self) -> Mapping[str, Fraction]:
        """The round's contributions so far, by meter (exact; a read-only copy)."""
        return frozen_dict(self._added)

    def attach(self, meters: MeterBank) -> None:
        """Go on with ``meters`` (a round rebuilt on memory meters continues on the store's);
        the contributions so far are kept, so a later void takes them back."""
        verify_meter_bank(meters)
        self._meters = meters

    def ensure(self, spec: MeterSpec) -> int:
        """The meter of ``spec`` exists (created at its reset); its amount now."""
        return self._meters.ensure(spec)

    def contribute(self, spec: MeterSpec, wagered: int) -> MeterChanged:
        """The meter of ``spec`` progresses by its rate of ``wagered`` cents."""
        if type(wagered) is not int or wagered <= 0:
            raise InvalidInput(f"{shown_value(wagered)} cents wagered do not move a meter")
        contribution = spec.rate * wagered
        move = self._meters.contribute(spec.name, contribution)
        self._added[spec.name] = self._added.get(spec.name, Fraction(0)) + contribution
        return _changed(spec.name, move, "contribution")

    def verify_take_back(self, meter: str) -> None:
        """Refuse to take back from a meter the round has added nothing to."""
        if meter not in self._added:
            raise IllegalAction(f"the round has added nothing to the meter {meter!r}")

    def take_back(self, meter: str, owed: Fraction) -> MeterChanged:
        """A void returns progressive wagers: their ``owed`` contributions come off ``meter``
        (never more than the round added)."""
        self.verify_take_back(meter)
        amount = min(owed, self._added[meter])
        move = self._meters.contribute(meter, -amount)
        self._added[meter] -= amount
        return _changed(meter, move, "void")

    def pay(self, spec: MeterSpec, share: Fraction) -> tuple[MeterChanged, int]:
        """An award of ``share`` of the meter of ``spec``: its record and the cents paid."""
        move = self._meters.pay(spec.name, share, spec.reset)
        return _changed(spec.name, move, "award"), move.paid


def _changed(meter: str, move: MeterMove, reason: str) -> MeterChanged:
    return MeterChanged(meter=meter, before=move.before, after=move.after, reason=reason)
