"""How many seven-card hands have each ``poker5`` value, in numpy: by rank pattern, not by hand.

A hand with no five cards of one suit has the value of its ranks alone, so every such hand of one
rank multiset (each rank at most four times) has one value: the multiset is ranked once, as one
representative hand, and counted ``prod C(4, c_r)`` times (the suit choices of its ``c_r``
cards of each rank r).  That count includes the flush hands of the multiset; with seven cards
at most one suit holds five or more, so the flush hands are walked apart: a suit (four alike),
its set S of five to seven ranks, and the multiset T of the other cards' ranks (each at most
three times, from the other three suits: ``prod C(3, t_r)`` hands).  Each is ranked as itself
(added to its value) and as the rank pattern of S + T (taken off that value).

Every value is the ranker's own (:func:`croupier.kernels._rank.rank_flat` on the 49,205
multisets and 140,712 flush patterns, numpy below its row limit): nothing compiled, no rule
restated.  ``tests/test_counts.py`` checks the result against the compiled walk over all
133,784,560 hands (:func:`croupier.kernels._jit.count_hash`) and the published counts.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np
from numpy.typing import NDArray

from croupier.hands import Ranking
from croupier.kernels._tables import Tables

__all__ = ["plain_hands", "rank_multisets", "seven_card_values"]

I64 = NDArray[np.int64]
_N = 7


def _rank_counts(ranks: NDArray[np.int64]) -> I64:
    """(rows, 13): how many times each rank occurs in each row of ``ranks``."""
    counts = np.zeros((ranks.shape[0], 13), dtype=np.int64)
    rows = np.repeat(np.arange(ranks.shape[0]), ranks.shape[1])
    np.add.at(counts, (rows, ranks.reshape(-1)), 1)
    return counts


def rank_multisets(size: int, most: int) -> tuple[NDArray[np.int64], I64]:
    """Every multiset of ``size`` ranks with each rank at most ``most`` times (sorted rows), and
    how many card sets of the ``most`` suits each stands for: ``prod C(most, c_r)``."""
    sets = list(combinations_with_replacement(range(13), size))
    rows = np.array(sets, dtype=np.int64).reshape(len(sets), size)
    counts = _rank_counts(rows)
    keep = counts.max(axis=1, initial=0) <= most
    ways = np.array([comb(most, c) for c in range(5)], dtype=np.int64)
    return rows[keep], ways[counts[keep]].prod(axis=1)


def plain_hands(ranks: NDArray[np.int64]) -> NDArray[np.uint8]:
    """One hand of each sorted row of ranks with no three cards of a suit: the card at position
    ``i`` takes suit ``i % 4`` (a rank's cards sit side by side, at most four, so they differ)."""
    suits = np.arange(ranks.shape[1]) % 4
    return (4 * ranks + suits).astype(np.uint8)


def seven_card_values(table: Tables) -> tuple[I64, I64]:
    """(values, counts): every ``poker5`` value of a seven-card hand and how many of the
    C(52, 7) hands have it."""
    from croupier.kernels._rank import rank_flat

    patterns, ways = rank_multisets(_N, 4)
    values = [rank_flat(Ranking.POKER5, plain_hands(patterns), table=table).astype(np.int64)]
    weights = [ways]
    for k in range(5, _N + 1):
        suited = np.array(list(combinations(range(13), k)), dtype=np.int64)
        others, other_ways = rank_multisets(_N - k, 3)
        s = np.repeat(suited, len(others), axis=0)
        t = np.tile(others, (len(suited), 1))
        # the suited cards in suit 0, the others in suits 1..3 (side by side: they differ)
        off = 4 * t + 1 + np.arange(_N - k) % 3
        hands = np.concatenate([4 * s, off], axis=1).astype(np.uint8)
        pattern = plain_hands(np.sort(np.concatenate([s, t], axis=1), axis=1))
        w = 4 * np.tile(other_ways, len(suited))
        values.append(rank_flat(Ranking.POKER5, hands, table=table).astype(np.int64))
        weights.append(w)
        values.append(rank_flat(Ranking.POKER5, pattern, table=table).astype(np.int64))
        weights.append(-w)
    every = np.concatenate(values)
    found, at = np.unique(every, return_inverse=True)
    counts = np.zeros(found.size, dtype=np.int64)
    np.add.at(counts, at, np.concatenate(weights))
    seen = counts != 0
    if int(counts.sum()) != comb(52, _N) or (counts < 0).any():  # pragma: no cover
        raise AssertionError("the seven-card patterns do not cover every hand once")
    return found[seen], counts[seen]
