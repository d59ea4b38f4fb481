"""A hobbyist mini-baccarat simulator: a fresh eight-deck shoe shuffled every coup (as the
round engine's simulation deals), the drawing rules, the Banker wager (5% commission)."""

from __future__ import annotations

import random

from ._cards import DECK

SHOE = [min(r, 10) % 10 if r < 14 else 1 for r, _ in DECK] * 8


WAGERS = {"banker": 1}
"""The croupier wagers the peer plays, one unit each (what its expected net is checked against)."""


def _banker_draws(banker: int, third: int | None) -> bool:
    if third is None:
        return banker <= 5
    return banker <= 2 or (banker, third) in _DRAWS


_DRAWS = {(3, t) for t in range(10) if t != 8} | {(4, t) for t in range(2, 8)}
_DRAWS |= {(5, t) for t in range(4, 8)} | {(6, 6), (6, 7)}


def play_round(rng: random.Random, unit: int = 100) -> int:
    shoe = SHOE[:]
    rng.shuffle(shoe)
    player = [shoe.pop(), shoe.pop()]
    banker = [shoe.pop(), shoe.pop()]
    p, b = sum(player) % 10, sum(banker) % 10
    if p < 8 and b < 8:
        third = None
        if p <= 5:
            third = shoe.pop()
            p = (p + third) % 10
        if _banker_draws(b, third):
            b = (b + shoe.pop()) % 10
    if p == b:
        return 0  # the Banker wager pushes on a tie
    return unit * 95 // 100 if b > p else -unit


def simulate(rounds: int, seed: int) -> int:
    rng = random.Random(seed)
    return sum(play_round(rng) for _ in range(rounds))
