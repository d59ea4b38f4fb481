"""Exhaustive category counts against the published (outside) tables in ``tests/data``.

Each data file opens with its ``# Source:`` line and lists ``category count`` lines plus the
``total``; a file may list only the lines its source gives.
"""

from __future__ import annotations

import itertools
from math import comb
from pathlib import Path

import numpy as np
import pytest

from croupier.core.errors import InvalidInput
from croupier.hands import CATEGORY_SHIFT, Category, Ranking
from croupier.kernels import count_categories, rank_batch, subsets
from croupier.kernels._count7 import seven_card_values
from croupier.kernels._jit import count_hash
from croupier.kernels._rank import _tables_of
from croupier.kernels._tables import tables

DATA = Path(__file__).parent / "data"


def read_counts(name: str) -> tuple[dict[Category, int], int]:
    """The category lines and the total of ``tests/data/<name>``."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# Source: "), f"{name} must open with its source"
    counts: dict[Category, int] = {}
    total = 0
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        label, number = line.split()
        if label == "total":
            total = int(number)
        else:
            counts[Category(label)] = int(number)
    return counts, total


def check(ranking: Ranking, ncards: int, name: str) -> None:
    expected, total = read_counts(name)
    assert total == comb(52, ncards)
    got = count_categories(ranking, ncards)
    assert list(got) == list(reversed(ranking.categories))  # every category, highest first
    assert sum(got.values()) == total
    assert {c: got[c] for c in expected} == expected
    if len(expected) == len(ranking.categories):
        assert sum(expected.values()) == total


def test_643a_6_poker5_counts_five_cards() -> None:
    check(Ranking.POKER5, 5, "counts-poker5-5.txt")


def test_643a_6_poker5_counts_best_of_6() -> None:
    check(Ranking.POKER5, 6, "counts-poker5-6.txt")


def test_643a_6_poker5_counts_best_of_7() -> None:
    check(Ranking.POKER5, 7, "counts-poker5-7.txt")


def test_649a_6_three_card_counts() -> None:
    check(Ranking.THREE_CARD, 3, "counts-three-card-3.txt")


def test_643a_6_c_three_card_bonus_counts_mini_royal_apart() -> None:
    check(Ranking.THREE_CARD_BONUS, 3, "counts-three-card-bonus-3.txt")


def test_641a_6_four_card_counts_four_cards() -> None:
    check(Ranking.FOUR_CARD, 4, "counts-four-card-4.txt")


def test_641a_6_four_card_counts_best_of_5() -> None:
    check(Ranking.FOUR_CARD, 5, "counts-four-card-5.txt")


def test_641a_6_four_card_counts_best_of_6() -> None:
    check(Ranking.FOUR_CARD, 6, "counts-four-card-6.txt")


@pytest.mark.parametrize(
    ("ranking", "ncards"),
    [(Ranking.FOUR_CARD, 4), (Ranking.FOUR_CARD, 5), (Ranking.POKER5, 5), (Ranking.THREE_CARD, 3)],
)
def test_counts_equal_ranking_every_hand_one_by_one(ranking: Ranking, ncards: int) -> None:
    values = rank_batch(ranking, subsets(ncards))
    tally = np.bincount(values >> CATEGORY_SHIFT, minlength=len(ranking.categories))
    got = count_categories(ranking.value, ncards)
    assert [got[c] for c in ranking.categories] == tally.tolist()


def test_count_progress_reaches_the_total_in_order() -> None:
    calls: list[tuple[int, int]] = []
    count_categories("poker5", 6, progress=lambda done, total: calls.append((done, total)))
    assert len(calls) == 52 - 6 + 1
    assert calls[-1] == (comb(52, 6), comb(52, 6))
    assert all(a[0] < b[0] for a, b in itertools.pairwise(calls))
    three: list[tuple[int, int]] = []
    count_categories("three-card", 3, progress=lambda d, t: three.append((d, t)))
    assert three == [(22_100, 22_100)]


@pytest.mark.parametrize(
    ("ranking", "ncards", "message"),
    [
        ("poker5", 8, "takes 5 to 7 cards a hand; asked to count 8"),
        ("four-card", 7, "takes 4 to 6 cards"),
        ("three-card", 4, "takes 3 cards"),
        ("poker7", 7, "unknown"),
    ],
)
def test_count_refuses_sizes_the_ranking_does_not_take(
    ranking: str, ncards: int, message: str
) -> None:
    with pytest.raises(InvalidInput, match=message):
        count_categories(ranking, ncards)


def test_643a_6_seven_card_values_by_rank_pattern_equal_the_walk_of_every_hand() -> None:
    """The rank-pattern count (:mod:`croupier.kernels._count7`) against the compiled walk over
    all 133,784,560 seven-card hands, value by value: the walk is given the tables with every
    value replaced by its dense index shifted into the category bits, so its tally by
    ``value >> CATEGORY_SHIFT`` is the tally by value."""
    tab = tables()
    card_key, card_bit, offsets, plain, flush, init = _tables_of(Ranking.POKER5, tab)
    values = np.unique(np.concatenate((plain, flush)))
    dense_plain = np.searchsorted(values, plain).astype(np.int64) << CATEGORY_SHIFT
    dense_flush = np.searchsorted(values, flush).astype(np.int64) << CATEGORY_SHIFT
    walked = np.zeros(values.size, dtype=np.int64)
    for first in range(52 - 7 + 1):
        count_hash(first, 7, walked, card_key, card_bit, offsets, dense_plain, dense_flush, init)
    found, counts = seven_card_values(tab)
    assert dict(zip(found.tolist(), counts.tolist(), strict=True)) == {
        int(values[i]): int(n) for i in np.flatnonzero(walked) for n in [walked[i]]
    }
    assert found.size == 4_824  # the distinct seven-card hand values
    calls: list[tuple[int, int]] = []
    count_categories("poker5", 7, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(0, comb(52, 7)), (comb(52, 7), comb(52, 7))]
