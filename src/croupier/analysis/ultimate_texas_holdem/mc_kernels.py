"""Ultimate Texas Hold 'Em's numba kernels of the fast Monte Carlo
(:mod:`croupier.analysis.montecarlo`): the three decisions by the solver's tables (the river's
from the exact counts of the 990 dealer holdings), and the settle kernel of one deal.

A deal is 9 card indices: the player's two (0, 1), the dealer's two (2, 3), the flop (4..6), the
turn (7) and the river (8).  Strengths are the dense ``poker5`` strengths (best five of seven) of
:func:`croupier.analysis.block_solver.dense_tables`.  Nets are integers in units of
``1 / scale`` Ante, ``scale`` the common denominator of the Blind table (2 for table A's 3 to 2).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from croupier.analysis.mc_kernels import (
    COLEX,
    DEALER_HOLDINGS,
    WORK,
    hand_value,
    make_block,
    make_settle_many,
)
from croupier.kernels.blocks import HASH_SHIFT, RANK_MASK, hash_value

__all__ = [
    "river_counts_one",
    "river_play",
    "uth_block",
    "uth_decide",
    "uth_settle",
    "uth_settle_many",
]


@njit(inline="always", nogil=True)
def _tally(cnt: Any, v: int, vp: int, q0: int, n: int) -> None:  # pragma: no cover - compiled
    """Count ``n`` dealer holdings of strength ``v`` against the player's ``vp`` in
    ``cnt = (Wq, Wn, T, Lq, Ln)``."""
    if v < vp:
        cnt[0 if v >= q0 else 1] += n
    elif v == vp:
        cnt[2] += n
    else:
        cnt[3 if v >= q0 else 4] += n


@njit(inline="always", nogil=True)
def _river_cards(
    h0: int, h1: int, board: Any, work: Any
) -> tuple[int, int, int, int]:  # pragma: no cover - compiled
    """The unseen cards of a river: ``work[52:65]`` the unseen cards of each rank outside the
    flush suit, ``work[65:78]`` whether that rank's flush-suit card is unseen, ``work[78:91]``
    the unseen flush-suit cards and ``work[91:136]`` the other unseen cards; returns the flush
    suit (-1: none), the board's cards of it, and the two lists' lengths."""
    used = work[0:52]
    avail = work[52:65]
    suited = work[65:78]
    scards = work[78:91]
    others = work[91:136]
    used[:] = 0
    for c in board:
        used[c] = 1
    used[h0] = 1
    used[h1] = 1
    fs = -1
    bs = 0
    for s in range(4):
        k = 0
        for c in board:
            if c & 3 == s:
                k += 1
        if k >= 3:
            fs = s
            bs = k
    ns = 0
    no = 0
    for r in range(13):
        avail[r] = 0
        suited[r] = 0
        for s in range(4):
            c = 4 * r + s
            if used[c] == 0:
                if s == fs:
                    suited[r] = 1
                    scards[ns] = c
                    ns += 1
                else:
                    avail[r] += 1
                    others[no] = c
                    no += 1
    return fs, bs, ns, no


@njit(inline="always", nogil=True)
def _count_rank_pairs(
    bkey: int, bs: int, vp: int, ev: Any, q0: int, work: Any
) -> None:  # pragma: no cover - compiled
    """Tally the holdings with fewer than ``5 - bs`` cards of the flush suit (all if none) by
    rank pairs: each pair's plain strength once, weighted by its holdings."""
    ck, offs, plain = ev[0], ev[2], ev[3]
    avail = work[52:65]
    suited = work[65:78]
    cnt = work[136:141]
    base = bkey & RANK_MASK
    for r1 in range(13):
        a1 = avail[r1] + suited[r1]
        if a1 == 0:
            continue
        k1 = base + (ck[4 * r1] & RANK_MASK)
        for r2 in range(r1, 13):
            if r1 == r2:
                n = a1 * (a1 - 1) // 2
                if bs == 4:
                    n -= suited[r1] * avail[r1]
            else:
                a2 = avail[r2] + suited[r2]
                n = a1 * a2
                if bs == 3:
                    n -= suited[r1] * suited[r2]
                elif bs == 4:
                    n = avail[r1] * avail[r2]
            if n > 0:
                ranks = k1 + (ck[4 * r2] & RANK_MASK)
                _tally(cnt, plain[ranks + offs[ranks >> HASH_SHIFT]], vp, q0, n)


@njit(inline="always", nogil=True)
def _count_pairs_of(
    first: Any, second: Any, same: int, bkey: int, bbits: int, vp: int, ev: Any, q0: int, cnt: Any
) -> None:  # pragma: no cover - compiled
    """Tally every holding of a card of ``first`` and one of ``second`` (``same``: the two
    lists are one, each pair once), ranked one by one."""
    ck, cb, offs, plain, flush = ev[0], ev[1], ev[2], ev[3], ev[4]
    for i in range(first.shape[0]):
        a = first[i]
        ka = bkey + ck[a]
        ba = bbits | cb[a]
        for k in range(i + 1 if same else 0, second.shape[0]):
            b = second[k]
            _tally(cnt, hash_value(ka + ck[b], ba | cb[b], offs, plain, flush), vp, q0, 1)


@njit(cache=True, nogil=True)
def _river_counts(
    h0: int, h1: int, board: Any, ev: Any, q0: int, work: Any
) -> int:  # pragma: no cover - compiled
    """The player's strength; and in ``work[136:141]`` (Wq, Wn, T, Lq, Ln): the 990 dealer
    holdings of the 45 unseen cards against hole cards ``h0``, ``h1`` on the five-card
    ``board``, by result and whether the dealer qualifies (a strength of at least ``q0``).

    A holding can make a flush only with a suit of which the board holds ``b`` >= 3 cards and
    the holding ``5 - b`` or more; every other holding's strength depends on its two ranks
    alone.  Those are counted by rank pairs (91 lookups, weighted by the unseen cards of the two
    ranks that make such holdings), the few that may flush one by one."""
    ck, cb, offs, plain, flush, init = ev
    cnt = work[136:141]
    cnt[:] = 0
    bkey = init
    bbits = 0
    for c in board:
        bkey += ck[c]
        bbits |= cb[c]
    vp = hash_value(bkey + ck[h0] + ck[h1], bbits | cb[h0] | cb[h1], offs, plain, flush)
    _, bs, ns, no = _river_cards(h0, h1, board, work)
    scards = work[78 : 78 + ns]
    others = work[91 : 91 + no]
    if bs < 5:
        _count_rank_pairs(bkey, bs, vp, ev, q0, work)
    # one by one: two flush-suit cards (bs 3), at least one (bs 4), every holding (bs 5)
    if bs >= 3:
        _count_pairs_of(scards, scards, 1, bkey, bbits, vp, ev, q0, cnt)
        if bs >= 4:
            _count_pairs_of(scards, others, 0, bkey, bbits, vp, ev, q0, cnt)
    if bs == 5:
        _count_pairs_of(others, others, 1, bkey, bbits, vp, ev, q0, cnt)
    return vp


@njit(cache=True, nogil=True)
def river_counts_one(
    h0: int, h1: int, board: Any, ev: Any, q0: int, out: Any
) -> None:  # pragma: no cover - compiled
    """``out[:] = (strength, Wq, Wn, T, Lq, Ln)`` of :func:`_river_counts`."""
    work = np.empty(WORK, np.int64)
    out[0] = _river_counts(h0, h1, board, ev, q0, work)
    out[1:6] = work[136:141]


@njit(inline="always", nogil=True)
def _river_play(
    h0: int, h1: int, board: Any, ev: Any, uth: Any, work: Any
) -> bool:  # pragma: no cover - compiled
    """Whether playing 1x beats folding on the river, as the solver decides: the sum over the
    990 dealer holdings of the game's net of playing 1x (``type_net``, by result type) against
    that of a fold (``fold``); on equal value, fold."""
    q0, bclass, type_net, fold = uth[0], uth[1], uth[2], uth[11]
    vp = _river_counts(h0, h1, board, ev, q0, work)
    c = bclass[vp]
    value = 0
    for w in range(3):
        value += work[136] * type_net[c, w] + work[137] * type_net[7 + c, w]
        value += work[138] * type_net[14, w] + work[139] * type_net[15, w]
        value += work[140] * type_net[16, w]
    return bool(value > fold * DEALER_HOLDINGS)


@njit(cache=True, nogil=True)
def river_play(h0: int, h1: int, board: Any, ev: Any, uth: Any) -> bool:  # pragma: no cover
    """:func:`_river_play`, callable from Python."""
    return _river_play(h0, h1, board, ev, uth, np.empty(WORK, np.int64))


@njit(inline="always", nogil=True)
def _uth_decide(deal: Any, ev: Any, uth: Any, work: Any) -> int:  # pragma: no cover - compiled
    """The Play multiple of the hole cards ``deal[0:2]`` (0: fold): 4x or 3x before the flop by
    the starting-hand class, else 2x on the flop ``deal[4:7]`` by the flop table (the flop's
    class and the suit renaming that carries it to the class's member, applied to the hole
    cards), else 1x or fold on the river by :func:`_river_play`.

    ``uth = (q0, bclass, type_net, scale, pair index, starting-hand class of each pair index,
    preflop multiple by class, flop table, flop class and renaming by colex rank, renamings as
    card maps, fold)``: the first four and the last are the game's settlement, tabulated
    (:func:`croupier.analysis.ultimate_texas_holdem.settle.settle_tables`)."""
    pidx, hclass, preflop, flop_tab = uth[4], uth[5], uth[6], uth[7]
    flop_class, flop_perm, card_perm = uth[8], uth[9], uth[10]
    h0 = deal[0]
    h1 = deal[1]
    m = int(preflop[hclass[pidx[h0, h1]]])
    if m > 0:
        return m
    a = min(deal[4], deal[5], deal[6])
    c = max(deal[4], deal[5], deal[6])
    b = deal[4] + deal[5] + deal[6] - a - c
    row = a + COLEX[b, 2] + COLEX[c, 3]
    g = flop_perm[row]
    if flop_tab[flop_class[row], pidx[card_perm[g, h0], card_perm[g, h1]]] > 0:
        return 2
    if _river_play(h0, h1, deal[4:9], ev, uth, work):
        return 1
    return 0


@njit(cache=True, nogil=True)
def uth_decide(deal: Any, ev: Any, uth: Any) -> int:  # pragma: no cover - compiled
    """:func:`_uth_decide`, callable from Python."""
    return _uth_decide(deal, ev, uth, np.empty(WORK, np.int64))


@njit(inline="always", nogil=True)
def uth_settle(deal: Any, tables: Any, work: Any) -> tuple[int, int]:  # pragma: no cover
    """(net in 1/scale Ante, Play multiple or 0 for a fold) of one Hold 'Em deal;
    ``tables = (ev, uth)`` (``uth`` as in :func:`_uth_decide`), ``work`` a scratch buffer of
    :data:`WORK` integers.

    The net is the game's (§ 569.11(e)-(h)), tabulated: ``fold`` for a fold, else the Ante,
    Blind and ``m`` times the Play-per-1x nets of ``type_net`` for the hand's result type (a
    win by Blind line ``bclass[strength]`` against a qualifying dealer, a strength of ``q0``
    or more, or a non-qualifying one; a tie; a loss to either)."""
    ev, uth = tables
    q0, bclass, type_net, fold = uth[0], uth[1], uth[2], uth[11]
    m = _uth_decide(deal, ev, uth, work)
    if m == 0:
        return fold, 0
    board = deal[4:9]
    player = hand_value(deal, 0, 2, board, ev)
    dealer = hand_value(deal, 2, 2, board, ev)
    if player == dealer:
        t = 14
    elif player > dealer:
        t = bclass[player] + (0 if dealer >= q0 else 7)
    else:
        t = 15 if dealer >= q0 else 16
    return type_net[t, 0] + type_net[t, 1] + m * type_net[t, 2], m


uth_block = make_block(uth_settle, 9, "uth_block")
uth_settle_many = make_settle_many(uth_settle, 9, "uth_settle_many")
