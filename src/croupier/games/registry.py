"""The one registration of each game: its package and its analysis package, found by slug,
alias, class or instance (issue 37).  The only place outside a game's own folders that names a
game; :mod:`croupier.analysis.registry` reads a game's analysis through :func:`entry_for`.

(Minimal version of the games branch's module, per the issue-37 contract: same API.)
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Final

from croupier.errors import InvalidInput

if TYPE_CHECKING:
    from croupier.games.base import Game

__all__ = ["ENTRIES", "GameEntry", "entry_for"]


@dataclass(frozen=True)
class GameEntry:
    """One game package and where its analysis lives."""

    package: str
    """The game package (``croupier.games.ultimate_texas_holdem``): its ``GAME_CLASSES``."""
    analysis: str
    """Its analysis package (``croupier.analysis.ultimate_texas_holdem``), imported lazily."""

    def classes(self) -> tuple[type[Game], ...]:
        """The package's game classes (``GAME_CLASSES``)."""
        return tuple(importlib.import_module(self.package).GAME_CLASSES)

    def analysis_module(self) -> ModuleType:
        """The analysis package, imported now."""
        return importlib.import_module(self.analysis)


ENTRIES: Final[tuple[GameEntry, ...]] = (
    GameEntry("croupier.games.four_card_poker", "croupier.analysis.four_card_poker"),
    GameEntry("croupier.games.ultimate_texas_holdem", "croupier.analysis.ultimate_texas_holdem"),
    GameEntry("croupier.games.three_card_poker", "croupier.analysis.three_card_poker"),
    GameEntry("croupier.games.let_it_ride", "croupier.analysis.let_it_ride"),
    GameEntry("croupier.games.mississippi_stud", "croupier.analysis.mississippi_stud"),
    GameEntry("croupier.games.baccarat", "croupier.analysis.baccarat"),
)
"""One line per game package."""


def entry_for(game: Game | type[Game] | str) -> GameEntry:
    """The entry of ``game``: a slug or alias, a game class or a game."""
    from croupier.games import game_class

    if isinstance(game, str):
        cls = game_class(game)
    else:
        cls = game if isinstance(game, type) else type(game)
    for entry in ENTRIES:
        if any(issubclass(cls, c) and c.slug == cls.slug for c in entry.classes()):
            return entry
    raise InvalidInput(f"game {cls.slug} has no registry entry")  # pragma: no cover
