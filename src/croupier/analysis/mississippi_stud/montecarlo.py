"""Mississippi Stud's fast Monte Carlo: the numba settle kernel (the three street bets by the
exact solve's card-set tables) and its record for :mod:`croupier.analysis.montecarlo`.

A deal is 5 card indices: the player's two (0, 1), community cards 1..3 (2..4); card sets are
looked up by their colex rank (:func:`croupier.analysis.mc_kernels.colex`).  Nets are in units
of the Ante.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from numba import njit

from croupier.analysis.mc_kernels import colex, make_block, make_settle_many
from croupier.analysis.mississippi_stud.sheet import kernel_tables
from croupier.analysis.montecarlo import base_expected
from croupier.analysis.registry import MonteCarloKernel
from croupier.analysis.stud_counts import BINOM, choose5
from croupier.games import Game
from croupier.games.mississippi_stud import MississippiStud
from croupier.games.paytables import PayTable

__all__ = ["KERNEL", "mississippi_args", "ms_block", "ms_settle", "ms_settle_many"]


@njit(inline="always", nogil=True)
def ms_settle(deal: Any, ms: Any, work: Any) -> tuple[int, int]:  # pragma: no cover
    """(net in units of the Ante, the street folded on: 0 3rd, 1 4th, 2 5th, 3 played to the
    end) of one Mississippi Stud deal; ``ms = (line_of, mult, sums, k3, k4, binom)``.

    3rd Street bet ``k3`` of the two cards, 4th ``k4`` of the three known cards and the units
    wagered, 5th :func:`~croupier.analysis.stud_counts.choose5` of ``sums`` of the four; a fold
    loses
    every unit wagered; at the end every unit is paid by the five cards' line (the push line
    pays 0)."""
    line_of, mult, sums, k3, k4, binom = ms
    k = k3[colex(deal, 0, 2, work, binom)]
    if k == 0:
        return -1, 0
    units = 1 + k
    k = k4[colex(deal, 0, 3, work, binom), units]
    if k == 0:
        return -units, 1
    units += k
    k = choose5(sums[colex(deal, 0, 4, work, binom)], units)
    if k == 0:
        return -units, 2
    units += k
    return units * mult[line_of[colex(deal, 0, 5, work, binom)]], 3


ms_block = make_block(ms_settle, 5, "ms_block")
ms_settle_many = make_settle_many(ms_settle, 5, "ms_settle_many")


@cache
def mississippi_args(table: PayTable | None = None) -> tuple[Any, ...]:
    """The kernel's tables for Mississippi Stud under the base ``table`` (default: the one in
    force, :attr:`~croupier.games.mississippi_stud.MississippiStud.base_table`): the lines
    tabulated from the game's ``base_pay`` and the solver's bets
    (:func:`.mississippi_stud.kernel_tables`)."""
    return (*kernel_tables(table or MississippiStud().base_table), BINOM)


def _ms_table(game: Game) -> PayTable:
    assert isinstance(game, MississippiStud)
    return game.base_table


def _ms_paytable(game: Game, wager: str) -> str:
    table = _ms_table(game)
    return f"pay table {table.letter or ''} {table.section}".replace("  ", " ")


KERNEL = MonteCarloKernel(
    block=ms_block,
    tables=lambda game, wager: mississippi_args(_ms_table(game)),
    exact=lambda game, wager, progress: (base_expected(game), 1),
    paytable=_ms_paytable,
    actions=("fold 3rd street", "fold 4th street", "fold 5th street", "showdown"),
    note="one player, Ante and street bets only, a fresh 52-card deck every round; the mean is "
    "per unit Ante",
)
