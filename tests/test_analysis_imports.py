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
