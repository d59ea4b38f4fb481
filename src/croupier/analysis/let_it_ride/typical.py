"""The typical players of the floor forecast (:mod:`croupier.analysis.floor_strategies`),
named and cited, on the game's fast kernel: the kernel's tables with their decisions and
their exact mean.

Let It Ride (§ 643a.11: take Bet 1 and Bet 2 back, or let them ride):

* ``never-pull``: let every bet ride (the "let it ride" player the game is named after).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

import numpy as np

from croupier.analysis.floor_strategies import Typical

__all__ = ["TYPICAL"]


@cache
def _lir_never_pull_tables() -> tuple[Any, ...]:
    from croupier.analysis.let_it_ride.montecarlo import let_it_ride_args

    line_of, nets, sums, ride1, binom = let_it_ride_args()
    # Bet 1 rides by ``ride1``, Bet 2 on a positive four-card sum (the kernel's rules)
    return (line_of, nets, np.ones_like(sums), np.ones_like(ride1), binom)


@cache
def _lir_never_pull_exact() -> Fraction:
    """Three bets on every five-card hand: the mean of the three-bet net of its line."""
    line_of, nets, *_ = _lir_never_pull_tables()
    return Fraction(int(nets[line_of, 2].sum()), comb(52, 5))


TYPICAL: tuple[Typical, ...] = (
    Typical(
        "never-pull",
        "casino guides: the player who lets every bet ride",
        _lir_never_pull_tables,
        _lir_never_pull_exact,
    ),
)
"""The floor forecast's typical players of the game (every game also plays ``optimal``)."""
