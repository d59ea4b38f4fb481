"""A hobbyist Four Card Poker simulator: the player's best four of five cards against the
dealer's best four of six, ties to the player, the Ante Bonus on a played hand, and the
strategy printed in guides (Play 3x with a pair of tens or better, 1x with a lower pair of
threes or better, fold the rest)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from ._cards import DECK

HIGH, PAIR, TWO_PAIR, STRAIGHT, FLUSH, TRIPS, STRAIGHT_FLUSH, QUADS = range(8)
ANTE_BONUS = {QUADS: 25, STRAIGHT_FLUSH: 20, TRIPS: 2}
WAGERS = {"base": 1}
"""The croupier wagers the peer plays, one unit each (what its expected net is checked against)."""


def score4(cards: tuple[tuple[int, str], ...]) -> tuple[int, ...]:
    """(category, ranks...) of four cards, four of a kind over a straight flush and three of a
    kind over a flush; A-2-3-4 the lowest straight."""
    ranks = sorted((r for r, _ in cards), reverse=True)
    counts = Counter(ranks)
    flush = len({s for _, s in cards}) == 1
    straight = len(counts) == 4 and (ranks[0] - ranks[3] == 3 or ranks == [14, 4, 3, 2])
    top = (4 if ranks[0] == 14 and ranks[1] == 4 else ranks[0]) if straight else 0
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    order = tuple(r for r, _ in groups)
    if shape[0] == 4:
        return (QUADS, *order)
    if straight and flush:
        return (STRAIGHT_FLUSH, top)
    if shape[0] == 3:
        return (TRIPS, *order)
    if flush:
        return (FLUSH, *ranks)
    if straight:
        return (STRAIGHT, top)
    if shape == [2, 2]:
        return (TWO_PAIR, *order)
    if shape[0] == 2:
        return (PAIR, *order)
    return (HIGH, *ranks)


def best4(cards: list[tuple[int, str]]) -> tuple[int, ...]:
    return max(score4(combo) for combo in combinations(cards, 4))


def play_round(rng: random.Random, unit: int = 100) -> int:
    deck = DECK[:]
    rng.shuffle(deck)
    player = best4(deck[:5])
    if player[0] > PAIR or (player[0] == PAIR and player[1] >= 10):
        play = 3
    elif player[0] == PAIR and player[1] >= 3:
        play = 1
    else:
        return -unit
    net = unit * ANTE_BONUS.get(player[0], 0)
    dealer = best4(deck[5:11])
    return net + (1 + play) * unit if player >= dealer else net - (1 + play) * unit


def simulate(rounds: int, seed: int) -> int:
    rng = random.Random(seed)
    return sum(play_round(rng) for _ in range(rounds))
