"""Batch kernels: hand rankers, exhaustive counters and the enumeration primitives of analysis.

Everything here is a faster path to a truth defined elsewhere: the order values equal
:func:`croupier.hands.evaluate` (the tests prove it on every 3-, 4- and 5-card hand), and the
enumerations are checked against plain Python walks.  Cards are dense indices
(``Card.index``: 0 = 2c, 1 = 2d, ... 51 = As); hands are (n, k) integer arrays, uint8 preferred.

* :func:`rank_batch`: order values of many hands (numba, optionally on every core);
* :func:`count_categories`: category counts over every hand of a size (7 cards in about a second);
* :func:`count_values`: how many hands of 4 to 6 cards have each order value (numpy);
* :func:`comb_rank`, :func:`comb_unrank` and their batch forms: colex ranks of card sets;
* :func:`subsets`: every k-card set of the cards left after dead cards;
* :func:`canonical_hands`, :func:`canonical_form`: hands up to a permutation of the suits, with
  weights;
* :func:`count_versus`, :func:`ranker`: how many opponent holdings beat, tie or lose to a hand;
* :class:`CompiledSeededShuffler`: :class:`~croupier.table.shoe.SeededShuffler`'s draws in compiled
  code
  (the simulator's shuffler; tested draw for draw against it).

The lookup tables are built once and cached under :func:`cache_dir` (``$CROUPIER_CACHE``, else
``~/.cache/croupier``); numba caches its compiled code next to the sources.
"""

from croupier.kernels._enum import (
    Versus,
    canonical_form,
    canonical_hands,
    comb_rank,
    comb_rank_batch,
    comb_unrank,
    comb_unrank_batch,
    count_versus,
    ranker,
    subsets,
)
from croupier.kernels._mt19937 import CompiledSeededShuffler
from croupier.kernels._rank import count_categories, count_values, rank_batch
from croupier.kernels._tables import cache_dir

__all__ = [
    "CompiledSeededShuffler",
    "Versus",
    "cache_dir",
    "canonical_form",
    "canonical_hands",
    "comb_rank",
    "comb_rank_batch",
    "comb_unrank",
    "comb_unrank_batch",
    "count_categories",
    "count_values",
    "count_versus",
    "rank_batch",
    "ranker",
    "subsets",
]
