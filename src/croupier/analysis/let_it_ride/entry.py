"""Let It Ride's entry of :mod:`croupier.analysis.registry`: every analysis face of the game in
one record (the package's ``ANALYSIS``)."""

from __future__ import annotations

from croupier.analysis.let_it_ride.design_space import DESIGN_SPACE
from croupier.analysis.let_it_ride.montecarlo import KERNEL
from croupier.analysis.let_it_ride.sheet import (
    let_it_ride_strategy,
    let_it_ride_strategy_text,
    par_let_it_ride,
)
from croupier.analysis.let_it_ride.typical import TYPICAL
from croupier.analysis.registry import TYPICAL_PACE, GameAnalysis, RoundsPerHour

__all__ = ["ANALYSIS"]

ANALYSIS = GameAnalysis(
    par=par_let_it_ride,
    strategy=let_it_ride_strategy,  # type: ignore[arg-type]
    strategy_text=let_it_ride_strategy_text,  # type: ignore[arg-type]
    kernel=KERNEL,
    notes="exact: every five-card hand, the two ride decisions by card sets "
    "(croupier.analysis.stud_counts)",
    typical=TYPICAL,
    designer=DESIGN_SPACE,
    pace=RoundsPerHour(55, TYPICAL_PACE),
)
"""The Let It Ride entry of :mod:`croupier.analysis.registry`."""
