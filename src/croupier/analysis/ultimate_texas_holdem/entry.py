"""Ultimate Texas Hold 'Em's entry of :mod:`croupier.analysis.registry`: every analysis face
of the game in one record (the package's ``ANALYSIS``)."""

from __future__ import annotations

from croupier.analysis.registry import TYPICAL_PACE, GameAnalysis, RoundsPerHour
from croupier.analysis.ultimate_texas_holdem.decisions import uth_strategy
from croupier.analysis.ultimate_texas_holdem.design_space import DESIGN_SPACE
from croupier.analysis.ultimate_texas_holdem.montecarlo import KERNEL
from croupier.analysis.ultimate_texas_holdem.protect import PROTECT
from croupier.analysis.ultimate_texas_holdem.sheet import par_ultimate_texas_holdem
from croupier.analysis.ultimate_texas_holdem.strategy_rules import uth_rows, uth_strategy_text
from croupier.analysis.ultimate_texas_holdem.typical import TYPICAL

__all__ = ["ANALYSIS"]

ANALYSIS = GameAnalysis(
    par=par_ultimate_texas_holdem,
    strategy=uth_strategy,
    strategy_text=uth_strategy_text,
    kernel=KERNEL,
    notes="exact: every deal under the optimal Play decisions by the block solver of "
    "croupier.analysis.ultimate_texas_holdem.solver; side wagers by category counts",
    solved_by_blocks=True,
    typical=TYPICAL,
    protect=PROTECT,
    designer=DESIGN_SPACE,
    pace=RoundsPerHour(30, TYPICAL_PACE),
    strategy_rows=uth_rows,
)
"""The Ultimate Texas Hold 'Em entry of :mod:`croupier.analysis.registry`."""
