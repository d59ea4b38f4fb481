"""Four Card Poker's numba kernel of game protection (:mod:`croupier.analysis.protect`): the
dealer's five hidden cards against one (player hand, up card), every completion counted exactly
in integers, the decision re-found with the information by the solver's rule.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from croupier.kernels.blocks import hash_value

__all__ = ["fcp_hidden_counts"]


@njit(cache=True, nogil=True)
def fcp_hidden_counts(
    player: Any,
    up: int,
    dead_sets: Any,
    ck: Any,
    cb: Any,
    offs: Any,
    plain: Any,
    flush: Any,
    init: int,
    per_card: Any,
    all_counts: Any,
    live_counts: Any,
) -> int:  # pragma: no cover - compiled
    """Every five-card hidden completion of the dealer's hand (the up card plus five of the 46
    cards neither the player's nor the up card), compared with the player's best four of five.

    Adds to ``all_counts[r]`` the completions with the dealer below (r = 0), equal to (1) and
    above (2) the player; to ``per_card[c, r]`` those that hold card ``c``; to
    ``live_counts[j, r]`` those that avoid every card of the bit mask ``dead_sets[j]``.
    Returns the player's dense strength.
    """
    key_p = init
    bits_p = 0
    mask_p = np.int64(0)
    for i in range(5):
        card = np.int64(player[i])
        key_p += ck[card]
        bits_p |= cb[card]
        mask_p |= np.int64(1) << card
    s = hash_value(key_p, bits_p, offs, plain, flush)
    others = np.empty(46, np.int64)
    n = 0
    for c in range(52):
        if c != up and (mask_p >> c) & 1 == 0:
            others[n] = c
            n += 1
    m = dead_sets.shape[0]
    key_u = init + ck[up]
    bit_u = cb[up]
    for p4 in range(4, 46):
        c4 = others[p4]
        k4 = key_u + ck[c4]
        b4 = bit_u | cb[c4]
        m4 = np.int64(1) << c4
        for p3 in range(3, p4):
            c3 = others[p3]
            k3 = k4 + ck[c3]
            b3 = b4 | cb[c3]
            m3 = m4 | (np.int64(1) << c3)
            for p2 in range(2, p3):
                c2 = others[p2]
                k2 = k3 + ck[c2]
                b2 = b3 | cb[c2]
                m2 = m3 | (np.int64(1) << c2)
                for p1 in range(1, p2):
                    c1 = others[p1]
                    k1 = k2 + ck[c1]
                    b1 = b2 | cb[c1]
                    m1 = m2 | (np.int64(1) << c1)
                    for p0 in range(p1):
                        c0 = others[p0]
                        d = hash_value(k1 + ck[c0], b1 | cb[c0], offs, plain, flush)
                        r = 0 if d < s else (1 if d == s else 2)
                        all_counts[r] += 1
                        per_card[c0, r] += 1
                        per_card[c1, r] += 1
                        per_card[c2, r] += 1
                        per_card[c3, r] += 1
                        per_card[c4, r] += 1
                        if m:
                            mask = m1 | (np.int64(1) << c0)
                            for j in range(m):
                                if mask & dead_sets[j] == 0:
                                    live_counts[j, r] += 1
    return s
