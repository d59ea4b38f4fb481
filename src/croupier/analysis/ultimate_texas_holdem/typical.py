"""Ultimate Texas Hold 'Em's typical strategies, exactly: every deal's result by starting hand.

A typical player who decides before the flop by the starting hand alone (a Play of 3 or 4
times the Ante, or check) and otherwise checks to the river and plays 1x without folding plays
every deal to the showdown, so the exact value of any such strategy is the count of every deal
by the player's starting-hand class and result type (a win against a qualifying or a
non-qualifying dealer by the Blind line the hand reaches, a tie, a loss to either) times the
game's net of that type at that multiple.  The counts come from the solver's own board kernel
(:func:`croupier.analysis.ultimate_texas_holdem.kernels.board_counts`: the 990 dealer holdings
against every
holding of one board), over the 134,459 five-card boards up to suit renaming, each weighted by
its class (a suit renaming carries starting-hand classes to themselves): 2,781,381,002,400
deals in all.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.analysis.ultimate_texas_holdem.kernels import board_counts

__all__ = ["class_counts"]

NTYPES = 17
"""Result types of the kernels' ``type_net`` rows: 7 wins against a qualifying dealer by Blind
line, 7 against a non-qualifying one, a tie, a loss to a qualifying and to a non-qualifying
dealer (:class:`croupier.analysis.ultimate_texas_holdem.settle.SettleTables`)."""


@njit(cache=True, nogil=True)
def _accumulate(
    reps: Any,
    weights: Any,
    hclass: Any,
    bclass: Any,
    ck: Any,
    cb: Any,
    offs: Any,
    plain: Any,
    flush: Any,
    init: int,
    q0: int,
    acc: Any,
) -> None:  # pragma: no cover - compiled
    """``acc[class, type]`` += each board class's weight times its holdings' counts."""
    out = np.zeros((1326, 6), np.int64)
    for k in range(reps.shape[0]):
        out[:] = -1
        board = reps[k].astype(np.int64)
        board_counts(board, ck, cb, offs, plain, flush, init, q0, out)
        w = weights[k]
        for h in range(1326):
            if out[h, 0] < 0:
                continue  # the holding touches the board
            c = hclass[h]
            line = bclass[out[h, 0]]
            acc[c, line] += w * out[h, 1]
            acc[c, 7 + line] += w * out[h, 2]
            acc[c, 14] += w * out[h, 3]
            acc[c, 15] += w * out[h, 4]
            acc[c, 16] += w * out[h, 5]


@cache
def class_counts(q0: int, bclass_key: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """(169, 17): the deals by the player's starting-hand class (the solver's classes) and
    result type, the dealer qualifying from strength ``q0`` and the Blind line of each
    strength ``bclass_key`` (from
    :func:`croupier.analysis.ultimate_texas_holdem.settle.settle_tables`)."""
    from croupier.analysis.block_solver import dense_tables
    from croupier.analysis.ultimate_texas_holdem.solver import _holding_classes
    from croupier.hands import Ranking
    from croupier.kernels import canonical_hands

    reps, weights = canonical_hands(5)
    hclass, _ = _holding_classes()
    dense = dense_tables(Ranking.POKER5)
    acc = np.zeros((169, NTYPES), dtype=np.int64)
    _accumulate(
        np.asarray(reps),
        np.asarray(weights, dtype=np.int64),
        hclass.astype(np.int64),
        np.array(bclass_key, dtype=np.int64),
        *dense.args(),
        q0,
        acc,
    )
    return acc
