"""Par sheets: the probability accounting of a wager, exact in integers and fractions.

A :class:`WagerSheet` is a list of outcomes, each with its net result and amount wagered (in
units of the wager the edge is quoted on) and its number of combinations.  From it follow the
house edge, element of risk, average total wager, hit frequency and standard deviation.

Conventions (stated in every sheet): the house edge is the expected loss per unit of the initial
required wager (the Ante for Three Card Poker, Four Card Poker, Mississippi Stud and Ultimate
Texas Hold 'Em, the Blind's result included but not its stake; one of the three equal bets for
Let It Ride; the wager itself for baccarat bets, ties counted as pushes); the element of risk is
the expected loss per unit of the average total amount wagered; the hit frequency is the chance
the round nets a gain for the player.

Sanity flags (:attr:`WagerSheet.flags`): a wager whose exact house edge is negative (the player
has the edge; for a progressive, its exact return at the meter's reset exceeds 100%) or above
:data:`EDGE_CEILING` is flagged in every face of the sheet.  A flag is a warning for whoever
files the Rules Submission, not a refusal: the regulation, not croupier, says what may be
offered.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

__all__ = [
    "CONVENTIONS",
    "EDGE_CEILING",
    "Outcome",
    "ParSheet",
    "WagerSheet",
    "exact",
    "merge_outcomes",
]

CONVENTIONS = (
    "house_edge: expected loss per unit of the initial required wager (Ante; one of Let It "
    "Ride's three bets; the baccarat wager itself, ties as pushes); the Blind's result is "
    "included but not its stake. element_of_risk: expected loss per unit of the average total "
    "amount wagered. hit_frequency: probability of a net gain. std_dev: of the net result per "
    "unit of the initial wager."
)


EDGE_CEILING = Fraction(1, 2)
"""A house edge above this is flagged: the player gets back less than half of each wager (the
progressives of the chapters price at 29-56% at their resets, the other wagers far lower)."""


def exact(value: Fraction) -> str:
    """A fraction as ``"p/q"``."""
    return f"{value.numerator}/{value.denominator}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Outcome:
    """One outcome: its name, what it pays (text), the net result and total wagered per unit
    of the initial wager, and how many equally likely deals give it."""

    name: str
    net: Fraction
    weight: int
    wagered: Fraction = Fraction(1)
    pays: str = ""


def merge_outcomes(outcomes: Iterable[Outcome]) -> tuple[Outcome, ...]:
    """Add up outcomes that share name, net, amount wagered and pays; drop empty ones."""
    merged: dict[tuple[str, Fraction, Fraction, str], int] = {}
    for o in outcomes:
        key = (o.name, o.net, o.wagered, o.pays)
        merged[key] = merged.get(key, 0) + o.weight
    rows = [
        Outcome(name=n, net=net, wagered=w, pays=p, weight=c)
        for (n, net, w, p), c in merged.items()
        if c
    ]
    rows.sort(key=lambda o: (-o.net, o.name))
    return tuple(rows)


@dataclass(frozen=True, kw_only=True)
class WagerSheet:
    """The exact accounting of one wager (or of a game's required wagers, ``base``)."""

    wager: str
    outcomes: tuple[Outcome, ...]
    paytable: str | None = None
    method: str = "exact"
    notes: tuple[str, ...] = ()
    meter: Mapping[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(o.weight for o in self.outcomes)

    def _mean(self, values: Iterable[tuple[Fraction, int]]) -> Fraction:
        return Fraction(sum(v * w for v, w in values), self.total)

    @property
    def expected(self) -> Fraction:
        return self._mean((o.net, o.weight) for o in self.outcomes)

    @property
    def house_edge(self) -> Fraction:
        return -self.expected

    @property
    def average_wager(self) -> Fraction:
        return self._mean((o.wagered, o.weight) for o in self.outcomes)

    @property
    def element_of_risk(self) -> Fraction:
        return self.house_edge / self.average_wager

    @property
    def hit_frequency(self) -> Fraction:
        return Fraction(sum(o.weight for o in self.outcomes if o.net > 0), self.total)

    @property
    def variance(self) -> Fraction:
        second = self._mean((o.net * o.net, o.weight) for o in self.outcomes)
        return second - self.expected**2

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    @property
    def flags(self) -> tuple[str, ...]:
        """Sanity flags: a house edge below zero or above :data:`EDGE_CEILING` (see the
        module); a progressive is priced at its meter's reset, and the flag says so."""
        edge = self.house_edge
        if 0 <= edge <= EDGE_CEILING:
            return ()
        shown = f"house edge {float(edge):.4%} ({exact(edge)})"
        if edge > EDGE_CEILING:
            ceiling = f"{float(EDGE_CEILING):.0%}"
            return (f"{shown} is above {ceiling}: the player gets back under half of each wager",)
        returned = f"exact return {float(1 - edge):.4%}"
        meter = self.meter.get("meter_cents")
        if isinstance(meter, int):
            returned += f" at its meter's reset of {meter:,} cents"
        elif any(o.pays.endswith("of meter") for o in self.outcomes):
            returned += " at its meters' resets"
        return (f"{returned} exceeds 100%: {shown} is negative, the player has the edge",)

    def to_json(self) -> dict[str, Any]:
        total = self.total
        data: dict[str, Any] = {
            "wager": self.wager,
            "paytable": self.paytable,
            "method": self.method,
            "combinations": total,
            "house_edge": float(self.house_edge),
            "house_edge_exact": exact(self.house_edge),
            "element_of_risk": float(self.element_of_risk),
            "element_of_risk_exact": exact(self.element_of_risk),
            "average_wager": float(self.average_wager),
            "average_wager_exact": exact(self.average_wager),
            "hit_frequency": float(self.hit_frequency),
            "hit_frequency_exact": exact(self.hit_frequency),
            "std_dev": self.std_dev,
            "variance_exact": exact(self.variance),
            "outcomes": [
                {
                    "outcome": o.name,
                    "pays": o.pays,
                    "net": float(o.net),
                    "net_exact": exact(o.net),
                    "combinations": o.weight,
                    "probability": o.weight / total,
                    "probability_exact": exact(Fraction(o.weight, total)),
                    "return": float(o.net * o.weight / total),
                }
                for o in self.outcomes
            ],
        }
        if self.notes:
            data["notes"] = list(self.notes)
        if self.meter:
            data["meter"] = dict(self.meter)
        data["flags"] = list(self.flags)
        return data

    def render(self) -> list[str]:
        table = f" (pay table {self.paytable})" if self.paytable else ""
        lines = [
            f"{self.wager}{table}: house edge {float(self.house_edge):.6%}, element of risk "
            f"{float(self.element_of_risk):.6%}, hit frequency {float(self.hit_frequency):.6%}, "
            f"std dev {self.std_dev:.4f} ({self.method})",
            f"  {'outcome':<28}{'pays':>14}{'combinations':>22}{'probability':>14}{'return':>12}",
        ]
        total = self.total
        for o in self.outcomes:
            lines.append(
                f"  {o.name:<28}{o.pays:>14}{o.weight:>22,}{o.weight / total:>14.8f}"
                f"{float(o.net * o.weight / total):>12.6f}"
            )
        lines += [f"  note: {n}" for n in self.notes]
        for key, value in self.meter.items():
            lines.append(f"  {key}: {value}")
        lines += [f"  warning: {f}" for f in self.flags]
        return lines


@dataclass(frozen=True, kw_only=True)
class ParSheet:
    """A game's par sheet: ``base`` (the required wagers with their decisions) and each optional
    wager."""

    game: str
    method: str
    base: WagerSheet | None
    wagers: Mapping[str, WagerSheet]
    rules: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def sheets(self) -> dict[str, WagerSheet]:
        """Every wager's sheet by name, the base first (when the sheet has one)."""
        return {**({"base": self.base} if self.base else {}), **self.wagers}

    @property
    def flags(self) -> tuple[str, ...]:
        """Every wager's sanity flags (:attr:`WagerSheet.flags`), each led by the wager."""
        return tuple(f"{name}: {f}" for name, sheet in self.sheets.items() for f in sheet.flags)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "method": self.method,
            "conventions": CONVENTIONS,
            "rules": dict(self.rules),
            "base": self.base.to_json() if self.base else None,
            "wagers": {name: sheet.to_json() for name, sheet in self.wagers.items()},
            **({"notes": list(self.notes)} if self.notes else {}),
            "flags": list(self.flags),
        }

    def render(self) -> str:
        lines = [f"Par sheet: {self.game} ({self.method})", f"Conventions: {CONVENTIONS}", ""]
        if self.base is not None:
            lines += [*self.base.render(), ""]
        for sheet in self.wagers.values():
            lines += [*sheet.render(), ""]
        lines += [f"note: {n}" for n in self.notes]
        lines += [f"warning: {f}" for f in self.flags]
        return "\n".join(lines).rstrip()
