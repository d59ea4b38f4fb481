"""Sizes (issue 14, its letter lifted by issue 37): a module is one thing a reader holds in mind.

The intent of issue 14's cap was that no module grows into a heap of unrelated code and no
function outgrows a screen.  Its letter (no file over 800 lines) split ``Round`` and ``Table``
into files of free functions that wrote the class's private state from outside (issue 37): the
cap made the code harder to follow, not easier.  So the rule is now:

- a module is at most :data:`MAX_FILE_LINES` (800) lines;
- except a module that is one class (at least :data:`ONE_CLASS_SHARE` of its lines are the body
  of one top-level class: the rest is its docstring, imports and a few helpers or records), which
  may reach :data:`MAX_CLASS_FILE_LINES` (1600): a class that owns its state keeps its methods
  with it, and when it is several things it is split into collaborators that own their own
  state (:mod:`tests.test_ownership` holds that), never into functions that reach into it;
- every function at most :data:`MAX_FUNCTION_LINES` (80), in every module.

A function's length runs from its ``def`` line to its last line (decorators not counted); nested
functions are measured too.  Ruff's branch and statement checks (PLR0912, PLR0915, limits in
pyproject.toml) watch the same code from another side.
"""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "croupier"
MAX_FILE_LINES = 800
MAX_CLASS_FILE_LINES = 1600
ONE_CLASS_SHARE = Fraction(3, 4)
MAX_FUNCTION_LINES = 80

# Issue 14: offenders left in other owners' files when the checks were turned on (see
# /work/coord/NOTES14.md, section "core"); each entry is its length then, so it may only shrink.
KNOWN_FILES: dict[str, int] = {}
KNOWN_FUNCTIONS: dict[str, int] = {}


def _sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _functions(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            out.append((node.name, node.end_lineno - node.lineno + 1))
    return out


def _largest_class(text: str) -> int:
    """The lines of the longest top-level class (decorators included), 0 without one."""
    longest = 0
    for node in ast.parse(text).body:
        if isinstance(node, ast.ClassDef):
            assert node.end_lineno is not None
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            longest = max(longest, node.end_lineno - first + 1)
    return longest


def _cap(text: str) -> int:
    """The most lines the module ``text`` may have: one class may be long, a heap may not."""
    lines = len(text.splitlines())
    if lines and Fraction(_largest_class(text), lines) >= ONE_CLASS_SHARE:
        return MAX_CLASS_FILE_LINES
    return MAX_FILE_LINES


def _name(path: Path) -> str:
    return path.relative_to(SRC.parent).as_posix()


def test_a_module_is_800_lines_or_one_class_of_1600() -> None:
    long = {}
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > _cap(text) and lines > KNOWN_FILES.get(_name(path), 0):
            long[_name(path)] = lines
    assert long == {}


def test_the_larger_cap_is_only_for_a_module_that_is_one_class() -> None:
    method = "    def m{0}(self) -> int:\n        return {0}\n"
    one_class = "class Long:\n" + "".join(method.format(i) for i in range(500))
    heap = "".join(f"def f{i}() -> int:\n    return {i}\n" for i in range(500))
    two = one_class + "\n\n" + one_class.replace("class Long", "class Other")
    assert (_cap(one_class), _cap(heap), _cap(two)) == (1600, 800, 800)


def test_no_function_is_over_80_lines() -> None:
    long = {}
    for path in _sources():
        for name, lines in _functions(path):
            key = f"{_name(path)}::{name}"
            if lines > MAX_FUNCTION_LINES and lines > KNOWN_FUNCTIONS.get(key, 0):
                long[key] = lines
    assert long == {}
