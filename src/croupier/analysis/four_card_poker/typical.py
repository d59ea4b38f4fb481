"""The typical players of the floor forecast (:mod:`croupier.analysis.floor_strategies`),
named and cited, on the game's fast kernel: the kernel's tables with their decisions and
their exact mean.

Four Card Poker (§ 641a.11(b), § 641a.7(d)(1): fold, or play 1x to 3x the Ante), each exact from
the solver's own value of every decision at every (up card, player strength)
(:func:`croupier.analysis.four_card_poker.solver.strength_strategy_value`):

* ``basic``: fold a pair of 2s or less, play 1x with a pair of 3s to 9s, 3x with a pair of 10s
  or better, whatever the up card (the basic strategy of Shuffle Master's table pamphlet, as
  Elliot Frome analysed it: "Four Card Poker - Part Two", Casino City Times, 14 April 2004,
  https://www.casinocitytimes.com/elliot-frome/article/four-card-poker-part-two-10761; the
  same three rules in Wikipedia's "Four card poker", Strategy);
* ``never-fold-1x``: play 1x with every hand (the "minimum bet, never fold" player).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

import numpy as np

from croupier.analysis.floor_strategies import Typical

__all__ = ["TYPICAL"]


def _fcp_rule(rule: str) -> Any:
    """Per dense four-card strength (the solver's): the action index (0 fold, 1 play 1x, 3 play
    3x) of the rule."""
    from croupier.analysis.block_solver import dense_tables
    from croupier.hands import Category, HandRank, Ranking

    values = dense_tables(Ranking.FOUR_CARD).values
    if rule == "never-fold-1x":
        return np.ones(values.size, dtype=np.int8)
    out = np.zeros(values.size, dtype=np.int8)
    for s, value in enumerate(values.tolist()):
        rank = HandRank.of_value(int(value), Ranking.FOUR_CARD)
        if rank.category is Category.HIGH_CARD:
            continue
        if rank.category is not Category.PAIR or rank.tie_ranks[0] >= 10:
            out[s] = 3  # a pair of 10s or better
        elif rank.tie_ranks[0] >= 3:
            out[s] = 1  # a pair of 3s to 9s; a pair of 2s folds
    return out


@cache
def _fcp_tables(rule: str) -> tuple[Any, ...]:
    """The kernel's Four Card Poker tables with the rule's action for every five-card hand (by
    its best four) in every row of up-card rank."""
    from croupier.analysis.block_solver import dense_tables
    from croupier.analysis.four_card_poker.decisions import four_card_tables
    from croupier.hands import Ranking
    from croupier.kernels import comb_unrank_batch, rank_batch

    fcp = four_card_tables()
    optimal, bonus, stakes = fcp.kernel_args
    hands = comb_unrank_batch(np.arange(comb(52, 5), dtype=np.int64), 5)
    values = rank_batch(Ranking.FOUR_CARD, hands)
    action = _fcp_rule(rule)[np.searchsorted(dense_tables(Ranking.FOUR_CARD).values, values)]
    table = np.empty_like(optimal)
    for r in range(13):
        table[r] = np.where((hands == 4 * r).any(axis=1), -1, action)  # the up card, clubs
    return (fcp.ev, (table, bonus, stakes))


@cache
def _fcp_exact(rule: str) -> Fraction:
    from croupier.analysis.four_card_poker.solver import strength_strategy_value

    return strength_strategy_value(_fcp_rule(rule))


TYPICAL: tuple[Typical, ...] = (
    Typical(
        "basic",
        "Shuffle Master's basic strategy (Elliot Frome, Casino City Times, 2004): fold a "
        "pair of 2s or less, 1x a pair of 3s to 9s, 3x a pair of 10s or better",
        lambda: _fcp_tables("basic"),
        lambda: _fcp_exact("basic"),
    ),
    Typical(
        "never-fold-1x",
        "casino guides: play 1x with every hand, never fold",
        lambda: _fcp_tables("never-fold-1x"),
        lambda: _fcp_exact("never-fold-1x"),
    ),
)
"""The floor forecast's typical players of the game (every game also plays ``optimal``)."""
