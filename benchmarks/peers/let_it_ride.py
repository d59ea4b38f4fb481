"""A hobbyist Let It Ride simulator: three bets, the basic strategy as printed in guides,
pay table 1 (§ 643a.11 table A: 1-1 tens or better ... 1000-1 royal)."""

from __future__ import annotations

import random

from ._cards import DECK, FLUSH, PAIR, ROYAL, TRIPS, TWO_PAIR, score5

PAYS = {PAIR: 1, TWO_PAIR: 2, TRIPS: 3, 4: 5, FLUSH: 8, 6: 11, 7: 50, 8: 200, ROYAL: 1000}


WAGERS = {"base": 1}
"""The croupier wagers the peer plays, one unit each (what its expected net is checked against)."""


def _paying_pair_or_better(ranks: list[int]) -> bool:
    repeated = [r for r in set(ranks) if ranks.count(r) >= 2]
    return bool(repeated) and (max(repeated) >= 10 or len(repeated) > 1 or len(set(ranks)) < 3)


def _ride_three(cards: list[tuple[int, str]]) -> bool:
    """Bet 1: a paying pair or trips, three to a royal, three suited in a row (not A-2-3, 2-3-4)."""
    ranks = sorted(r for r, _ in cards)
    if len(set(ranks)) < 3:
        return _paying_pair_or_better(ranks)
    suited = len({s for _, s in cards}) == 1
    return suited and (ranks[0] >= 10 or (ranks[2] - ranks[0] == 2 and ranks[0] >= 3))


def _ride_four(cards: list[tuple[int, str]]) -> bool:
    """Bet 2: a paying pair or better, four to a flush, four in a row ten or higher."""
    ranks = sorted(r for r, _ in cards)
    if len(set(ranks)) < 4:
        return _paying_pair_or_better(ranks)
    suited = len({s for _, s in cards}) == 1
    return suited or (ranks[3] - ranks[0] == 3 and ranks[0] >= 10)


def play_round(rng: random.Random, unit: int = 100) -> int:
    deck = DECK[:]
    rng.shuffle(deck)
    hand, board = deck[:3], deck[3:5]
    riding = 1 + _ride_three(hand) + _ride_four(hand + board[:1])
    category, *rest = score5(hand + board)
    if category == PAIR and rest[0] < 10:
        return -riding * unit
    pays = PAYS.get(category)
    return riding * unit * pays if pays else -riding * unit


def simulate(rounds: int, seed: int) -> int:
    rng = random.Random(seed)
    return sum(play_round(rng) for _ in range(rounds))
