"""Numba kernels of the fast Monte Carlo shared by every game: deal random rounds, decide by
the tables, settle.

Cards are dense indices (0 = 2c .. 51 = As); a deal is an array of card indices, laid out by
each game's settle function (``analysis/<game>/montecarlo.py`` or ``mc_kernels.py``).  Hand
strengths are the dense strengths of :func:`croupier.analysis.block_solver.dense_tables`, looked
up by the perfect hash of :func:`croupier.kernels.blocks.hash_value` (:func:`hand_value`); the
kernels take the ranker's tables as one tuple ``ev = (card keys, card bits, hash offsets, plain
table, flush table, suit counters' start)`` (:meth:`DenseTables.args`).  Card sets are looked
up by their colex rank (:func:`colex`).

One kernel factory serves every game of the fast Monte Carlo: a game writes its settle function
``settle(deal, tables, work) -> (net, action)`` and gets its random-block kernel from
:func:`make_block` and its batch kernel (compared with the round engine by the tests) from
:func:`make_settle_many`; every kernel deals by the one :func:`shuffle`.  Nets are integers in
units of ``1 / scale`` of the game's unit wager.

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

from croupier.kernels.blocks import hash_value

__all__ = [
    "COLEX",
    "DEALER_HOLDINGS",
    "NSTATS",
    "WORK",
    "colex",
    "hand_value",
    "make_block",
    "make_block_by_action",
    "make_settle_many",
    "shuffle",
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
def hand_value(deal: Any, first: int, count: int, extra: Any, ev: Any) -> int:  # pragma: no cover
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


@njit(inline="always", nogil=True)
def colex(deal: Any, first: int, count: int, work: Any, binom: Any) -> int:  # pragma: no cover
    """Colex rank of the set ``deal[first:first + count]`` (sorted in ``work``)."""
    hand = work[:count]
    for i in range(count):
        hand[i] = deal[first + i]
    hand.sort()
    r = 0
    for i in range(count):
        r += binom[hand[i], i + 1]
    return r
