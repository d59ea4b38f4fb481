"""Numba kernels of the Ultimate Texas Hold 'Em solver: one flop at a time.

One board (:func:`board_counts`, a holding at a time): every two-card holding of the 47 cards
left is ranked once (dense ``poker5`` strengths, best five of seven), the holdings are sorted by
strength (two-pass radix sort), and one sweep upwards counts, for each holding, the holdings
below it and equal to it that share none of its cards: with ``cnt[c]`` the holdings already
passed that contain card ``c``, the disjoint ones below are ``passed - cnt[a] - cnt[b]`` (taken
before the holding's group of equal strengths is added).  The same count taken where the
qualifying strengths (a pair or better) begin gives the dealer holdings that do not qualify.  So
each of the 1,081 player holdings gets its 990 dealer holdings split into wins, ties and losses,
the dealer qualifying or not, in time linear in the holdings.

One flop (:func:`solve_flop`) works by classes, never a holding at a time:

* a card's class on a board is its rank, plus whether it is of the suit that holds three or more
  of the board (the only suit anyone can flush in; 26 classes); two holdings of the same pair of
  classes rank the same and see the same dealer holdings, counted alike;
* the 1,176 turn-and-river pairs of a flop fall into board classes (the turn and river cards'
  classes and the flush suit; about 320 per flop): the boards of a class differ only by a
  renaming of suits no one can flush in, so one board's holding classes (at most 351) are
  ranked, sorted and swept for all of them, as above with ``cnt`` per class;
* a board class credits each holding class once, times its boards, to the class's sums; the
  holdings that touch some of its boards (those holding one of their turn or river cards) take
  back one share per board they touch; at the end each holding adds its classes' sums.

Values are integers scaled by ``scale`` (the common denominator of the Blind table).  Per board
and holding ``H`` with ``Wq, Wn, T, Lq, Ln`` (wins against a qualifying / non-qualifying dealer,
ties, losses)::

    V(m) = scale * (Wq - Lq) + scale * m * (W - L) + blind[c] * W - scale * L

is the sum over the dealer holdings of the result of playing ``m`` times the Ante (Ante, Play
and Blind; ``c`` the Blind line of the player's hand).  The river decision plays 1x when
``V(1) > -2 * scale * 990`` (a fold loses Ante and Blind); it depends on the holding's class on
the board only, so it is taken once per holding class and board class.  The flop decision bets
2x when the sum of ``V(2)`` over the turn-and-river pairs exceeds the sum of the river values.
The sums that the preflop decision needs (``V`` is linear in ``m``: the three sums of its terms,
and the flop values) are added up per starting-hand class, with the result types behind every
path.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

import numpy as np
from numba import njit

from croupier.kernels.blocks import HASH_SHIFT, RANK_MASK, hash_value

__all__ = [
    "DEALER",
    "NFLOP_FEATURES",
    "NRIVER_FEATURES",
    "NTYPES",
    "PAIR_INDEX",
    "PERMS",
    "board_counts",
    "solve_flop",
]

DEALER = 990
"""Dealer holdings against one (holding, board): C(45, 2)."""
NTYPES = 17
"""Result types: wins against a qualifying dealer by Blind line (7), against a non-qualifying
dealer by Blind line (7), tie, loss to a qualifying dealer, loss to a non-qualifying one."""
NRIVER_FEATURES = 20
"""River features: the player's category (10) x whether the hole cards beat the board alone."""
NFLOP_FEATURES = 40
"""Flop features: category of the five cards (10) x better than the flop alone x four-flush."""

RACC_SHIFT = 12
"""A holding's river situations of one feature (at most 1,081 boards) fit 12 bits; what their
decisions gain (under 2**51) sits above them."""
RACC_MASK = (1 << RACC_SHIFT) - 1

PERMS = np.array(list(permutations(range(4))), dtype=np.int64)
"""The 24 renamings of the suits."""

PAIR_INDEX = np.full((52, 52), -1, dtype=np.int64)
"""Colex index (0..1325) of each two-card set, both orders; -1 on the diagonal."""
for _b in range(52):
    for _a in range(_b):
        PAIR_INDEX[_a, _b] = PAIR_INDEX[_b, _a] = _a + _b * (_b - 1) // 2


@njit(inline="always", nogil=True)
def _rank_holdings(
    rem: Any,
    bkey: int,
    bbits: int,
    ck: Any,
    cb: Any,
    offs: Any,
    plain: Any,
    flush: Any,
    pair_value: Any,
    vals: Any,
) -> None:  # pragma: no cover - compiled
    """Strength of every holding of ``rem`` (in pair order) with the board.

    The best hand without a flush depends on the ranks only: it is looked up once per pair of
    ranks.  The full lookup (with the flush table) is needed only where the board holds three or
    more cards of a suit and the holding one of that suit, or five (every holding).
    """
    n = rem.shape[0]
    fsuit = -1
    every = False
    for suit in range(4):
        mask = (bbits >> (16 * suit)) & 0x1FFF
        pop = 0
        while mask:
            mask &= mask - 1
            pop += 1
        if pop >= 3:
            fsuit = suit
            every = pop == 5
    base = bkey & RANK_MASK
    have = np.zeros(13, np.int64)
    for i in range(n):
        have[rem[i] >> 2] += 1
    for r1 in range(13):
        if have[r1] == 0:
            continue
        k1 = base + (ck[4 * r1] & RANK_MASK)
        for r2 in range(r1, 13):
            if have[r2] == 0 or (r1 == r2 and have[r1] < 2):
                continue
            ranks = k1 + (ck[4 * r2] & RANK_MASK)
            value = plain[ranks + offs[ranks >> HASH_SHIFT]]
            pair_value[r1, r2] = value
            pair_value[r2, r1] = value
    o = 0
    for i in range(n):
        ci = rem[i]
        ri = ci >> 2
        si = (ci & 3) == fsuit
        for j in range(i + 1, n):
            cj = rem[j]
            if every or (fsuit >= 0 and (si or (cj & 3) == fsuit)):
                key = bkey + ck[ci] + ck[cj]
                vals[o] = hash_value(key, bbits | cb[ci] | cb[cj], offs, plain, flush)
            else:
                vals[o] = pair_value[ri, cj >> 2]
            o += 1


@njit(inline="always", nogil=True)
def _radix_sort(
    vals: Any, ia: Any, ib: Any, n: int, tmp: Any, sv: Any, sa: Any, sb: Any
) -> None:  # pragma: no cover - compiled
    """The holdings sorted by strength (below 8192; two stable passes of 7 and 6 bits):
    strengths ``sv`` and card positions ``sa``, ``sb``."""
    lo = np.zeros(129, np.int64)
    hi = np.zeros(65, np.int64)
    for o in range(n):
        lo[(vals[o] & 127) + 1] += 1
        hi[(vals[o] >> 7) + 1] += 1
    for k in range(128):
        lo[k + 1] += lo[k]
    for k in range(64):
        hi[k + 1] += hi[k]
    for o in range(n):
        d = vals[o] & 127
        tmp[lo[d]] = o
        lo[d] += 1
    for k in range(n):
        o = tmp[k]
        v = vals[o]
        at = hi[v >> 7]
        hi[v >> 7] = at + 1
        sv[at] = v
        sa[at] = ia[o]
        sb[at] = ib[o]


@njit(inline="always", nogil=True)
def _sweep(
    sv: Any, sa: Any, sb: Any, n: int, q0: int, lt: Any, eq: Any, nq: Any
) -> None:  # pragma: no cover - compiled
    """For the sorted holdings: the holdings disjoint from each that are below it (``lt``),
    equal to it (``eq``), and not qualifying (``nq``: strength below ``q0``)."""
    cnt = np.zeros(47, np.int64)
    nqcnt = np.zeros(47, np.int64)
    passed = 0
    nq_total = -1
    k = 0
    while k < n:
        v = sv[k]
        e = k + 1
        while e < n and sv[e] == v:
            e += 1
        if nq_total < 0 and v >= q0:
            nq_total = passed
            for c in range(47):  # element loops, not slices: numba compiles them far faster
                nqcnt[c] = cnt[c]
        for g in range(k, e):
            lt[g] = passed - cnt[sa[g]] - cnt[sb[g]]
        for g in range(k, e):
            cnt[sa[g]] += 1
            cnt[sb[g]] += 1
        passed += e - k
        for g in range(k, e):
            eq[g] = passed - cnt[sa[g]] - cnt[sb[g]] + 1 - lt[g]
        k = e
    if nq_total < 0:
        nq_total = passed
        for c in range(47):
            nqcnt[c] = cnt[c]
    for g in range(n):
        nq[g] = nq_total - nqcnt[sa[g]] - nqcnt[sb[g]] + (1 if sv[g] < q0 else 0)


@njit(inline="always", nogil=True)
def _split(
    v: int, lt: int, eq: int, nq: int, q0: int
) -> tuple[int, int, int, int]:  # pragma: no cover - compiled
    """(Wq, Wn, Lq, Ln): wins and losses of a holding of strength ``v`` against a qualifying and
    a non-qualifying dealer, from the disjoint holdings below it, equal to it and not
    qualifying."""
    gt = DEALER - lt - eq
    if v >= q0:
        return lt - nq, nq, gt, 0
    ln = nq - lt - eq
    return 0, lt, gt - ln, ln


@njit(cache=True, nogil=True)
def board_counts(
    board: Any, ck: Any, cb: Any, offs: Any, plain: Any, flush: Any, init: int, q0: int, out: Any
) -> None:  # pragma: no cover - compiled
    """For one board (five cards): ``out[pair index] = (strength, Wq, Wn, T, Lq, Ln)`` of every
    holding of the 47 other cards (rows of holdings that touch the board are left alone)."""
    used = np.zeros(52, np.bool_)
    for c in board:
        used[c] = True
    rem = np.empty(47, np.int64)
    j = 0
    for c in range(52):
        if not used[c]:
            rem[j] = c
            j += 1
    n = 1081
    ia = np.empty(n, np.int64)
    ib = np.empty(n, np.int64)
    o = 0
    for i in range(47):
        for k in range(i + 1, 47):
            ia[o] = i
            ib[o] = k
            o += 1
    bkey = init
    bbits = 0
    for c in board:
        bkey += ck[c]
        bbits |= cb[c]
    vals = np.empty(n, np.int64)
    pair_value = np.zeros((13, 13), np.int64)
    tmp = np.empty(n, np.int64)
    sv = np.empty(n, np.int64)
    sa = np.empty(n, np.int64)
    sb = np.empty(n, np.int64)
    lt = np.empty(n, np.int64)
    eq = np.empty(n, np.int64)
    nq = np.empty(n, np.int64)
    _rank_holdings(rem, bkey, bbits, ck, cb, offs, plain, flush, pair_value, vals)
    _radix_sort(vals, ia, ib, n, tmp, sv, sa, sb)
    _sweep(sv, sa, sb, n, q0, lt, eq, nq)
    for o in range(n):
        a = rem[sa[o]]
        b = rem[sb[o]]
        h = a + b * (b - 1) // 2
        wq, wn, lq, ln = _split(sv[o], lt[o], eq[o], nq[o], q0)
        out[h, 0] = sv[o]
        out[h, 1] = wq
        out[h, 2] = wn
        out[h, 3] = eq[o]
        out[h, 4] = lq
        out[h, 5] = ln


@njit(inline="always", nogil=True)
def _type_values(type_net: Any, t1: Any) -> None:  # pragma: no cover - compiled
    """``t1[x]``: the net of playing 1x (Ante, Blind and Play) of result type ``x``."""
    for x in range(NTYPES):
        t1[x] = type_net[x, 0] + type_net[x, 1] + type_net[x, 2]


NCODES = 26
"""Card classes on a board: a card's rank, plus 13 for a card of the suit that holds three or more
of the board (the only suit anyone can flush in)."""
NKEYS = 169 + 4 * NCODES * NCODES
"""Board classes of one flop: the turn-and-river ranks where no suit can flush, else the flush
suit and the classes of the turn and river cards."""


@njit(inline="always", nogil=True)
def _group_boards(
    flop: Any, live: Any, keys: Any, first: Any, order: Any
) -> None:  # pragma: no cover - compiled
    """The turn-and-river pairs of the flop (as ``t * 52 + r``) grouped by board class: pairs of
    key ``k`` in ``order[first[k]:first[k + 1]]``.  The boards of a class differ only by a
    renaming of the suits no one can flush in, so every holding class ranks the same on them."""
    fsc = np.zeros(4, np.int64)
    for i in range(3):
        fsc[flop[i] & 3] += 1
    count = np.zeros(NKEYS + 1, np.int64)
    p = 0
    for ti in range(49):
        t = live[ti]
        for ri in range(ti + 1, 49):
            r = live[ri]
            fs = -1
            for s in range(4):
                if fsc[s] + (1 if (t & 3) == s else 0) + (1 if (r & 3) == s else 0) >= 3:
                    fs = s
            if fs < 0:
                lo = min(t >> 2, r >> 2)
                hi = max(t >> 2, r >> 2)
                key = lo * 13 + hi
            else:
                ct = (t >> 2) + (13 if (t & 3) == fs else 0)
                cr = (r >> 2) + (13 if (r & 3) == fs else 0)
                key = 169 + fs * NCODES * NCODES + min(ct, cr) * NCODES + max(ct, cr)
            keys[p] = key
            count[key + 1] += 1
            p += 1
    for k in range(NKEYS):
        count[k + 1] += count[k]
    for k in range(NKEYS + 1):
        first[k] = count[k]
    p = 0
    for ti in range(49):
        for ri in range(ti + 1, 49):
            key = keys[p]
            order[count[key]] = live[ti] * 52 + live[ri]
            count[key] += 1
            p += 1


@njit(inline="always", nogil=True)
def _sort_classes(keys: Any, n: int, tmp: Any) -> None:  # pragma: no cover - compiled
    """``keys[:n]`` (strength << 10 | class) sorted by strength: two counting passes of 7 and 6
    bits (strengths are below 8192)."""
    lo = np.zeros(129, np.int64)
    hi = np.zeros(65, np.int64)
    for o in range(n):
        v = keys[o] >> 10
        lo[(v & 127) + 1] += 1
        hi[(v >> 7) + 1] += 1
    for k in range(128):
        lo[k + 1] += lo[k]
    for k in range(64):
        hi[k + 1] += hi[k]
    for o in range(n):
        x = keys[o]
        d = (x >> 10) & 127
        tmp[lo[d]] = x
        lo[d] += 1
    for o in range(n):
        x = tmp[o]
        d = x >> 17
        keys[hi[d]] = x
        hi[d] += 1


@njit(inline="always", nogil=True)
def _rank_classes(
    live: Any, t0: int, r0: int, code: Any, bkey: int, bbits: int, ev: Any, cw: Any
) -> int:  # pragma: no cover - compiled
    """The holding classes of the board (flop, ``t0``, ``r0``): pairs of card classes with their
    holdings, ranked once each and sorted by strength; ``cw = (mult, rep, sortkey, ck1, ck2,
    tmp)``; returns their number."""
    ck, cb, offs, plain, flush = ev[0], ev[1], ev[2], ev[3], ev[4]
    mult, rep, sortkey, ck1, ck2, tmp = cw
    for k in range(NCODES):
        mult[k] = 0
    for c in live:
        if c != t0 and c != r0:  # noqa: PLR1714 - plain integer tests in numba
            k = code[c]
            if mult[k] < 2:
                rep[k, mult[k]] = c
            mult[k] += 1
    nc = 0
    for k1 in range(NCODES):
        m1 = mult[k1]
        if m1 == 0:
            continue
        x = rep[k1, 0]
        for k2 in range(k1, NCODES):
            m2 = mult[k2]
            if m2 == 0 or (k1 == k2 and m1 < 2):
                continue
            y = rep[k2, 1] if k1 == k2 else rep[k2, 0]
            v = hash_value(bkey + ck[x] + ck[y], bbits | cb[x] | cb[y], offs, plain, flush)
            sortkey[nc] = (v << 10) | nc
            ck1[nc] = k1
            ck2[nc] = k2
            nc += 1
    _sort_classes(sortkey, nc, tmp)
    return nc


@njit(inline="always", nogil=True)
def _sweep_classes(nc: int, q0: int, cw: Any, sw: Any) -> None:  # pragma: no cover - compiled
    """The sorted holding classes swept upwards (as :func:`_sweep`, a class at a time: every card
    of a class lies in as many of its holdings): per class, the holdings disjoint from one of
    its holdings that are below it, equal to it and not qualifying; ``sw = (sv, lt, eq, nq)``."""
    mult, sortkey, ck1, ck2 = cw[0], cw[2], cw[3], cw[4]
    sv, lt, eq, nq, sk1, sk2 = sw
    cnt = np.zeros(NCODES, np.int64)
    nqcnt = np.zeros(NCODES, np.int64)
    for g in range(nc):
        key = sortkey[g]
        sv[g] = key >> 10
        sk1[g] = ck1[key & 1023]
        sk2[g] = ck2[key & 1023]
    passed = 0
    nq_total = -1
    k = 0
    while k < nc:
        v = sv[k]
        e = k + 1
        while e < nc and sv[e] == v:
            e += 1
        if nq_total < 0 and v >= q0:
            nq_total = passed
            for c in range(NCODES):
                nqcnt[c] = cnt[c]
        for g in range(k, e):
            lt[g] = passed - cnt[sk1[g]] - cnt[sk2[g]]
        for g in range(k, e):
            k1 = sk1[g]
            k2 = sk2[g]
            m1 = mult[k1]
            if k1 == k2:
                passed += m1 * (m1 - 1) // 2
                cnt[k1] += m1 - 1
            else:
                m2 = mult[k2]
                passed += m1 * m2
                cnt[k1] += m2
                cnt[k2] += m1
        for g in range(k, e):
            eq[g] = passed - cnt[sk1[g]] - cnt[sk2[g]] + 1 - lt[g]
        k = e
    if nq_total < 0:
        nq_total = passed
        for c in range(NCODES):
            nqcnt[c] = cnt[c]
    for g in range(nc):
        nq[g] = nq_total - nqcnt[sk1[g]] - nqcnt[sk2[g]] + (1 if sv[g] < q0 else 0)


@njit(inline="always", nogil=True)
def _class_credits(
    nc: int, q0: int, board: Any, tabs: Any, sw: Any, cred: Any, cacc: Any
) -> None:  # pragma: no cover - compiled
    """What one board of the class credits to a holding of each holding class (``cred = (wins,
    rest, col, feat, river, stamp)`` by slot ``k1 * 26 + k2``, ``k1 <= k2``; ``stamp`` the
    group that wrote it): the packed counts by result type into ``acc[h, col]`` and
    ``acc[h, col | 7]`` (the river playing or folding), the river situation with what its
    decision gains into ``racc[h, feat]``; and that times the class's boards added to the
    class's sums ``cacc`` (as if no holding touched them), ``board = (vboard, boards, flush suit
    + 1, group)``."""
    category, bclass, t1, fold_all = tabs[0], tabs[1], tabs[2], tabs[3]
    vboard, gs, f, group = board
    sv, lt, eq, nq, sk1, sk2 = sw
    c_wins, c_rest, c_col, c_feat, c_river, stamp = cred
    acc_c, racc_c = cacc
    tie, lose_q, lose_n = t1[14], t1[15], t1[16]
    for g in range(nc):
        v = sv[g]
        wq, wn, lq, ln = _split(v, lt[g], eq[g], nq[g], q0)
        c = bclass[v]
        value = wq * t1[c] + wn * t1[7 + c] + eq[g] * tie + lq * lose_q + ln * lose_n
        play = value > fold_all
        river = 1 + ((value - fold_all if play else fold_all - value) << RACC_SHIFT)
        feat = 4 * category[v] + (2 if v > vboard else 0) + (1 if play else 0)
        col = (0 if play else 8) + c
        wins = wq + (wn << 32)
        rest = eq[g] + (lq << 21) + (ln << 42)
        slot = sk1[g] * NCODES + sk2[g]
        c_wins[slot] = wins
        c_rest[slot] = rest
        c_col[slot] = col
        c_feat[slot] = feat
        c_river[slot] = river
        stamp[slot] = group
        acc_c[f, slot, col] += gs * wins
        acc_c[f, slot, col | 7] += gs * rest
        racc_c[f, slot, feat] += gs * river


@njit(inline="always", nogil=True)
def _correct_touching(
    live: Any, boards: Any, code: Any, cred: Any, group: int, marks: Any, accs: Any
) -> None:  # pragma: no cover - compiled
    """The holdings that touch boards of the class take back, per board they touch, what
    :func:`_class_credits` credited their class for it."""
    c_wins, c_rest, c_col, c_feat, c_river, stamp = cred
    cnt, mark, touched, pidx = marks
    acc, racc = accs
    nt = 0
    for x in boards:
        t = x // 52
        r = x % 52
        if cnt[t] == 0:
            touched[nt] = t
            nt += 1
        if cnt[r] == 0:
            touched[nt] = r
            nt += 1
        cnt[t] += 1
        cnt[r] += 1
        mark[pidx[t, r]] = 1
    for u in range(nt):
        x = touched[u]
        kx = code[x]
        for y in live:
            if y == x or (cnt[y] > 0 and y < x):  # a pair of touched cards once
                continue
            ky = code[y]
            slot = min(kx, ky) * NCODES + max(kx, ky)
            if stamp[slot] != group:  # a class no holding of which misses every board
                continue
            h = pidx[x, y]
            d = mark[h] - cnt[x] - cnt[y]
            col = c_col[slot]
            acc[h, col] += d * c_wins[slot]
            acc[h, col | 7] += d * c_rest[slot]
            racc[h, c_feat[slot]] += d * c_river[slot]
    for x in boards:
        t = x // 52
        r = x % 52
        cnt[t] = 0
        cnt[r] = 0
        mark[pidx[t, r]] = 0


@njit(inline="always", nogil=True)
def _credit_classes(
    live: Any, codes: Any, used: Any, cacc: Any, pidx: Any, accs: Any
) -> None:  # pragma: no cover - compiled
    """Every holding of the flop takes its class's sums, under each flush suit (or none)."""
    acc_c, racc_c = cacc
    acc, racc = accs
    for j in range(49):
        b = live[j]
        for i in range(j):
            a = live[i]
            h = pidx[a, b]
            for f in range(5):
                if not used[f]:
                    continue
                ka = codes[f, a]
                kb = codes[f, b]
                slot = min(ka, kb) * NCODES + max(ka, kb)
                for x in range(16):
                    acc[h, x] += acc_c[f, slot, x]
                for x in range(40):
                    racc[h, x] += racc_c[f, slot, x]


@njit(inline="always", nogil=True)
def _walk_boards(
    flop: Any, live: Any, ev: Any, q0: int, tabs: Any, acc: Any
) -> int:  # pragma: no cover - compiled
    """Every turn-and-river pair of the 49 live cards, a board class at a time: the class's
    holding classes ranked, sorted and swept once and credited to the classes; then every
    holding takes its classes' sums; returns the board classes solved."""
    ck, cb, offs, plain, flush, init = ev
    pidx, racc = tabs[4], tabs[5]
    keys = np.empty(1176, np.int64)
    first = np.empty(NKEYS + 1, np.int64)
    order = np.empty(1176, np.int64)
    _group_boards(flop, live, keys, first, order)
    fkey = init + ck[flop[0]] + ck[flop[1]] + ck[flop[2]]
    fbits = cb[flop[0]] | cb[flop[1]] | cb[flop[2]]
    cw = (
        np.zeros(NCODES, np.int64), np.zeros((NCODES, 2), np.int64), np.empty(351, np.int64),
        np.empty(351, np.int64), np.empty(351, np.int64), np.empty(351, np.int64),
    )  # fmt: skip
    sw = (
        np.empty(351, np.int64), np.empty(351, np.int64), np.empty(351, np.int64),
        np.empty(351, np.int64), np.empty(351, np.int64), np.empty(351, np.int64),
    )  # fmt: skip
    nslot = NCODES * NCODES
    cred = (
        np.zeros(nslot, np.int64), np.zeros(nslot, np.int64), np.zeros(nslot, np.int64),
        np.zeros(nslot, np.int64), np.zeros(nslot, np.int64), np.full(nslot, -1, np.int64),
    )  # fmt: skip
    cacc = (np.zeros((5, nslot, 16), np.int64), np.zeros((5, nslot, 40), np.int64))
    marks = (np.zeros(52, np.int64), np.zeros(1326, np.int64), np.empty(52, np.int64), pidx)
    codes = np.empty((5, 52), np.int64)
    for f in range(5):
        for c in range(52):
            codes[f, c] = (c >> 2) + (13 if (c & 3) == f - 1 else 0)
    used = np.zeros(5, np.bool_)
    classes = 0
    for key in range(NKEYS):
        if first[key + 1] == first[key]:
            continue
        f = 0 if key < 169 else 1 + (key - 169) // (NCODES * NCODES)
        used[f] = True
        code = codes[f]
        boards = order[first[key] : first[key + 1]]
        t0 = boards[0] // 52
        r0 = boards[0] % 52
        bkey = fkey + ck[t0] + ck[r0]
        bbits = fbits | cb[t0] | cb[r0]
        vboard = hash_value(bkey, bbits, offs, plain, flush)
        nc = _rank_classes(live, t0, r0, code, bkey, bbits, ev, cw)
        _sweep_classes(nc, q0, cw, sw)
        _class_credits(nc, q0, (vboard, len(boards), f, classes), tabs, sw, cred, cacc)
        _correct_touching(live, boards, code, cred, classes, marks, (acc, racc))
        classes += 1
    _credit_classes(live, codes, used, cacc, pidx, (acc, racc))
    return classes


@njit(inline="always", nogil=True)
def _unpack(acc: Any, h: int, row: Any, both: Any) -> int:  # pragma: no cover - compiled
    """The counts of holding ``h`` by result type: ``row[0..16]`` where the river plays,
    ``row[17..33]`` where it folds, ``both`` their sum; returns the dealer holdings folded."""
    for part in range(2):
        at = NTYPES * part
        for c in range(7):
            packed = acc[h, 8 * part + c]
            row[at + c] = packed & 0xFFFFFFFF
            row[at + 7 + c] = packed >> 32
        packed = acc[h, 8 * part + 7]
        row[at + 14] = packed & 0x1FFFFF
        row[at + 15] = (packed >> 21) & 0x1FFFFF
        row[at + 16] = packed >> 42
    folds = 0
    for x in range(NTYPES):
        both[x] = row[x] + row[NTYPES + x]
        folds += row[NTYPES + x]
    return folds


@njit(inline="always", nogil=True)
def _decide_holding(
    h: int, row: Any, both: Any, folds: int, type_net: Any, t1: Any, fold: int, out: Any
) -> int:  # pragma: no cover - compiled
    """The flop decision of holding ``h`` from its counts: ``lin[h]`` the sums of the Ante, the
    Play per 1x and the Blind nets over every board, ``checked[h]`` the value of checking (the
    river deciding), and whether betting 2x is worth more (1) or not (0)."""
    lin, checked = out[0], out[1]
    lin[h, 0] = 0
    lin[h, 1] = 0
    lin[h, 2] = 0
    check = fold * folds
    for x in range(NTYPES):
        lin[h, 0] += both[x] * type_net[x, 0]
        lin[h, 1] += both[x] * type_net[x, 2]
        lin[h, 2] += both[x] * type_net[x, 1]
        check += row[x] * t1[x]
    checked[h] = check
    return 1 if lin[h, 0] + 2 * lin[h, 1] + lin[h, 2] > check else 0


@njit(inline="always", nogil=True)
def _flop_feature(
    flop: Any, a: int, b: int, ev: Any, category: Any, fcat: int
) -> int:  # pragma: no cover - compiled
    """The flop feature of holding ``(a, b)``: the five cards' category, whether it beats the
    flop's own (``fcat``), whether it holds four to a flush."""
    ck, cb, offs, plain, flush, init = ev
    key = init + ck[flop[0]] + ck[flop[1]] + ck[flop[2]] + ck[a] + ck[b]
    bits = cb[flop[0]] | cb[flop[1]] | cb[flop[2]] | cb[a] | cb[b]
    cat = int(category[hash_value(key, bits, offs, plain, flush)])
    suits = np.zeros(4, np.int64)
    draw = 0
    for c in (flop[0], flop[1], flop[2], a, b):
        suits[c & 3] += 1
        if suits[c & 3] == 4:
            draw = 1
    return 4 * cat + 2 * (1 if cat > fcat else 0) + draw


@njit(inline="always", nogil=True)
def _flop_category(flop: Any) -> int:  # pragma: no cover - compiled
    """The category index of the flop alone: 3 three of a kind, 1 a pair, else 0."""
    f0 = flop[0] >> 2
    f1 = flop[1] >> 2
    f2 = flop[2] >> 2
    if f0 == f1 and f1 == f2:
        return 3
    if f0 == f1 or f1 == f2 or f0 == f2:  # noqa: PLR1714, SIM109 - numba integer tests
        return 1
    return 0


@njit(inline="always", nogil=True)
def _add_to_class(
    k: int, h: int, feature: int, bet: int, folds: int, counts: Any, holding: Any, sums: Any
) -> None:  # pragma: no cover - compiled
    """Add holding ``h`` (its flop ``feature`` and decision ``bet``; ``counts = (row, both,
    racc)`` its result types and river situations) to the sums of its class ``k``
    (:func:`solve_flop`)."""
    row, both, racc = counts
    lin, checked = holding[0], holding[1]
    c_lin, c_best, c_all, c_pre, c_flop, c_river, c_flop_gain, c_river_gain = sums
    for w in range(3):
        c_lin[k, w] += lin[h, w]
    # element loops, not slice arithmetic: numba compiles them far faster
    for x in range(NTYPES):
        c_all[k, x] += both[x]
    if bet == 1:
        c_best[k] += lin[h, 0] + 2 * lin[h, 1] + lin[h, 2]
        for x in range(NTYPES):
            c_pre[k, x] += both[x]
    else:
        c_best[k] += checked[h]
        for x in range(NTYPES):
            c_pre[k, NTYPES + x] += row[x]
        c_pre[k, 2 * NTYPES] += folds
        for f in range(40):
            c_river[k, f >> 1, f & 1] += racc[h, f] & RACC_MASK
            c_river_gain[k, f >> 1, f & 1] += racc[h, f] >> RACC_SHIFT
    c_flop[k, feature, bet] += 1
    gain = lin[h, 0] + 2 * lin[h, 1] + lin[h, 2] - checked[h]
    c_flop_gain[k, feature, bet] += gain if bet == 1 else -gain


@njit(cache=True, nogil=True)
def solve_flop(
    flop: Any, ev: Any, q0: int, category: Any, bclass: Any, type_net: Any, fold: int,
    pidx: Any, cls: Any, holding: Any, sums: Any,
) -> int:  # pragma: no cover - compiled  # fmt: skip
    """Solve one flop (three cards) for every holding of the 49 other cards.

    ``ev`` the ranker's dense tables; ``category[s]`` the category index of strength ``s``,
    ``bclass[s]`` its Blind line (0..6, 6 the push), ``type_net[x]`` the nets of the Ante,
    Blind and Play per 1x of result type ``x`` (:data:`NTYPES`, times the scale) and ``fold``
    the net of a fold: the game's settlement, tabulated
    (:func:`croupier.analysis.ultimate_texas_holdem.settle.settle_tables`); ``cls[h]`` the
    starting-hand class
    (0..168) of pair index ``h``.

    Per holding, ``holding = (lin, checked, bet)`` (pair index; holdings that touch the flop
    stay zero, ``bet`` -1): ``lin`` the sums over the turn-and-river pairs and dealer holdings
    of the Ante, Play-per-1x and Blind nets; ``checked`` the value of checking (then the river
    decision); ``bet`` 1 where betting 2x is worth more.  Added per class, ``sums = (c_lin,
    c_best, c_all, c_pre, c_flop, c_river, c_flop_gain, c_river_gain)``: ``c_lin`` (``lin``),
    ``c_best`` (the flop value, 2x or check), ``c_all`` (result types over every board: for a
    preflop raise), ``c_pre`` (result types under the flop and river decisions: 17 at 2x, 17
    at 1x, the folded dealer holdings), ``c_flop[feature, bet]`` (flop decisions by the
    five-card hand) and ``c_river[feature, play]`` (river decisions reached after a flop
    check, by the seven-card hand); ``c_flop_gain`` and ``c_river_gain`` beside them (same
    shapes): what the decision taken gains over the other one, ``|V(2) - checked|`` on the
    flop and ``|V(1) - fold|`` on the river (the cost of the other action there).  Returns the
    board classes solved (:func:`_walk_boards`).
    """
    lin, checked, bet = holding
    used = np.zeros(52, np.bool_)
    for i in range(3):
        used[flop[i]] = True
    live = np.empty(49, np.int64)
    j = 0
    for c in range(52):
        if not used[c]:
            live[j] = c
            j += 1
    # per holding, packed (a sum over at most 1,081 boards of counts up to 990 fits 21 bits):
    # where the river plays (columns 0..7) and where it folds (8..15), column c < 7 holds the
    # wins of Blind line c against a qualifying dealer + (those against a non-qualifying one
    # << 32), column 7 the ties + (losses to a qualifying dealer << 21) + (other losses << 42);
    # and the river situations by feature and decision (2 * feature + play), each + (what the
    # decision gains over the other one << RACC_SHIFT); the packed sums are linear, so the class
    # sums and the touching holdings' negative shares add up to these exactly (int64 throughout)
    acc = np.zeros((1326, 16), np.int64)
    racc = np.zeros((1326, 40), np.int64)
    t1 = np.empty(NTYPES, np.int64)
    _type_values(type_net, t1)
    tabs = (category, bclass, t1, fold * DEALER, pidx, racc)
    boards = _walk_boards(flop, live, ev, q0, tabs, acc)
    row = np.zeros(2 * NTYPES, np.int64)
    both = np.zeros(NTYPES, np.int64)
    fcat = _flop_category(flop)
    for b in range(52):
        for a in range(b):
            h = pidx[a, b]
            if used[a] or used[b]:
                bet[h] = -1
                continue
            folds = _unpack(acc, h, row, both)
            bet[h] = _decide_holding(h, row, both, folds, type_net, t1, fold, (lin, checked))
            feature = _flop_feature(flop, a, b, ev, category, fcat)
            _add_to_class(cls[h], h, feature, bet[h], folds, (row, both, racc), holding, sums)
    return boards
