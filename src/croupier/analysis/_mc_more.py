"""Numba kernels of the fast Monte Carlo for Three Card Poker, Let It Ride, Mississippi Stud and
the baccarat family: deal random rounds, decide by the exact solvers' tables, settle.

Cards are dense indices (0 = 2c .. 51 = As); a baccarat shoe of ``d`` decks holds the indices
``0 .. 52d - 1``, card ``i`` being ``i % 52``.  A deal is an array of card indices:

* Three Card Poker, 6 cards: the player's three (0..2) and the dealer's three (3..5);
* Let It Ride, 5 cards: the player's three (0..2), community cards 1 (3) and 2 (4);
* Mississippi Stud, 5 cards: the player's two (0, 1), community cards 1..3 (2..4);
* baccarat, up to 6 cards in the order the shoe gives them: Player, Banker, Player, Banker,
  then the third cards (the Player's first when it draws).

Card sets are looked up by their colex rank (``sum C(card_i, i + 1)`` over the sorted cards,
the ranks of :mod:`croupier.analysis.stud_counts`).  Each game's tables come as one tuple (built by
:func:`three_card_args`, :func:`let_it_ride_args`, :func:`mississippi_args`,
:func:`baccarat_args`, cached per process).  Nets are integers in units of ``1 / scale`` of the
unit wager (Three Card Poker: the Ante; Let It Ride: one of the three bets; Mississippi Stud:
the Ante; baccarat: the wager), and the baccarat kernel's actions are the coups' result
classes (:data:`BACCARAT_CLASSES`).  Every block and batch kernel comes from the one factory
of :mod:`croupier.analysis.mc_kernels` (:func:`~croupier.analysis.mc_kernels.make_block`).

Randomness: as in :mod:`croupier.analysis.mc_kernels`, each block calls ``np.random.seed`` with
its own 32-bit seed first, then deals by the one partial Fisher-Yates
:func:`~croupier.analysis.mc_kernels.shuffle`; the deck (or shoe) stays a permutation of its
cards, so every round is dealt from a freshly shuffled full deck or shoe.
"""

from __future__ import annotations

from functools import cache
from math import lcm
from typing import Any

import numpy as np
from numba import njit

from croupier.analysis.mc_kernels import (
    NSTATS,
    make_block,
    make_block_by_action,
    make_settle_many,
)
from croupier.analysis.stud_counts import BINOM, choose5
from croupier.games.paytables import PayTable

__all__ = [
    "BACCARAT_CLASSES",
    "NSTATS",
    "baccarat_args",
    "baccarat_block",
    "baccarat_classify_many",
    "baccarat_nets",
    "baccarat_settle",
    "baccarat_tables",
    "let_it_ride_args",
    "lir_block",
    "lir_settle_many",
    "mississippi_args",
    "ms_block",
    "ms_settle_many",
    "tcp_block",
    "tcp_settle_many",
    "three_card_args",
]

BACCARAT_CLASSES = ("banker", "dragon 7", "player", "tie")
"""The baccarat kernel's result classes: the Banker's Hand wins (not a Dragon 7), the Banker's
Hand wins with a Dragon 7 (a three-card 7 against a Player's 6 or less), the Player's Hand
wins, a tie."""


@njit(inline="always", nogil=True)
def _colex(deal: Any, first: int, count: int, work: Any, binom: Any) -> int:  # pragma: no cover
    """Colex rank of the set ``deal[first:first + count]`` (sorted in ``work``)."""
    hand = work[:count]
    for i in range(count):
        hand[i] = deal[first + i]
    hand.sort()
    r = 0
    for i in range(count):
        r += binom[hand[i], i + 1]
    return r


# --------------------------------------------------------------------------------------------
# Three Card Poker


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
    rp = _colex(deal, 0, 3, work, binom)
    if played[rp] == 0:
        return nets[4], 0
    rd = _colex(deal, 3, 3, work, binom)
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
    from croupier.analysis.three_card_poker.solver import kernel_tables
    from croupier.games import get_game

    return kernel_tables(get_game("three-card-poker").paytable("ante_bonus"))


# --------------------------------------------------------------------------------------------
# Let It Ride


@njit(inline="always", nogil=True)
def lir_settle(deal: Any, lir: Any, work: Any) -> tuple[int, int]:  # pragma: no cover
    """(net in units of one bet, bets riding - 1) of one Let It Ride deal;
    ``lir = (line_of, nets, sums, ride1, binom)``.

    Bet 1 rides when ``ride1`` of the three cards says so, Bet 2 when ``sums`` of the three and
    the first community card is positive; Bet 3 always rides; the bets in action are paid by the
    pay line of the five cards: ``nets[line_of[rank], bets riding - 1]``, tabulated from the
    game's rules (:func:`croupier.analysis.let_it_ride.sheet.kernel_tables`)."""
    line_of, nets, sums, ride1, binom = lir
    riding = ride1[_colex(deal, 0, 3, work, binom)]
    if sums[_colex(deal, 0, 4, work, binom)] > 0:
        riding += 1
    return nets[line_of[_colex(deal, 0, 5, work, binom)], riding], riding


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
    from croupier.analysis.let_it_ride.sheet import kernel_tables
    from croupier.games import get_game
    from croupier.games.let_it_ride import LetItRide

    game = get_game("let-it-ride")
    assert isinstance(game, LetItRide)
    line_of, nets, sums = kernel_tables(game.base_table)
    return (line_of, nets, sums, _ride1_table(sums, BINOM), BINOM)


# --------------------------------------------------------------------------------------------
# Mississippi Stud


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
    k = k3[_colex(deal, 0, 2, work, binom)]
    if k == 0:
        return -1, 0
    units = 1 + k
    k = k4[_colex(deal, 0, 3, work, binom), units]
    if k == 0:
        return -units, 1
    units += k
    k = choose5(sums[_colex(deal, 0, 4, work, binom)], units)
    if k == 0:
        return -units, 2
    units += k
    return units * mult[line_of[_colex(deal, 0, 5, work, binom)]], 3


ms_block = make_block(ms_settle, 5, "ms_block")
ms_settle_many = make_settle_many(ms_settle, 5, "ms_settle_many")


@cache
def mississippi_args(table: PayTable | None = None) -> tuple[Any, ...]:
    """The kernel's tables for Mississippi Stud under the base ``table`` (default: the one in
    force, :attr:`~croupier.games.mississippi_stud.MississippiStud.base_table`): the lines
    tabulated from the game's ``base_pay`` and the solver's bets
    (:func:`.mississippi_stud.kernel_tables`)."""
    from croupier.analysis.mississippi_stud.sheet import kernel_tables
    from croupier.games.mississippi_stud import MississippiStud

    return (*kernel_tables(table or MississippiStud().base_table), BINOM)


# --------------------------------------------------------------------------------------------
# Baccarat


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
    from croupier.cards import DECK
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
    from croupier.analysis.baccarat.sheet import class_nets

    nets = class_nets(game, wager)  # the game's wager_pay on one coup of each class
    scale = lcm(*(n.denominator for n in nets))
    return [int(n * scale) for n in nets], scale


def baccarat_tables(game: Any, wager: str) -> tuple[Any, ...]:
    """The tables of :func:`baccarat_settle` for ``wager`` on ``game``'s table."""
    nets, _ = baccarat_nets(game, wager)
    return (*baccarat_args(), np.asarray(nets, dtype=np.int64))
