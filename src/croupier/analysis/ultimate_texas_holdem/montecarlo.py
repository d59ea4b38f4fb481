"""Ultimate Texas Hold 'Em's fast Monte Carlo record for :mod:`croupier.analysis.montecarlo`:
the block kernel of :mod:`croupier.analysis.mc_kernels` decided by the solver's decision tables
(:mod:`croupier.analysis.ultimate_texas_holdem.decisions`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from croupier.analysis.registry import MonteCarloKernel
from croupier.analysis.ultimate_texas_holdem import mc_kernels
from croupier.analysis.ultimate_texas_holdem.decisions import blind_table, uth_tables
from croupier.games import Game

__all__ = ["KERNEL"]


def _uth_tables(game: Game, wager: str) -> tuple[Any, ...]:
    uth = uth_tables(blind_table(game))
    return (uth.ev, uth.kernel_args)


def _uth_exact(game: Game, wager: str, progress: bool | None) -> tuple[Fraction, int]:
    uth = uth_tables(blind_table(game), progress=progress)
    return uth.expected, int(uth.kernel_args[3])


def _uth_paytable(game: Game, wager: str) -> str:
    blind = game.paytable("blind")
    assert blind is not None
    return f"blind table {blind.letter} § 653a.12(b)"


KERNEL = MonteCarloKernel(
    block=mc_kernels.uth_block,
    tables=_uth_tables,
    exact=_uth_exact,
    paytable=_uth_paytable,
    actions=("fold", "1x", "2x", "3x", "4x"),
    note="one player, base game only, a fresh 52-card deck every round; the mean counts Ante, "
    "Play and Blind results per unit Ante",
)
