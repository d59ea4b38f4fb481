"""Enumeration primitives of the exact analysers.

* Colex ranks: a set of distinct non-negative integers ``c0 < c1 < ... < c(k-1)`` has rank
  ``C(c0, 1) + C(c1, 2) + ... + C(c(k-1), k)``.  The ranks of the k-sets of ``0..n-1`` are exactly
  ``0..C(n, k)-1``, and the rank of a set does not depend on ``n``.
* :func:`subsets`: every k-card set of the cards left after the dead cards, in colex order of
  their positions among the live cards (row ``r`` is ``live[comb_unrank(r, k, n=len(live))]``).
* Suit isomorphism: every suit plays the same (§ 641a.6(a)), so a hand is worth as much as any
  hand got from it by renaming the suits.  A class is written by its canonical member: the four
  13-bit rank masks of the suits sorted by (number of cards, mask) highest first and given to
  clubs, diamonds, hearts, spades in that order.  Its weight, the number of hands in the class,
  is ``24 / (product of m! over groups of m equal masks)``.
* Card removal: :func:`count_versus` counts the opponent holdings dealt from the live cards that
  beat, tie or lose to a hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from math import comb
from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import ArrayLike, NDArray

from croupier.core.cards import Card
from croupier.core.errors import InvalidInput
from croupier.hands import Ranking
from croupier.kernels._rank import as_hands, rank_batch

__all__ = [
    "Versus",
    "canonical_form",
    "canonical_hands",
    "comb_rank",
    "comb_rank_batch",
    "comb_unrank",
    "comb_unrank_batch",
    "count_versus",
    "ranker",
    "subsets",
]

Int64Array = NDArray[np.int64]
Int32Array = NDArray[np.int32]
UInt8Array = NDArray[np.uint8]
ValueFn = Callable[[UInt8Array], ArrayLike]

MAX_UNIVERSE = 64
"""The largest set (``n``) the batch colex functions handle: every C(64, k) fits in int64."""

_BINOM = np.array(
    [[comb(n, k) for k in range(MAX_UNIVERSE + 1)] for n in range(MAX_UNIVERSE + 1)],
    dtype=np.int64,
)


def _card_indices(cards: Iterable[int | Card | str], *, what: str) -> list[int]:
    """Distinct card indices 0..51 from indices, :class:`Card` objects or card text."""
    found: list[int] = []
    for card in cards:
        if isinstance(card, Card):
            index = card.index
        elif isinstance(card, str):
            index = Card.parse(card).index
        elif isinstance(card, int | np.integer):
            index = int(card)
        else:
            raise InvalidInput(f"{what} holds {card!r}, neither a card nor a card index")
        if not 0 <= index <= 51:
            raise InvalidInput(f"{what} holds card index {index}, outside 0..51")
        if index in found:
            raise InvalidInput(f"{what} holds {Card.from_index(index)} (index {index}) twice")
        found.append(index)
    return found


# --------------------------------------------------------------------------------------------
# Colex ranks


def comb_rank(combo: Iterable[int | Card]) -> int:
    """Colex rank of a set of distinct non-negative integers (or cards), in any order."""
    items = [c.index if isinstance(c, Card) else int(c) for c in combo]
    ordered = sorted(items)
    if ordered and ordered[0] < 0:
        raise InvalidInput(f"combination {items} holds {ordered[0]}; elements are 0 or more")
    if len(set(ordered)) != len(ordered):
        raise InvalidInput(f"combination {items} holds an element twice")
    return sum(comb(c, i + 1) for i, c in enumerate(ordered))


def comb_unrank(rank: int, k: int, *, n: int = 52) -> tuple[int, ...]:
    """The k-set of ``0..n-1`` of colex rank ``rank`` (0 <= rank < C(n, k)), ascending."""
    if not 0 <= k <= n:
        raise InvalidInput(f"cannot choose {k} of {n}")
    if not 0 <= rank < comb(n, k):
        raise InvalidInput(f"colex rank {rank} is outside 0..{comb(n, k) - 1} for {k} of {n}")
    out: list[int] = []
    top = n - 1
    for size in range(k, 0, -1):
        while comb(top, size) > rank:
            top -= 1
        out.append(top)
        rank -= comb(top, size)
        top -= 1
    return tuple(reversed(out))


def comb_rank_batch(combos: ArrayLike) -> Int64Array:
    """Colex ranks of the rows of an (m, k) array of distinct integers 0..63 (any order)."""
    array = np.asarray(combos)
    if array.ndim != 2:
        raise InvalidInput(f"combinations must be a 2-D array, one a row; got shape {array.shape}")
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise InvalidInput(f"combinations must hold integers; got dtype {array.dtype}")
    ordered = np.sort(array.astype(np.int64), axis=1)
    if ordered.size:
        if ordered[:, 0].min() < 0 or ordered[:, -1].max() >= MAX_UNIVERSE:
            raise InvalidInput(f"combinations must hold integers 0..{MAX_UNIVERSE - 1}")
        repeated = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if repeated.size:
            raise InvalidInput(f"combination row {int(repeated[0])} holds an element twice")
    ranks = np.zeros(array.shape[0], dtype=np.int64)
    for i in range(array.shape[1]):
        ranks += _BINOM[ordered[:, i], i + 1]
    return ranks


def comb_unrank_batch(ranks: ArrayLike, k: int, *, n: int = 52) -> UInt8Array:
    """The k-sets of ``0..n-1`` (n <= 64) of the given colex ranks, one ascending row each."""
    if not 0 <= k <= n <= MAX_UNIVERSE:
        raise InvalidInput(f"cannot choose {k} of {n} (n is at most {MAX_UNIVERSE})")
    left = np.array(ranks, dtype=np.int64, ndmin=1, copy=True)
    if left.ndim != 1:
        raise InvalidInput(f"colex ranks must be a 1-D array; got shape {left.shape}")
    if left.size and (left.min() < 0 or left.max() >= comb(n, k)):
        raise InvalidInput(f"colex ranks must lie in 0..{comb(n, k) - 1} for {k} of {n}")
    out = np.empty((left.size, k), dtype=np.uint8)
    for size in range(k, 0, -1):
        # the largest c with C(c, size) <= rank; C(., size) is non-decreasing in c
        top = np.searchsorted(_BINOM[:n, size], left, side="right") - 1
        out[:, size - 1] = top
        left -= _BINOM[top, size]
    return out


@njit(cache=True, nogil=True)
def _colex_fill(live: Any, out: Any) -> None:  # pragma: no cover - compiled
    """Fill ``out`` with every k-set of positions of ``live`` in colex order, mapped to cards."""
    rows, k = out.shape
    pos = np.arange(k)
    for row in range(rows):
        for j in range(k):
            out[row, j] = live[pos[j]]
        # colex successor: raise the lowest position that can rise, reset those below it
        j = 0
        while j < k - 1 and pos[j] + 1 == pos[j + 1]:
            j += 1
        pos[j] += 1
        for m in range(j):
            pos[m] = m


def subsets(k: int, *, dead: Iterable[int | Card | str] = ()) -> UInt8Array:
    """Every k-card set of the cards not in ``dead``: a (C(52 - d, k), k) uint8 array.

    Rows are ascending card indices, in colex order of the cards' positions among the live cards,
    so row ``r`` is the set whose positions have colex rank ``r``.  Mind the size: 7 of 52 is
    133,784,560 rows (936 MB).
    """
    gone = set(_card_indices(dead, what="dead cards"))
    live = np.array([c for c in range(52) if c not in gone], dtype=np.uint8)
    if not 0 <= k <= live.size:
        raise InvalidInput(f"cannot deal {k} cards from the {live.size} live cards")
    out = np.empty((comb(live.size, k), k), dtype=np.uint8)
    if k and out.shape[0]:
        _colex_fill(live, out)
    return out


# --------------------------------------------------------------------------------------------
# Suit isomorphism


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


_MASKS_DESC = np.array(
    sorted(range(1 << 13), key=lambda m: (_popcount(m), m), reverse=True), dtype=np.int64
)
"""Every 13-bit rank mask, by (popcount, mask) highest first."""
_POP_START = np.array([sum(comb(13, q) for q in range(13, p, -1)) for p in range(14)], np.int64)
_POP_SIZE = np.array([comb(13, p) for p in range(14)], dtype=np.int64)
"""Masks of popcount p are ``_MASKS_DESC[_POP_START[p]:_POP_START[p] + _POP_SIZE[p]]``."""


_POPCOUNT = np.array([_popcount(m) for m in range(1 << 13)], dtype=np.int64)


def _classes(parts: tuple[int, int, int, int]) -> tuple[Int64Array, Int64Array]:
    """The canonical mask quadruples of one partition of the suit sizes, and their weights.

    ``parts`` are the sizes of the four suits, non-increasing.  Within equal sizes the masks are
    non-increasing (by their place in ``_MASKS_DESC``), which picks one member per class; the
    quadruples are walked suit by suit in numpy, keeping only the admissible prefixes.
    """
    idx = np.arange(_POP_START[parts[0]], _POP_START[parts[0]] + _POP_SIZE[parts[0]])[:, None]
    for s in range(1, 4):
        cand = np.arange(_POP_START[parts[s]], _POP_START[parts[s]] + _POP_SIZE[parts[s]])
        rows = np.repeat(idx, cand.size, axis=0)
        col = np.tile(cand, idx.shape[0])
        if parts[s] == parts[s - 1]:
            keep = col >= rows[:, s - 1]
            rows, col = rows[keep], col[keep]
        idx = np.column_stack((rows, col))
    # weight 24 / (product of m! over runs of m equal masks): run lengths from the equalities
    stab = np.ones(idx.shape[0], dtype=np.int64)
    run = np.ones(idx.shape[0], dtype=np.int64)
    for s in range(1, 4):
        same = idx[:, s] == idx[:, s - 1]
        run = np.where(same, run + 1, 1)
        stab = np.where(same, stab * run, stab)
    return _MASKS_DESC[idx], 24 // stab


_SPREAD = np.array(
    [sum(1 << (4 * r) for r in range(13) if m >> r & 1) for m in range(1 << 13)], dtype=np.int64
)
"""Each 13-bit rank mask spread to the clubs of a 52-bit card mask (card ``4 * rank + suit``)."""


def _masks_to_hands(suit_masks: Int64Array, k: int) -> UInt8Array:
    """Ascending card rows of the hands whose suit s holds the ranks of ``suit_masks[:, s]``:
    the 52-bit card mask, then its lowest set bit ``k`` times (exact through float64)."""
    bits = np.zeros(suit_masks.shape[0], dtype=np.int64)
    for s in range(4):
        bits |= _SPREAD[suit_masks[:, s]] << s
    out = np.empty((suit_masks.shape[0], k), dtype=np.uint8)
    for j in range(k):
        low = bits & -bits
        out[:, j] = np.frexp(low.astype(np.float64))[1] - 1
        bits ^= low
    return out


def _partitions(k: int) -> list[tuple[int, int, int, int]]:
    """Sizes of the four suits, non-increasing, each at most 13, summing to ``k``."""
    return [
        (a, b, c, k - a - b - c)
        for a in range(13, -1, -1)
        for b in range(a, -1, -1)
        for c in range(b, -1, -1)
        if 0 <= k - a - b - c <= c
    ]


def canonical_hands(k: int) -> tuple[UInt8Array, Int64Array]:
    """One hand per suit-isomorphism class of k cards, and how many hands each class holds.

    Returns ``(hands, weights)``: hands an (m, k) uint8 array of canonical members (ascending
    cards, rows in colex order of the cards, so ``comb_rank_batch(hands)`` is increasing and
    :func:`canonical_form` plus a binary search finds any hand's class), weights int64 summing to
    C(52, k).  There are 13, 169, 1,755, 16,432, 134,459 classes of 1 to 5 cards.
    """
    if not 1 <= k <= 7:
        raise InvalidInput(f"canonical hands are listed for 1 to 7 cards, not {k}")
    masks_all: list[NDArray[np.int64]] = []
    weights_all: list[Int64Array] = []
    for parts in _partitions(k):
        masks, weights = _classes(parts)
        masks_all.append(masks)
        weights_all.append(weights)
    hands = _masks_to_hands(np.concatenate(masks_all), k)
    weights = np.concatenate(weights_all)
    order = np.argsort(comb_rank_batch(hands), kind="stable")
    return hands[order], weights[order]


def _canonical_rows(hands: UInt8Array) -> UInt8Array:
    """The canonical member of each row's class: the suits' rank masks sorted by (number of
    cards, mask), highest to clubs (numpy, no compilation)."""
    rows, k = hands.shape
    cards = hands.astype(np.int64)
    masks = np.zeros((rows, 4), dtype=np.int64)
    at = np.arange(rows)
    for j in range(k):
        masks[at, cards[:, j] & 3] |= np.int64(1) << (cards[:, j] >> 2)
    keys = np.sort(_POPCOUNT[masks] * 8192 + masks, axis=1)[:, ::-1]
    return _masks_to_hands(keys & 8191, k)


def canonical_form(hands: ArrayLike) -> UInt8Array:
    """The canonical member (see :func:`canonical_hands`) of each row's suit class, ascending."""
    array = as_hands(hands)
    if array.size:
        ordered = np.sort(array, axis=1)
        repeated = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if repeated.size:
            raise InvalidInput(f"hands row {int(repeated[0])} holds a card twice")
    out: UInt8Array = _canonical_rows(array)
    return out


# --------------------------------------------------------------------------------------------
# Card removal


class Versus(NamedTuple):
    """Opponent holdings against one hand, by outcome (counted from the opponent's side)."""

    beat: int
    """Holdings that beat the hand."""
    tie: int
    """Holdings that tie it."""
    lose: int
    """Holdings that lose to it."""

    @property
    def total(self) -> int:
        return self.beat + self.tie + self.lose


def ranker(ranking: Ranking | str, *, shared: Iterable[int | Card | str] = ()) -> ValueFn:
    """A value function for :func:`count_versus`: each holding ranked with the ``shared`` cards.

    ``ranker("poker5", shared=board)`` ranks a Hold'em-style holding with the five board cards;
    ``ranker("three-card")`` ranks three-card holdings alone.
    """
    rk = Ranking.parse(ranking)
    board = np.array(_card_indices(shared, what="shared cards"), dtype=np.uint8)

    def value(holdings: UInt8Array) -> Int32Array:
        rows = as_hands(holdings, what="holdings")
        both = np.concatenate([np.broadcast_to(board, (rows.shape[0], board.size)), rows], axis=1)
        return rank_batch(rk, both)

    return value


def count_versus(
    hero_value: int, value_fn: ValueFn, *, k: int, dead: Iterable[int | Card | str] = ()
) -> Versus:
    """How many k-card holdings from the cards not in ``dead`` beat, tie or lose to a hand.

    ``hero_value`` is the order value of the hand (``evaluate(...).value``); ``value_fn`` maps an
    (m, k) uint8 array of holdings to their m order values on the same scale (see :func:`ranker`).
    The dead cards are every card the opponent cannot hold: the hand's own, shared cards, any
    known discards.  Each holding counts once (no suit weighting).
    """
    holdings = subsets(k, dead=dead)
    values = np.asarray(value_fn(holdings))
    if values.shape != (holdings.shape[0],):
        raise InvalidInput(
            f"value function returned shape {values.shape} for {holdings.shape[0]} holdings"
        )
    beat = int(np.count_nonzero(values > hero_value))
    tie = int(np.count_nonzero(values == hero_value))
    return Versus(beat=beat, tie=tie, lose=holdings.shape[0] - beat - tie)
