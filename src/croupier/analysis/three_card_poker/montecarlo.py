"""Three Card Poker's fast Monte Carlo: the numba settle kernel (Ante/Play decided by the
exact solver's tables, the Ante Bonus as in force) and its record for
:mod:`croupier.analysis.montecarlo`.

A deal is 6 card indices (0 = 2c .. 51 = As): the player's three (0..2) and the dealer's three
(3..5); card sets are looked up by their colex rank (:func:`croupier.analysis.mc_kernels.colex`).
Nets are integers in units of ``1 / scale`` of the Ante.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from numba import njit

from croupier.analysis.mc_kernels import colex, make_block, make_settle_many
from croupier.analysis.montecarlo import base_expected
from croupier.analysis.registry import MonteCarloKernel
from croupier.analysis.three_card_poker.solver import kernel_tables
from croupier.games import Game, get_game
from croupier.games.three_card_poker import ThreeCardPoker

__all__ = ["KERNEL", "tcp_block", "tcp_settle", "tcp_settle_many", "three_card_args"]


@njit(inline="always", nogil=True)
def tcp_settle(deal: Any, tcp: Any, work: Any) -> tuple[int, int]:  # pragma: no cover
    """(net in 1/scale Ante, 1 played or 0 folded) of one Three Card Poker deal;
    ``tcp = (value, played, bonus, qualifies, scale, binom, nets)`` by three-card colex rank,
    tabulated from the game's rules
    (:func:`croupier.analysis.three_card_poker.solver.kernel_tables`).

    A fold nets ``nets[4]``; a played hand collects its Ante Bonus and, against a dealer who
    does not qualify, ``nets[0]``; otherwise the higher hand ``nets[1]``, a tie ``nets[2]``, the
    lower hand ``nets[3]``."""
    value, played, bonus, qualifies, _, binom, nets = tcp
    rp = colex(deal, 0, 3, work, binom)
    if played[rp] == 0:
        return nets[4], 0
    rd = colex(deal, 3, 3, work, binom)
    b = bonus[rp]
    if qualifies[rd] == 0:
        return nets[0] + b, 1
    vp = value[rp]
    vd = value[rd]
    if vp > vd:
        return nets[1] + b, 1
    if vp == vd:
        return nets[2] + b, 1
    return nets[3] + b, 1


tcp_block = make_block(tcp_settle, 6, "tcp_block")
tcp_settle_many = make_settle_many(tcp_settle, 6, "tcp_settle_many")


@cache
def three_card_args() -> tuple[Any, ...]:
    """The kernel's tables for the default Three Card Poker game, tabulated from the game's
    settlement functions (:func:`croupier.analysis.three_card_poker.solver.kernel_tables`)."""
    return kernel_tables(get_game(ThreeCardPoker.slug).paytable("ante_bonus"))


def _tcp_paytable(game: Game, wager: str) -> str:
    table = game.paytable("ante_bonus")
    assert table is not None
    return f"ante bonus {table.letter} § 649a.12(b)"


KERNEL = MonteCarloKernel(
    block=tcp_block,
    tables=lambda game, wager: three_card_args(),
    exact=lambda game, wager, progress: (base_expected(game), int(three_card_args()[4])),
    paytable=_tcp_paytable,
    actions=("fold", "play"),
    note="one player, Ante/Play only, a fresh 52-card deck every round; the mean counts Ante, "
    "Play and Ante Bonus results per unit Ante",
)
