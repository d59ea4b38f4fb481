"""Three Card Poker's entry of :mod:`croupier.analysis.registry`: every analysis face of the game in
one record (the package's ``ANALYSIS``)."""

from __future__ import annotations

from croupier.analysis.registry import TYPICAL_PACE, GameAnalysis, RoundsPerHour
from croupier.analysis.three_card_poker.design_space import DESIGN_SPACE
from croupier.analysis.three_card_poker.montecarlo import KERNEL
from croupier.analysis.three_card_poker.protect import PROTECT
from croupier.analysis.three_card_poker.sheet import (
    par_three_card_poker,
    three_card_strategy,
    three_card_strategy_text,
)
from croupier.analysis.three_card_poker.typical import TYPICAL

__all__ = ["ANALYSIS"]

# The one published figure we have: John Grochowski, "Three-Card Poker" (Casino City Times
# newsletter, issue 338) notes the game is fast, "90 decisions in an hour not that rare"; 60 is
# the usual planning figure for a full table.
_PACE = RoundsPerHour(
    60, TYPICAL_PACE + "; Grochowski (Casino City Times, issue 338) reports up to 90"
)

ANALYSIS = GameAnalysis(
    par=par_three_card_poker,
    strategy=three_card_strategy,  # type: ignore[arg-type]
    strategy_text=three_card_strategy_text,  # type: ignore[arg-type]
    kernel=KERNEL,
    notes="exact: every player hand against every dealer hand "
    "(croupier.analysis.three_card_poker.solver)",
    typical=TYPICAL,
    protect=PROTECT,
    designer=DESIGN_SPACE,
    pace=_PACE,
)
"""The Three Card Poker entry of :mod:`croupier.analysis.registry`."""
