"""Let It Ride: all of its analysis in one place.

``ANALYSIS`` is its entry of :mod:`croupier.analysis.registry`; it is imported on first use
(:mod:`croupier.analysis.let_it_ride.entry`), so importing one module of this package (a kernel, the
solver) does not import the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from croupier.analysis.registry import GameAnalysis

__all__ = ["ANALYSIS"]


def __getattr__(name: str) -> GameAnalysis:
    if name == "ANALYSIS":
        from croupier.analysis.let_it_ride.entry import ANALYSIS

        return ANALYSIS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
