"""The compiled kernels of the rankers and the counter, with the bit layout they rely on.

The layout constants live here, next to the code that numba compiles them into: numba's on-disk
cache is invalidated only when this file changes, so a change of layout must be made here.  The
tables themselves (:mod:`croupier.kernels._tables`) are passed in as arguments.

Layout of a summed hand key (int64):

* bits 0..24: the sum of the rank keys (``RANK_KEYS``), a perfect-hash key of the rank multiset;
* bits 32..47: four 4-bit suit counters, clubs lowest, started at ``8 - threshold`` so that bit 3
  of a counter is set exactly when its suit holds a flush (five cards, four for four-card);
* bit 56 and above: set by any byte that is no card (52..255).

Card bits (int64): bit ``16 * suit + rank`` (rank 0 = deuce), so the ranks of suit ``s`` are
``(bits >> 16 * s) & 0x1FFF``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

RANK_KEYS: tuple[int, ...] = (
    1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520,
)  # fmt: skip
"""Per-rank keys (deuce first): found by a greedy search, each the smallest integer above the
previous one that keeps every sum over a multiset of at most seven ranks (each at most four times)
unique.  The largest sum is 18,393,157 (< 2**25), so the rank part never reaches the suit counters.
"""

SUIT_SHIFT = 32
RANK_MASK = (1 << SUIT_SHIFT) - 1
FLUSH_BITS = 0x8888 << SUIT_SHIFT
INVALID_KEY = 1 << 56
"""Card key of a byte that is no card (52..255): seven of them still fit below bit 63."""
HASH_SHIFT = 11
"""Row width (log2) of the row-displacement perfect hash of the rank sums."""
CATEGORY_SHIFT = 20

_FLUSH_LOW = 0x88 << SUIT_SHIFT


def suit_init(threshold: int) -> int:
    """Start value of the four suit counters: bit 3 set once a suit holds ``threshold`` cards."""
    return ((8 - threshold) * 0x1111) << SUIT_SHIFT


@njit(inline="always", nogil=True)
def hash_value(
    key: int, bits: int, offsets: Any, plain: Any, flush: Any
) -> int:  # pragma: no cover - compiled
    """Value of a hand from its summed card key and its card bits.

    The plain value (best hand of the ranks, no flush) comes from the perfect hash; when a suit
    counter shows a flush, the flush table of that suit's ranks is read too and the larger wins.
    The hot loops below spell this out in place: numba does not reliably inline a call there.
    """
    ranks = key & RANK_MASK
    value: int = plain[ranks + offsets[ranks >> HASH_SHIFT]]
    flushes = key & FLUSH_BITS
    if flushes != 0:
        suit = 0 if flushes & _FLUSH_LOW else 2
        if flushes & (0x8 << (SUIT_SHIFT + 4 * suit)) == 0:
            suit += 1
        suited = flush[(bits >> (16 * suit)) & 0x1FFF]
        value = max(value, suited)
    return value


@njit(cache=True, nogil=True)
def rank_hash(
    flat: Any,
    k: int,
    out: Any,
    card_key: Any,
    card_bit: Any,
    offsets: Any,
    plain: Any,
    flush: Any,
    init: int,
) -> int:  # pragma: no cover - compiled
    """Rank ``out.shape[0]`` hands of ``k`` cards read from ``flat``; -1 marks a bad row.

    Returns the number of bad rows (a card twice, or a byte that is no card).
    """
    bad = 0
    for i in range(out.shape[0]):
        key = init
        bits = 0
        twice = 0
        base = i * k
        for j in range(k):
            card = flat[base + j]
            key += card_key[card]
            bit = card_bit[card]
            twice |= bits & bit
            bits |= bit
        if twice != 0 or key >= INVALID_KEY:
            out[i] = -1
            bad += 1
            continue
        ranks = key & RANK_MASK
        value = plain[ranks + offsets[ranks >> HASH_SHIFT]]
        flushes = key & FLUSH_BITS
        if flushes != 0:
            suit = 0 if flushes & _FLUSH_LOW else 2
            if flushes & (0x8 << (SUIT_SHIFT + 4 * suit)) == 0:
                suit += 1
            suited = flush[(bits >> (16 * suit)) & 0x1FFF]
            value = max(value, suited)
        out[i] = value
    return bad


@njit(cache=True, nogil=True)
def count_hash(
    first: int,
    n: int,
    counts: Any,
    card_key: Any,
    card_bit: Any,
    offsets: Any,
    plain: Any,
    flush: Any,
    init: int,
) -> None:  # pragma: no cover - compiled
    """Add to ``counts[category]`` every ``n``-card hand whose lowest card is ``first``.

    The cards above ``first`` are walked in nested (lexicographic) order keeping the partial key
    and card bits of every prefix, so the innermost loop adds one card and looks up one value.
    """
    depth = n - 1
    if depth == 0:
        value = hash_value(init + card_key[first], card_bit[first], offsets, plain, flush)
        counts[value >> CATEGORY_SHIFT] += 1
        return
    cards = np.empty(depth, np.int64)
    keys = np.empty(depth, np.int64)
    bits = np.empty(depth, np.int64)
    keys[0] = init + card_key[first]
    bits[0] = card_bit[first]
    # prefix cards[0 .. depth-2]; the last card runs in the innermost loop
    for j in range(depth - 1):
        cards[j] = first + 1 + j
        keys[j + 1] = keys[j] + card_key[cards[j]]
        bits[j + 1] = bits[j] | card_bit[cards[j]]
    while True:
        low = cards[depth - 2] + 1 if depth >= 2 else first + 1
        key = keys[depth - 1]
        bit = bits[depth - 1]
        for card in range(low, 52):
            full = key + card_key[card]
            ranks = full & RANK_MASK
            value = plain[ranks + offsets[ranks >> HASH_SHIFT]]
            flushes = full & FLUSH_BITS
            if flushes != 0:
                suit = 0 if flushes & _FLUSH_LOW else 2
                if flushes & (0x8 << (SUIT_SHIFT + 4 * suit)) == 0:
                    suit += 1
                suited = flush[((bit | card_bit[card]) >> (16 * suit)) & 0x1FFF]
                value = max(value, suited)
            counts[value >> CATEGORY_SHIFT] += 1
        # next prefix: the rightmost card that can still move up moves, the rest follow it
        j = depth - 2
        while j >= 0 and cards[j] == 51 - (depth - 1 - j):
            j -= 1
        if j < 0:
            return
        cards[j] += 1
        keys[j + 1] = keys[j] + card_key[cards[j]]
        bits[j + 1] = bits[j] | card_bit[cards[j]]
        for m in range(j + 1, depth - 1):
            cards[m] = cards[m - 1] + 1
            keys[m + 1] = keys[m] + card_key[cards[m]]
            bits[m + 1] = bits[m] | card_bit[cards[m]]
