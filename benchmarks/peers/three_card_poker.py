"""A hobbyist Three Card Poker simulator: Ante and Play (play Q-6-4 or better), the dealer
qualifies with queen high, the Ante Bonus, and Pair Plus on the side (35-25-6-4-1, the table
croupier prices by default, its letter A)."""

from __future__ import annotations

import random
from collections import Counter

from ._cards import DECK

ANTE_BONUS = {5: 5, 4: 4, 3: 1}
PAIR_PLUS = {5: 35, 4: 25, 3: 6, 2: 4, 1: 1}


WAGERS = {"base": 1, "pair_plus": 1}
"""The croupier wagers the peer plays, one unit each (what its expected net is checked against)."""


def score3(cards: list[tuple[int, str]]) -> tuple[int, ...]:
    ranks = sorted((r for r, _ in cards), reverse=True)
    if ranks == [14, 3, 2]:
        ranks = [3, 2, 1]
    flush = len({s for _, s in cards}) == 1
    straight = len(set(ranks)) == 3 and ranks[0] - ranks[2] == 2
    counts = Counter(ranks)
    if straight and flush:
        return (5, ranks[0])
    if 3 in counts.values():
        return (4, ranks[0])
    if straight:
        return (3, ranks[0])
    if flush:
        return (2, *ranks)
    if 2 in counts.values():
        pair = max(counts, key=lambda r: (counts[r], r))
        return (1, pair, *(r for r in ranks if r != pair))
    return (0, *ranks)


def play_round(rng: random.Random, unit: int = 100) -> int:
    deck = DECK[:]
    rng.shuffle(deck)
    player, dealer = score3(deck[:3]), score3(deck[3:6])
    net = unit * PAIR_PLUS.get(player[0], -1)
    if player < (0, 12, 6, 4):
        return net - unit
    net += unit * ANTE_BONUS.get(player[0], 0)
    if dealer < (0, 12):
        return net + unit
    if player > dealer:
        return net + 2 * unit
    return net if player == dealer else net - 2 * unit


def simulate(rounds: int, seed: int) -> int:
    rng = random.Random(seed)
    return sum(play_round(rng) for _ in range(rounds))
