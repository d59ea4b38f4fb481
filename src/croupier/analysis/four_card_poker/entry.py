"""Four Card Poker's entry of :mod:`croupier.analysis.registry`: every analysis face of the game in
one record (the package's ``ANALYSIS``)."""

from __future__ import annotations

from croupier.analysis.four_card_poker.decisions import four_card_poker_strategy
from croupier.analysis.four_card_poker.design_space import DESIGN_SPACE
from croupier.analysis.four_card_poker.montecarlo import KERNEL
from croupier.analysis.four_card_poker.protect import PROTECT
from croupier.analysis.four_card_poker.sheet import (
    four_card_poker_strategy_text,
    par_four_card_poker,
)
from croupier.analysis.four_card_poker.typical import TYPICAL
from croupier.analysis.registry import TYPICAL_PACE, GameAnalysis, RoundsPerHour

__all__ = ["ANALYSIS"]

ANALYSIS = GameAnalysis(
    par=par_four_card_poker,
    strategy=four_card_poker_strategy,
    strategy_text=four_card_poker_strategy_text,  # type: ignore[arg-type]
    kernel=KERNEL,
    notes="exact: every player hand against every dealer hand by the block solver of "
    "croupier.analysis.four_card_poker.solver; side wagers by category counts",
    solved_by_blocks=True,
    typical=TYPICAL,
    protect=PROTECT,
    designer=DESIGN_SPACE,
    pace=RoundsPerHour(55, TYPICAL_PACE),
)
"""The Four Card Poker entry of :mod:`croupier.analysis.registry`."""
