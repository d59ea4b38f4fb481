"""Mississippi Stud's numba kernels of game protection (:mod:`croupier.analysis.protect`): two
cards held, some cards known to be out of play, every completion counted exactly in integers.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from croupier.analysis.stud_counts import choose5

__all__ = ["ms_state_values"]


@njit(cache=True, nogil=True)
def _colex(x: Any, k: int, binom: Any) -> int:  # pragma: no cover - compiled
    """Colex rank of the first ``k`` cards of ``x`` (any order: sorted in place)."""
    for i in range(1, k):
        v = x[i]
        j = i - 1
        while j >= 0 and x[j] > v:
            x[j + 1] = x[j]
            j -= 1
        x[j + 1] = v
    r = 0
    for i in range(k):
        r += binom[x[i], i + 1]
    return r


@njit(cache=True, nogil=True)
def _best5(s: int, t: int, n5: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """5th Street with ``t`` units wagered and ``n5`` cards left: fold is worth ``-t n5``, a bet
    of k is worth ``(t + k) s`` (``s`` the summed results of the ``n5`` last cards); the best,
    on equal value the smaller wager.  Returns (value, bet)."""
    best_val = -t * n5
    best = 0
    for k in range(1, 4):
        val = (t + k) * s
        if val > best_val:
            best_val, best = val, k
    return best_val, best


@njit(cache=True, nogil=True)
def _ms_fixed(
    own: Any, rest: Any, full: Any, sum5: Any, k3: Any, k4: Any, binom: Any
) -> int:  # pragma: no cover - compiled
    """The summed net of the solver's policy (no dead cards known: ``k3``, ``k4`` and the 5th
    Street rule on the full-deck sums ``full``) over the community cards from ``rest``."""
    n = rest.shape[0]
    n5 = n - 2
    x = np.empty(5, np.int64)
    x[0], x[1] = own[0], own[1]
    a3 = k3[_colex(x, 2, binom)]
    if a3 == 0:
        return int(-n * (n - 1) * n5)
    fixed = 0
    t3 = 1 + a3
    for i in range(n):
        c = rest[i]
        x[0], x[1], x[2] = own[0], own[1], c
        a4 = k4[_colex(x, 3, binom), t3]
        if a4 == 0:
            fixed -= t3 * (n - 1) * n5
            continue
        t4 = t3 + a4
        for j in range(n):
            if j == i:
                continue
            d = rest[j]
            a5 = choose5(full[c, d], t4)
            fixed += -t4 * n5 if a5 == 0 else (t4 + a5) * sum5[c, d]
    return fixed


@njit(cache=True, nogil=True)
def ms_state_values(
    own: Any,
    dead: Any,
    line_of: Any,
    mult: Any,
    sums: Any,
    k3: Any,
    k4: Any,
    binom: Any,
    bets4: Any,
    sum5: Any,
) -> tuple[int, int, int, int]:  # pragma: no cover - compiled
    """One Mississippi Stud state: the player's two cards ``own`` and the cards ``dead`` known
    to be out of play; the three community cards come from the other ``n`` cards.

    Returns ``(best, fixed, deals, bet3)``: the summed net, in Antes, over the ``n (n-1) (n-2)``
    ordered community deals, of the best street bets that use the dead cards (backward
    induction, on equal value the smaller wager), and of the solver's policy without them
    (``k3``, ``k4`` and the 5th Street rule on the full-deck ``sums``); ``bet3`` the best 3rd
    Street bet.  Fills ``bets4[c, t]`` (the best 4th Street bet after card ``c`` with ``t``
    units wagered) and ``sum5[c, d]`` (the summed results of the last card after ``c``, ``d``)
    for the decisions that follow.
    """
    dead_mask = np.int64(0)
    for card in dead:
        dead_mask |= np.int64(1) << np.int64(card)
    own_mask = (np.int64(1) << np.int64(own[0])) | (np.int64(1) << np.int64(own[1]))
    rest = np.empty(52, np.int64)
    n = 0
    for c in range(52):
        if (dead_mask | own_mask) >> c & 1 == 0:
            rest[n] = c
            n += 1
    n5 = n - 2
    full = np.zeros((52, 52), np.int64)
    x = np.empty(5, np.int64)
    for i in range(n):
        for j in range(i + 1, n):
            c = rest[i]
            d = rest[j]
            x[0], x[1], x[2], x[3] = own[0], own[1], c, d
            total = sums[_colex(x, 4, binom)]
            f = total
            for y in dead:
                x[0], x[1], x[2], x[3], x[4] = own[0], own[1], c, d, y
                total -= mult[line_of[_colex(x, 5, binom)]]
            sum5[c, d] = sum5[d, c] = total
            full[c, d] = full[d, c] = f
    v4 = np.zeros((52, 5), np.int64)
    for i in range(n):
        c = rest[i]
        for t in range(2, 5):
            best_val = -t * (n - 1) * n5
            best = 0
            for k in range(1, 4):
                tot = 0
                for j in range(n):
                    if j != i:
                        tot += _best5(sum5[c, rest[j]], t + k, n5)[0]
                if tot > best_val:
                    best_val, best = tot, k
            v4[c, t] = best_val
            bets4[c, t] = best
    best3_val = -n * (n - 1) * n5
    bet3 = 0
    for k in range(1, 4):
        tot = 0
        for i in range(n):
            tot += v4[rest[i], 1 + k]
        if tot > best3_val:
            best3_val, bet3 = tot, k
    fixed = _ms_fixed(own, rest[:n], full, sum5, k3, k4, binom)
    return best3_val, fixed, n * (n - 1) * n5, bet3
