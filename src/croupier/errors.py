"""The one exception tree of croupier.

::

    ValueError
    └── CroupierError            every error croupier raises on purpose
        ├── InvalidInput         malformed input: bad card text, a duplicate card, a bad amount
        ├── IllegalAction        well-formed, but the rules do not allow it now
        ├── RulesViolation       a Rules Submission the regulations forbid
        └── Irregularity         something happened that voids the round

Every error quotes the offending input, names the state it met and, where a rule of the
regulation forbids it, the section (``section`` attribute, e.g. ``"§ 641a.7(c)"``).
Raising one of these never leaves a partial change behind: callers validate first, then mutate.
"""

from __future__ import annotations

__all__ = [
    "CroupierError",
    "IllegalAction",
    "InvalidInput",
    "Irregularity",
    "RulesViolation",
]


class CroupierError(ValueError):
    """Base of every croupier error; a ``ValueError`` so generic callers can catch it."""

    def __init__(self, message: str, *, section: str | None = None) -> None:
        self.message = message
        self.section = section
        text = f"{message} ({section})" if section else message
        super().__init__(text)


class InvalidInput(CroupierError):
    """Input that cannot be understood: unknown card text, a card twice, a non-integer amount."""


class IllegalAction(CroupierError):
    """A well-formed action that the rules do not allow in the current state."""


class RulesViolation(CroupierError):
    """A Rules Submission (or part of one) that the regulations forbid.

    ``problems`` holds every problem found, so a submission is reported all at once.
    """

    def __init__(
        self,
        message: str,
        *,
        section: str | None = None,
        problems: tuple[tuple[str, str | None], ...] = (),
    ) -> None:
        self.problems = problems or ((message, section),)
        super().__init__(message, section=section)


class Irregularity(CroupierError):
    """An event the regulations treat as an irregularity: the round must be voided."""
