"""Batch rankers: ``rank_batch(ranking, hands)`` equals ``evaluate(hand, ranking).value`` per row.

The kernels read the hands as one flat run of bytes and keep every table small enough for the
level-2 cache (see :mod:`croupier.kernels._tables`).  A row that holds a byte that is no card or a
card twice is marked -1 by the kernel; the wrapper then names the first such row.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations
from math import comb
from typing import Any

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

from croupier.core.cards import Card
from croupier.core.errors import InvalidInput
from croupier.hands import CATEGORY_SHIFT, Category, Ranking
from croupier.kernels._count7 import seven_card_values
from croupier.kernels._jit import (
    _FLUSH_LOW,
    FLUSH_BITS,
    HASH_SHIFT,
    INVALID_KEY,
    RANK_MASK,
    SUIT_SHIFT,
    rank_hash,
    suit_init,
)
from croupier.kernels._tables import Tables, tables

__all__ = ["as_hands", "count_categories", "count_values", "rank_batch", "rank_flat"]

Int32Array = NDArray[np.int32]
UInt8Array = NDArray[np.uint8]


def _span(ranking: Ranking) -> str:
    low, high = ranking.min_cards, ranking.max_cards
    return str(low) if low == high else f"{low} to {high}"


def as_hands(hands: ArrayLike, *, what: str = "hands") -> UInt8Array:
    """``hands`` as a C-contiguous (n, k) uint8 array of card indices 0..51.

    Checks the shape, the dtype (integers only) and the range; repeated cards are the kernels'
    to find.  Raises :class:`InvalidInput` naming the first problem.
    """
    array = np.asarray(hands)
    if array.ndim != 2:
        raise InvalidInput(
            f"{what} must be a 2-D array of card indices, one hand a row; got shape {array.shape}"
        )
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise InvalidInput(f"{what} must hold integer card indices 0..51; got dtype {array.dtype}")
    if array.dtype != np.uint8 and array.size:
        outside = (array < 0) | (array > 51)
        if outside.any():
            row, col = (int(x) for x in np.argwhere(outside)[0])
            raise InvalidInput(
                f"{what} row {row} holds card index {int(array[row, col])}, outside 0..51"
            )
    return np.ascontiguousarray(array, dtype=np.uint8)


def _first_bad(hands: UInt8Array, out: Int32Array) -> InvalidInput:
    row = int(np.flatnonzero(out < 0)[0])
    cards = [int(c) for c in hands[row]]
    for card in cards:
        if card > 51:
            return InvalidInput(f"hands row {row} holds card index {card}, outside 0..51")
    twice = sorted({c for c in cards if cards.count(c) > 1})
    named = ", ".join(f"{Card.from_index(c)} (index {c})" for c in twice)
    return InvalidInput(f"hands row {row} holds {named} more than once")


_MIN_SHARE = 1 << 15
"""Fewest rows worth handing to a thread of their own."""

_pool_lock = threading.Lock()
_pools: dict[int, ThreadPoolExecutor] = {}


def _pool(workers: int) -> ThreadPoolExecutor:
    with _pool_lock:
        pool = _pools.get(workers)
        if pool is None:
            pool = _pools[workers] = ThreadPoolExecutor(workers, thread_name_prefix="croupier")
        return pool


def _run(
    kernel: Callable[..., int], flat: UInt8Array, k: int, out: Int32Array, *, parallel: bool
) -> None:
    """Run a row kernel ``kernel(flat, k, out, ...)`` over all rows, or in shares on threads.

    The kernels release the GIL, so each thread runs the same single-thread code on its own
    contiguous share of the rows; numba's ``get_num_threads()`` says how many threads.
    """
    n = out.shape[0]
    workers = min(numba.get_num_threads(), n // _MIN_SHARE) if parallel else 1
    if workers <= 1:
        kernel(flat, k, out)
        return
    step = -(-n // workers)
    shares = [
        _pool(workers).submit(kernel, flat[lo * k : (lo + step) * k], k, out[lo : lo + step])
        for lo in range(0, n, step)
    ]
    for share in shares:
        share.result()


def _rank_three(hands: UInt8Array, table: Int32Array) -> Int32Array:
    """Three-card values through a three-card table in numpy (no compilation); -1 marks a row
    with a byte that is no card or a card twice.

    The table is indexed by ``((r0 * 13 + r1) * 13 + r2) * 2 + suited``.
    """
    a, b, c = (hands[:, i].astype(np.int64) for i in range(3))
    bad = (np.maximum(np.maximum(a, b), c) >= 52) | (a == b) | (b == c) | (c == a)
    suited = ((a & 3) == (b & 3)) & ((b & 3) == (c & 3))
    at = (((a >> 2) * 13 + (b >> 2)) * 13 + (c >> 2)) * 2 + suited
    out: Int32Array = table[np.where(bad, 0, at)].astype(np.int32)
    out[bad] = -1
    return out


_NUMPY_ROWS = 1 << 22
"""Batches up to this many rows (and not ``parallel``) are ranked in numpy: no compilation, which
on a cold machine costs more than the ranking of a few million hands."""

Int64Array = NDArray[np.int64]


def hash_values(
    key: Int64Array, bits: Int64Array, offsets: Any, plain: Any, flush: Any
) -> Int32Array:
    """:func:`croupier.kernels._jit.hash_value` over arrays: the value of each summed card key
    and card bits (the plain value from the perfect hash, the flush table where a suit counter
    shows a flush, the larger of the two)."""
    ranks = key & RANK_MASK
    value: Int32Array = plain[ranks + offsets[ranks >> HASH_SHIFT]]
    suited = np.flatnonzero(key & FLUSH_BITS)
    if suited.size:
        flushes = key[suited] & FLUSH_BITS
        suit = np.where(flushes & _FLUSH_LOW, 0, 2)
        suit += (flushes & (np.int64(0x8) << (SUIT_SHIFT + 4 * suit))) == 0
        best = flush[(bits[suited] >> (16 * suit)) & 0x1FFF]
        value[suited] = np.maximum(value[suited], best)
    return value


def _rank_hash_numpy(hands: UInt8Array, tail: tuple[Any, ...]) -> Int32Array:
    """:func:`croupier.kernels._jit.rank_hash` in numpy; -1 marks a bad row."""
    card_key, card_bit, offsets, plain, flush, init = tail
    keys = card_key[hands]
    bits = card_bit[hands]
    key = init + keys.sum(axis=1)
    mask = np.bitwise_or.reduce(bits, axis=1)
    bad = (key >= INVALID_KEY) | (bits.sum(axis=1) != mask)  # a byte no card, or a card twice
    out = hash_values(np.where(bad, init, key), np.where(bad, 0, mask), offsets, plain, flush)
    out[bad] = -1
    return out


def rank_flat(
    ranking: Ranking,
    hands: UInt8Array,
    *,
    parallel: bool = False,
    table: Tables | None = None,
) -> Int32Array:
    """Rank checked (n, k) uint8 hands (see :func:`rank_batch`); -1 marks a row that is no hand."""
    tab = table if table is not None else tables()
    n, k = hands.shape
    out = np.empty(n, dtype=np.int32)
    if n == 0:
        return out
    flat = hands.reshape(-1)
    if ranking in (Ranking.THREE_CARD, Ranking.THREE_CARD_BONUS):
        three = tab.three_card if ranking is Ranking.THREE_CARD else tab.three_card_bonus
        return _rank_three(hands, three)
    if ranking is Ranking.POKER5:
        plain, flush, init = tab.plain_poker5, tab.flush_poker5, suit_init(5)
    else:
        plain, flush, init = tab.plain_four_card, tab.flush_four_card, suit_init(4)
    tail = (tab.card_key, tab.card_bit, tab.offsets, plain, flush, init)
    if n <= _NUMPY_ROWS and not parallel:
        return _rank_hash_numpy(hands, tail)
    _run(lambda f, k_, o: rank_hash(f, k_, o, *tail), flat, k, out, parallel=parallel)
    return out


def rank_batch(ranking: Ranking | str, hands: ArrayLike, *, parallel: bool = False) -> Int32Array:
    """Order values of many hands at once: ``out[i] == evaluate(hands[i], ranking).value``.

    ``hands`` is an (n, k) array of card indices (``Card.index``: 0 = 2c ... 51 = As) of any
    integer dtype; uint8 avoids a conversion.  ``k`` is 5 to 7 for ``poker5``, 4 to 6 for
    ``four-card`` and 3 for the three-card rankings; each row is the best hand of its cards, so the
    order of the cards in a row does not matter.  ``parallel=True`` splits large batches into
    equal shares ranked on ``numba.get_num_threads()`` threads at once (the kernels release the
    GIL).  Returns int32 values, larger is better, equal ties.

    Raises :class:`InvalidInput` for an unknown ranking, a wrong shape, a number of cards the
    ranking does not take, a non-integer dtype, an index outside 0..51 or a card twice in a row.
    """
    rk = Ranking.parse(ranking)
    array = as_hands(hands)
    k = array.shape[1]
    if not rk.min_cards <= k <= rk.max_cards:
        raise InvalidInput(
            f"ranking {rk.value!r} takes {_span(rk)} cards a hand; the hands have {k}"
        )
    out = rank_flat(rk, array, parallel=parallel)
    if out.size and out.min() < 0:
        raise _first_bad(array, out)
    return out


def _colex_sets(m: int) -> UInt8Array:
    """Every m-card set in colex order (the sets below card ``c`` are the first C(c, m))."""
    sets = np.array(list(combinations(range(52), m)), dtype=np.uint8).reshape(-1, m)
    return sets[np.lexsort(sets.T)]


def _count_numpy(
    ncards: int,
    tail: tuple[Any, ...],
    progress: Callable[[int, int], None] | None,
) -> tuple[Int64Array, Int64Array]:
    """How many ``ncards``-card hands (4 to 6) have each order value, in numpy: each hand is a
    set of ``ncards - 2`` low cards below its two highest cards ``c < d``, so the low sets'
    partial keys are summed once and each (c, d) adds two cards to a prefix of them.  The tables
    are first renumbered densely (same order), so the tally is a short bincount.  Returns
    (values, counts) over the values that occur."""
    card_key, card_bit, offsets, plain, flush, init = tail
    values = np.unique(np.concatenate((plain, flush)))
    dense_plain = np.searchsorted(values, plain)
    dense_flush = np.searchsorted(values, flush)
    m = ncards - 2
    low = _colex_sets(m)
    low_key = init + card_key[low].sum(axis=1)
    low_bits = np.bitwise_or.reduce(card_bit[low], axis=1)
    counts = np.zeros(values.size, dtype=np.int64)
    total, done = comb(52, ncards), 0
    for d in range(ncards - 1, 52):
        for c in range(m, d):
            size = comb(c, m)
            key = low_key[:size] + (card_key[c] + card_key[d])
            bits = low_bits[:size] | (card_bit[c] | card_bit[d])
            dense = hash_values(key, bits, offsets, dense_plain, dense_flush)
            counts += np.bincount(dense, minlength=values.size)
            done += size
        if progress is not None:
            progress(done, total)
    seen = counts > 0
    return values[seen].astype(np.int64), counts[seen]


def _tables_of(ranking: Ranking, tab: Tables) -> tuple[Any, ...]:
    if ranking is Ranking.POKER5:
        plain, flush, init = tab.plain_poker5, tab.flush_poker5, suit_init(5)
    else:
        plain, flush, init = tab.plain_four_card, tab.flush_four_card, suit_init(4)
    return (tab.card_key, tab.card_bit, tab.offsets, plain, flush, init)


def count_values(ranking: Ranking | str, ncards: int) -> dict[int, int]:
    """How many of the C(52, ncards) hands have each order value, exhaustively (``poker5`` of 5
    or 6 cards, ``four-card`` of 4 to 6; numpy, no compilation): value -> count."""
    rk = Ranking.parse(ranking)
    if rk not in (Ranking.POKER5, Ranking.FOUR_CARD) or not rk.min_cards <= ncards <= 6:
        raise InvalidInput("value counts are for poker5 or four-card hands of up to 6 cards")
    values, counts = _count_numpy(ncards, _tables_of(rk, tables()), None)
    if int(counts.sum()) != comb(52, ncards):  # pragma: no cover - a broken table
        raise AssertionError(f"counted {int(counts.sum())} hands of {comb(52, ncards)}")
    return dict(zip(values.tolist(), counts.tolist(), strict=True))


def count_categories(
    ranking: Ranking | str,
    ncards: int,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> dict[Category, int]:
    """How many of the C(52, ncards) hands fall in each category of ``ranking``, exhaustively.

    ``ncards`` is 5 to 7 for ``poker5``, 4 to 6 for ``four-card`` and 3 for the three-card
    rankings; each hand counts in the category of its best hand.  The result maps every category
    of the ranking, highest first, to its count (zero included); the counts sum to C(52, ncards).
    ``progress(done, total)`` is called after each lowest card (about fifty times) with the hands
    counted so far and the total, e.g. to drive a progress bar.  The 133,784,560 seven-card
    hands are counted by rank pattern in numpy (:mod:`croupier.kernels._count7`, a quarter of a
    second, nothing compiled; ``tests/test_counts.py`` checks them against the compiled walk of
    every hand, :func:`croupier.kernels._jit.count_hash`).
    """
    rk = Ranking.parse(ranking)
    if not isinstance(ncards, int) or not rk.min_cards <= ncards <= rk.max_cards:
        raise InvalidInput(
            f"ranking {rk.value!r} takes {_span(rk)} cards a hand; asked to count {ncards!r}"
        )
    total = comb(52, ncards)
    counts = np.zeros(len(rk.categories), dtype=np.int64)
    tab = tables()
    if rk in (Ranking.THREE_CARD, Ranking.THREE_CARD_BONUS):
        hands = np.array(list(combinations(range(52), 3)), dtype=np.uint8)
        values = rank_flat(rk, hands, table=tab)
        counts += np.bincount(values >> CATEGORY_SHIFT, minlength=counts.size)
        if progress is not None:
            progress(total, total)
    else:
        tail = _tables_of(rk, tab)
        if ncards <= 6:
            found, by_value = _count_numpy(ncards, tail, progress)
            np.add.at(counts, found >> CATEGORY_SHIFT, by_value)
        else:  # seven cards (poker5): by rank pattern
            if progress is not None:
                progress(0, total)
            found, by_value = seven_card_values(tab)
            np.add.at(counts, found >> CATEGORY_SHIFT, by_value)
            if progress is not None:
                progress(total, total)
    if int(counts.sum()) != total:  # pragma: no cover - a broken table, never a user error
        raise AssertionError(f"counted {int(counts.sum())} hands of {total}")
    return {rk.categories[i]: int(counts[i]) for i in range(len(rk.categories) - 1, -1, -1)}
