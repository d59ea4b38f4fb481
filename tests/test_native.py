"""The compiled engine (croupier._native): the same play as the source, and never a stale build.

``make`` builds the hot modules with Cython from their ``.py`` files (scripts/build_native.py)
and sets ``CROUPIER_NATIVE_REQUIRED=1`` for the suite, so that the suite runs on, and tests, the
compiled engine the benchmarks measure; ``CROUPIER_PURE=1`` runs the source.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from croupier import _native
from croupier._native import COMPILED, NativeFinder, compiled_modules, read_manifest

HERE = Path(__file__).resolve().parent
ROUNDS = 30


def _play(pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != _native.PURE_ENV}
    if pure:
        env[_native.PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, str(HERE / "native_play.py"), str(ROUNDS)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_compiled_engine_plays_every_game_as_the_source_does() -> None:
    """The records, every point of view's view after every step, the text of refusals and the
    simulator's result of 30 seeded rounds a game are the same from the build as from source."""
    compiled, pure = _play(pure=False), _play(pure=True)
    assert pure["compiled"] == []
    if read_manifest() and os.environ.get(_native.PURE_ENV, "") in ("", "0"):
        loaded = compiled["compiled"]
        assert isinstance(loaded, list) and len(loaded) >= len(COMPILED) - 1  # what play imports
    assert compiled["digests"] == pure["digests"]
    assert len(pure["digests"]) == 8  # type: ignore[arg-type]


def test_the_suite_runs_on_the_compiled_engine_where_make_built_it() -> None:
    """Under ``make`` every hot module is the compiled build (a build that failed or went stale
    fails here, not silently slower); with no build, each comes from its source."""
    for name in COMPILED:
        importlib.import_module(name)
    loaded = compiled_modules()
    if os.environ.get(_native.PURE_ENV, "") not in ("", "0"):
        assert loaded == ()
    elif os.environ.get("CROUPIER_NATIVE_REQUIRED") == "1":
        assert loaded == COMPILED, "from source: " + ", ".join(set(COMPILED) - set(loaded))
    else:  # a module edited since the build runs from source: `make native` builds it again
        assert loaded == (COMPILED if read_manifest() else ()), "run `make native`"


def _finder(tmp_path: Path, digest: str, built: bool) -> NativeFinder:
    name = "croupier.games.round"
    if built:
        _native.built_path(name, tmp_path).write_bytes(b"")
    return NativeFinder({name: digest}, tmp_path)


def test_a_build_is_found_only_while_its_source_is_unchanged(tmp_path: Path) -> None:
    source = _native.source_path("croupier.games.round")
    current = _native.source_digest(source)
    spec = _finder(tmp_path, current, built=True).find_spec("croupier.games.round", None)
    assert spec is not None and spec.origin == str(
        _native.built_path("croupier.games.round", tmp_path)
    )
    # the source changed since the build: the source is imported
    stale = _finder(tmp_path, "0" * 64, built=True)
    assert stale.find_spec("croupier.games.round", None) is None
    # recorded but the file is gone
    (tmp_path / f"croupier.games.round{_native.SUFFIX}").unlink()
    assert _finder(tmp_path, current, built=False).find_spec("croupier.games.round", None) is None
    # a module that is not compiled is never the finder's
    assert _finder(tmp_path, current, built=True).find_spec("croupier.games.pov", None) is None


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "[]",
        '{"suffix": ".cpython-39-x86_64-linux-gnu.so", "modules": {"croupier.core.cards": "ab"}}',
        '{"suffix": "SUFFIX", "modules": []}',
    ],
)
def test_a_manifest_of_another_python_or_unreadable_is_no_build(tmp_path: Path, text: str) -> None:
    (tmp_path / _native.MANIFEST).write_text(text.replace("SUFFIX", _native.SUFFIX))
    assert read_manifest(tmp_path) == {}


def test_a_manifest_of_this_python_names_its_modules(tmp_path: Path) -> None:
    data = {"suffix": _native.SUFFIX, "modules": {"croupier.core.cards": "ab", "x": 1}}
    (tmp_path / _native.MANIFEST).write_text(json.dumps(data))
    assert read_manifest(tmp_path) == {"croupier.core.cards": "ab"}


def test_every_compiled_module_is_a_plain_module_of_the_package() -> None:
    for name in COMPILED:
        assert _native.source_path(name).is_file(), name
        text = _native.source_path(name).read_text(encoding="utf-8")
        # a build lies elsewhere than its source: a module that reads its own file is not one
        assert "__file__" not in text, name
        # numba compiles Python functions, not compiled ones (croupier.kernels)
        assert "import numba" not in text and "from numba" not in text, name
