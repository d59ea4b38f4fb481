"""The analysis package's modules import one another without a circle (issue 37): each
game's analysis sits in its own folder and the shared techniques take a game's entry, so no
chain of imports (at module level or inside a function) comes back to where it started.  The
graph is read from the source (AST), with what Python runs on ``import a.b.c``: the packages
``a`` and ``a.b`` first."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import croupier.analysis

ROOT = Path(croupier.analysis.__file__).parent
PACKAGE = "croupier.analysis"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _runs(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import a module may run: at module level and inside its functions (a lazy import
    is still a dependency: the circle it closes only waits for the first call), leaving out
    those under ``if TYPE_CHECKING:`` (read by the type checker only) and a package's
    ``__getattr__`` (PEP 562: a game package hands out its ``ANALYSIS`` from its ``entry``
    module when the registry asks, the top of the game's graph)."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
            continue
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            continue
        if isinstance(node, ast.If):
            test = node.test
            if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
                yield from _runs(node.orelse)
                continue
        for field in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                yield from _runs([n for n in inner if isinstance(n, ast.stmt)])
                for handler in inner:
                    if isinstance(handler, ast.ExceptHandler):
                        yield from _runs(handler.body)
        if isinstance(node, ast.With | ast.AsyncWith | ast.For | ast.While | ast.Match):
            for case in getattr(node, "cases", []):
                yield from _runs(case.body)


def _with_parents(name: str, known: dict[str, Path]) -> set[str]:
    """``name`` and the packages above it that Python imports first, among ``known``."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)} & set(known)


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in _runs(tree.body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out |= _with_parents(alias.name, known)
            continue
        base = node.module or ""
        if node.level:
            anchor = name.split(".") if is_package else name.split(".")[:-1]
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        out |= _with_parents(base, known)
        for alias in node.names:  # ``from a import b``: b may be a module
            out |= _with_parents(f"{base}.{alias.name}", known)
    out.discard(name)
    return out


def import_graph() -> dict[str, set[str]]:
    """Each analysis module -> the analysis modules its imports run."""
    known = _modules()
    return {name: _imports(name, path, known) for name, path in known.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of the graph (empty: none), found by depth-first search."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_analysis_modules_import_without_a_circle() -> None:
    graph = import_graph()
    assert _cycle(graph) == []


def test_import_graph_sees_a_circle_and_the_parent_packages() -> None:
    # the check itself: a circle is found, and importing a.b.c runs a and a.b
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []
    graph = import_graph()
    solver = f"{PACKAGE}.ultimate_texas_holdem.solver"
    assert f"{PACKAGE}.ultimate_texas_holdem.kernels" in graph[solver]
    assert f"{PACKAGE}.ultimate_texas_holdem" in graph[solver]
    assert PACKAGE in graph[solver]


def test_each_game_package_imports_its_entry_lazily() -> None:
    # a game folder's __init__ runs no import of the analysis: importing its kernel or solver
    # does not pull in the par sheet, the Monte Carlo or the registry
    graph = import_graph()
    packages = [name for name, path in _modules().items() if path.name == "__init__.py"]
    games = [p for p in packages if p != PACKAGE]
    assert games
    for package in games:
        assert graph[package] <= {PACKAGE}, package


def _game_names() -> tuple[set[str], set[str]]:
    """Every game's slug and aliases, and the names of the game classes and their rounds."""
    from croupier.games import GAMES

    slugs = {name for cls in GAMES.values() for name in (cls.slug, *cls.aliases)}
    classes = {cls.__name__ for cls in GAMES.values()}
    for cls in GAMES.values():
        classes |= {base.__name__ for base in cls.__mro__ if base.__module__ == cls.__module__}
    return slugs, classes


def _names_a_game(path: Path, slugs: set[str], classes: set[str]) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in slugs:
            found.append(f"{path.name}:{node.lineno} {node.value!r}")
        elif isinstance(node, ast.Name) and node.id in classes:
            found.append(f"{path.name}:{node.lineno} {node.id}")
        elif isinstance(node, ast.alias) and node.name in classes:
            found.append(f"{path.name}: imports {node.name}")
    return found


def test_shared_techniques_name_no_game() -> None:
    # the modules at analysis/ itself take a game's entry: no slug or alias literal, no game
    # class (an isinstance branch, a get_game("...")), no import of a game's folder
    slugs, classes = _game_names()
    games = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()}
    found = []
    for path in sorted(ROOT.glob("*.py")):
        found += _names_a_game(path, slugs, classes)
        for target in import_graph()[_module_name(path)]:
            if target.split(".")[2:3] and target.split(".")[2] in games:
                found.append(f"{path.name}: imports {target}")
    assert found == []


def test_the_game_name_check_finds_a_slug_and_a_class(tmp_path: Path) -> None:
    slugs, classes = _game_names()
    sample = tmp_path / "sample.py"
    sample.write_text(
        'from croupier.games.let_it_ride import LetItRide\nx = "let-it-ride"\n'
        "def f(g: object) -> bool:\n    return isinstance(g, LetItRide)\n"
    )
    assert _names_a_game(sample, slugs, classes) == [
        "sample.py: imports LetItRide",
        "sample.py:2 'let-it-ride'",
        "sample.py:4 LetItRide",
    ]
