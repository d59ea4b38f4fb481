"""Numba kernels for the five-card "stud" games: Let It Ride and Mississippi Stud.

Both pay every wager in action by one table on the final five cards, so a hand's result is a
pay line index per five-card set (looked up by colex rank).  The kernels walk every deal in
integers: the optimal decision at each step compares exact integer sums over the same number of
completions, so no rounding enters the strategy or the totals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.games.paytables import PayTable
from croupier.hands import HandRank, Ranking

__all__ = [
    "BINOM",
    "FiveCardLines",
    "choose5",
    "five_card_lines",
    "five_card_values",
    "four_set_tables",
    "lir_counts",
    "ms_counts",
    "ms_policy",
    "rank_set",
    "tabulate_five",
]

BINOM = np.zeros((53, 6), dtype=np.int64)
for _n in range(53):
    for _k in range(6):
        BINOM[_n, _k] = comb(_n, _k)


class FiveCardLines:
    """Each five-card set's pay line (index into ``names``; the last line is 'lose')."""

    def __init__(self, line_of: npt.NDArray[np.int8], names: list[str], nets: list[Fraction]):
        self.line_of = line_of
        self.names = names
        self.nets = nets

    @property
    def multipliers(self) -> npt.NDArray[np.int64]:
        """Net per unit of each line, as integers (every line of these tables is n to 1)."""
        assert all(n.denominator == 1 for n in self.nets)
        return np.array([int(n) for n in self.nets], dtype=np.int64)


@cache
def five_card_values() -> npt.NDArray[np.int32]:
    """The POKER5 hand value of every five-card set, indexed by the set's colex rank."""
    from croupier.kernels import comb_unrank_batch, rank_batch

    hands = comb_unrank_batch(np.arange(comb(52, 5), dtype=np.int64), 5)
    return rank_batch(Ranking.POKER5, hands)


def tabulate_five(
    names: Sequence[str], nets: Sequence[Fraction], line: Callable[[HandRank], int]
) -> FiveCardLines:
    """Every five-card set's (colex rank) line: ``line(rank)`` indexes ``names`` and ``nets``
    (the game's settlement of the hand, per unit wagered)."""
    unique, inverse = np.unique(five_card_values(), return_inverse=True)
    per_value = np.empty(len(unique), dtype=np.int8)
    for i, value in enumerate(unique.tolist()):
        per_value[i] = line(HandRank.of_value(value, Ranking.POKER5))
    return FiveCardLines(per_value[inverse], list(names), list(nets))


def five_card_lines(
    table: PayTable,
    keys: Callable[[HandRank], frozenset[str]],
    *,
    losing: Fraction = Fraction(-1),
) -> FiveCardLines:
    """Map every five-card set (colex rank) to the line of ``table`` it reaches."""
    names = [line.hand for line in table.lines] + ["lose"]
    nets: list[Fraction] = []
    for pay in table.lines:
        assert pay.odds is not None, f"{table.wager}: every line must pay fixed odds"
        nets.append(pay.odds.net)
    nets.append(losing)

    def line(rank: HandRank) -> int:
        found = table.line_for(keys(rank))
        return len(table.lines) if found is None else table.lines.index(found)

    return tabulate_five(names, nets, line)


@njit(cache=True)
def _insert_rank(sorted4: npt.NDArray[np.int64], e: int, binom: npt.NDArray[np.int64]) -> int:
    """Colex rank of the five-set made of the sorted four ``sorted4`` and ``e``."""
    r = 0
    j = 0
    placed = False
    for i in range(5):
        if not placed and (j == 4 or e < sorted4[j]):
            r += binom[e, i + 1]
            placed = True
        else:
            r += binom[sorted4[j], i + 1]
            j += 1
    return r


@njit(cache=True)
def _rank_k(x: npt.NDArray[np.int64], k: int, binom: npt.NDArray[np.int64]) -> int:
    r = 0
    for i in range(k):
        r += binom[x[i], i + 1]
    return r


_BINOM_ROWS: tuple[tuple[int, ...], ...] = tuple(tuple(int(v) for v in row) for row in BINOM)


def rank_set(cards: list[int]) -> int:
    """Colex rank of a set of card indices (Python side, for strategy look-ups)."""
    rows = _BINOM_ROWS
    return sum([rows[c][i] for i, c in enumerate(sorted(cards), 1)])


@njit(cache=True)
def _sorted_with(x: npt.NDArray[np.int64], k: int, e: int, out: npt.NDArray[np.int64]) -> None:
    """``out[:k+1]`` = the sorted ``x[:k]`` with ``e`` inserted."""
    j = 0
    placed = False
    for i in range(k + 1):
        if not placed and (j == k or e < x[j]):
            out[i] = e
            placed = True
        else:
            out[i] = x[j]
            j += 1


@njit(cache=True)
def four_set_tables(
    line_of: npt.NDArray[np.int8],
    mult: npt.NDArray[np.int64],
    binom: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:  # pragma: no cover - compiled
    """For every four-card set (colex rank): the sum of results over its 48 completions and
    the histogram of the lines they reach."""
    n4 = binom[52, 4]
    n_lines = mult.shape[0]
    sums = np.zeros(n4, dtype=np.int64)
    hist = np.zeros((n4, n_lines), dtype=np.int32)
    x = np.empty(4, dtype=np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    x[0], x[1], x[2], x[3] = a, b, c, d
                    r4 = _rank_k(x, 4, binom)
                    for e in range(52):
                        if e == a or e == b or e == c or e == d:
                            continue
                        line = line_of[_insert_rank(x, e, binom)]
                        sums[r4] += mult[line]
                        hist[r4, line] += 1
    return sums, hist


@njit(cache=True)
def lir_counts(
    sums: npt.NDArray[np.int64], hist: npt.NDArray[np.int32], binom: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:  # pragma: no cover - compiled
    """Let It Ride with the optimal decisions: counts[line, bets riding - 1] over every
    (three cards, first community card, second community card) deal, the community cards in
    the order they are turned.  Bet 1 rides when the sum of results over its completions is
    positive, bet 2 when the sum over its 48 is positive; on zero the bet is taken back."""
    n_lines = hist.shape[1]
    counts = np.zeros((n_lines, 3), dtype=np.int64)
    x = np.empty(3, dtype=np.int64)
    y = np.empty(4, dtype=np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                x[0], x[1], x[2] = a, b, c
                s3 = 0
                for d in range(52):
                    if d != a and d != b and d != c:
                        _sorted_with(x, 3, d, y)
                        s3 += sums[_rank_k(y, 4, binom)]
                ride1 = 1 if s3 > 0 else 0
                for d in range(52):
                    if d == a or d == b or d == c:
                        continue
                    _sorted_with(x, 3, d, y)
                    r4 = _rank_k(y, 4, binom)
                    ride2 = 1 if sums[r4] > 0 else 0
                    for line in range(n_lines):
                        counts[line, ride1 + ride2] += hist[r4, line]
    return counts


@njit(cache=True)
def choose5(s: int, t: int) -> int:  # pragma: no cover - compiled
    """5th street: fold is worth -48t, a bet of k is worth (t+k)s (over 48 completions)."""
    best_val = -t * 48
    best = 0
    for k in range(1, 4):
        val = (t + k) * s
        if val > best_val:
            best_val, best = val, k
    return best


@njit(cache=True)
def ms_policy(
    sums: npt.NDArray[np.int64], binom: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:  # pragma: no cover - compiled
    """Mississippi Stud's optimal street bets by backward induction, in exact integers.

    Returns ``k3[rank of the two cards]`` and ``k4[rank of the three known cards, T]`` (T = units
    wagered before 4th street, 2 to 4): 0 folds, 1-3 bets that many times the Ante.  5th street
    is decided from ``sums`` directly (:func:`choose5`).  A street bet of k on top of T units
    already wagered, or a fold losing T; values are sums over the remaining cards: of 48
    completions on 5th street, 49 * 48 on 4th, 50 * 49 * 48 on 3rd.  Ties go to the smaller
    wager (a fold before a bet).
    """
    n3 = binom[52, 3]
    v4 = np.zeros((n3, 5), dtype=np.int64)
    k4 = np.zeros((n3, 5), dtype=np.int8)
    x = np.empty(4, dtype=np.int64)
    y = np.empty(5, dtype=np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                x[0], x[1], x[2] = a, b, c
                r3 = _rank_k(x, 3, binom)
                for t in range(2, 5):
                    best_val = -t * 49 * 48
                    best = 0
                    for k in range(1, 4):
                        total = 0
                        for d in range(52):
                            if d == a or d == b or d == c:
                                continue
                            _sorted_with(x, 3, d, y)
                            s = sums[_rank_k(y, 4, binom)]
                            k5 = choose5(s, t + k)
                            total += -(t + k) * 48 if k5 == 0 else (t + k + k5) * s
                        if total > best_val:
                            best_val, best = total, k
                    v4[r3, t] = best_val
                    k4[r3, t] = best
    k3 = np.zeros(binom[52, 2], dtype=np.int8)
    for a in range(52):
        for b in range(a + 1, 52):
            x[0], x[1] = a, b
            best_val = -50 * 49 * 48
            best3 = 0
            for k in range(1, 4):
                total = 0
                for c in range(52):
                    if c != a and c != b:
                        _sorted_with(x, 2, c, y)
                        total += v4[_rank_k(y, 3, binom), 1 + k]
                if total > best_val:
                    best_val, best3 = total, k
            k3[_rank_k(x, 2, binom)] = best3
    return k3, k4


@njit(cache=True)
def ms_counts(
    sums: npt.NDArray[np.int64],
    hist: npt.NDArray[np.int32],
    k3: npt.NDArray[np.int8],
    k4: npt.NDArray[np.int8],
    binom: npt.NDArray[np.int64],
) -> npt.NDArray[np.int64]:  # pragma: no cover - compiled
    """Mississippi Stud under the policy ``k3``/``k4`` (and :func:`choose5`): counts[line,
    units wagered] over every (two cards, 3rd, 4th, 5th street card) deal in order; line
    ``n_lines`` is a fold."""
    n_lines = hist.shape[1]
    counts = np.zeros((n_lines + 1, 11), dtype=np.int64)
    x = np.empty(4, dtype=np.int64)
    y = np.empty(5, dtype=np.int64)
    w = np.empty(5, dtype=np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            x[0], x[1] = a, b
            best3 = k3[_rank_k(x, 2, binom)]
            if best3 == 0:
                counts[n_lines, 1] += 50 * 49 * 48
                continue
            t3 = 1 + best3
            for c in range(52):
                if c == a or c == b:
                    continue
                _sorted_with(x, 2, c, y)
                z = y[:3].copy()
                choice4 = k4[_rank_k(z, 3, binom), t3]
                if choice4 == 0:
                    counts[n_lines, t3] += 49 * 48
                    continue
                t4 = t3 + choice4
                for d in range(52):
                    if d == a or d == b or d == c:
                        continue
                    _sorted_with(z, 3, d, w)
                    r4 = _rank_k(w, 4, binom)
                    k5 = choose5(sums[r4], t4)
                    if k5 == 0:
                        counts[n_lines, t4] += 48
                        continue
                    for line in range(n_lines):
                        counts[line, t4 + k5] += hist[r4, line]
    return counts
