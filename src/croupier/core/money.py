"""Money and odds.

Money is integer cents everywhere (:data:`Cents`).  Odds are exact: ``"25 to 1"`` pays 25 units
of winnings *and* returns the stake; ``"100 for 1"`` returns 100 units *including* the stake (so
it wins 99).  Both occur in the regulations and are never confused here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from typing import NewType

from croupier.core.errors import InvalidInput, shown_value

__all__ = [
    "MAX_ODDS",
    "MAX_WAGER",
    "Cents",
    "Odds",
    "OddsKind",
    "format_cents",
    "parse_cents",
    "parse_rate",
    "verify_amount",
    "vigorish",
]

Cents = NewType("Cents", int)
"""An amount of money in integer cents."""

MAX_WAGER = 10**9
"""The largest single wager croupier accepts, cents ($10,000,000).  Not a rule of the
regulations (a table posts its own maximum, ``[limits]``): with pay lines of at most
:data:`MAX_ODDS` to 1 and Play wagers of at most a few times the Ante, every amount a wager can
win stays inside a record's exact range (``INT_LIMIT``, 2**53 - 1 cents), so a round accepted is
a round that can be settled."""
MAX_ODDS = 10**6
"""The largest numerator or denominator of a pay line's odds (the largest of the published
tables croupier ships is 20,000 to 1)."""


def verify_amount(amount: object, *, what: str = "amount") -> Cents:
    """Return ``amount`` as :data:`Cents` if it is a positive integer, else raise ``InvalidInput``.

    Booleans, floats (even ``5.0``), zero and negatives are refused: a wager is a whole, positive
    number of cents.
    """
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidInput(f"{what} {amount!r} is not a whole number of cents")
    if amount <= 0:
        raise InvalidInput(f"{what} {amount!r} must be a positive number of cents")
    return Cents(amount)


def parse_cents(text: str, *, what: str = "amount") -> Cents:
    """Read ``"500"`` (cents) or ``"$5"``/``"$5.25"`` (dollars) into cents."""
    from croupier.core.reading import quote

    if not isinstance(text, str):
        raise InvalidInput(f"{what} {shown_value(text)} is not text such as 500 or $5.00")
    raw = text.strip().replace(",", "")
    # at most 18 digits: a larger amount is no table's (and a line of thousands of digits is
    # not converted at all)
    match = re.fullmatch(r"\$(\d{1,16})(?:\.(\d{2}))?", raw)
    if match:
        return Cents(int(match.group(1)) * 100 + int(match.group(2) or 0))
    if re.fullmatch(r"\d{1,18}", raw):
        return Cents(int(raw))
    raise InvalidInput(
        f"{what} {quote(text)} is not cents (e.g. 500) or dollars (e.g. $5.00), at most 18 digits"
    )


RATE_PLACES = 6
"""Most decimal places in a rate (a share such as ``"0.125"``): exact in the store's columns."""
_RATE_RE = re.compile(rf"(\d{{1,6}})(?:\.(\d{{1,{RATE_PLACES}}}))?|(\d{{1,6}})/([1-9]\d{{0,8}})")


def parse_rate(value: object, *, what: str = "rate") -> Fraction:
    """Read a rate exactly: ``"0.25"`` or ``"1/4"`` (text), a JSON/TOML decimal read from its
    text (:class:`~decimal.Decimal`), or the integers 0 and 1.

    Refused, with ``InvalidInput``: binary floats (``0.05`` as a float is not five hundredths),
    booleans, exponents (``"1e-30000000"``), more than :data:`RATE_PLACES` decimal places, and
    anything that is not a number.  No arithmetic happens before the text is checked, so no input
    costs more than a regular expression.
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool | float):
        kind = "true/false" if isinstance(value, bool) else "a binary float"
        raise InvalidInput(f'{what} {value!r} is {kind}; write it as text, e.g. "0.25"')
    if isinstance(value, int):
        if value in (0, 1):
            return Fraction(value)
        raise InvalidInput(f"{what} {value!r} is not a share between 0 and 1")
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise InvalidInput(f"{what} {str(value)!r} is not a finite number")
        exponent = value.as_tuple().exponent
        if not isinstance(exponent, int) or not -RATE_PLACES <= exponent <= 6:
            shown = str(value) if len(str(value)) <= 40 else str(value)[:37] + "..."
            raise InvalidInput(
                f"{what} {shown} has more than {RATE_PLACES} decimal places or an exponent; "
                'write it as text, e.g. "0.25"'
            )
        if len(value.as_tuple().digits) > 12:
            raise InvalidInput(f"{what} {value} has too many digits")
        return Fraction(value)
    if not isinstance(value, str):
        raise InvalidInput(f'{what} must be a number written as text, e.g. "0.25"')
    match = _RATE_RE.fullmatch(value.strip())
    if match is None:
        shown = repr(value) if len(value) <= 40 else repr(value[:37] + "...")
        raise InvalidInput(
            f'{what} {shown} is not a decimal such as "0.25" (at most {RATE_PLACES} places, '
            'no exponent) or a fraction such as "1/4"'
        )
    whole, places, num, den = match.groups()
    if num is not None:
        return Fraction(int(num), int(den))
    return Fraction(int(whole)) + (Fraction(int(places), 10 ** len(places)) if places else 0)


def format_cents(amount: int) -> str:
    """``123456`` -> ``"$1,234.56"``; whole dollars print without cents (``"$5"``)."""
    sign = "-" if amount < 0 else ""
    dollars, cents = divmod(abs(amount), 100)
    return f"{sign}${dollars:,}" if cents == 0 else f"{sign}${dollars:,}.{cents:02d}"


class OddsKind(Enum):
    TO = "to"
    """``n to 1``: win n per unit and keep the stake."""
    FOR = "for"
    """``n for 1``: receive n per unit in all, the stake included."""


_ODDS_RE = re.compile(r"\s*(\d{1,9})\s*(to|for)\s*(\d{1,9})\s*")
"""At most nine digits a side: no longer number is converted (the bound, :data:`MAX_ODDS`, is
checked where a pay line is read)."""


@dataclass(frozen=True, slots=True)
class Odds:
    """Exact payout odds ``numerator to/for denominator``."""

    numerator: int
    denominator: int = 1
    kind: OddsKind = OddsKind.TO

    def __post_init__(self) -> None:
        for name in ("numerator", "denominator"):
            value = getattr(self, name)
            if type(value) is not int:
                raise InvalidInput(f"odds {name} {shown_value(value)} is not a whole number")
        if not isinstance(self.kind, OddsKind):
            raise InvalidInput(f"odds kind {shown_value(self.kind)} is not 'to' or 'for'")
        if self.denominator <= 0 or self.numerator < 0:
            raise InvalidInput(f"odds {self.numerator} {self.kind.value} {self.denominator}")
        if self.kind is OddsKind.FOR and self.numerator < self.denominator:
            raise InvalidInput(
                f"odds {self} pay back less than the stake; 'for' odds must be at least 1 for 1"
            )

    @staticmethod
    def parse(text: str) -> Odds:
        """Read ``"25 to 1"``, ``"3 to 2"`` or ``"100 for 1"``."""
        match = _ODDS_RE.fullmatch(text) if isinstance(text, str) else None
        if not match:
            raise InvalidInput(
                f"odds {shown_value(text)} are not of the form '25 to 1' or '100 for 1' "
                "(at most nine digits a side)"
            )
        return Odds(int(match.group(1)), int(match.group(3)), OddsKind(match.group(2)))

    @property
    def net(self) -> Fraction:
        """Net winnings per unit staked (``to`` odds as written; ``for`` odds less the stake)."""
        ratio = Fraction(self.numerator, self.denominator)
        return ratio if self.kind is OddsKind.TO else ratio - 1

    def winnings(self, stake: int) -> Cents:
        """Net amount won on ``stake`` cents, rounded down to a whole cent."""
        return Cents(
            stake * self.numerator // self.denominator - (0 if self.kind is OddsKind.TO else stake)
        )

    def returned(self, stake: int) -> Cents:
        """Everything handed back on a win: the stake plus the winnings."""
        return Cents(stake + self.winnings(stake))

    def __str__(self) -> str:
        return f"{self.numerator} {self.kind.value} {self.denominator}"


def vigorish(won: int, rate: Fraction, *, round_to: int = 5) -> Cents:
    """Commission on ``won`` cents at ``rate``, rounded up to the next multiple of ``round_to``.

    § 541.13(f) allows rounding the vigorish to 5 cents or the next highest multiple of 5 cents:
    $7.00 won at 5% owes 35 cents; $3.10 at 4% owes 12.4 cents, collected as 15.
    """
    exact = Fraction(won) * rate
    units = -((-exact) // round_to)  # ceiling division on a Fraction
    return Cents(int(units) * round_to)
