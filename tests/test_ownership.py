"""Each class owns its state (issue 37): no module reaches into another object's privates.

The test reads every module under ``src/croupier`` as a syntax tree and reports, all at once and
each as ``path:line: what``:

1. a write of an underscore attribute (``x._a = ...``, ``x._a += ...``, ``del x._a``, also
   ``object.__setattr__(x, "_a", ...)`` and ``setattr(x, "_a", ...)`` with a literal name, and
   a write into one, ``x._a[k] = ...``) on any object other than ``self`` or ``cls``;
2. a call of another object's underscore method (``x._m(...)`` where ``x`` is not ``self``,
   ``cls`` or ``super()``);
3. an import of a private module (a path segment starting with ``_``) of another package: a
   module may import the private modules of its own package and of the packages that contain
   it (``croupier.games._made`` from ``croupier.games.round`` or from a game's package
   ``croupier.games.baccarat``), never those of a sibling package (``croupier.store._db`` from
   ``croupier.server``) nor of a package inside its own.

Dunder names (``__init__``, ``__dict__``) are the language's, not private, and are not reported.
A class's own attribute written through the class name inside that class (``Deal._cache = ...``
in ``class Deal``) counts as ``cls``, and so does the object an alternate constructor of the
class makes (``shoe = cls.__new__(cls)``).  Any other alias of ``self`` is not followed: write
through ``self``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "croupier"


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _package_of(path: Path) -> str:
    """The package a module belongs to (a package's ``__init__`` belongs to itself)."""
    name = _module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _is_module(name: str) -> bool:
    path = SRC.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _own(node: ast.expr, owners: frozenset[str]) -> bool:
    """Whether ``node`` is the object whose state the code may touch: ``self``, ``cls``,
    ``super()``, or the enclosing class by name."""
    if isinstance(node, ast.Name):
        return node.id in owners
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
    )


def _literal_private(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and _private(node.value):
        return node.value
    return None


class _Reader(ast.NodeVisitor):
    def __init__(self, path: Path, rel: str) -> None:
        self.path = path
        self.rel = rel
        self.package = _package_of(path)
        self.owners: frozenset[str] = frozenset({"self", "cls"})
        self.found: list[Finding] = []

    def _add(self, node: ast.AST, what: str) -> None:
        self.found.append(Finding(self.rel, getattr(node, "lineno", 0), what))

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        outer = self.owners
        self.owners = outer | {node.name}
        self.generic_visit(node)
        self.owners = outer

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """A name bound in the function to ``cls.__new__(cls)`` (or the class's own) is the
        object the class is making (an alternate constructor): its own state."""
        outer = self.owners
        made = {
            target.id
            for sub in ast.walk(node)
            if isinstance(sub, ast.Assign)
            and isinstance(sub.value, ast.Call)
            and isinstance(sub.value.func, ast.Attribute)
            and sub.value.func.attr == "__new__"
            and _own(sub.value.func.value, outer)
            for target in sub.targets
            if isinstance(target, ast.Name)
        }
        self.owners = outer | made
        self.generic_visit(node)
        self.owners = outer

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def _target(self, target: ast.expr, verb: str) -> None:
        if isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self._target(element, verb)
        elif isinstance(target, ast.Starred):
            self._target(target.value, verb)
        elif isinstance(target, ast.Subscript):
            # x._a[k] = v writes into x's private container
            base: ast.expr = target
            while isinstance(base, ast.Subscript):
                base = base.value
            if (
                isinstance(base, ast.Attribute)
                and _private(base.attr)
                and not _own(base.value, self.owners)
            ):
                self._add(target, f"{verb} {ast.unparse(target)}")
        elif (
            isinstance(target, ast.Attribute)
            and _private(target.attr)
            and not _own(target.value, self.owners)
        ):
            self._add(target, f"{verb} {ast.unparse(target)}")

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._target(target, "assigns")
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._target(node.target, "assigns")
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._target(node.target, "augments")
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._target(target, "deletes")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            if _private(func.attr) and not _own(func.value, self.owners):
                self._add(node, f"calls {ast.unparse(func)}()")
            setter = func.attr in ("__setattr__", "__delattr__")
            if setter and len(node.args) >= 2 and not _own(node.args[0], self.owners):
                name = _literal_private(node.args[1])
                if name is not None:
                    self._add(node, f"{func.attr} {ast.unparse(node.args[0])}.{name}")
        elif (
            isinstance(func, ast.Name)
            and func.id in ("setattr", "delattr")
            and len(node.args) >= 2
            and not _own(node.args[0], self.owners)
        ):
            name = _literal_private(node.args[1])
            if name is not None:
                self._add(node, f"{func.id} {ast.unparse(node.args[0])}.{name}")
        self.generic_visit(node)

    def _module(self, node: ast.AST, module: str) -> None:
        parts = module.split(".")
        for i, part in enumerate(parts):
            if _private(part):
                home = ".".join(parts[:i])
                if not (self.package == home or self.package.startswith(home + ".")):
                    self._add(node, f"imports private module {module}")
                return

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._module(node, alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            anchor = self.package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        self._module(node, base)
        for alias in node.names:
            name = f"{base}.{alias.name}"
            if _is_module(name):  # a module imported by name; a private function is not one
                self._module(node, name)


def _read(path: Path, text: str) -> list[Finding]:
    reader = _Reader(path, path.relative_to(SRC.parent).as_posix())
    reader.visit(ast.parse(text, filename=str(path)))
    return reader.found


@cache
def findings() -> tuple[Finding, ...]:
    out: list[Finding] = []
    for path in sorted(SRC.rglob("*.py")):
        out.extend(_read(path, path.read_text(encoding="utf-8")))
    return tuple(out)


def test_the_reader_finds_every_kind_of_reach_and_nothing_else() -> None:
    text = """
from croupier.store._db import rounds
from croupier.games import _made
from croupier.hands import evaluate

class Deal:
    def __init__(self, rnd):
        self._cards = []
        Deal._count = 1
        super()._setup()
        rnd._phase = 1
        rnd._records[0] = None
        rnd._face_up += 1
        del rnd._plan
        object.__setattr__(rnd, "_stakes", {})
        setattr(rnd, "_hands", {})
        rnd._void("why", "")
        rnd.__dict__.update(a=1)

    @classmethod
    def made(cls):
        made = cls.__new__(cls)
        made._cards = []
        return made
"""
    found = [f"{f.line}: {f.what}" for f in _read(SRC / "games" / "example.py", text)]
    assert found == [
        "2: imports private module croupier.store._db",
        "11: assigns rnd._phase",
        "12: assigns rnd._records[0]",
        "13: augments rnd._face_up",
        "14: deletes rnd._plan",
        "15: __setattr__ rnd._stakes",
        "16: setattr rnd._hands",
        "17: calls rnd._void()",
    ]


def test_no_module_reaches_into_another_objects_private_state() -> None:
    assert [str(f) for f in findings()] == []
