"""Typical players' strategies for the floor forecast, named and cited, on the fast kernels.

A floor is not played by solvers.  Casino guides describe the simple rules many players follow;
each is here as the fast kernel's decision tables (the kernel and its settlement unchanged: only
the decisions differ) and its exact mean, so the forecast's theoretical win stays exact.  Each
game's are its analysis entry's (:attr:`croupier.analysis.registry.GameAnalysis.typical`, in
the game's ``typical`` module).

``optimal`` is every game's solver strategy (the kernels' own tables).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from croupier.core.errors import InvalidInput

__all__ = ["OPTIMAL", "Typical", "strategy_exact", "strategy_tables", "verify"]

OPTIMAL = "optimal"


@dataclass(frozen=True, slots=True)
class Typical:
    """One typical strategy: the kernel's tables with its decisions, and its exact mean net per
    kernel unit (the same units as the optimal strategy's)."""

    name: str
    source: str
    tables: Callable[[], tuple[Any, ...]]
    exact: Callable[[], Fraction]


def _typical(slug: str) -> tuple[Typical, ...]:
    """The typical strategies of ``slug``'s analysis entry (none for a game without one)."""
    from croupier.analysis.registry import analysis_for, registered

    return analysis_for(slug).typical if slug in registered() else ()


def _find(slug: str, name: str) -> Typical:
    for typical in _typical(slug):
        if typical.name == name:
            return typical
    raise AssertionError(f"{slug}: no strategy {name!r}")  # pragma: no cover - verify first


def verify(slug: str, name: object, where: str) -> str:
    """``name`` if ``slug`` has that strategy, else a refusal naming the ones it has."""
    known = [OPTIMAL, *(t.name for t in _typical(slug))]
    if not isinstance(name, str) or name not in known:
        raise InvalidInput(f"{where} {name!r}: {slug} plays {', '.join(known)}")
    return name


def strategy_tables(slug: str, name: str) -> tuple[Any, ...]:
    """The fast kernel's tables of ``slug`` with the decisions of the typical strategy."""
    return _find(slug, name).tables()


def strategy_exact(slug: str, name: str) -> Fraction:
    """The exact mean net per kernel unit of the typical strategy."""
    return _find(slug, name).exact()
