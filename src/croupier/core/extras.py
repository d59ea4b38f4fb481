"""The optional extras: what ``pip install croupier`` leaves out, stated once.

``pip install croupier`` gives the engine, the hands, Rules Submissions, scenarios and their
replay, and the small command line (:data:`BASE`).  Each extra of :data:`EXTRAS` adds a face:

* ``analysis``: the exact solvers and par sheets, strategy tables, Monte Carlo, the designer,
  protection, the floor forecast and their files (numba, NumPy, matplotlib, Dask, XLSX, PDF);
* ``server``: the live table system and its store (FastAPI, Uvicorn, SQLAlchemy, Alembic,
  psycopg, argon2, HTTPX, websockets).

``croupier[all]`` is both; ``croupier[dev]`` is all and the test tools.  ``pyproject.toml``
lists the same requirements (``tests/test_extras.py`` holds the two equal).

A face that needs an extra calls :func:`require` before importing its modules; where the extra
is not installed it raises :class:`~croupier.core.errors.MissingExtra` (on the command line: one
line on stderr, exit 2).  Checking imports nothing: :func:`missing` asks the import system
whether each module could be found.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from croupier.core.errors import InvalidInput, MissingExtra

__all__ = [
    "BASE",
    "EXTRAS",
    "Extra",
    "ExtraName",
    "MissingExtra",
    "extra_of_module",
    "installed",
    "missing",
    "require",
]

ExtraName = Literal["analysis", "server"]
"""The name of an optional extra (``pip install 'croupier[NAME]'``)."""


@dataclass(frozen=True, slots=True)
class Extra:
    """One optional extra: its requirements as ``pyproject.toml`` lists them and the top-level
    modules they install (what :func:`missing` looks for)."""

    name: ExtraName
    purpose: str
    requirements: tuple[str, ...]
    modules: tuple[str, ...]


BASE: tuple[str, ...] = ("typer>=0.29", "rich>=13", "pydantic>=2.6")
"""The requirements of a bare install: the command line (Typer, Rich) and the models that read
a Rules Submission or a scenario (pydantic).  The engine imports nothing else."""

EXTRAS: Mapping[str, Extra] = MappingProxyType(
    {
        "analysis": Extra(
            name="analysis",
            purpose="exact solvers, par sheets, strategy, Monte Carlo, designer, floor forecast",
            requirements=(
                "numpy>=1.26",
                "numba>=0.59",
                "matplotlib>=3.8",
                "dask[distributed]>=2024.1",
                "xlsxwriter>=3",
                "fpdf2>=2.7",
            ),
            modules=("numpy", "numba", "matplotlib", "dask", "distributed", "xlsxwriter", "fpdf"),
        ),
        "server": Extra(
            name="server",
            purpose="the live table system, its store, accounts, audit and the hand history",
            requirements=(
                "fastapi>=0.110",
                "uvicorn[standard]>=0.29",
                "sqlalchemy>=2.0",
                "alembic>=1.13",
                "psycopg[binary]>=3.1",
                "argon2-cffi>=23.1",
                "httpx>=0.27",
                "websockets>=12",
                "orjson>=3.9",
            ),
            modules=(
                "fastapi",
                "uvicorn",
                "sqlalchemy",
                "alembic",
                "psycopg",
                "argon2",
                "httpx",
                "websockets",
                "orjson",
            ),
        ),
    }
)
"""Every optional extra by name (``all`` is every one of them)."""


def _extra(extra: str) -> Extra:
    found = EXTRAS.get(extra)
    if found is None:
        raise InvalidInput(f"no extra named {extra!r} (have: {', '.join(EXTRAS)})")
    return found


def missing(extra: ExtraName) -> tuple[str, ...]:
    """The modules of ``extra`` this interpreter cannot find (none: the extra is installed).
    Nothing is imported."""
    return tuple(m for m in _extra(extra).modules if importlib.util.find_spec(m) is None)


def installed(extra: ExtraName) -> bool:
    """Whether every module of ``extra`` can be found here."""
    return not missing(extra)


def require(extra: ExtraName, command: str) -> None:
    """Refuse ``command`` (``"par"``, ``"floor simulate"``) with :class:`MissingExtra` unless
    ``extra`` is installed; call it before importing the command's modules."""
    if missing(extra):
        raise MissingExtra(extra, command)


def extra_of_module(module: str) -> ExtraName | None:
    """The extra that installs ``module`` (a dotted name: its top-level package counts), or
    ``None`` for a module no extra provides."""
    top = module.partition(".")[0]
    for extra in EXTRAS.values():
        if top in extra.modules:
            return extra.name
    return None
