"""Four Card Poker's fast Monte Carlo record for :mod:`croupier.analysis.montecarlo`: the block
kernel of :mod:`croupier.analysis.mc_kernels` decided by the solver's decision table
(:mod:`croupier.analysis.four_card_poker.decisions`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from croupier.analysis.four_card_poker import mc_kernels
from croupier.analysis.four_card_poker.decisions import four_card_tables
from croupier.analysis.registry import MonteCarloKernel
from croupier.games import Game

__all__ = ["KERNEL"]


def _fcp_tables(game: Game, wager: str) -> tuple[Any, ...]:
    fcp = four_card_tables()
    return (fcp.ev, fcp.kernel_args)


def _fcp_exact(game: Game, wager: str, progress: bool | None) -> tuple[Fraction, int]:
    fcp = four_card_tables(progress=progress)
    return fcp.expected, fcp.scale


KERNEL = MonteCarloKernel(
    block=mc_kernels.fcp_block,
    tables=_fcp_tables,
    exact=_fcp_exact,
    paytable=lambda game, wager: "ante bonus § 641a.12(b)",
    actions=("fold", "1x", "2x", "3x"),
    note="one player, base game only, a fresh 52-card deck every round; the mean counts Ante, "
    "Play and Ante Bonus results per unit Ante",
)
