"""Numba kernels of the Four Card Poker Ante/Play solver.

For one dealer up card ``u`` the dealer's hand is ``u`` plus five hidden cards.  Strengths are
dense four-card strengths (best four of six for the dealer, best four of five for the player).
Writing ``N(T, < s)`` for the number of six-card hands that contain the card set ``T`` and are
weaker than ``s``, the hidden completions that avoid the player's hand ``P`` are, by
inclusion-exclusion over the subsets ``S`` of ``P``::

    #{H : u in H, H disjoint from P, strength(H) < s} = sum over S of (-1)^|S| N({u} + S, < s)

The tables hold ``N`` for every ``T`` that contains ``u``: cumulative histograms for one to four
cards (``cum1`` .. ``cum4``: ``cum[..., j]`` counts strengths below ``j``), the 47 completions of
each five-card set, sorted (``list5``), and the six-card hand itself is ranked directly.  Card
positions are indices into ``others``, the 51 cards other than ``u``, ascending; a set of
positions is indexed by its colex rank.
"""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np
from numba import njit

from croupier.kernels.blocks import hash_value

__all__ = [
    "BINOM",
    "HIDDEN",
    "NO_DECISIONS",
    "SUIT_PERMS",
    "build_up_tables",
    "solve_up_rank",
    "versus_counts",
]

HIDDEN = comb(46, 5)
"""Hidden dealer completions of one (player hand, up card): 1,370,754."""

BINOM = np.array([[comb(n, k) for k in range(7)] for n in range(53)], dtype=np.int64)

SUIT_PERMS = np.array(
    [[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 1, 3], [0, 2, 3, 1], [0, 3, 1, 2], [0, 3, 2, 1]],
    dtype=np.int64,
)
"""The six renamings of diamonds, hearts and spades (clubs, the up card's suit, stays)."""

NO_DECISIONS = np.empty(0, dtype=np.int8)
"""The ``decisions`` argument of :func:`solve_up_rank` when the decisions are not kept."""


@njit(cache=True, nogil=True)
def _hist_completions(
    key0: int,
    bits0: int,
    cards: Any,
    need: int,
    ck: Any,
    cb: Any,
    offs: Any,
    plain: Any,
    flush: Any,
    hist: Any,
) -> None:  # pragma: no cover - compiled
    """Add ``hist[s + 1] += 1`` for every ``need``-subset of ``cards`` completing the partial
    hand (summed key ``key0``, card bits ``bits0``), ``s`` its strength."""
    n = cards.shape[0]
    if need == 1:
        for c in range(n):
            card = cards[c]
            hist[hash_value(key0 + ck[card], bits0 | cb[card], offs, plain, flush) + 1] += 1
        return
    idx = np.empty(need, np.int64)
    keys = np.empty(need, np.int64)
    bits = np.empty(need, np.int64)
    keys[0] = key0
    bits[0] = bits0
    for j in range(need - 1):
        idx[j] = j
        keys[j + 1] = keys[j] + ck[cards[j]]
        bits[j + 1] = bits[j] | cb[cards[j]]
    while True:
        key = keys[need - 1]
        bit = bits[need - 1]
        for c in range(idx[need - 2] + 1, n):
            card = cards[c]
            hist[hash_value(key + ck[card], bit | cb[card], offs, plain, flush) + 1] += 1
        j = need - 2
        while j >= 0 and idx[j] == n - need + j:
            j -= 1
        if j < 0:
            return
        idx[j] += 1
        keys[j + 1] = keys[j] + ck[cards[idx[j]]]
        bits[j + 1] = bits[j] | cb[cards[idx[j]]]
        for m in range(j + 1, need - 1):
            idx[m] = idx[m - 1] + 1
            keys[m + 1] = keys[m] + ck[cards[idx[m]]]
            bits[m + 1] = bits[m] | cb[cards[idx[m]]]


@njit(inline="always")
def _n(value: int) -> int:  # pragma: no cover - compiled
    """``value`` typed as a plain int64: a literal argument would compile a callee once per
    value."""
    return np.int64(value)  # type: ignore[return-value]


@njit(cache=True, nogil=True)
def _rest(others: Any, taken: Any) -> Any:  # pragma: no cover - compiled
    """The cards of ``others`` whose positions are not in ``taken``."""
    out = np.empty(others.shape[0] - taken.shape[0], np.int64)
    j = 0
    for p in range(others.shape[0]):
        skip = False
        for t in range(taken.shape[0]):
            if taken[t] == p:
                skip = True
        if not skip:
            out[j] = others[p]
            j += 1
    return out


@njit(cache=True, nogil=True)
def _cumulate(hist: Any) -> None:  # pragma: no cover - compiled
    for j in range(1, hist.shape[0]):
        hist[j] += hist[j - 1]


@njit(cache=True, nogil=True)
def _cumulate_into(hist: Any, out: Any, row: int) -> None:  # pragma: no cover - compiled
    """``out[row]`` = the running sums of ``hist``, which is cleared (element loops, not slice
    assignments: numba compiles them far faster)."""
    total = 0
    for j in range(hist.shape[0]):
        total += hist[j]
        hist[j] = 0
        out[row, j] = total


@njit(cache=True, nogil=True)
def _sort_small(a: Any) -> None:  # pragma: no cover - compiled
    """Insertion sort of a short 1-d array (numba's own sort costs seconds to compile)."""
    for i in range(1, a.shape[0]):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit(cache=True, nogil=True)
def build_up_tables(
    up: int, ck: Any, cb: Any, offs: Any, plain: Any, flush: Any, init: int, size: int
) -> Any:  # pragma: no cover - compiled
    """The tables of one up card: (others, cum1, cum2, cum3, cum4, list5)."""
    others = np.empty(51, np.int64)
    j = 0
    for c in range(52):
        if c != up:
            others[j] = c
            j += 1
    key_u = init + ck[up]
    bit_u = cb[up]
    hist = np.zeros(size + 1, np.int64)
    cum1 = np.zeros(size + 1, np.int64)
    _hist_completions(key_u, bit_u, others, _n(5), ck, cb, offs, plain, flush, cum1)
    _cumulate(cum1)
    cum2 = np.zeros((51, size + 1), np.int32)
    taken = np.empty(1, np.int64)
    for a in range(51):
        taken[0] = a
        card = others[a]
        rest = _rest(others, taken)
        key = key_u + ck[card]
        _hist_completions(key, bit_u | cb[card], rest, _n(4), ck, cb, offs, plain, flush, hist)
        _cumulate_into(hist, cum2, a)
    cum3 = np.zeros((comb2(51), size + 1), np.uint16)
    taken = np.empty(2, np.int64)
    for b in range(51):
        for a in range(b):
            taken[0] = a
            taken[1] = b
            key = key_u + ck[others[a]] + ck[others[b]]
            bit = bit_u | cb[others[a]] | cb[others[b]]
            rest = _rest(others, taken)
            _hist_completions(key, bit, rest, _n(3), ck, cb, offs, plain, flush, hist)
            _cumulate_into(hist, cum3, a + b * (b - 1) // 2)
    cum4 = np.zeros((comb3(51), size + 1), np.uint16)
    taken = np.empty(3, np.int64)
    for c in range(51):
        for b in range(c):
            for a in range(b):
                taken[0] = a
                taken[1] = b
                taken[2] = c
                key = key_u + ck[others[a]] + ck[others[b]] + ck[others[c]]
                bit = bit_u | cb[others[a]] | cb[others[b]] | cb[others[c]]
                rest = _rest(others, taken)
                _hist_completions(key, bit, rest, _n(2), ck, cb, offs, plain, flush, hist)
                _cumulate_into(hist, cum4, a + b * (b - 1) // 2 + comb3(c))
    list5 = np.empty((comb4(51), 47), np.uint16)
    mark = np.zeros(52, np.bool_)
    for d in range(51):
        for c in range(d):
            for b in range(c):
                for a in range(b):
                    row = a + b * (b - 1) // 2 + comb3(c) + comb4(d)
                    key = key_u + ck[others[a]] + ck[others[b]] + ck[others[c]] + ck[others[d]]
                    bit = bit_u | cb[others[a]] | cb[others[b]] | cb[others[c]] | cb[others[d]]
                    mark[a] = mark[b] = mark[c] = mark[d] = True
                    n = 0
                    for p in range(51):
                        if not mark[p]:
                            card = others[p]
                            list5[row, n] = hash_value(
                                key + ck[card], bit | cb[card], offs, plain, flush
                            )
                            n += 1
                    mark[a] = mark[b] = mark[c] = mark[d] = False
                    _sort_small(list5[row])
    return others, cum1, cum2, cum3, cum4, list5


@njit(inline="always")
def comb2(n: int) -> int:  # pragma: no cover - compiled
    return n * (n - 1) // 2


@njit(inline="always")
def comb3(n: int) -> int:  # pragma: no cover - compiled
    return n * (n - 1) * (n - 2) // 6


@njit(inline="always")
def comb4(n: int) -> int:  # pragma: no cover - compiled
    return n * (n - 1) * (n - 2) * (n - 3) // 24


@njit(inline="always", nogil=True)
def _versus(
    pos: Any,
    s: int,
    d6: int,
    cum1: Any,
    cum2: Any,
    cum3: Any,
    cum4: Any,
    list5: Any,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """(dealer hands weaker than ``s``, dealer hands at most ``s``) among the completions that
    avoid the player's positions ``pos`` (ascending); ``d6`` ranks the up card with all five."""
    lt = cum1[s]
    le = cum1[s + 1]
    for i in range(5):
        lt -= cum2[pos[i], s]
        le -= cum2[pos[i], s + 1]
    for j in range(5):
        pj = comb2(pos[j])
        for i in range(j):
            row = pos[i] + pj
            lt += cum3[row, s]
            le += cum3[row, s + 1]
    for k in range(5):
        pk = comb3(pos[k])
        for j in range(k):
            pj = comb2(pos[j]) + pk
            for i in range(j):
                row = pos[i] + pj
                lt -= cum4[row, s]
                le -= cum4[row, s + 1]
    for skip in range(5):
        row = 0
        m = 1
        for i in range(5):
            if i != skip:
                p = pos[i]
                if m == 1:
                    row += p
                elif m == 2:
                    row += comb2(p)
                elif m == 3:
                    row += comb3(p)
                else:
                    row += comb4(p)
                m += 1
        for t in range(47):
            v = list5[row, t]
            if v < s:
                lt += 1
            if v <= s:
                le += 1
    if d6 < s:
        lt -= 1
    if d6 <= s:
        le -= 1
    return lt, le


@njit(cache=True, nogil=True)
def versus_counts(
    up: int,
    players: Any,
    ck: Any,
    cb: Any,
    offs: Any,
    plain: Any,
    flush: Any,
    init: int,
    size: int,
    out: Any,
) -> None:  # pragma: no cover - compiled
    """For each row of ``players`` (five cards, none ``up``): ``out[row] = (s, lt, le)``, the
    player's strength and the dealer completions below it and at most it."""
    _, cum1, cum2, cum3, cum4, list5 = build_up_tables(up, ck, cb, offs, plain, flush, init, size)
    pos = np.empty(5, np.int64)
    for r in range(players.shape[0]):
        key = init
        bits = 0
        for i in range(5):
            card = np.int64(players[r, i])
            key += ck[card]
            bits |= cb[card]
            pos[i] = card if card < up else card - 1
        _sort_small(pos)
        s = hash_value(key, bits, offs, plain, flush)
        d6 = hash_value(key + ck[up], bits | cb[up], offs, plain, flush)
        lt, le = _versus(pos, s, d6, cum1, cum2, cum3, cum4, list5)
        out[r, 0] = s
        out[r, 1] = lt
        out[r, 2] = le


@njit(inline="always")
def _suit_key(bits: int, suit: int) -> int:  # pragma: no cover - compiled
    mask = (bits >> (16 * suit)) & 0x1FFF
    pop = 0
    m = mask
    while m:
        m &= m - 1
        pop += 1
    return pop * 8192 + mask


@njit(inline="always", nogil=True)
def _keep_decision(
    decisions: Any, best: int, c0: int, c1: int, c2: int, c3: int, c4: int, hand: Any
) -> None:  # pragma: no cover - compiled
    """``decisions[colex(image)] = best`` for the images of a hand under :data:`SUIT_PERMS`."""
    for g in range(SUIT_PERMS.shape[0]):
        hand[0] = 4 * (c0 >> 2) + SUIT_PERMS[g, c0 & 3]
        hand[1] = 4 * (c1 >> 2) + SUIT_PERMS[g, c1 & 3]
        hand[2] = 4 * (c2 >> 2) + SUIT_PERMS[g, c2 & 3]
        hand[3] = 4 * (c3 >> 2) + SUIT_PERMS[g, c3 & 3]
        hand[4] = 4 * (c4 >> 2) + SUIT_PERMS[g, c4 & 3]
        _sort_small(hand)
        row = 0
        for i in range(5):
            row += BINOM[hand[i], i + 1]
        decisions[row] = best


@njit(inline="always")
def _suit_weight(bits: int) -> int:  # pragma: no cover - compiled
    """How many hands the hand of card ``bits`` stands for under the renamings of suits 1..3
    (4, 12 or 24), or 0 unless it is the member whose suit keys descend."""
    s1 = _suit_key(bits, 1)
    s2 = _suit_key(bits, 2)
    s3 = _suit_key(bits, 3)
    if s1 < s2 or s2 < s3:
        return 0
    if s1 == s2 and s2 == s3:
        return 4
    if s1 == s2 or s2 == s3:  # noqa: PLR1714 - plain integer tests in numba
        return 12
    return 24


@njit(inline="always", nogil=True)
def _value(a: int, s: int, lt: int, le: int, bonus: Any, stakes: Any) -> int:  # pragma: no cover
    """The summed net of decision ``a`` of the hand of strength ``s`` over the completions:
    ``lt`` dealer hands below it, ``le - lt`` equal, the rest of :data:`HIDDEN` above."""
    n = HIDDEN
    value = bonus[a, s] * n + stakes[a, 0] * lt + stakes[a, 1] * (le - lt)
    return int(value + stakes[a, 2] * (n - le))


@njit(inline="always", nogil=True)
def _choose(s: int, lt: int, le: int, bonus: Any, stakes: Any) -> int:  # pragma: no cover
    """The decision of largest summed net (fold, 1x, 2x, 3x); on equal value the smaller."""
    best = 0
    best_value = _value(0, s, lt, le, bonus, stakes)
    for a in range(1, 4):
        value = _value(a, s, lt, le, bonus, stakes)
        if value > best_value:
            best = a
            best_value = value
    return best


@njit(inline="always", nogil=True)
def _count(
    tally: Any, best: int, bc: int, weight: int, lt: int, le: int
) -> None:  # pragma: no cover - compiled
    """Add ``weight`` times the deals of the decision ``best`` to ``tally[best, bc]``: by the
    dealer below, equal, above; a fold all in result 0."""
    n = HIDDEN
    if best == 0:
        tally[0, bc, 0] += weight * n
    else:
        tally[best, bc, 0] += weight * lt
        tally[best, bc, 1] += weight * (le - lt)
        tally[best, bc, 2] += weight * (n - le)


@njit(cache=True, nogil=True)
def solve_up_rank(
    rank: int,
    ck: Any,
    cb: Any,
    offs: Any,
    plain: Any,
    flush: Any,
    init: int,
    size: int,
    bonus: Any,
    stakes: Any,
    bclass: Any,
    tally: Any,
    strategy: Any,
    moments: Any,
    decisions: Any,
) -> None:  # pragma: no cover - compiled
    """Every player hand against the up card of ``rank`` (0 = deuce) in clubs, with the best
    decision, times four for the up card's suits.

    The settlement, in integers (units of a fraction of the Ante), tabulated from the game's
    :func:`~croupier.games.four_card_poker.base_net`: ``bonus[a, s]`` the Ante Bonus of
    decision ``a`` (fold, 1x, 2x, 3x) for the player strength ``s``, ``stakes[a, r]`` the net of
    the Ante and the Play against a dealer below, equal to or above the player (``r``);
    ``bclass[s]`` the tally class of the strength.  Adds to ``tally[action, bclass, result]``
    (results dealer below, equal, above; a fold counts in result 0) the number of deals, and
    to ``strategy[s, action]`` the number of (hand, up card) situations.  On equal value the
    smaller wager is chosen.  ``moments[s]`` adds the weighted ``(lt, le)`` of strength ``s``
    (:func:`~croupier.analysis.four_card_poker.solver.strength_strategy_value` uses them).

    ``decisions`` (a C(52, 5) array, or empty to skip): the chosen action of every player hand
    against this up card, at the colex rank of its five cards, written for the solved hand and
    each image under :data:`SUIT_PERMS` (the hands that hold the up card are left alone).
    """
    keep = decisions.shape[0] > 0
    hand = np.empty(5, np.int64)
    up = 4 * rank
    others, cum1, cum2, cum3, cum4, list5 = build_up_tables(
        up, ck, cb, offs, plain, flush, init, size
    )
    pos = np.empty(5, np.int64)
    for p4 in range(4, 51):
        c4 = others[p4]
        k4 = init + ck[c4]
        b4 = cb[c4]
        for p3 in range(3, p4):
            c3 = others[p3]
            k3 = k4 + ck[c3]
            b3 = b4 | cb[c3]
            for p2 in range(2, p3):
                c2 = others[p2]
                k2 = k3 + ck[c2]
                b2 = b3 | cb[c2]
                for p1 in range(1, p2):
                    c1 = others[p1]
                    k1 = k2 + ck[c1]
                    b1 = b2 | cb[c1]
                    for p0 in range(p1):
                        c0 = others[p0]
                        key = k1 + ck[c0]
                        bits = b1 | cb[c0]
                        # suits 1..3 may be renamed: keep the member whose suit keys descend
                        weight = _suit_weight(bits)
                        if weight == 0:
                            continue
                        pos[0] = p0
                        pos[1] = p1
                        pos[2] = p2
                        pos[3] = p3
                        pos[4] = p4
                        s = hash_value(key, bits, offs, plain, flush)
                        d6 = hash_value(key + ck[up], bits | cb[up], offs, plain, flush)
                        lt, le = _versus(pos, s, d6, cum1, cum2, cum3, cum4, list5)
                        best = _choose(s, lt, le, bonus, stakes)
                        strategy[s, best] += weight
                        moments[s, 0] += weight * lt
                        moments[s, 1] += weight * le
                        if keep:
                            _keep_decision(decisions, best, c0, c1, c2, c3, c4, hand)
                        _count(tally, best, bclass[s], weight, lt, le)
