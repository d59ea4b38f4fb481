"""A hobbyist Ultimate Texas Hold 'Em simulator: Ante, Blind and Play; 4x with any pair of
threes or better, any ace, or suited king; 2x on the flop with a pair; 1x on the river with
any pair, else fold; the dealer opens with a pair; the Blind pays by the winning hand."""

from __future__ import annotations

import random

from ._cards import DECK, FLUSH, STRAIGHT, best5

BLIND = {STRAIGHT: 1, FLUSH: 1.5, 6: 3, 7: 10, 8: 50, 9: 500}


WAGERS = {"base": 1}
"""The croupier wagers the peer plays, one unit each (what its expected net is checked against)."""
CHECKED = False
"""Its rough rules (the river played only with a pair, the flop only with a pair) cost it far
more than the standard error: its edge is printed beside the optimum's, not held to it."""


def _raise_preflop(hole: list[tuple[int, str]]) -> bool:
    (r1, s1), (r2, s2) = hole
    return (r1 == r2 and r1 >= 3) or 14 in (r1, r2) or (13 in (r1, r2) and s1 == s2)


def play_round(rng: random.Random, unit: int = 100) -> int:
    deck = DECK[:]
    rng.shuffle(deck)
    hole, dealer, board = deck[0:2], deck[2:4], deck[4:9]
    play = 4 if _raise_preflop(hole) else 0
    player = best5(hole + board)
    if not play:
        flop_ranks = [r for r, _ in board[:3]]
        play = 2 if any(r in flop_ranks for r, _ in hole) or hole[0][0] == hole[1][0] else 0
    if not play:
        play = 1 if player[0] >= 1 else 0
    if not play:
        return -2 * unit
    house = best5(dealer + board)
    if player == house:
        return 0
    blind = BLIND.get(player[0], 0)
    if player > house:
        ante = unit if house[0] >= 1 else 0
        return int(ante + blind * unit + play * unit)
    ante = -unit if house[0] >= 1 else 0
    return ante - unit - play * unit


def simulate(rounds: int, seed: int) -> int:
    rng = random.Random(seed)
    return sum(play_round(rng) for _ in range(rounds))
