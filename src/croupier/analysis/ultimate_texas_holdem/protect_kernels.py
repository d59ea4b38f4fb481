"""Ultimate Texas Hold 'Em's numba kernels of game protection (:mod:`croupier.analysis.protect`):
the dealer's hole cards seen, or cards known out of play, every board and dealer holding counted
exactly in integers, the best decision re-found on every street.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from croupier.kernels.blocks import hash_value

__all__ = ["uth_info_sets", "uth_known_dealer", "uth_seen_dealer"]


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

    Settlement from the solver's tables
    (:func:`croupier.analysis.ultimate_texas_holdem.settle.settle_tables`):
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


# --------------------------------------------------------------------------------------------
# Ultimate Texas Hold 'Em: some of the dealer's cards seen, or cards known out of play


@njit(inline="always", nogil=True)
def _board_key(pos: Any, rest: Any, ck: Any, cb: Any) -> tuple[int, int, Any]:  # pragma: no cover
    """The summed card key, the card bits and the bit mask of the board at ``pos``."""
    key = 0
    bits = 0
    bmask = np.int64(0)
    for i in range(5):
        c = rest[pos[i]]
        key += ck[c]
        bits |= cb[c]
        bmask |= np.int64(1) << c
    return key, bits, bmask


@njit(cache=True, nogil=True)
def _holding_sums(
    sp: int,
    key: int,
    bits: int,
    bmask: Any,
    rest: Any,
    need: Any,
    avoid: Any,
    touched: Any,
    dense: Any,
    settle: Any,
    sums: Any,
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """Every dealer holding of the cards off the board against the player's strength ``sp``:
    returns the summed Ante-plus-Blind and Play nets and the count; ``sums[j]`` gets those of
    the holdings that set ``j`` keeps (a set needing no card: those touching its cards out,
    taken off the full sums by the caller)."""
    ck, cb, offs, plain, flush, init = dense
    q0, bclass, net = settle
    one = np.int64(1)
    n = rest.shape[0]
    kd = init + key
    fb = 0
    fp = 0
    fn = 0
    sums[:] = 0
    for ix in range(n):
        x = rest[ix]
        if (bmask >> x) & 1:
            continue
        kx = kd + ck[x]
        bx = bits | cb[x]
        for iy in range(ix + 1, n):
            y = rest[iy]
            if (bmask >> y) & 1:
                continue
            sd = hash_value(kx + ck[y], bx | cb[y], offs, plain, flush)
            base, play = _uth_nets(sp, sd, q0, bclass, net)
            fb += base
            fp += play
            fn += 1
            h = (one << x) | (one << y)
            if h & touched == 0:
                continue  # counts for every set that needs no card
            for j in range(need.shape[0]):
                keep = (
                    h & avoid[j] != 0
                    if need[j] == 0
                    else (h & need[j] == need[j] and h & avoid[j] == 0)
                )
                if keep:
                    sums[j, 0] += base
                    sums[j, 1] += play
                    sums[j, 2] += 1
    return fb, fp, fn


@njit(cache=True, nogil=True)
def _credit_sets(
    pos: Any, bmask: Any, full: Any, need: Any, avoid: Any, fold: int, sums: Any, acc: Any
) -> None:  # pragma: no cover - compiled
    """Add one board to each set it is consistent with: ``acc[j]`` holds the set's flop sums
    (2x; the best river; the solver's river) and ``acc_tot`` its 3x, 4x and completion sums."""
    fb, fp, fn, bet_river = full
    s2, srb, srx, tot = acc
    for j in range(need.shape[0]):
        if bmask & (need[j] | avoid[j]) != 0:
            continue
        vb, vp, vn = sums[j, 0], sums[j, 1], sums[j, 2]
        if need[j] == 0:  # every holding but those touching the cards out
            vb, vp, vn = fb - vb, fp - vp, fn - vn
        b1 = vb + vp
        f1 = vn * fold
        tot[j, 0] += 10 * (vb + 3 * vp)
        tot[j, 1] += 10 * (vb + 4 * vp)
        tot[j, 2] += 10 * vn
        _add_flops(pos, s2[j], srb[j], vb + 2 * vp, b1 if b1 > f1 else f1)
        _add_flops(pos, srx[j], srx[j], 0, b1 if bet_river else f1)


@njit(cache=True, nogil=True)
def _finish_sets(full: Any, acc: Any, out: Any) -> tuple[int, int]:  # pragma: no cover
    """The solver's decisions from the full sums, each set's best and solver values."""
    s2f, srf, t3f, t4f = full
    s2, srb, srx, tot = acc
    checked = 0
    for r in range(s2f.shape[0]):
        checked += max(s2f[r], srf[r])
    pre = 0
    best_f = checked
    if t3f > best_f:
        best_f, pre = t3f, 3
    if t4f > best_f:
        best_f, pre = t4f, 4
    for j in range(out.shape[0]):
        check_best = 0
        check_fixed = 0
        for r in range(s2f.shape[0]):
            check_best += max(s2[j, r], srb[j, r])
            check_fixed += s2[j, r] if s2f[r] > srf[r] else srx[j, r]
        out[j, 0] = max(check_best, tot[j, 0], tot[j, 1])
        out[j, 1] = check_fixed if pre == 0 else (tot[j, 0] if pre == 3 else tot[j, 1])
        out[j, 2] = tot[j, 2]
    return pre, best_f


@njit(cache=True, nogil=True)
def uth_info_sets(
    player: Any,
    need: Any,
    avoid: Any,
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
    out: Any,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """One player's two cards ``player`` and ``J`` information sets at once: set ``j`` knows
    the dealer holds every card of the bit mask ``need[j]`` (0, 1 or 2 hole cards seen) and
    that no card of ``avoid[j]`` is in play (a burn card, the colluders' cards).

    Every board of the other 50 cards is walked flop first, with every dealer holding of the
    cards left; the no-information sums (every holding) give the solver's decisions (the same
    rule: the largest summed net, on equal value the smaller wager) on every street, and each
    set's sums (the holdings and boards consistent with it) give its best decisions.  Fills
    ``out[j] = (best, fixed, completions)``: the summed net over the set's ordered completions
    (units of ``1 / scale`` Ante) of the best play with the information and of the solver's
    play without it, and how many completions.  Returns the no-information preflop decision
    (0 check, 3, 4) and its summed best net over every ordered completion.
    """
    nsets = need.shape[0]
    rest = np.empty(50, np.int64)
    n = 0
    for c in range(52):
        if c != player[0] and c != player[1]:
            rest[n] = c
            n += 1
    nflop = n * (n - 1) * (n - 2) // 6
    s2f = np.zeros(nflop, np.int64)
    srf = np.zeros(nflop, np.int64)
    acc = (
        np.zeros((nsets, nflop), np.int64),
        np.zeros((nsets, nflop), np.int64),
        np.zeros((nsets, nflop), np.int64),
        np.zeros((nsets, 3), np.int64),
    )
    sums = np.zeros((nsets, 3), np.int64)
    t3f = 0
    t4f = 0
    kp = init + ck[player[0]] + ck[player[1]]
    bp = cb[player[0]] | cb[player[1]]
    touched = np.int64(0)
    for j in range(nsets):
        touched |= need[j] | avoid[j]
    dense = (ck, cb, offs, plain, flush, init)
    settle = (q0, bclass, net)
    pos = np.empty(5, np.int64)
    for p4 in range(4, n):
        for p3 in range(3, p4):
            for p2 in range(2, p3):
                for p1 in range(1, p2):
                    for p0 in range(p1):
                        pos[0], pos[1], pos[2], pos[3], pos[4] = p0, p1, p2, p3, p4
                        key, bits, bmask = _board_key(pos, rest, ck, cb)
                        sp = hash_value(kp + key, bp | bits, offs, plain, flush)
                        fb, fp, fn = _holding_sums(
                            sp, key, bits, bmask, rest, need, avoid, touched, dense, settle, sums
                        )
                        bet_river = fb + fp > fn * fold
                        t3f += 10 * (fb + 3 * fp)
                        t4f += 10 * (fb + 4 * fp)
                        river = fb + fp if bet_river else fn * fold
                        _add_flops(pos, s2f, srf, fb + 2 * fp, river)
                        full = (fb, fp, fn, bet_river)
                        _credit_sets(pos, bmask, full, need, avoid, fold, sums, acc)
    return _finish_sets((s2f, srf, t3f, t4f), acc, out)


@njit(cache=True, nogil=True)
def _seen_sums(
    sp: int, kd: int, bd: int, bmask: Any, rest: Any, m: int, dense: Any, settle: Any
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """The dealer's hands with the ``m`` seen cards (key ``kd`` with the board, bits ``bd``):
    one when both are seen, else every other card off the board; summed nets and count."""
    ck, cb, offs, plain, flush, _ = dense
    q0, bclass, net = settle
    if m == 2:
        sd = hash_value(kd, bd, offs, plain, flush)
        base, play = _uth_nets(sp, sd, q0, bclass, net)
        return base, play, 1
    vb = 0
    vp = 0
    vn = 0
    for iy in range(rest.shape[0]):
        y = rest[iy]
        if (bmask >> y) & 1:
            continue
        sd = hash_value(kd + ck[y], bd | cb[y], offs, plain, flush)
        base, play = _uth_nets(sp, sd, q0, bclass, net)
        vb += base
        vp += play
        vn += 1
    return vb, vp, vn


@njit(cache=True, nogil=True)
def uth_seen_dealer(
    player: Any,
    seen: Any,
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
    """The player's two cards and one or two of the dealer's hole cards ``seen``: every board
    of the other cards, flop first, with every card the dealer's other hole card may be, played
    with the best decision on each street given all the cards seen (the rule of
    :func:`uth_known_dealer`).  Returns ``(best, completions, preflop)``: the summed best net
    (units of ``1 / scale`` Ante) over the ordered completions, their number, and the best
    preflop decision (0 check, 3, 4); fills ``s2[f]`` and ``sr[f]`` (the summed nets after the
    flop of colex rank ``f``, by positions among the cards neither the player's nor seen, of
    betting 2x and of checking to the river)."""
    m = seen.shape[0]
    rest = np.empty(50, np.int64)
    n = 0
    kd = init
    bd = 0
    out_mask = (np.int64(1) << player[0]) | (np.int64(1) << player[1])
    for i in range(m):
        kd += ck[seen[i]]
        bd |= cb[seen[i]]
        out_mask |= np.int64(1) << seen[i]
    for c in range(52):
        if (out_mask >> c) & 1 == 0:
            rest[n] = c
            n += 1
    rest = rest[:n]
    nflop = n * (n - 1) * (n - 2) // 6
    s2[:] = 0
    sr[:] = 0
    kp = init + ck[player[0]] + ck[player[1]]
    bp = cb[player[0]] | cb[player[1]]
    dense = (ck, cb, offs, plain, flush, init)
    settle = (q0, bclass, net)
    total3 = 0
    total4 = 0
    count = 0
    pos = np.empty(5, np.int64)
    for p4 in range(4, n):
        for p3 in range(3, p4):
            for p2 in range(2, p3):
                for p1 in range(1, p2):
                    for p0 in range(p1):
                        pos[0], pos[1], pos[2], pos[3], pos[4] = p0, p1, p2, p3, p4
                        key, bits, bmask = _board_key(pos, rest, ck, cb)
                        sp = hash_value(kp + key, bp | bits, offs, plain, flush)
                        vb, vp, vn = _seen_sums(
                            sp, kd + key, bd | bits, bmask, rest, m, dense, settle
                        )
                        b1 = vb + vp
                        f1 = vn * fold
                        total3 += 10 * (vb + 3 * vp)
                        total4 += 10 * (vb + 4 * vp)
                        count += 10 * vn
                        _add_flops(pos, s2, sr, vb + 2 * vp, max(b1, f1))
    best = 0
    for r in range(nflop):
        best += max(s2[r], sr[r])
    decision = 0
    if total3 > best:
        best, decision = total3, 3
    if total4 > best:
        best, decision = total4, 4
    return best, count, decision
