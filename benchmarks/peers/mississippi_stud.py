"""A hobbyist Mississippi Stud simulator: the Ante, then a 3rd, 4th and 5th Street bet of 1x or
3x the Ante or a fold, by the point-count strategy printed in guides (a jack to an ace 2 points,
a six to a ten 1 point), paid on the final five cards (a pair of sixes to tens pushes)."""

from __future__ import annotations

import random
from collections import Counter

from ._cards import (
    DECK,
    FLUSH,
    FULL_HOUSE,
    PAIR,
    QUADS,
    ROYAL,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    score5,
)

PAYS = {ROYAL: 500, STRAIGHT_FLUSH: 100, QUADS: 40, FULL_HOUSE: 10, FLUSH: 6, STRAIGHT: 4}
PAYS |= {TRIPS: 3, TWO_PAIR: 2}
WAGERS = {"base": 1}
"""The croupier wagers the peer plays, one unit each (what its expected net is checked against)."""


def _points(ranks: list[int]) -> int:
    return sum(2 if r >= 11 else 1 if r >= 6 else 0 for r in ranks)


def _span_ok(ranks: list[int], gaps: int) -> bool:
    """Distinct ranks that fit in a straight with at most ``gaps`` missing ranks inside."""
    low = sorted(set(ranks))
    return len(low) == len(ranks) and low[-1] - low[0] <= len(ranks) - 1 + gaps


def _bet(cards: list[tuple[int, str]]) -> int:
    """1 or 3 (times the Ante), or 0 to fold, with the cards seen so far (2, 3 or 4)."""
    ranks = [r for r, _ in cards]
    counts = Counter(ranks)
    pair = max(counts.values()) >= 2
    paying = max(counts.values()) >= 3 or any(n >= 2 and r >= 6 for r, n in counts.items())
    paying = paying or sorted(counts.values()) == [2, 2]
    suited = len({s for _, s in cards}) == 1
    points = _points(ranks)
    if len(cards) == 2:
        if pair:
            return 3
        if points >= 2 or (suited and sorted(ranks) == [5, 6]):
            return 1
        return 0
    if len(cards) == 3:
        if paying or (suited and _span_ok(ranks, 0) and min(ranks) >= 5):
            return 3
        if suited or pair or points >= 3 or (_span_ok(ranks, 0) and min(ranks) >= 4):
            return 1
        return 0
    if paying or suited or (_span_ok(ranks, 0) and min(ranks) >= 5):
        return 3
    if pair or points >= 4 or _span_ok(ranks, 0) or (_span_ok(ranks, 1) and min(ranks) >= 6):
        return 1
    return 0


def play_round(rng: random.Random, unit: int = 100) -> int:
    deck = DECK[:]
    rng.shuffle(deck)
    hand, board = deck[:2], deck[2:5]
    units = 1
    for street in range(3):
        bet = _bet(hand + board[:street])
        if not bet:
            return -units * unit
        units += bet
    category, *rest = score5(hand + board)
    if category == PAIR:
        return units * unit if rest[0] >= 11 else 0 if rest[0] >= 6 else -units * unit
    pays = PAYS.get(category)
    return units * unit * pays if pays else -units * unit


def simulate(rounds: int, seed: int) -> int:
    rng = random.Random(seed)
    return sum(play_round(rng) for _ in range(rounds))
