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

The floor forecast's typical players (:mod:`croupier.analysis.floor_strategies`):

Ultimate Texas Hold 'Em (§ 569.11: check or 3x/4x, check or 2x, 1x or fold), each exact by
counting every deal (no published figure found):

* ``check-to-river``: never raise before the river, then play 1x with every hand;
* ``ace-or-pair-4x``: raise 4x with any pair or any ace, else as ``check-to-river``.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.analysis.floor_strategies import Typical
from croupier.analysis.ultimate_texas_holdem.kernels import board_counts

__all__ = ["TYPICAL", "class_counts"]

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
    from croupier.analysis.ultimate_texas_holdem.solver import holding_classes
    from croupier.hands import Ranking
    from croupier.kernels import canonical_hands

    reps, weights = canonical_hands(5)
    hclass, _ = holding_classes()
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


def _uth_preflop(rule: str) -> Any:
    """Per starting-hand class (the solver's: ``hi * 13 + lo`` suited or paired, ``lo * 13 +
    hi`` offsuit, ranks 0 = deuce): the Play multiple before the flop (0 check)."""
    out = np.zeros(169, dtype=np.int8)
    if rule == "ace-or-pair-4x":
        for c in range(169):
            a, b = divmod(c, 13)
            if a == b or max(a, b) == 12:  # any pair, any ace
                out[c] = 4
    return out


@cache
def _uth_tables(rule: str) -> tuple[Any, ...]:
    from croupier.analysis.ultimate_texas_holdem.decisions import blind_table, uth_tables
    from croupier.games import get_game
    from croupier.games.ultimate_texas_holdem import UltimateTexasHoldem

    uth = uth_tables(blind_table(get_game(UltimateTexasHoldem.slug)))
    args = list(uth.kernel_args)
    preflop = _uth_preflop(rule)
    args[6] = preflop.astype(np.asarray(args[6]).dtype)
    args[7] = np.zeros_like(args[7])  # never 2x on the flop
    # the river decision compares playing 1x with a fold (croupier.analysis.
    # ultimate_texas_holdem.mc_kernels._river_play): a fold valued far below any loss is never
    # chosen, and never settled
    args[11] = -(2**40)
    return (uth.ev, tuple(args))


@cache
def _uth_exact(rule: str) -> Fraction:
    """Every deal counted by starting-hand class and result type
    (:func:`croupier.analysis.ultimate_texas_holdem.typical.class_counts`), times the game's net of
    the type at
    the class's multiple (1 where it checks to the river), per unit Ante."""
    from croupier.analysis.ultimate_texas_holdem.settle import settle_tables
    from croupier.analysis.ultimate_texas_holdem.solver import DEALS
    from croupier.analysis.ultimate_texas_holdem.typical import class_counts

    p = settle_tables(None)
    counts = class_counts(p.q0, tuple(int(x) for x in p.bclass))
    multiple = np.maximum(_uth_preflop(rule).astype(np.int64), 1)
    type_net = np.asarray(p.type_net, dtype=np.int64)
    base = type_net[:, 0] + type_net[:, 1]
    total = int((counts * base[None, :]).sum())
    total += int((counts * multiple[:, None] * type_net[None, :, 2]).sum())
    assert int(counts.sum()) == DEALS
    return Fraction(total, DEALS * p.scale)


TYPICAL: tuple[Typical, ...] = (
    Typical(
        "check-to-river",
        "casino guides: the player who never raises early, checks to the river and always "
        "plays 1x (never folds)",
        lambda: _uth_tables("check-to-river"),
        lambda: _uth_exact("check-to-river"),
    ),
    Typical(
        "ace-or-pair-4x",
        "casino guides: raise 4x with any pair or any ace, else check to the river and play "
        "1x (never fold)",
        lambda: _uth_tables("ace-or-pair-4x"),
        lambda: _uth_exact("ace-or-pair-4x"),
    ),
)
"""The floor forecast's typical players of the game (every game also plays ``optimal``)."""
