"""One game, one place (issue 37): a game is named only in its folders and its one registration.

The test reads every module under ``src/croupier`` as a syntax tree and reports, each as
``path:line: what``, every place outside a game's folders (``games/<game>/``,
``analysis/<game>/``) and the registration (``games/registry.py``) that names a game:

1. a string literal that is a game's slug or alias (``"three-card-poker"``, ``"uth"``);
2. a game's class or round class, by name (``MiniBaccarat``, ``isinstance(r, LetItRideRound)``),
   in code or in an import.

The value of an enum member is its enum's own name, not a game's: ``Ranking.FOUR_CARD``'s
``"four-card"`` names the ranking of § 641a.6, whose words Four Card Poker's alias shares, and is
not reported.  Prose in docstrings and comments is not read.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from croupier.core.errors import InvalidInput
from croupier.games import GAMES, Round, game_class, get_game
from croupier.games.base import Game
from croupier.games.registry import ENTRIES, GameEntry, entry_for

SRC = Path(__file__).resolve().parents[1] / "src" / "croupier"


def _folder(package: str) -> str:
    """``croupier.games.let_it_ride`` -> ``let_it_ride``."""
    return package.rsplit(".", 1)[-1]


def game_names() -> frozenset[str]:
    """Every registered game's slug and aliases."""
    return frozenset(n for e in ENTRIES for c in e.classes() for n in (c.slug, *c.aliases))


def game_classes() -> frozenset[str]:
    """The name of every game class and round class a game package defines."""
    found: set[str] = set()
    for entry in ENTRIES:
        package = importlib.import_module(entry.package)
        modules = [package.__name__]
        modules += [m.name for m in pkgutil.iter_modules(package.__path__, f"{entry.package}.")]
        for name in modules:
            for value in vars(importlib.import_module(name)).values():
                own = isinstance(value, type) and value.__module__.startswith(entry.package)
                if own and issubclass(value, Game | Round):
                    found.add(value.__name__)
    return frozenset(found)


def allowed(rel: str) -> bool:
    """Whether the module at ``rel`` (relative to ``src/croupier``) may name a game."""
    folders = [_folder(e.package) for e in ENTRIES]
    return rel == "games/registry.py" or any(
        rel.startswith((f"games/{f}/", f"analysis/{f}/")) for f in folders
    )


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def _enum_values(tree: ast.Module) -> set[int]:
    """The ids of the string constants that are an enum member's value."""
    found: set[int] = set()
    enums = {"Enum", "StrEnum", "IntEnum", "Flag", "IntFlag"}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
        if not bases & enums:
            continue
        for item in node.body:
            if isinstance(item, ast.Assign) and isinstance(item.value, ast.Constant):
                found.add(id(item.value))
    return found


def scan(source: str, path: str, names: frozenset[str], classes: frozenset[str]) -> list[Finding]:
    """Every place in ``source`` that names a game (see the module docstring)."""
    tree = ast.parse(source)
    skip = _enum_values(tree)
    out: list[Finding] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value in names and id(node) not in skip:
                out.append(Finding(path, node.lineno, f"game name {node.value!r}"))
        elif isinstance(node, ast.Name) and node.id in classes:
            out.append(Finding(path, node.lineno, f"game class {node.id}"))
        elif isinstance(node, ast.Attribute) and node.attr in classes:
            out.append(Finding(path, node.lineno, f"game class {node.attr}"))
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name in classes:
                    out.append(Finding(path, node.lineno, f"imports game class {alias.name}"))
    return out


def findings() -> list[Finding]:
    names, classes = game_names(), game_classes()
    out: list[Finding] = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if not allowed(rel):
            out += scan(path.read_text(encoding="utf-8"), rel, names, classes)
    return out


def test_no_module_outside_a_games_folders_and_the_registry_names_a_game() -> None:
    assert [str(f) for f in findings()] == []


def test_the_scan_finds_a_slug_a_class_and_an_import() -> None:
    names, classes = game_names(), game_classes()
    source = (
        "from croupier.games.baccarat import MiniBaccarat\n"
        "def f(g):\n"
        "    if isinstance(g, MiniBaccarat) or g.slug == 'uth':\n"
        "        return get_game('three-card-poker')\n"
        "    return games.LetItRideRound\n"
    )
    found = [(f.line, f.what) for f in scan(source, "x.py", names, classes)]
    assert sorted(found) == [
        (1, "imports game class MiniBaccarat"),
        (3, "game class MiniBaccarat"),
        (3, "game name 'uth'"),
        (4, "game name 'three-card-poker'"),
        (5, "game class LetItRideRound"),
    ]


def test_an_enum_members_value_is_its_own_name_not_a_games() -> None:
    source = "class Ranking(Enum):\n    FOUR_CARD = 'four-card'\nx = 'four-card'\n"
    found = [(f.line, f.what) for f in scan(source, "x.py", game_names(), game_classes())]
    assert found == [(3, "game name 'four-card'")]


def test_each_game_package_is_one_folder_with_one_registry_line() -> None:
    packages = [e.package for e in ENTRIES]
    assert len(set(packages)) == len(packages)
    folders = {p.name for p in (SRC / "games").iterdir() if (p / "__init__.py").is_file()}
    assert folders == {_folder(p) for p in packages}
    for entry in ENTRIES:
        assert entry.package == f"croupier.games.{_folder(entry.package)}"
        assert entry.analysis == f"croupier.analysis.{_folder(entry.package)}"
        assert entry.classes() == importlib.import_module(entry.package).GAME_CLASSES


def test_games_and_game_class_are_built_from_the_registry() -> None:
    from_entries = {cls.slug: cls for e in ENTRIES for cls in e.classes()}
    assert from_entries == GAMES and list(GAMES) == list(from_entries)
    for entry in ENTRIES:
        for cls in entry.classes():
            assert all(game_class(n) is cls for n in (cls.slug, *cls.aliases))


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_entry_for_finds_a_game_by_slug_alias_class_and_game(slug: str) -> None:
    cls = GAMES[slug]
    entry = entry_for(slug)
    assert cls in entry.classes()
    assert all(entry_for(alias) is entry for alias in cls.aliases)
    assert entry_for(cls) is entry and entry_for(get_game(slug)) is entry


def test_entry_for_refuses_an_unknown_name_and_a_foreign_class() -> None:
    with pytest.raises(InvalidInput, match="'pai-gow' is unknown"):
        entry_for("pai-gow")
    with pytest.raises(InvalidInput, match="in no registered game package"):
        entry_for(Game)
    with pytest.raises(InvalidInput, match="not a game"):
        entry_for(3)  # type: ignore[arg-type]


def test_a_game_entry_is_a_frozen_record() -> None:
    entry = ENTRIES[0]
    with pytest.raises(AttributeError):
        entry.package = "croupier.games.other"  # type: ignore[misc]
    assert entry == GameEntry(entry.package, entry.analysis)
