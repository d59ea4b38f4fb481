"""The one exception tree of croupier.

::

    ValueError
    └── CroupierError            every error croupier raises on purpose
        ├── InvalidInput         malformed input: bad card text, a duplicate card, a bad amount
        ├── IllegalAction        well-formed, but the rules do not allow it now
        ├── RulesViolation       a Rules Submission the regulations forbid
        ├── Irregularity         something happened that voids the round
        └── MissingExtra         a face whose optional extra is not installed (croupier.core.extras)

Every error quotes the offending input, names the state it met and, where a rule of the
regulation forbids it, the section (``section`` attribute, e.g. ``"§ 641a.7(c)"``).
Raising one of these never leaves a partial change behind: callers validate first, then mutate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = [
    "CroupierError",
    "IllegalAction",
    "InvalidInput",
    "Irregularity",
    "MissingExtra",
    "Problem",
    "RulesViolation",
    "format_problem",
    "format_problems",
    "shown_value",
]

_LOG10_2 = math.log10(2)


def shown_value(value: object) -> str:
    """A value quoted in an error message, at most ~80 characters (never raising)."""
    if isinstance(value, int) and not -(10**60) < value < 10**60:
        # counted from its bits: Python refuses to print an integer of over 4,300 digits
        digits = int(abs(value).bit_length() * _LOG10_2) + 1
        return f"<an integer of about {digits:,} digits>"
    try:
        text = repr(value)
    except Exception:  # a hostile or oversized __repr__ never escapes
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


Problem = tuple[str, str | None]
"""A problem with an input (a Rules Submission, a scenario): its message and the section that
forbids it (``None`` for plain bad input)."""


def format_problem(problem: Problem) -> str:
    """One problem as it is shown: ``"message (section)"``, or the message alone."""
    message, section = problem
    return f"{message} ({section})" if section else message


def format_problems(problems: Sequence[Problem], *, limit: int | None = None) -> str:
    """Problems on one line, ``"; "`` between them; past ``limit`` of them, ``(and N more)``.

    Every face that reports several problems at once (the games, the scenario reader, the CLI)
    writes them with this and :func:`format_problem`, so they read the same everywhere."""
    shown = problems if limit is None else problems[:limit]
    text = "; ".join(format_problem(p) for p in shown)
    if len(problems) > len(shown):
        text += f" (and {len(problems) - len(shown)} more)"
    return text


class CroupierError(ValueError):
    """Base of every croupier error; a ``ValueError`` so generic callers can catch it."""

    def __init__(self, message: str, *, section: str | None = None) -> None:
        self.message = message
        self.section = section
        super().__init__(format_problem((message, section)))


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
        problems: tuple[Problem, ...] = (),
    ) -> None:
        self.problems = problems or ((message, section),)
        super().__init__(message, section=section)

    @classmethod
    def of(
        cls, problems: Sequence[Problem], where: str, *, section: str | None = None
    ) -> RulesViolation:
        """Every problem found ``where`` (``"in the four-card-poker Rules Submission"``), at
        once: ``"N problem(s) in ...: a; b (§ x)"``."""
        return cls(
            f"{len(problems)} problem(s) {where}: {format_problems(problems)}",
            section=section,
            problems=tuple(problems),
        )


class Irregularity(CroupierError):
    """An event the regulations treat as an irregularity: the round must be voided."""


class MissingExtra(CroupierError):
    """A command or face that needs an optional extra (:mod:`croupier.core.extras`) not installed
    here: ``"par: needs the analysis extra: pip install 'croupier[analysis]'"``."""

    def __init__(self, extra: str, command: str) -> None:
        self.extra = extra
        self.command = command
        super().__init__(f"{command}: needs the {extra} extra: pip install 'croupier[{extra}]'")
