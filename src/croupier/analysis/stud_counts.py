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
    "drop_one_ranks",
    "fifth_street",
    "five_card_lines",
    "five_card_value_counts",
    "five_card_values",
    "four_set_tables",
    "lir_counts",
    "ms_counts",
    "ms_policy",
    "rank_set",
    "supersets",
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


def five_card_values() -> npt.NDArray[np.int32]:
    """The POKER5 hand value of every five-card set, indexed by the set's colex rank."""
    unique, inverse, _ = _five_card_classes()
    return unique[inverse]


@cache
def _five_card_classes() -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], list[int]]:
    """The distinct five-card values ascending, each five-card set's (colex rank) index among
    them, and how many sets have each.

    The batch ranker's hash in numpy, with each set's summed card keys and bits built along the
    colex order (the sets whose highest card is ``c`` are the lower sets below ``c`` with ``c``
    added), so nothing is compiled and no card set is written out; the hash tables renumbered
    densely first (same order), so the values come out as indices and nothing is sorted."""
    from croupier.kernels.blocks import hash_values, suit_init, tables

    tab = tables()
    key = np.array([suit_init(5)], dtype=np.int64)
    bits = np.zeros(1, dtype=np.int64)
    for k in range(1, 6):
        tops = range(k - 1, 52)
        key = np.concatenate([key[: comb(c, k - 1)] + tab.card_key[c] for c in tops])
        bits = np.concatenate([bits[: comb(c, k - 1)] | tab.card_bit[c] for c in tops])
    values = np.unique(np.concatenate((tab.plain_poker5, tab.flush_poker5)))
    dense_plain = np.searchsorted(values, tab.plain_poker5).astype(np.int32)
    dense_flush = np.searchsorted(values, tab.flush_poker5).astype(np.int32)
    dense = hash_values(key, bits, tab.offsets, dense_plain, dense_flush)
    counts = np.bincount(dense, minlength=values.size)
    seen = counts > 0
    compact = (np.cumsum(seen) - 1).astype(np.int32)
    return values[seen].astype(np.int32), compact[dense], counts[seen].tolist()


def five_card_value_counts() -> dict[int, int]:
    """How many five-card sets have each POKER5 value (ascending values), from
    :func:`five_card_values` (the same counts as :func:`croupier.kernels.count_values`)."""
    unique, _, counts = _five_card_classes()
    return dict(zip(unique.tolist(), counts, strict=True))


def tabulate_five(
    names: Sequence[str], nets: Sequence[Fraction], line: Callable[[HandRank], int]
) -> FiveCardLines:
    """Every five-card set's (colex rank) line: ``line(rank)`` indexes ``names`` and ``nets``
    (the game's settlement of the hand, per unit wagered)."""
    unique, inverse, _ = _five_card_classes()
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


_BINOM_ROWS: tuple[tuple[int, ...], ...] = tuple(tuple(int(v) for v in row) for row in BINOM)


def rank_set(cards: list[int]) -> int:
    """Colex rank of a set of card indices (Python side, for strategy look-ups)."""
    rows = _BINOM_ROWS
    return sum([rows[c][i] for i, c in enumerate(sorted(cards), 1)])


@cache
def drop_one_ranks(k: int) -> npt.NDArray[np.int32]:
    """``out[j, r]``: the colex rank of the (k-1)-card set left when the ``j``-th lowest card is
    taken out of the k-card set of colex rank ``r`` (1 <= k <= 5).  Built from the colex order
    itself, in numpy (nothing compiled): the k-sets whose highest card is ``c`` are the
    C(c, k-1) lower (k-1)-sets with ``c`` added, in order, so taking ``c`` out leaves rank 0,
    1, ..., and taking out a lower card leaves that lower set's own (k-2)-subset with ``c`` on
    top (its rank plus C(c, k-1))."""
    if k == 1:
        return np.zeros((1, 52), dtype=np.int32)
    below = drop_one_ranks(k - 1)
    out = np.empty((k, comb(52, k)), dtype=np.int32)
    start = 0
    for c in range(k - 1, 52):
        n = comb(c, k - 1)
        np.add(below[:, :n], n, out=out[: k - 1, start : start + n])
        out[k - 1, start : start + n] = np.arange(n, dtype=np.int32)
        start += n
    return out


@cache
def supersets(k: int) -> npt.NDArray[np.int64]:
    """``out[r]``: the colex ranks of the 52 - k (k+1)-card sets holding the k-card set of rank
    ``r`` (1 <= k <= 4), ascending."""
    subsets = drop_one_ranks(k + 1).T.ravel()
    order = np.argsort(subsets, kind="stable")
    return (order // (k + 1)).reshape(comb(52, k), 52 - k)


def _weighted(hist: npt.NDArray[np.int32], weights: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``out[line, j]`` = sum over four-card sets of ``hist[set, line] * weights[set, j]``, in
    exact integers."""
    out: npt.NDArray[np.int64] = np.einsum("rl,rj->lj", hist.astype(np.int64), weights)
    return out


def four_set_tables(
    line_of: npt.NDArray[np.int8], mult: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """For every four-card set (colex rank): the sum of results over its 48 completions and
    the histogram of the lines they reach (every five-card set counted under each of its five
    four-card subsets)."""
    n_lines, n4 = mult.shape[0], comb(52, 4)
    cells = drop_one_ranks(5) * np.int32(n_lines) + line_of.astype(np.int32)
    hist = np.bincount(cells.ravel(), minlength=n4 * n_lines).reshape(n4, n_lines)
    sums: npt.NDArray[np.int64] = hist @ mult.astype(np.int64)
    return sums, hist.astype(np.int32)


def lir_counts(sums: npt.NDArray[np.int64], hist: npt.NDArray[np.int32]) -> npt.NDArray[np.int64]:
    """Let It Ride with the optimal decisions: counts[line, bets riding - 1] over every
    (three cards, first community card, second community card) deal, the community cards in
    the order they are turned.  Bet 1 rides when the sum of results over its completions is
    positive, bet 2 when the sum over its 48 is positive; on zero the bet is taken back."""
    ride1 = (sums[supersets(3)].sum(axis=1) > 0).astype(np.int8)
    ride2 = (sums > 0).astype(np.int8)
    # a four-card set once for each of its cards turned first (the other three the player's)
    riding = ride1[drop_one_ranks(4)] + ride2
    weights = np.stack([(riding == j).sum(axis=0) for j in range(3)], axis=1)
    return _weighted(hist, weights)


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


def fifth_street(
    sums: npt.NDArray[np.int64], t: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int8]]:
    """:func:`choose5` over every four-card set with ``t`` units wagered: (the value, a sum
    over the 48 completions; the bet, 0 a fold)."""
    return _best_bet([(t + k) * sums for k in range(1, 4)], -48 * t)


def _best_bet(
    totals: list[npt.NDArray[np.int64]], fold: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int8]]:
    """The best of folding (worth ``fold``) and betting k = 1..3 (worth ``totals[k - 1]``), ties
    to the smaller wager: (value, bet)."""
    best_val = np.full(totals[0].shape, fold, dtype=np.int64)
    best = np.zeros(totals[0].shape, dtype=np.int8)
    for k, total in enumerate(totals, 1):
        better = total > best_val
        best_val = np.where(better, total, best_val)
        best = np.where(better, np.int8(k), best)
    return best_val, best


def ms_policy(sums: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """Mississippi Stud's optimal street bets by backward induction, in exact integers.

    Returns ``k3[rank of the two cards]`` and ``k4[rank of the three known cards, T]`` (T = units
    wagered before 4th street, 2 to 4): 0 folds, 1-3 bets that many times the Ante.  5th street
    is decided from ``sums`` directly (:func:`choose5`).  A street bet of k on top of T units
    already wagered, or a fold losing T; values are sums over the remaining cards: of 48
    completions on 5th street, 49 * 48 on 4th, 50 * 49 * 48 on 3rd.  Ties go to the smaller
    wager (a fold before a bet).
    """
    fifth = {t: fifth_street(sums, t)[0] for t in range(3, 8)}
    n3 = comb(52, 3)
    up3 = supersets(3)
    v4 = np.zeros((n3, 5), dtype=np.int64)
    k4 = np.zeros((n3, 5), dtype=np.int8)
    for t in range(2, 5):
        totals = [fifth[t + k][up3].sum(axis=1) for k in range(1, 4)]
        v4[:, t], k4[:, t] = _best_bet(totals, -t * 49 * 48)
    up2 = supersets(2)
    _, k3 = _best_bet([v4[up2, 1 + k].sum(axis=1) for k in range(1, 4)], -50 * 49 * 48)
    return k3, k4


def ms_counts(
    sums: npt.NDArray[np.int64],
    hist: npt.NDArray[np.int32],
    k3: npt.NDArray[np.int8],
    k4: npt.NDArray[np.int8],
) -> npt.NDArray[np.int64]:
    """Mississippi Stud under the policy ``k3``/``k4`` (and :func:`choose5`): counts[line,
    units wagered] over every (two cards, 3rd, 4th, 5th street card) deal in order; line
    ``n_lines`` is a fold.  Counted by card sets: each three-card set's three starts (which
    card came 3rd) and the stake each reaches after 4th Street, then each four-card set's
    four three-card subsets (which card came 4th), each over the 48 5th Street cards."""
    n_lines = hist.shape[1]
    n3, n4 = comb(52, 3), comb(52, 4)
    counts = np.zeros((n_lines + 1, 11), dtype=np.int64)
    t3 = 1 + k3[drop_one_ranks(3)].astype(np.int64)  # (3, n3): the stake after 3rd Street
    t4 = t3 + k4[np.arange(n3), t3]
    fold3, fold4 = t3 == 1, (t3 > 1) & (t4 == t3)
    folded = fold3 | fold4
    counts[n_lines] += 49 * 48 * np.bincount(np.where(fold3, 1, t3)[folded], minlength=11)
    reach3 = np.bincount((np.arange(n3) * 8 + t4)[~folded], minlength=n3 * 8)
    reach4 = reach3.reshape(n3, 8).astype(np.int32)[drop_one_ranks(4)].sum(axis=0)
    played = np.zeros((n4, 11), dtype=np.int64)
    rows = np.arange(n4)
    for t in range(3, 8):
        _, k5 = fifth_street(sums, t)
        bets = k5 > 0
        counts[n_lines, t] += 48 * int(reach4[~bets, t].sum())
        played[rows[bets], t + k5[bets]] += reach4[bets, t]  # one cell a row
    counts[:n_lines] = _weighted(hist, played)
    return counts
