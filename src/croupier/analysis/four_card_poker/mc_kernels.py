"""Four Card Poker's numba kernels of the fast Monte Carlo (:mod:`croupier.analysis.montecarlo`):
the decision of a hand by the solver's table, and the settle kernel of one deal.

A deal is 11 card indices: the player's five (0..4), the dealer's five hidden cards (5..9) and
the dealer's up card (10).  Strengths are the dense ``four-card`` strengths (best four of five or
six) of :func:`croupier.analysis.block_solver.dense_tables`.  Nets are integers in units of
``1 / scale`` Ante, ``scale`` the common denominator of the Ante Bonus table (1).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from croupier.analysis.mc_kernels import (
    COLEX,
    hand_value,
    make_block,
    make_settle_many,
)

__all__ = ["fcp_action", "fcp_block", "fcp_settle", "fcp_settle_many"]


@njit(inline="always", nogil=True)
def _fcp_action(hand5: Any, up: int, table: Any, work: Any) -> int:  # pragma: no cover
    """The table's action (0 fold, 1..3 the Play multiple) of the five cards ``hand5[0:5]``
    against the up card ``up``: the up card's suit and clubs are swapped in the hand, and the
    hand's colex rank read in the row of the up card's rank."""
    us = up & 3
    hand = work[:5]
    for i in range(5):
        c = hand5[i]
        s = c & 3
        if s == us:
            c -= us
        elif s == 0:
            c += us
        hand[i] = c
    hand.sort()
    row = 0
    for i in range(5):
        row += COLEX[hand[i], i + 1]
    return int(table[up >> 2, row])


@njit(cache=True, nogil=True)
def fcp_action(hand: Any, up: int, table: Any) -> int:  # pragma: no cover - compiled
    """:func:`_fcp_action`, callable from Python."""
    return _fcp_action(hand, up, table, np.empty(5, np.int64))


@njit(inline="always", nogil=True)
def fcp_settle(deal: Any, tables: Any, work: Any) -> tuple[int, int]:  # pragma: no cover
    """(net in 1/scale Ante, action) of one Four Card Poker deal played by the table;
    ``tables = (ev, fcp)``, ``fcp = (table, bonus, stakes)``, ``work`` a scratch buffer of
    :data:`WORK` integers.

    The player's best four of five against the dealer's best four of six, settled by the
    game's own rules as tabulated by
    :func:`croupier.analysis.four_card_poker.solver.ante_play_tables`:
    ``bonus[action, player]`` (the Ante Bonus, § 641a.12(b)) plus ``stakes[action, r]`` (Ante
    and Play, § 641a.11(c)(3), § 641a.12(a)) with ``r`` the dealer below, equal, above.  A
    fold nets the same whatever the cards (§ 641a.11(b)), so its hands are not ranked."""
    ev, fcp = tables
    table, bonus, stakes = fcp
    action = _fcp_action(deal, deal[10], table, work)
    if action <= 0:
        return bonus[0, 0] + stakes[0, 0], 0
    none = deal[:0]
    player = hand_value(deal, 0, 5, none, ev)
    dealer = hand_value(deal, 5, 6, none, ev)
    relation = 0 if dealer < player else 1 if dealer == player else 2
    return bonus[action, player] + stakes[action, relation], action


fcp_block = make_block(fcp_settle, 11, "fcp_block")
fcp_settle_many = make_settle_many(fcp_settle, 11, "fcp_settle_many")
