"""The typical players of the floor forecast (:mod:`croupier.analysis.floor_strategies`),
named and cited, on the game's fast kernel: the kernel's tables with their decisions and
their exact mean.

Mississippi Stud (§ 571.11: bet 1x-3x or fold on each street):

* ``never-fold-1x``: bet 1x on every street and never fold (the "minimum bet, see every card"
  player of casino guides).
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
def _ms_never_fold_tables() -> tuple[Any, ...]:
    from croupier.analysis.mississippi_stud.montecarlo import mississippi_args

    line_of, mult, sums, k3, k4, binom = mississippi_args()
    # a bet of 1x on every street: the 3rd and 4th Street tables say 1, and 5th Street's rule
    # (croupier.analysis.stud_counts.choose5) takes 1x, neither folding nor raising, on a sum of -1
    return (
        line_of,
        mult,
        np.full_like(sums, -1),
        np.ones_like(k3),
        np.ones_like(k4),
        binom,
    )


@cache
def _ms_never_fold_exact() -> Fraction:
    """Four units on every five-card hand, paid by its line: 4 x the mean line."""
    line_of, mult, *_ = _ms_never_fold_tables()
    return Fraction(4 * int(mult[line_of].sum()), comb(52, 5))


TYPICAL: tuple[Typical, ...] = (
    Typical(
        "never-fold-1x",
        "casino guides: bet the minimum on every street and see every card",
        _ms_never_fold_tables,
        _ms_never_fold_exact,
    ),
)
"""The floor forecast's typical players of the game (every game also plays ``optimal``)."""
