"""The stud solvers' card-set tables (:mod:`croupier.analysis.stud_counts`), built in numpy along
the
colex order, against plain walks over the cards."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np

from croupier.analysis import stud_counts
from croupier.analysis.mississippi_stud.sheet import base_lines
from croupier.kernels import comb_rank_batch, comb_unrank_batch, rank_batch


def test_drop_one_ranks_are_the_colex_ranks_of_each_subset() -> None:
    rng = np.random.default_rng(18)
    for k in range(1, 6):
        table = stud_counts.drop_one_ranks(k)
        assert table.shape == (k, comb(52, k))
        ranks = np.arange(comb(52, k)) if k <= 3 else rng.integers(0, comb(52, k), 20_000)
        sets = comb_unrank_batch(ranks, k).astype(np.int64)
        for j in range(k):
            rest = np.delete(sets, j, axis=1)
            expected = comb_rank_batch(rest) if k > 1 else np.zeros(len(ranks), dtype=np.int64)
            assert (table[j, ranks] == expected).all(), (k, j)


def test_supersets_are_every_set_one_card_larger() -> None:
    for k in (2, 3):
        up = stud_counts.supersets(k)
        for r in (0, 1, 777, comb(52, k) - 1):
            cards = [int(c) for c in comb_unrank_batch([r], k)[0]]
            expected = sorted(
                stud_counts.rank_set([*cards, d]) for d in range(52) if d not in cards
            )
            assert up[r].tolist() == expected


def test_five_card_values_equal_the_batch_ranker_on_every_set() -> None:
    hands = comb_unrank_batch(np.arange(comb(52, 5), dtype=np.int64), 5)
    assert (stud_counts.five_card_values() == rank_batch("poker5", hands)).all()
    counts = stud_counts.five_card_value_counts()
    assert sum(counts.values()) == comb(52, 5) and list(counts) == sorted(counts)


def _completions(cards: list[int]) -> list[int]:
    return [stud_counts.rank_set([*cards, e]) for e in range(52) if e not in cards]


def test_four_set_sums_and_histograms_equal_a_walk_of_the_48_completions() -> None:
    lines = base_lines()
    mult = lines.multipliers
    sums, hist = stud_counts.four_set_tables(lines.line_of, mult)
    for cards in ([0, 1, 2, 3], [0, 4, 8, 12], [36, 40, 44, 48], [3, 17, 29, 51]):
        reached = [int(lines.line_of[r]) for r in _completions(cards)]
        r4 = stud_counts.rank_set(cards)
        assert int(sums[r4]) == sum(int(mult[line]) for line in reached)
        assert hist[r4].tolist() == [reached.count(i) for i in range(len(mult))]


def _choose(fold: int, values: list[int]) -> tuple[int, int]:
    """The best of folding and betting 1-3 (``values``), ties to the smaller wager."""
    best, best_val = 0, fold
    for k, value in enumerate(values, 1):
        if value > best_val:
            best, best_val = k, value
    return best, best_val


def test_mississippi_stud_policy_equals_backward_induction_by_hand() -> None:
    """3rd and 4th Street bets recomputed for a few starts, street by street, from the
    four-card sums: a fold loses what is wagered, a bet of k is worth the best next street."""
    lines = base_lines()
    sums, _ = stud_counts.four_set_tables(lines.line_of, lines.multipliers)
    k3, k4 = stud_counts.ms_policy(sums)

    def fifth(cards: list[int], t: int) -> int:
        s = int(sums[stud_counts.rank_set(cards)])
        return _choose(-48 * t, [(t + k) * s for k in range(1, 4)])[1]

    def fourth(cards: list[int], t: int) -> tuple[int, int]:
        more = [d for d in range(52) if d not in cards]
        values = [sum(fifth([*cards, d], t + k) for d in more) for k in range(1, 4)]
        return _choose(-t * 49 * 48, values)

    for two in ([0, 4], [48, 49], [2, 30], [7, 11]):
        for c in (13, 50):
            three = [*two, c]
            for t in range(2, 5):
                assert int(k4[stud_counts.rank_set(three), t]) == fourth(three, t)[0]
        more = [c for c in range(52) if c not in two]
        values = [sum(fourth([*two, c], 1 + k)[1] for c in more) for k in range(1, 4)]
        assert int(k3[stud_counts.rank_set(two)]) == _choose(-50 * 49 * 48, values)[0]


def test_stud_counts_cover_every_ordered_deal_once() -> None:
    lines = base_lines()
    sums, hist = stud_counts.four_set_tables(lines.line_of, lines.multipliers)
    k3, k4 = stud_counts.ms_policy(sums)
    ms = stud_counts.ms_counts(sums, hist, k3, k4)
    assert int(ms.sum()) == comb(52, 2) * 50 * 49 * 48  # 155,937,600 ordered deals
    lir = stud_counts.lir_counts(sums, hist)
    assert int(lir.sum()) == comb(52, 3) * 49 * 48  # 51,979,200


def test_let_it_ride_counts_equal_a_walk_of_the_deals_within_six_cards() -> None:
    """The counts restricted to the four-card sets within cards 0-5 (the histogram of every
    other set zeroed) against a walk of those deals: three cards, then a first community card,
    counted under the bets its sums let ride (Bet 1 on the 49 four-card sums, Bet 2 on its
    own), each weighted by the lines of its 48 completions."""
    lines = base_lines()
    sums, hist = stud_counts.four_set_tables(lines.line_of, lines.multipliers)
    inside = np.zeros(comb(52, 4), dtype=bool)
    inside[: comb(6, 4)] = True  # the colex order puts the sets below card 6 first
    walked = np.zeros((hist.shape[1], 3), dtype=np.int64)
    for three in combinations(range(6), 3):
        s3 = sum(int(sums[stud_counts.rank_set([*three, d])]) for d in range(52) if d not in three)
        for d in range(6):
            if d not in three:
                r4 = stud_counts.rank_set([*three, d])
                walked[:, int(s3 > 0) + int(sums[r4] > 0)] += hist[r4]
    counted = stud_counts.lir_counts(sums, np.where(inside[:, None], hist, 0).astype(np.int32))
    assert (counted == walked).all() and int(walked.sum()) == 20 * 3 * 48


def test_mississippi_stud_counts_equal_a_walk_of_the_deals_within_six_cards() -> None:
    """As above for Mississippi Stud: every deal of two cards, then 3rd and 4th Street cards,
    within cards 0-5, played by the policy street by street, weighted by its completions."""
    lines = base_lines()
    sums, hist = stud_counts.four_set_tables(lines.line_of, lines.multipliers)
    k3, k4 = stud_counts.ms_policy(sums)
    n_lines = hist.shape[1]
    walked = np.zeros((n_lines + 1, 11), dtype=np.int64)
    for two in combinations(range(6), 2):
        for c in range(6):
            for d in range(6):
                if len({*two, c, d}) < 4:
                    continue
                t = 1 + int(k3[stud_counts.rank_set(list(two))])
                k = int(k4[stud_counts.rank_set([*two, c]), t]) if t > 1 else 0
                if k:  # folds on 3rd or 4th Street are counted apart from the lines
                    t += k
                    r4 = stud_counts.rank_set([*two, c, d])
                    k5 = int(stud_counts.choose5(int(sums[r4]), t))
                    if k5:
                        walked[:n_lines, t + k5] += hist[r4]
    inside = np.zeros(comb(52, 4), dtype=bool)
    inside[: comb(6, 4)] = True
    counted = stud_counts.ms_counts(
        sums, np.where(inside[:, None], hist, 0).astype(np.int32), k3, k4
    )
    assert (counted[:n_lines] == walked[:n_lines]).all() and walked.sum() > 0
