"""Mississippi Stud's entry of :mod:`croupier.analysis.registry`: every analysis face of the game in
one record (the package's ``ANALYSIS``)."""

from __future__ import annotations

from croupier.analysis.mississippi_stud.design_space import DESIGN_SPACE
from croupier.analysis.mississippi_stud.montecarlo import KERNEL
from croupier.analysis.mississippi_stud.protect import PROTECT
from croupier.analysis.mississippi_stud.sheet import mississippi_stud_strategy, par_mississippi_stud
from croupier.analysis.mississippi_stud.strategy_rules import mississippi_stud_text, stud_rows
from croupier.analysis.mississippi_stud.typical import TYPICAL
from croupier.analysis.registry import TYPICAL_PACE, GameAnalysis, RoundsPerHour

__all__ = ["ANALYSIS"]

ANALYSIS = GameAnalysis(
    par=par_mississippi_stud,
    strategy=mississippi_stud_strategy,  # type: ignore[arg-type]
    # the readable table: 3rd Street by starting hand, then the 4th and 5th Street rules with
    # their measured cost (as before the registry)
    strategy_text=mississippi_stud_text,
    kernel=KERNEL,
    notes="exact: every five-card hand, the three street bets by card sets "
    "(croupier.analysis.stud_counts)",
    typical=TYPICAL,
    protect=PROTECT,
    designer=DESIGN_SPACE,
    pace=RoundsPerHour(45, TYPICAL_PACE),
    strategy_rows=stud_rows,
)
"""The Mississippi Stud entry of :mod:`croupier.analysis.registry`."""
