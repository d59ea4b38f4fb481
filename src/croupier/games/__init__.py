"""The games: one registry with aliases, one protocol (:mod:`croupier.games.base`).

Each game is a package (``croupier.games.<game>``) listing its classes in ``GAME_CLASSES``;
:data:`GAMES` collects the packages of :data:`croupier.games.registry.ENTRIES`, the one
registration.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.core.errors import InvalidInput, RulesViolation, shown_value
from croupier.games.base import Actor, ActorKind, Game, Phase, Round, StubCheck, verify_game
from croupier.games.registry import ENTRIES
from croupier.rules.submission import RulesSubmission, load_rules

__all__ = [
    "GAMES",
    "Actor",
    "ActorKind",
    "Game",
    "Phase",
    "Round",
    "StubCheck",
    "game_class",
    "get_game",
    "verify_game",
]


def _collect() -> dict[str, type[Game]]:
    return {cls.slug: cls for entry in ENTRIES for cls in entry.classes()}


GAMES: dict[str, type[Game]] = _collect()
"""Every game by its slug."""

_ALIASES: dict[str, str] = {alias: cls.slug for cls in GAMES.values() for alias in cls.aliases}


def game_class(name: str) -> type[Game]:
    """The game class for a slug or alias."""
    if not isinstance(name, str):
        raise InvalidInput(f"game {shown_value(name)} is not a game's name (a slug or alias)")
    slug = _ALIASES.get(name, name)
    try:
        return GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise InvalidInput(f"game {name!r} is unknown; games are {known}") from None


RULES_SUBMISSION_SECTION = "§ 601a.2"
"""Table games Rules Submissions: the section every chapter files its options under (e.g.
§ 569.12(f), "selected by the certificate holder in its Rules Submission filed in accordance
with § 601a.2"); cited by a refusal of a submission whose game is unknown."""


def get_game(rules: str | RulesSubmission | Mapping[str, Any]) -> Game:
    """A game from its name (default rules), a Rules Submission, or a mapping of one."""
    if isinstance(rules, str):
        return game_class(rules)()
    if not isinstance(rules, RulesSubmission | Mapping):
        raise InvalidInput(
            f"rules {shown_value(rules)} are not a game name, a RulesSubmission or a mapping of one"
        )
    submission = rules if isinstance(rules, RulesSubmission) else load_rules(rules)
    try:
        cls = game_class(submission.game)
    except InvalidInput as exc:
        if not submission.problems:
            raise InvalidInput(exc.message, section=RULES_SUBMISSION_SECTION) from None
        # The game is unknown: report it with every shape problem, not alone; a file with no
        # game at all has that among its shape problems already (no second line for it).
        # Without a game there is no chapter to name: each cites § 601a.2, the section on
        # table games Rules Submissions.
        problems = submission.problems
        if submission.game:
            problems = (*problems, (exc.message, None))
        cited = tuple((m, s or RULES_SUBMISSION_SECTION) for m, s in problems)
        raise RulesViolation.of(cited, "in the Rules Submission") from None
    return cls(submission)
