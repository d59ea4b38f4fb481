"""Pay tables as cited data.

A :class:`PayTable` is a wager's table under one letter of the regulation: lines from the highest
hand down, each paying fixed :class:`~croupier.money.Odds` ("to 1" or "for 1"), a share of a
progressive meter, or a fixed amount (Envy Bonuses).  Only the highest line a hand reaches pays.
A hand is matched by its *keys*: the category names it satisfies plus game-specific names such as
``four_aces`` or ``pair_of_aces``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from croupier.errors import InvalidInput
from croupier.money import Odds, OddsKind, format_cents

__all__ = ["EnvySchedule", "PayLine", "PayTable", "for_", "to"]


def to(n: int, d: int = 1) -> Odds:
    return Odds(n, d, OddsKind.TO)


def for_(n: int, d: int = 1) -> Odds:
    return Odds(n, d, OddsKind.FOR)


@dataclass(frozen=True, kw_only=True, slots=True)
class PayLine:
    """One line: the hand it pays and how (exactly one of odds, meter share, fixed amount)."""

    hand: str
    odds: Odds | None = None
    meter_share: Fraction | None = None
    amount: int | None = None

    def __post_init__(self) -> None:
        given = [x is not None for x in (self.odds, self.meter_share, self.amount)]
        if sum(given) != 1:
            raise InvalidInput(f"pay line {self.hand!r} needs exactly one of odds, share, amount")
        if self.meter_share is not None and not 0 < self.meter_share <= 1:
            raise InvalidInput(
                f"pay line {self.hand!r} meter share {self.meter_share} not in (0, 1]"
            )
        if self.amount is not None and self.amount <= 0:
            raise InvalidInput(f"pay line {self.hand!r} amount {self.amount} must be positive")

    def describe(self) -> str:
        if self.odds is not None:
            return str(self.odds)
        if self.meter_share is not None:
            pct = self.meter_share * 100
            return f"{pct.numerator if pct.denominator == 1 else float(pct)}% of meter"
        assert self.amount is not None
        return format_cents(self.amount)


@dataclass(frozen=True, kw_only=True, slots=True)
class PayTable:
    """A wager's pay table under one letter, with the section it comes from."""

    wager: str
    letter: str
    section: str
    lines: tuple[PayLine, ...]
    verified: bool = True
    """False where the PA text with this letter was not available (a widely published table)."""
    note: str = ""

    def line_for(self, keys: Iterable[str]) -> PayLine | None:
        """The highest line whose hand is among ``keys``, or ``None`` (the wager loses)."""
        have = set(keys)
        for line in self.lines:
            if line.hand in have:
                return line
        return None

    def hands(self) -> tuple[str, ...]:
        return tuple(line.hand for line in self.lines)

    def render(self) -> list[str]:
        mark = "" if self.verified else "  (not verified against the PA text)"
        rows = [f"{self.wager} pay table {self.letter} ({self.section}){mark}"]
        rows += [f"  {line.hand.replace('_', ' '):<22} {line.describe()}" for line in self.lines]
        return rows


@dataclass(frozen=True, kw_only=True, slots=True)
class EnvySchedule:
    """Envy Bonus amounts by the receiving player's own progressive wager (cents)."""

    letter: str
    section: str
    by_wager: Mapping[int, tuple[PayLine, ...]] = field(default_factory=dict)

    def line_for(self, wager: int, keys: Iterable[str]) -> PayLine | None:
        have = set(keys)
        for line in self.by_wager.get(wager, ()):
            if line.hand in have:
                return line
        return None

    def qualifying_hands(self) -> frozenset[str]:
        return frozenset(line.hand for lines in self.by_wager.values() for line in lines)

    def render(self) -> list[str]:
        rows = [f"Envy Bonus schedule {self.letter} ({self.section})"]
        for wager, lines in sorted(self.by_wager.items()):
            shown = ", ".join(f"{ln.hand.replace('_', ' ')} {ln.describe()}" for ln in lines)
            rows.append(f"  {format_cents(wager)} progressive wager: {shown}")
        return rows
