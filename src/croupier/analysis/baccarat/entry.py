"""The baccarat family's entry of :mod:`croupier.analysis.registry`: every analysis face of
the game in one record (the package's ``ANALYSIS``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from croupier.analysis.baccarat.montecarlo import KERNEL
from croupier.analysis.baccarat.sheet import baccarat_strategy_text, par_baccarat
from croupier.analysis.registry import NO_DECISIONS, TYPICAL_PACE, GameAnalysis, RoundsPerHour
from croupier.games import Game
from croupier.games.baccarat import EZBaccarat, MidiBaccarat, MiniBaccarat

__all__ = ["ANALYSIS", "BY_GAME", "EZ_BACCARAT", "MIDI_BACCARAT", "MINI_BACCARAT"]


def _entry(rounds_per_hour: int) -> GameAnalysis:
    return GameAnalysis(
        par=par_baccarat,
        strategy=NO_DECISIONS,
        strategy_text=baccarat_strategy_text,  # type: ignore[arg-type]
        kernel=KERNEL,
        notes="exact: every coup of the full shoe (croupier.analysis.baccarat.exact)",
        pace=RoundsPerHour(rounds_per_hour, TYPICAL_PACE),
    )


MINI_BACCARAT = _entry(72)
MIDI_BACCARAT = _entry(60)
EZ_BACCARAT = _entry(72)
"""The baccarat entries of :mod:`croupier.analysis.registry` (one analysis, three games)."""

ANALYSIS = MINI_BACCARAT
"""The family's entry where no game is named (its first game's)."""

BY_GAME: Final[Mapping[type[Game], GameAnalysis]] = {
    MiniBaccarat: MINI_BACCARAT,
    MidiBaccarat: MIDI_BACCARAT,
    EZBaccarat: EZ_BACCARAT,
}
"""Each game of the family's entry: one analysis, three paces (:mod:`croupier.analysis.registry`
reads it for a package of several games)."""
