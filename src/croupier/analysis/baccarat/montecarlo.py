"""The baccarat family's fast Monte Carlo: the numba coup kernel (the fixed draw rules of
:mod:`croupier.hands.baccarat`) and its record for :mod:`croupier.analysis.montecarlo`.

A shoe of ``d`` decks holds the card indices ``0 .. 52d - 1``, card ``i`` being ``i % 52``; a
coup takes up to 6 cards in the order the shoe gives them: Player, Banker, Player, Banker, then
the third cards (the Player's first when it draws).  The kernel's actions are the coups' result
classes (:data:`BACCARAT_CLASSES`); nets are in units of ``1 / scale`` of the wager.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import lcm
from typing import Any

import numpy as np
from numba import njit

from croupier.analysis.baccarat.sheet import class_nets
from croupier.analysis.mc_kernels import make_block_by_action
from croupier.analysis.registry import MonteCarloKernel
from croupier.games import Game

__all__ = [
    "BACCARAT_CLASSES",
    "KERNEL",
    "baccarat_args",
    "baccarat_block",
    "baccarat_classify_many",
    "baccarat_nets",
    "baccarat_settle",
    "baccarat_tables",
]


BACCARAT_CLASSES = ("banker", "dragon 7", "player", "tie")
"""The baccarat kernel's result classes: the Banker's Hand wins (not a Dragon 7), the Banker's
Hand wins with a Dragon 7 (a three-card 7 against a Player's 6 or less), the Player's Hand
wins, a tie."""


@njit(inline="always", nogil=True)
def baccarat_classify(shoe: Any, bac: Any) -> tuple[int, int]:  # pragma: no cover - compiled
    """(result class of :data:`BACCARAT_CLASSES`, cards dealt) of the coup dealt from
    ``shoe[0:]`` in order; ``bac = (value per card 0..51, player draws [p, b], banker draws
    [p, b, the Player's third card's value or 10 when it stood])``."""
    value, pdraw, bdraw = bac
    p = (value[shoe[0] % 52] + value[shoe[2] % 52]) % 10
    b = (value[shoe[1] % 52] + value[shoe[3] % 52]) % 10
    used = 4
    third = 10
    if pdraw[p, b]:
        third = value[shoe[4] % 52]
        used = 5
    banker_three = bdraw[p, b, third] != 0
    p2 = p if third == 10 else (p + third) % 10
    if banker_three:
        b = (b + value[shoe[used] % 52]) % 10
        used += 1
    if b > p2:
        return (1 if banker_three and b == 7 else 0), used
    if p2 > b:
        return 2, used
    return 3, used


@njit(inline="always", nogil=True)
def baccarat_settle(deal: Any, tables: Any, work: Any) -> tuple[int, int]:  # pragma: no cover
    """(net of the wager in 1/scale units, result class) of the coup dealt from ``deal``;
    ``tables = (value, player draws, banker draws, net per result class)``: the tables of
    :func:`baccarat_args` and the wager's :func:`baccarat_nets`."""
    value, pdraw, bdraw, nets = tables
    cls, _ = baccarat_classify(deal, (value, pdraw, bdraw))
    return nets[cls], cls


baccarat_block = make_block_by_action(baccarat_settle, 6, "baccarat_block")
"""The baccarat block: a wager's net is its pay of the result class, so the loop counts
classes (the Monte Carlo of every coup, 8.5M rounds per CPU second)."""


@njit(cache=True, nogil=True)
def baccarat_classify_many(
    deals: Any, bac: Any, classes: Any, used: Any
) -> None:  # pragma: no cover - compiled
    """:func:`baccarat_classify` of every row of ``deals`` (6 cards each)."""
    for r in range(deals.shape[0]):
        classes[r], used[r] = baccarat_classify(deals[r], bac)


@cache
def baccarat_args() -> tuple[Any, ...]:
    """The draw rules of :mod:`croupier.hands.baccarat` as tables, and each card's value."""
    from croupier.core.cards import DECK
    from croupier.hands.baccarat import banker_draws_points, card_value, player_draws_points

    value = np.array([card_value(card) for card in DECK])  # DECK[i].index == i
    pdraw = np.zeros((10, 10), dtype=np.int64)
    bdraw = np.zeros((10, 10, 11), dtype=np.int64)
    for p in range(10):
        for b in range(10):
            pdraw[p, b] = player_draws_points(p, b)
            for t in range(11):
                bdraw[p, b, t] = banker_draws_points(p, b, None if t == 10 else t)
    return (value.astype(np.int64), pdraw, bdraw)


def baccarat_nets(game: Any, wager: str) -> tuple[list[int], int]:
    """The net of ``wager`` (``banker`` or ``player``) on ``game``'s table per result class,
    in 1/scale units, and scale: the game's own settlement of one coup of each class
    (:func:`croupier.analysis.baccarat.sheet.class_nets`, the vigorish at its exact rate)."""
    nets = class_nets(game, wager)  # the game's wager_pay on one coup of each class
    scale = lcm(*(n.denominator for n in nets))
    return [int(n * scale) for n in nets], scale


def baccarat_tables(game: Any, wager: str) -> tuple[Any, ...]:
    """The tables of :func:`baccarat_settle` for ``wager`` on ``game``'s table."""
    nets, _ = baccarat_nets(game, wager)
    return (*baccarat_args(), np.asarray(nets, dtype=np.int64))


def _bac_exact(game: Game, wager: str, progress: bool | None) -> tuple[Fraction, int]:
    from croupier.analysis import par_sheet

    return par_sheet(game).wagers[wager].expected, baccarat_nets(game, wager)[1]


def _bac_paytable(game: Game, wager: str) -> str:
    table: Any = game
    vig = table.vig
    rule = "no vigorish" if vig.type == "none" else f"{vig.type} vigorish {vig.rate}"
    return f"{wager} wager, {rule}" + (", EZ" if table.ez else "")


KERNEL = MonteCarloKernel(
    block=baccarat_block,
    tables=baccarat_tables,
    exact=_bac_exact,
    paytable=_bac_paytable,
    actions=BACCARAT_CLASSES,
    unit="wager",
    wagers=("banker", "player"),
    note="one wager, a fresh shoe every coup; the commission at the exact rate (the rounding to "
    "5 cents is left out); the mean is per unit wagered",
)
