"""Numba kernels of the fast Monte Carlo: deal random rounds, decide by the tables, settle.

Cards are dense indices (0 = 2c .. 51 = As).  A deal is an array of card indices:

* Four Card Poker, 11 cards: the player's five (0..4), the dealer's five hidden cards (5..9)
  and the dealer's up card (10);
* Ultimate Texas Hold 'Em, 9 cards: the player's two (0, 1), the dealer's two (2, 3), the flop
  (4..6), the turn (7) and the river (8).

Hand strengths are the dense strengths of :func:`croupier.analysis._uth_fcp_shared.dense_tables`
(``four-card`` for Four Card Poker: best four of five or six; ``poker5`` for Hold 'Em: best five
of seven), looked up by the perfect hash of :func:`croupier.kernels._jit.hash_value`.

The kernels take the ranker's tables as one tuple ``ev = (card keys, card bits, hash offsets,
plain table, flush table, suit counters' start)`` (:meth:`DenseTables.args`) and each game's
tables as another (see :func:`fcp_settle`, :func:`uth_settle`); a settle function takes the
pair ``tables = (ev, game tables)``.

One kernel factory serves every game of the fast Monte Carlo (these two and those of
:mod:`croupier.analysis._mc_more`): a game writes its settle function
``settle(deal, tables, work) -> (net, action)`` and gets its random-block kernel from
:func:`make_block` and its batch kernel (compared with the round engine by the tests) from
:func:`make_settle_many`; every kernel deals by the one :func:`shuffle`.

Nets are integers in units of ``1 / scale`` Ante, ``scale`` the common denominator of the
bonus table (1 for the Ante Bonus, 2 for Blind table A's 3 to 2).

Randomness: numba's own generator (a Mersenne Twister per thread, apart from numpy's).  Each
block calls ``np.random.seed(seed)`` first with its own 32-bit seed (drawn from the generator the
caller injects, one per block), then deals its rounds by partial Fisher-Yates shuffles with
``np.random.randint``; so a block's rounds depend on its seed alone, whichever thread runs it.
"""

from __future__ import annotations

import types
from math import comb
from typing import Any

import numpy as np
from numba import njit

from croupier.kernels.blocks import HASH_SHIFT, RANK_MASK, hash_value

__all__ = [
    "NSTATS",
    "WORK",
    "fcp_action",
    "fcp_block",
    "fcp_settle",
    "fcp_settle_many",
    "make_block",
    "make_block_by_action",
    "make_settle_many",
    "river_counts_one",
    "river_play",
    "shuffle",
    "uth_block",
    "uth_decide",
    "uth_settle",
    "uth_settle_many",
]

NSTATS = 10
"""Columns of a block's statistics: sum of nets, sum of squared nets, rounds won, pushed and
lost (net above, at, below zero), then rounds by action (Four Card Poker: fold, 1x, 2x, 3x;
Hold 'Em: fold, then the Play multiple 1..4)."""

WORK = 144
"""Length of the scratch buffer every settle function takes (``np.empty(WORK, np.int64)``)."""
DEALER_HOLDINGS = 990
COLEX = np.array([[comb(n, k) for k in range(6)] for n in range(53)], dtype=np.int64)
"""``COLEX[n, k]`` = C(n, k): colex ranks of card sets."""


@njit(inline="always", nogil=True)
def _value(deal: Any, first: int, count: int, extra: Any, ev: Any) -> int:  # pragma: no cover
    """Dense strength of ``deal[first:first + count]`` with the cards of ``extra``."""
    ck, cb, offs, plain, flush, init = ev
    key = init
    bits = 0
    for i in range(first, first + count):
        key += ck[deal[i]]
        bits |= cb[deal[i]]
    for c in extra:
        key += ck[c]
        bits |= cb[c]
    return hash_value(key, bits, offs, plain, flush)


@njit(inline="always", nogil=True)
def shuffle(deck: Any, k: int, n: int) -> None:  # pragma: no cover - compiled
    """A partial Fisher-Yates shuffle of ``deck[:n]`` (the whole deck of 52, or a shoe of
    ``52 * decks``): ``deck[:k]`` becomes a uniform random k-card deal, and the deck stays a
    permutation of its cards, so it need not be reset between rounds."""
    for i in range(k):
        j = np.random.randint(i, n)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t


@njit(inline="always", nogil=True)
def _record(stats: Any, net: int, action: int) -> None:  # pragma: no cover - compiled
    stats[0] += net
    stats[1] += net * net
    if net > 0:
        stats[2] += 1
    elif net == 0:
        stats[3] += 1
    else:
        stats[4] += 1
    stats[5 + action] += 1


# The two templates of :func:`make_block`.  ``_SETTLE`` and ``_CARDS`` are the globals each
# specialised copy binds (never defined in this module).


def _block_template(
    seed: int, rounds: int, decks: int, tables: Any, stats: Any
) -> None:  # pragma: no cover - compiled
    np.random.seed(seed)
    work = np.empty(WORK, np.int64)
    deck = np.arange(52 * decks)
    if decks == 1:  # the deck's 52 as a constant: the shuffle's draws compile tighter
        for _ in range(rounds):
            shuffle(deck, _CARDS, 52)  # type: ignore[name-defined]  # noqa: F821
            net, action = _SETTLE(deck, tables, work)  # type: ignore[name-defined]  # noqa: F821
            _record(stats, net, action)
    else:
        for _ in range(rounds):
            shuffle(deck, _CARDS, deck.shape[0])  # type: ignore[name-defined]  # noqa: F821
            net, action = _SETTLE(deck, tables, work)  # type: ignore[name-defined]  # noqa: F821
            _record(stats, net, action)


def _block_by_action_template(
    seed: int, rounds: int, decks: int, tables: Any, stats: Any
) -> None:  # pragma: no cover - compiled
    np.random.seed(seed)
    work = np.empty(WORK, np.int64)
    deck = np.arange(52 * decks)
    count = np.zeros(NSTATS - 5, np.int64)
    net_of = np.zeros(NSTATS - 5, np.int64)
    size = deck.shape[0]
    for _ in range(rounds):
        shuffle(deck, _CARDS, size)  # type: ignore[name-defined]  # noqa: F821
        net, action = _SETTLE(deck, tables, work)  # type: ignore[name-defined]  # noqa: F821
        count[action] += 1
        net_of[action] = net
    for action in range(NSTATS - 5):
        n = count[action]
        if n:
            net = net_of[action]
            stats[0] += net * n
            stats[1] += net * net * n
            stats[2 if net > 0 else 3 if net == 0 else 4] += n
            stats[5 + action] += n


def _settle_many_template(
    deals: Any, tables: Any, nets: Any, actions: Any
) -> None:  # pragma: no cover - compiled
    deal = np.empty(_CARDS, np.int64)  # type: ignore[name-defined]  # noqa: F821
    work = np.empty(WORK, np.int64)
    for r in range(deals.shape[0]):
        for i in range(_CARDS):  # type: ignore[name-defined]  # noqa: F821
            deal[i] = deals[r, i]
        nets[r], actions[r] = _SETTLE(deal, tables, work)  # type: ignore[name-defined]  # noqa: F821


def _specialise(template: Any, settle: Any, cards: int, name: str, doc: str) -> Any:
    """A cached numba kernel: a copy of ``template`` whose globals bind ``_SETTLE`` to
    ``settle`` and ``_CARDS`` to ``cards``.

    Globals, not a closure: numba keys its cache on the pickled closure cells, and a pickled
    dispatcher carries a fresh uuid in every process, so a closure over ``settle`` would compile
    anew in every process.  The copy is filed (code file name and qualified name) under
    ``settle``'s own source file, so numba's cache of it is dropped when that file changes."""
    py = settle.py_func
    code = template.__code__.replace(
        co_name=name, co_qualname=name, co_filename=py.__code__.co_filename
    )
    glb = {**template.__globals__, "_SETTLE": settle, "_CARDS": cards}
    fn = types.FunctionType(code, glb, name)
    fn.__module__ = py.__module__
    fn.__qualname__ = name
    fn.__doc__ = doc
    return njit(cache=True, nogil=True)(fn)


def make_block(settle: Any, cards: int, name: str) -> Any:
    """The random-block kernel ``block(seed, rounds, decks, tables, stats)`` of the settle
    function ``settle(deal, tables, work) -> (net, action)``: after ``np.random.seed(seed)``,
    deal ``rounds`` rounds of ``cards`` cards by :func:`shuffle` from a deck of ``52 * decks``
    cards (a permutation, so every round is dealt from a full deck or shoe), settle each and
    add it to ``stats`` (:data:`NSTATS` columns).  ``name``: the kernel's name (also its numba
    cache file's)."""
    doc = f"Deal and settle random rounds by :func:`{settle.__name__}` ({cards} cards a round)."
    return _specialise(_block_template, settle, cards, name, doc)


def make_block_by_action(settle: Any, cards: int, name: str) -> Any:
    """:func:`make_block` for a settle function whose net is a function of its action alone
    (baccarat's Banker and Player: the net is the wager's pay of the coup's result class): the
    loop only counts the rounds by action, and the statistics follow from the counts and each
    action's net after it, as :func:`make_block` would record them round by round (a test runs
    both on the same seeds)."""
    doc = (
        f"Deal and settle random rounds by :func:`{settle.__name__}` ({cards} cards a round), "
        "counted by action."
    )
    return _specialise(_block_by_action_template, settle, cards, name, doc)


def make_settle_many(settle: Any, cards: int, name: str) -> Any:
    """The batch kernel ``settle_many(deals, tables, nets, actions)``: ``settle`` of every row
    of ``deals`` (``cards`` cards each), into ``nets`` and ``actions``; the tests compare it
    with the round engine deal by deal."""
    doc = f":func:`{settle.__name__}` of every row of ``deals`` ({cards} cards each)."
    return _specialise(_settle_many_template, settle, cards, name, doc)


# --------------------------------------------------------------------------------------------
# Four Card Poker


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
    game's own rules as tabulated by :func:`croupier.analysis.fcp_solver.ante_play_tables`:
    ``bonus[action, player]`` (the Ante Bonus, § 641a.12(b)) plus ``stakes[action, r]`` (Ante
    and Play, § 641a.11(c)(3), § 641a.12(a)) with ``r`` the dealer below, equal, above.  A
    fold nets the same whatever the cards (§ 641a.11(b)), so its hands are not ranked."""
    ev, fcp = tables
    table, bonus, stakes = fcp
    action = _fcp_action(deal, deal[10], table, work)
    if action <= 0:
        return bonus[0, 0] + stakes[0, 0], 0
    none = deal[:0]
    player = _value(deal, 0, 5, none, ev)
    dealer = _value(deal, 5, 6, none, ev)
    relation = 0 if dealer < player else 1 if dealer == player else 2
    return bonus[action, player] + stakes[action, relation], action


fcp_block = make_block(fcp_settle, 11, "fcp_block")
fcp_settle_many = make_settle_many(fcp_settle, 11, "fcp_settle_many")


# --------------------------------------------------------------------------------------------
# Ultimate Texas Hold 'Em


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
    (:func:`croupier.analysis._uth_settle.settle_tables`)."""
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
    player = _value(deal, 0, 2, board, ev)
    dealer = _value(deal, 2, 2, board, ev)
    if player == dealer:
        t = 14
    elif player > dealer:
        t = bclass[player] + (0 if dealer >= q0 else 7)
    else:
        t = 15 if dealer >= q0 else 16
    return type_net[t, 0] + type_net[t, 1] + m * type_net[t, 2], m


uth_block = make_block(uth_settle, 9, "uth_block")
uth_settle_many = make_settle_many(uth_settle, 9, "uth_settle_many")
