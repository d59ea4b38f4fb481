"""The games: one registry with aliases, one protocol (:mod:`croupier.games.base`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.errors import InvalidInput
from croupier.games.base import Actor, ActorKind, Game, Phase, Round, StubCheck
from croupier.games.four_card_poker import FourCardPoker
from croupier.rules import RulesSubmission, load_rules

__all__ = [
    "GAMES",
    "Actor",
    "ActorKind",
    "FourCardPoker",
    "Game",
    "Phase",
    "Round",
    "StubCheck",
    "game_class",
    "get_game",
]

GAMES: dict[str, type[Game]] = {cls.slug: cls for cls in (FourCardPoker,)}
"""Every game by its slug."""

_ALIASES: dict[str, str] = {alias: cls.slug for cls in GAMES.values() for alias in cls.aliases}


def game_class(name: str) -> type[Game]:
    """The game class for a slug or alias."""
    slug = _ALIASES.get(name, name)
    try:
        return GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise InvalidInput(f"game {name!r} is unknown; games are {known}") from None


def get_game(rules: str | RulesSubmission | Mapping[str, Any]) -> Game:
    """A game from its name (default rules), a Rules Submission, or a mapping of one."""
    if isinstance(rules, str):
        return game_class(rules)()
    submission = rules if isinstance(rules, RulesSubmission) else load_rules(rules)
    return game_class(submission.game)(submission)
