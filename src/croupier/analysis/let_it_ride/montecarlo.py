"""Let It Ride's fast Monte Carlo: the numba settle kernel (the two ride decisions by the
exact solve's card-set tables) and its record for :mod:`croupier.analysis.montecarlo`.

A deal is 5 card indices: the player's three (0..2), community cards 1 (3) and 2 (4); card sets
are looked up by their colex rank (:func:`croupier.analysis.mc_kernels.colex`).  Nets are in
units of one of the three bets.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from numba import njit

from croupier.analysis.let_it_ride.sheet import kernel_tables
from croupier.analysis.mc_kernels import colex, make_block, make_settle_many
from croupier.analysis.montecarlo import base_expected
from croupier.analysis.registry import MonteCarloKernel
from croupier.analysis.stud_counts import BINOM
from croupier.games import Game, get_game
from croupier.games.let_it_ride import LetItRide

__all__ = ["KERNEL", "let_it_ride_args", "lir_block", "lir_settle", "lir_settle_many"]


@njit(inline="always", nogil=True)
def lir_settle(deal: Any, lir: Any, work: Any) -> tuple[int, int]:  # pragma: no cover
    """(net in units of one bet, bets riding - 1) of one Let It Ride deal;
    ``lir = (line_of, nets, sums, ride1, binom)``.

    Bet 1 rides when ``ride1`` of the three cards says so, Bet 2 when ``sums`` of the three and
    the first community card is positive; Bet 3 always rides; the bets in action are paid by the
    pay line of the five cards: ``nets[line_of[rank], bets riding - 1]``, tabulated from the
    game's rules (:func:`croupier.analysis.let_it_ride.sheet.kernel_tables`)."""
    line_of, nets, sums, ride1, binom = lir
    riding = ride1[colex(deal, 0, 3, work, binom)]
    if sums[colex(deal, 0, 4, work, binom)] > 0:
        riding += 1
    return nets[line_of[colex(deal, 0, 5, work, binom)], riding], riding


lir_block = make_block(lir_settle, 5, "lir_block")
lir_settle_many = make_settle_many(lir_settle, 5, "lir_settle_many")


@njit(cache=True, nogil=True)
def _ride1_table(sums: Any, binom: Any) -> Any:  # pragma: no cover - compiled
    """Bet 1's decision per three-card colex rank: the sum of ``sums`` over the 49 fourth
    cards is positive."""
    out = np.zeros(binom[52, 3], dtype=np.int64)
    hand = np.empty(4, np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                total = 0
                for d in range(52):
                    if d in (a, b, c):
                        continue
                    hand[0], hand[1], hand[2], hand[3] = a, b, c, d
                    hand.sort()
                    r = 0
                    for i in range(4):
                        r += binom[hand[i], i + 1]
                    total += sums[r]
                out[binom[a, 1] + binom[b, 2] + binom[c, 3]] = 1 if total > 0 else 0
    return out


@cache
def let_it_ride_args() -> tuple[Any, ...]:
    """The kernel's tables for the default Let It Ride game, from its exact solve and the
    game's settlement (:func:`croupier.analysis.let_it_ride.sheet.kernel_tables`)."""
    game = get_game(LetItRide.slug)
    assert isinstance(game, LetItRide)
    line_of, nets, sums = kernel_tables(game.base_table)
    return (line_of, nets, sums, _ride1_table(sums, BINOM), BINOM)


def _lir_paytable(game: Game, wager: str) -> str:
    table: Any = game
    return f"pay table {table.base_table.letter} § 643a.12"


KERNEL = MonteCarloKernel(
    block=lir_block,
    tables=lambda game, wager: let_it_ride_args(),
    exact=lambda game, wager, progress: (base_expected(game), 1),
    paytable=_lir_paytable,
    actions=("1 bet riding", "2 bets riding", "3 bets riding"),
    unit="one bet",
    note="one player, the three bets only, a fresh 52-card deck every round; the mean is per "
    "unit of one bet; the payout limit is left out",
)
