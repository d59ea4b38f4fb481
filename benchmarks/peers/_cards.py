"""The hobbyist's deck and five-card evaluator shared by the peers: cards are (rank, suit)
tuples, ranks 2..14; a hand's score is a tuple (category, tie-break ranks) compared as tuples."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

DECK = [(rank, suit) for rank in range(2, 15) for suit in "cdhs"]

HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, ROYAL = range(10)


def score5(cards: list[tuple[int, str]] | tuple[tuple[int, str], ...]) -> tuple[int, ...]:
    """(category, ranks...) of five cards: larger is better."""
    ranks = sorted((r for r, _ in cards), reverse=True)
    counts = Counter(ranks)
    flush = len({s for _, s in cards}) == 1
    distinct = sorted(counts, reverse=True)
    straight = len(distinct) == 5 and (
        distinct[0] - distinct[4] == 4 or distinct == [14, 5, 4, 3, 2]
    )
    top = (5 if distinct[0] == 14 and distinct[1] == 5 else distinct[0]) if straight else 0
    if straight and flush:
        return (ROYAL if top == 14 else STRAIGHT_FLUSH, top)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    order = tuple(r for r, _ in groups)
    if shape[0] == 4:
        return (QUADS, *order)
    if shape == [3, 2]:
        return (FULL_HOUSE, *order)
    if flush:
        return (FLUSH, *ranks)
    if straight:
        return (STRAIGHT, top)
    if shape[0] == 3:
        return (TRIPS, *order)
    if shape == [2, 2, 1]:
        return (TWO_PAIR, *order)
    if shape[0] == 2:
        return (PAIR, *order)
    return (HIGH, *ranks)


def best5(cards: list[tuple[int, str]]) -> tuple[int, ...]:
    """The best five-card score of six or seven cards (every combination tried)."""
    return max(score5(combo) for combo in combinations(cards, 5))
