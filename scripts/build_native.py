"""Compile the round engine's hot modules with Cython: ``python scripts/build_native.py``.

Each module of ``croupier._native.COMPILED`` is compiled from its ``.py`` file as it is (Cython's
pure-Python mode, annotations not used as C types, so the compiled module means what the source
means) into ``src/croupier/_compiled/``, and the manifest there records the SHA-256 of the source
each build came from; the package imports a build only while its source is unchanged
(:mod:`croupier._native`).  A module whose build is current is not compiled again, so a second
run with nothing changed does nothing.  ``--force`` rebuilds every module; ``--clean`` removes
the builds (the package then runs from source).  C files and objects go to ``build/native/``.

Run by ``make`` before the tests, the server and the benchmarks.  Exit 2, with one line on
stderr, when Cython or the C compiler fails.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "native"
C_FLAGS = ["-O2", "-g0"]
"""-O2 without debug information: the compiled code is mostly calls into the interpreter's C API,
and -O2 makes those call sites a little cheaper than -O1 (about 1% to 2% fewer instructions a
round, counted by callgrind on the round engine); it costs build time, about three times -O1's on
this machine's 2 cores (-O0 loses a third of the speed)."""


def _native() -> ModuleType:
    """croupier._native, loaded from its file (the package itself is not imported)."""
    path = ROOT / "src" / "croupier" / "_native.py"
    spec = importlib.util.spec_from_file_location("_croupier_native_build", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _stale(native: ModuleType, force: bool) -> tuple[dict[str, str], dict[str, str]]:
    """(digests of the current builds kept, digests of the modules to build)."""
    built = native.read_manifest()
    keep: dict[str, str] = {}
    todo: dict[str, str] = {}
    for name in native.COMPILED:
        digest = native.source_digest(native.source_path(name))
        if not force and built.get(name) == digest and native.built_path(name).is_file():
            keep[name] = digest
        else:
            todo[name] = digest
    return keep, todo


def _compile(native: ModuleType, names: list[str]) -> None:
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension  # type: ignore[import-untyped]
    from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

    src = ROOT / "src"
    extensions = [
        Extension(
            name,
            [str(native.source_path(name).relative_to(ROOT))],
            extra_compile_args=C_FLAGS,
        )
        for name in names
    ]
    modules = cythonize(  # type: ignore[no-untyped-call]
        extensions,
        build_dir=str(BUILD / "c"),
        compiler_directives={
            "language_level": 3,
            "binding": True,  # functions keep their signatures, annotations and __globals__
            "annotation_typing": False,  # an annotation is not a C type: the source's meaning
            "embedsignature": False,
        },
        quiet=True,
        force=True,
    )
    dist = Distribution({"ext_modules": modules, "package_dir": {"": str(src)}})
    cmd = build_ext(dist)
    cmd.build_lib = str(BUILD / "lib")
    cmd.build_temp = str(BUILD / "tmp")
    cmd.parallel = os.cpu_count() or 1
    cmd.ensure_finalized()
    cmd.run()
    native.NATIVE_DIR.mkdir(exist_ok=True)
    for name in names:
        shutil.copyfile(cmd.get_ext_fullpath(name), native.built_path(name))


def _write_manifest(native: ModuleType, digests: dict[str, str]) -> None:
    import Cython

    data = {
        "suffix": native.SUFFIX,
        "cython": getattr(Cython, "__version__", "unknown"),
        "modules": dict(sorted(digests.items())),
    }
    path = native.NATIVE_DIR / native.MANIFEST
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--force", action="store_true", help="rebuild every module")
    parser.add_argument("--clean", action="store_true", help="remove the builds")
    args = parser.parse_args(argv)
    os.chdir(ROOT)  # the sources are named relative to the checkout
    native = _native()
    if args.clean:
        shutil.rmtree(native.NATIVE_DIR, ignore_errors=True)
        print("compiled modules removed: croupier runs from source")
        return 0
    keep, todo = _stale(native, args.force)
    if not todo:
        print(f"compiled modules: all {len(keep)} current")
        return 0
    started = time.monotonic()
    try:
        # the manifest first loses the modules being rebuilt: a build cut short leaves them
        # running from source, never from an older build
        native.NATIVE_DIR.mkdir(exist_ok=True)
        _write_manifest(native, keep)
        _compile(native, sorted(todo))
    except ImportError as exc:
        print(f"build_native: Cython is not installed ({exc})", file=sys.stderr)
        return 2
    except Exception as exc:  # the compiler's own report is above
        print(f"build_native: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    _write_manifest(native, {**keep, **todo})
    print(
        f"compiled modules: {len(todo)} built, {len(keep)} current "
        f"({time.monotonic() - started:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
