"""The checks of a library call's plain arguments (counts, exact numbers, mappings), each
refusing a value of the wrong type with :class:`~croupier.core.errors.InvalidInput` naming the
argument and what was given (never a ``TypeError`` from inside), as the command line and HTTP
refuse theirs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from croupier.core.errors import InvalidInput, shown_value

__all__ = ["verify_exact", "verify_int", "verify_mapping", "verify_sequence", "verify_whole"]


def verify_int(value: object, *, what: str) -> int:
    """``value`` if it is a whole number (never a ``bool`` or a float); the caller checks its
    range in its own words."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} {shown_value(value)} is not a whole number")
    return value


def verify_whole(value: object, *, what: str, low: int = 1, high: int | None = None) -> int:
    """``value`` if it is a whole number (never a ``bool`` or a float) from ``low`` to
    ``high``."""
    number = verify_int(value, what=what)
    if number < low or (high is not None and number > high):
        span = f"at least {low:,}" if high is None else f"from {low:,} to {high:,}"
        raise InvalidInput(f"{what} {shown_value(number)} must be {span}")
    return number


def verify_exact(value: object, *, what: str) -> Fraction:
    """``value`` as an exact number: an ``int`` (not a ``bool``) or a :class:`Fraction`; a
    binary float is refused (0.05 is not five hundredths)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Fraction(value)
    raise InvalidInput(
        f"{what} {shown_value(value)} is not an exact number (an int or a Fraction such as "
        "Fraction(1, 20))"
    )


def verify_mapping(value: object, *, what: str) -> Mapping[Any, Any]:
    """``value`` if it is a mapping."""
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{what} {shown_value(value)} is not a mapping")
    return value


def verify_sequence(value: object, *, what: str) -> Sequence[Any]:
    """``value`` if it is a sequence other than text (``"abc"`` is not a list of names)."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise InvalidInput(f"{what} {shown_value(value)} is not a list")
    return value
