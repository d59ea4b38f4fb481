"""The typical players of the floor forecast (:mod:`croupier.analysis.floor_strategies`),
named and cited, on the game's fast kernel: the kernel's tables with their decisions and
their exact mean.

Three Card Poker (§ 649a.11(b): play or fold):

* ``q64``: play any pair or better and Q-6-4 or better (Wizard of Odds, "Three Card Poker":
  the simple rule, within a hair of the optimum; :func:`~croupier.games.three_card_poker.
  plays_by_q64`);
* ``mimic-the-dealer``: play whenever the hand would qualify a dealer, Q-high or better (the
  "mimic the dealer" rule most guides warn against);
* ``never-fold``: play every hand.

Their exact edges (per Ante, Ante Bonus table A, 5-4-1) match the published ones: 3.37% for
Q-6-4, 3.45% for Queen or better, 7.65% for playing every hand (John Grochowski, "Three Card
Poker Dissected", Casino City Times, 19 December 2021,
https://www.casinocitytimes.com/john-grochowski/article/three-card-poker-dissected-67680).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

import numpy as np

from croupier.analysis.floor_strategies import Typical

__all__ = ["TYPICAL"]


def _tcp_rule(rule: str) -> Any:
    """Per three-card colex rank: 1 where the rule plays the hand."""
    from croupier.analysis.three_card_poker.solver import all_hands, qualifying
    from croupier.games.three_card_poker import plays_by_q64
    from croupier.hands import HandRank, Ranking

    _, values, _ = all_hands()
    if rule == "never-fold":
        return np.ones(values.size, dtype=np.uint8)
    if rule == "mimic-the-dealer":
        return qualifying().astype(np.uint8)
    distinct, inverse = np.unique(values, return_inverse=True)
    plays = [plays_by_q64(HandRank.of_value(int(v), Ranking.THREE_CARD)) for v in distinct]
    return np.array(plays, dtype=np.uint8)[inverse]


@cache
def _tcp_tables(rule: str) -> tuple[Any, ...]:
    from croupier.analysis.three_card_poker.montecarlo import three_card_args

    args = list(three_card_args())
    value, _, bonus, qualifies, scale, binom, nets = args
    play = np.zeros_like(args[1])
    play[:] = _tcp_rule(rule)  # all_hands is in colex order, as the kernel's tables
    return (value, play, bonus, qualifies, scale, binom, nets)


@cache
def _tcp_exact(rule: str) -> Fraction:
    """The exact mean net per Ante of the rule: every player hand (by suit class, weighted)
    against every dealer hand of the other 49 cards, from the kernel's own tables (integers in
    1/scale Ante)."""
    from croupier.analysis.stud_counts import BINOM
    from croupier.analysis.three_card_poker.solver import all_hands, canonical

    value, play, bonus, qualifies, scale, _, nets = _tcp_tables(rule)
    _, _, masks = all_hands()
    reps = canonical()
    cards = np.sort(reps.cards.astype(np.int64), axis=1)
    rows = sum(BINOM[cards[:, i], i + 1] for i in range(3))
    q = qualifies.astype(bool)
    total = 0
    for start in range(0, rows.size, 128):
        at = rows[start : start + 128]
        live = (reps.masks[start : start + 128, None] & masks[None, :]) == 0
        vp = value[at, None]
        showdown = np.where(
            value[None, :] < vp, nets[1], np.where(value[None, :] == vp, nets[2], nets[3])
        )
        played = np.where(q[None, :], showdown, nets[0]) + bonus[at, None]
        net = np.where(play[at, None] == 1, played, nets[4])
        sums = np.where(live, net, 0).sum(axis=1)
        total += int((sums * reps.weights[start : start + 128]).sum())
    return Fraction(total, comb(52, 3) * comb(49, 3) * int(scale))


_Q64 = "Wizard of Odds, Three Card Poker: play Q-6-4 or better"


TYPICAL: tuple[Typical, ...] = (
    Typical("q64", _Q64, lambda: _tcp_tables("q64"), lambda: _tcp_exact("q64")),
    Typical(
        "mimic-the-dealer",
        "casino guides: play every hand that would qualify a dealer (Q-high)",
        lambda: _tcp_tables("mimic-the-dealer"),
        lambda: _tcp_exact("mimic-the-dealer"),
    ),
    Typical(
        "never-fold",
        "casino guides: the player who plays every hand",
        lambda: _tcp_tables("never-fold"),
        lambda: _tcp_exact("never-fold"),
    ),
)
"""The floor forecast's typical players of the game (every game also plays ``optimal``)."""
