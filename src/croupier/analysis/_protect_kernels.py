"""Numba kernels of game protection (:mod:`croupier.analysis.protect`).

Each kernel takes one information state (the cards a player holds and the cards the forbidden
information shows) and counts, exactly and in integers, every completion of the deal; the
optimal decision with the information is re-found there by the same rule as the solvers (the
largest summed net, on equal value the smaller wager).  The tables they read (the kernels'
perfect-hash lookups, the five-card pay lines, the solver's policies) come from the solvers, so
no game rule is restated here.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from croupier.analysis._stud import choose5
from croupier.kernels._jit import hash_value

__all__ = ["fcp_hidden_counts", "ms_state_values", "uth_known_dealer"]


# --------------------------------------------------------------------------------------------
# Four Card Poker: the dealer's five hidden cards against one (player hand, up card)


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


# --------------------------------------------------------------------------------------------
# Mississippi Stud: two cards held, some cards known to be out of play


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


# --------------------------------------------------------------------------------------------
# Ultimate Texas Hold 'Em: the dealer's two hole cards seen


@njit(inline="always", nogil=True)
def _uth_nets(
    sp: int, sd: int, q0: int, bclass: Any, net: Any
) -> tuple[int, int]:  # pragma: no cover
    """The Ante plus Blind net and the Play net per 1x of strength ``sp`` against ``sd``."""
    if sp > sd:
        res = 0 if sd >= q0 else 1
    elif sp == sd:
        res = 2
    else:
        res = 3 if sd >= q0 else 4
    line = bclass[sp]
    return net[res, line, 0] + net[res, line, 1], net[res, line, 2]


@njit(inline="always", nogil=True)
def _add_flops(pos: Any, s2: Any, sr: Any, bet2: int, river: int) -> None:  # pragma: no cover
    """Add a board's nets to each of its ten three-card subsets, any of which was the flop."""
    for a in range(5):
        for b in range(a + 1, 5):
            for c in range(b + 1, 5):
                x, y, z = pos[a], pos[b], pos[c]
                r = x + y * (y - 1) // 2 + z * (z - 1) * (z - 2) // 6
                s2[r] += bet2
                sr[r] += river


@njit(cache=True, nogil=True)
def uth_known_dealer(
    player: Any,
    dealer: Any,
    ck: Any,
    cb: Any,
    offs: Any,
    plain: Any,
    flush: Any,
    init: int,
    q0: int,
    bclass: Any,
    net: Any,
    fold: int,
    s2: Any,
    sr: Any,
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """The player's two cards ``player`` and the dealer's two ``dealer`` both known: every
    board of the 48 other cards, flop first (C(48, 3) flops times C(45, 2) turn-and-river
    pairs), played with the best decision on each street given all the cards seen.

    Settlement from the solver's tables (:func:`croupier.analysis._uth_settle.settle_tables`):
    ``net[result, bclass[s], :]`` the Ante, Blind and Play per 1x of a hand of strength ``s``
    by result (win against a qualifying dealer, a non-qualifying one, tie, loss to a qualifying
    one, a non-qualifying one), ``fold`` a fold, all times the tables' scale; the dealer
    qualifies from strength ``q0``.  On equal value the smaller wager (check before 3x before
    4x, check before 2x, fold before 1x).  Returns ``(best, preflop, flop bets)``: the summed
    best net, the preflop decision (0 check, 3, 4) and how many flops bet 2x after a check;
    fills ``s2[f]`` and ``sr[f]`` (the summed nets after the flop of colex rank ``f``, by
    positions among the 48 cards, of betting 2x and of checking to the river).
    """
    rest = np.empty(48, np.int64)
    n = 0
    for c in range(52):
        if c != player[0] and c != player[1] and c != dealer[0] and c != dealer[1]:
            rest[n] = c
            n += 1
    kp = init + ck[player[0]] + ck[player[1]]
    bp = cb[player[0]] | cb[player[1]]
    kd = init + ck[dealer[0]] + ck[dealer[1]]
    bd = cb[dealer[0]] | cb[dealer[1]]
    nflop = n * (n - 1) * (n - 2) // 6
    s2[:] = 0
    sr[:] = 0
    total3 = 0
    total4 = 0
    pos = np.empty(5, np.int64)
    for p4 in range(4, n):
        for p3 in range(3, p4):
            for p2 in range(2, p3):
                for p1 in range(1, p2):
                    for p0 in range(p1):
                        pos[0], pos[1], pos[2], pos[3], pos[4] = p0, p1, p2, p3, p4
                        key = 0
                        bits = 0
                        for i in range(5):
                            key += ck[rest[pos[i]]]
                            bits |= cb[rest[pos[i]]]
                        sp = hash_value(kp + key, bp | bits, offs, plain, flush)
                        sd = hash_value(kd + key, bd | bits, offs, plain, flush)
                        base, play = _uth_nets(sp, sd, q0, bclass, net)
                        total3 += 10 * (base + 3 * play)
                        total4 += 10 * (base + 4 * play)
                        _add_flops(pos, s2, sr, base + 2 * play, max(fold, base + play))
    checked = 0
    bets = 0
    for r in range(nflop):
        if s2[r] > sr[r]:
            checked += s2[r]
            bets += 1
        else:
            checked += sr[r]
    best = checked
    decision = 0
    if total3 > best:
        best, decision = total3, 3
    if total4 > best:
        best, decision = total4, 4
    return best, decision, bets
