"""Compiled builds of the round engine's hot modules, used only where built from the source here.

The engine is written once, in Python.  ``scripts/build_native.py`` (run by ``make``) compiles the
modules of :data:`COMPILED` with Cython from those same ``.py`` files, unchanged (no ``.pyx``, no
C types: the compiler removes the interpreter's dispatch, not the semantics), into
``croupier/_compiled/``, with a manifest of the SHA-256 of each module's source.  :func:`install`
(called by the package before any submodule is imported) puts a finder in front of the import
system that loads the compiled build of such a module only when the manifest's digest is that of
the ``.py`` file beside it now: an edited module is imported from its source until it is built
again, so a build never shadows a change.  ``CROUPIER_PURE=1`` in the environment imports every
module from source (the equivalence test plays the same seeded rounds both ways).

A machine without the build (an installed wheel, no C compiler) runs the same engine from source,
1.26-1.63 times slower on 2026-12-03 (``benchmarks/bench_engine.py`` prints both).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

__all__ = ["COMPILED", "NATIVE_DIR", "compiled_modules", "install"]

COMPILED: tuple[str, ...] = (
    "croupier.core.cards",
    "croupier.table.shoe",
    "croupier.rules.progressive",
    "croupier.hands._core",
    "croupier.hands.baccarat",
    "croupier.games.records",
    "croupier.games.states",
    "croupier.games.hooks",
    "croupier.games.round",
    "croupier.games.stakes",
    "croupier.games.dealing",
    "croupier.games.seat_decisions",
    "croupier.games.settling",
    "croupier.games.contributions",
    "croupier.games.streets",
    "croupier.games.play",
    "croupier.games.amounts",
    "croupier.games._made",
    "croupier.games.settlement",
    "croupier.games.paytables",
    "croupier.games.let_it_ride.game",
    "croupier.games.three_card_poker.game",
    "croupier.games.four_card_poker.game",
    "croupier.games.ultimate_texas_holdem.game",
    "croupier.games.mississippi_stud.game",
    "croupier.games.baccarat.game",
    "croupier.games.baccarat.deal",
    "croupier.analysis.decisions",
    "croupier.analysis.four_card_poker.decisions",
    "croupier.analysis.ultimate_texas_holdem.decisions",
    "croupier.analysis.simulate",
)
"""The modules a round runs through (the profile of ``croupier simulate``), in no order.  A module
that numba compiles (:mod:`croupier.kernels`) or that reads its own ``__file__`` is not one."""

PACKAGE_DIR = Path(__file__).resolve().parent
NATIVE_DIR = PACKAGE_DIR / "_compiled"
MANIFEST = "manifest.json"
PURE_ENV = "CROUPIER_PURE"
SUFFIX = EXTENSION_SUFFIXES[0]
"""This interpreter's extension suffix (``.cpython-311-x86_64-linux-gnu.so``): a build for
another Python is never found."""


def source_path(name: str) -> Path:
    """The ``.py`` file of the module ``name`` (a plain module of this package)."""
    return PACKAGE_DIR.joinpath(*name.split(".")[1:]).with_suffix(".py")


def built_path(name: str, native_dir: Path = NATIVE_DIR) -> Path:
    """Where the compiled build of ``name`` lies."""
    return native_dir / f"{name}{SUFFIX}"


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_manifest(native_dir: Path = NATIVE_DIR) -> dict[str, str]:
    """The source digest of each module built for this interpreter (empty: no usable build)."""
    try:
        data = json.loads((native_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("suffix") != SUFFIX:
        return {}
    modules = data.get("modules")
    if not isinstance(modules, dict):
        return {}
    return {k: v for k, v in modules.items() if isinstance(k, str) and isinstance(v, str)}


class NativeFinder(MetaPathFinder):
    """Finds the compiled build of a module of :data:`COMPILED` whose source is unchanged since
    it was built; every other module (or a changed one) is left to the import system."""

    def __init__(self, digests: dict[str, str], native_dir: Path = NATIVE_DIR) -> None:
        self._digests = {name: digests[name] for name in COMPILED if name in digests}
        self._native_dir = native_dir

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        digest = self._digests.get(fullname)
        if digest is None:
            return None
        built = built_path(fullname, self._native_dir)
        try:
            current = source_digest(source_path(fullname))
        except OSError:
            return None
        if current != digest or not built.is_file():
            return None  # changed since the build (or never built): the source
        loader = ExtensionFileLoader(fullname, str(built))
        return spec_from_file_location(fullname, built, loader=loader)


def install() -> None:
    """Put the finder of the compiled builds first on :data:`sys.meta_path` (once; not when
    ``CROUPIER_PURE`` is set, nor when nothing is built)."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return
    if any(isinstance(f, NativeFinder) for f in sys.meta_path):
        return
    digests = read_manifest()
    if digests:
        sys.meta_path.insert(0, NativeFinder(digests))


def compiled_modules() -> tuple[str, ...]:
    """The modules of :data:`COMPILED` imported so far from their compiled build."""
    found = []
    for name in COMPILED:
        module = sys.modules.get(name)
        spec = getattr(module, "__spec__", None)
        if spec is not None and isinstance(spec.loader, ExtensionFileLoader):
            found.append(name)
    return tuple(found)
