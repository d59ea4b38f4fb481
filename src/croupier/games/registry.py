"""The one registration of the games: a line of :data:`ENTRIES` per game package.

A game lives in two folders: its package under ``croupier/games/`` (rules, round, pay tables,
procedures; the package lists its classes in ``GAME_CLASSES``) and its analysis under
``croupier/analysis/``.  :data:`ENTRIES` joins the two, one :class:`GameEntry` each, and is the
only place outside those folders that names a game (``tests/test_one_place.py`` holds it so).
:data:`croupier.games.GAMES`, :func:`~croupier.games.game_class` and
:func:`~croupier.games.get_game` are built from it; :func:`entry_for` finds a game's entry from
its slug, an alias, its class or a game.

The analysis module is imported only when asked for (:meth:`GameEntry.analysis_module`), so the
engine runs without the analysis extra.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING

from croupier.core.errors import InvalidInput, shown_value

if TYPE_CHECKING:
    from croupier.games.base import Game

__all__ = ["ENTRIES", "GameEntry", "entry_for"]


@dataclass(frozen=True)
class GameEntry:
    """One game package and its analysis, by their module paths."""

    package: str
    """The game's package (``"croupier.games.ultimate_texas_holdem"``); its ``GAME_CLASSES``
    are the games it defines (the three baccarats share one package)."""
    analysis: str
    """The game's analysis module (``"croupier.analysis.ultimate_texas_holdem"``), imported
    on first use."""

    def classes(self) -> tuple[type[Game], ...]:
        """The game classes of the package (its ``GAME_CLASSES``), in its order."""
        return _classes(self.package)

    def analysis_module(self) -> ModuleType:
        """The game's analysis module, imported now (a module already imported is returned as
        it is); :class:`~croupier.core.errors.MissingExtra` where the analysis extra is not
        installed."""
        from croupier.core.extras import require

        require("analysis", f"the analysis of {self.package}")
        return importlib.import_module(self.analysis)


ENTRIES: tuple[GameEntry, ...] = (
    GameEntry("croupier.games.four_card_poker", "croupier.analysis.four_card_poker"),
    GameEntry("croupier.games.let_it_ride", "croupier.analysis.let_it_ride"),
    GameEntry("croupier.games.three_card_poker", "croupier.analysis.three_card_poker"),
    GameEntry("croupier.games.ultimate_texas_holdem", "croupier.analysis.ultimate_texas_holdem"),
    GameEntry("croupier.games.mississippi_stud", "croupier.analysis.mississippi_stud"),
    GameEntry("croupier.games.baccarat", "croupier.analysis.baccarat"),
)
"""Every game package, one line each, in the order the games are listed."""


@cache
def _classes(package: str) -> tuple[type[Game], ...]:
    from croupier.games.base import Game

    classes = tuple(getattr(importlib.import_module(package), "GAME_CLASSES", ()))
    for cls in classes:
        if not (isinstance(cls, type) and issubclass(cls, Game)):  # pragma: no cover - a bad line
            raise TypeError(f"{package}.GAME_CLASSES holds {cls!r}, not a Game class")
    return classes


@cache
def _by_name() -> dict[str, GameEntry]:
    """Each slug and alias of every registered game, to its entry."""
    found: dict[str, GameEntry] = {}
    for entry in ENTRIES:
        for cls in entry.classes():
            for name in (cls.slug, *cls.aliases):
                found[name] = entry
    return found


def entry_for(game: Game | type[Game] | str) -> GameEntry:
    """The entry of ``game``: a slug, an alias, a game class or a game."""
    from croupier.games.base import Game

    if isinstance(game, str):
        entry = _by_name().get(game)
        if entry is None:
            known = ", ".join(sorted({cls.slug for e in ENTRIES for cls in e.classes()}))
            raise InvalidInput(f"game {game!r} is unknown; games are {known}")
        return entry
    cls = type(game) if isinstance(game, Game) else game
    if isinstance(cls, type) and issubclass(cls, Game):
        for entry in ENTRIES:
            if any(issubclass(cls, known) for known in entry.classes()):
                return entry
        raise InvalidInput(f"game class {cls.__qualname__} is in no registered game package")
    raise InvalidInput(f"game {shown_value(game)} is not a game, a game class or a game's name")
