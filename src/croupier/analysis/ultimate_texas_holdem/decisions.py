"""Ultimate Texas Hold 'Em's optimal decisions as tables, built once from the exact solver,
and the fast strategy made of them.

:func:`uth_tables`: the preflop action of the 169 starting hands, and the flop decision (bet 2x
or check) of every holding on each of the 1,755 flop classes
(:func:`croupier.analysis.ultimate_texas_holdem.solver.uth_decisions`); another flop is read
through the suit renaming that carries it to its class's member, applied to the hole cards too.
The river decision (play 1x or fold) is computed when asked, from the exact counts of the 990
dealer holdings (:mod:`croupier.analysis.mc_kernels`), with the solver's rule.
:func:`uth_strategy` turns them into a :data:`croupier.analysis.Strategy` for the round engine;
:mod:`croupier.analysis.montecarlo` uses the same tables inside its kernel.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.analysis import Strategy, decided
from croupier.analysis.block_solver import dense_tables
from croupier.analysis.decisions import I8, I64, Cards, indices, memo
from croupier.analysis.ultimate_texas_holdem import solver as uth_solver
from croupier.analysis.ultimate_texas_holdem.kernels import PAIR_INDEX, PERMS
from croupier.analysis.ultimate_texas_holdem.mc_kernels import (
    river_counts_one,
    river_play,
    uth_decide,
)
from croupier.analysis.ultimate_texas_holdem.settle import settle_tables
from croupier.core.errors import InvalidInput
from croupier.games import Game, Round
from croupier.games.paytables import PayTable
from croupier.games.pov import layout_cards, seat_cards
from croupier.games.records import Action
from croupier.games.ultimate_texas_holdem import (
    Street,
    UltimateTexasHoldem,
    UltimateTexasHoldemRound,
)
from croupier.hands import Ranking
from croupier.kernels import comb_rank_batch, comb_unrank_batch

__all__ = ["UthTables", "blind_table", "uth_strategy", "uth_tables"]


def _flop_maps(reps: npt.NDArray[np.uint8]) -> tuple[I64, I64]:
    """For each flop (colex rank of its three cards): its class (row of ``reps``) and a suit
    renaming (row of :data:`PERMS`) that carries it onto that class's member."""
    flops = comb_unrank_batch(np.arange(comb(52, 3)), 3).astype(np.int64)
    member = np.full(comb(52, 3), -1, dtype=np.int64)
    member[comb_rank_batch(reps)] = np.arange(len(reps))
    cls = np.full(len(flops), -1, dtype=np.int64)
    perm = np.full(len(flops), -1, dtype=np.int64)
    for g in range(len(PERMS)):
        image = 4 * (flops >> 2) + PERMS[g][flops & 3]
        found = member[comb_rank_batch(image)]
        new = (cls < 0) & (found >= 0)
        cls[new] = found[new]
        perm[new] = g
    if (cls < 0).any():  # pragma: no cover - canonical_hands covers every class
        raise AssertionError("a flop belongs to no class")
    return cls, perm


@cache
def _static_uth() -> tuple[I64, I64]:
    """The starting-hand class of each pair index, and the 24 suit renamings as card maps."""
    hclass, _ = uth_solver.holding_classes()
    cards = np.arange(52)
    card_perm = np.array([4 * (cards >> 2) + PERMS[g][cards & 3] for g in range(24)])
    return hclass.astype(np.int64), card_perm.astype(np.int64)


@dataclass(frozen=True, slots=True, eq=False)
class UthTables:
    """The optimal Ultimate Texas Hold 'Em decisions under one Blind table."""

    blind: PayTable
    preflop: I8
    """(169,): the Play multiple before the flop (0 check, 3 or 4) by starting-hand class (the
    classes of :func:`croupier.analysis.ultimate_texas_holdem.solver.starting_hand`, ``hi * 13 +
    lo`` suited or
    paired, ``lo * 13 + hi`` offsuit, ranks 0 = deuce)."""
    reps: npt.NDArray[np.uint8]
    """(1755, 3): the member of each flop class."""
    flop: I8
    """(1755, 1326): 1 bet 2x, 0 check, -1 (touches the flop), by class and pair index."""
    flop_class: I64
    flop_perm: I64
    expected: Fraction
    """The exact mean net per unit Ante under these decisions, from the same solve."""

    @property
    def ev(self) -> tuple[Any, ...]:
        """The ranker's tables as the kernels take them (dense ``poker5`` strengths)."""
        return dense_tables(Ranking.POKER5).args()

    @property
    def kernel_args(self) -> tuple[Any, ...]:
        """The kernels' game tables
        (:func:`croupier.analysis.ultimate_texas_holdem.mc_kernels.uth_decide`), the
        settlement tabulated from the game
        (:func:`croupier.analysis.ultimate_texas_holdem.settle.settle_tables`)."""
        p = settle_tables(self.blind)
        hclass, card_perm = _static_uth()
        return (
            p.q0, p.bclass, p.type_net, p.scale, PAIR_INDEX, hclass, self.preflop, self.flop,
            self.flop_class, self.flop_perm, card_perm, p.fold,
        )  # fmt: skip

    def preflop_multiple(self, hole: Cards) -> int:
        """3 or 4 to play before the flop, 0 to check."""
        a, b = indices(hole, 2, "two hole cards")
        hclass, _ = _static_uth()
        return int(self.preflop[hclass[PAIR_INDEX[a, b]]])

    def flop_bet(self, hole: Cards, flop: Cards) -> bool:
        """Whether to bet 2x after ``flop`` (having checked before it)."""
        a, b, *f = indices([*hole, *flop], 5, "two hole cards and a three-card flop")
        # the flop's colex rank, as comb_rank_batch gives it (the cards are distinct, checked above)
        row = sum(comb(c, i) for i, c in enumerate(sorted(f), 1))
        _, card_perm = _static_uth()
        g = card_perm[self.flop_perm[row]]
        return bool(self.flop[self.flop_class[row], PAIR_INDEX[g[a], g[b]]] > 0)

    def river_play(self, hole: Cards, board: Cards) -> bool:
        """Whether to play 1x on the full ``board`` (having checked twice), else fold."""
        return self.river_play_on(hole, board, self.ev, self.kernel_args)

    def river_play_on(
        self, hole: Cards, board: Cards, ev: tuple[Any, ...], kernel_args: tuple[Any, ...]
    ) -> bool:
        """:meth:`river_play` on :attr:`ev` and :attr:`kernel_args` found before (a strategy
        finds them once: each is a memo keyed by a table, hashed field by field each time)."""
        a, b, *rest = indices([*hole, *board], 7, "two hole cards and a five-card board")
        return bool(river_play(a, b, np.array(rest, dtype=np.int64), ev, kernel_args))

    def river_counts(self, hole: Cards, board: Cards) -> tuple[int, int, int, int, int]:
        """(Wq, Wn, T, Lq, Ln) of the 990 dealer holdings, counted as the river decision does."""
        a, b, *rest = indices([*hole, *board], 7, "two hole cards and a five-card board")
        out = np.zeros(6, dtype=np.int64)
        q0 = self.kernel_args[0]
        river_counts_one(a, b, np.array(rest, dtype=np.int64), self.ev, q0, out)
        return int(out[1]), int(out[2]), int(out[3]), int(out[4]), int(out[5])

    def multiple(self, deal: Cards) -> int:
        """The Play multiple (0: fold) of a whole deal of nine cards (hole, dealer, flop, turn,
        river), as the Monte Carlo kernel decides it."""
        cards = indices(deal, 9, "a Hold 'Em deal")
        return int(uth_decide(np.array(cards, dtype=np.int64), self.ev, self.kernel_args))


def blind_table(game: Game) -> PayTable:
    """The Blind pay table of a Hold 'Em game."""
    table = game.paytable("blind")
    if table is None:
        raise InvalidInput(f"{game.slug} has no Blind pay table")
    return table


def uth_tables(blind: PayTable | None = None, *, progress: bool | None = None) -> UthTables:
    """The Hold 'Em decision tables under Blind table ``blind`` (default A): loaded from the
    cache folder, or solved (and saved; ``progress`` as :func:`four_card_tables`)."""
    table = settle_tables(blind).table
    return memo((UthTables, table), lambda: _uth_tables(table, progress))


def _uth_tables(blind: PayTable, progress: bool | None) -> UthTables:
    # the solver's own checkpointed solve: after a par sheet, only its saved blocks are read
    solution, reps, flop = uth_solver.uth_decisions(blind, progress=progress)
    _, names = uth_solver.holding_classes()
    multiple = {"check": 0, "3x": 3, "4x": 4}
    preflop = np.zeros(169, dtype=np.int8)
    for d in solution.strategy.preflop:
        preflop[names.index(d.hand)] = multiple[d.action]
    expected = solution.sheet.expected
    flop_class, flop_perm = _flop_maps(reps)
    return UthTables(
        blind=blind,
        preflop=preflop,
        reps=reps,
        flop=flop,
        flop_class=flop_class,
        flop_perm=flop_perm,
        expected=expected,
    )


def uth_strategy(game: Game) -> Strategy:
    """The optimal Ante/Blind/Play decisions as a :data:`~croupier.analysis.Strategy`, under the
    game's Blind table: 4x/3x or check before the flop, 2x or check on the flop, 1x or fold on
    the river."""
    if not isinstance(game, UltimateTexasHoldem):
        raise InvalidInput(f"an Ultimate Texas Hold 'Em strategy, not one for {game.slug}")
    tables = uth_tables(blind_table(game))
    tables.preflop_multiple((0, 1))  # load the compiled lookups now, not at the first decision
    tables.flop_bet((0, 1), (2, 3, 4))
    tables.river_play((0, 1), (2, 3, 4, 5, 6))
    ev, kernel_args = tables.ev, tables.kernel_args  # the river's tables, found once

    def decide(rnd: Round, seat: int) -> Action:
        if not isinstance(rnd, UltimateTexasHoldemRound):
            raise InvalidInput(f"an Ultimate Texas Hold 'Em strategy, not one for {rnd.game.slug}")
        hole = seat_cards(rnd, seat)
        board = layout_cards(rnd, "board")
        if rnd.street.name is Street.PREFLOP:
            multiple = tables.preflop_multiple(hole)
            return decided.play(seat, multiple) if multiple else decided.check(seat)
        if rnd.street.name is Street.FLOP:
            return decided.play(seat, 2) if tables.flop_bet(hole, board) else decided.check(seat)
        if tables.river_play_on(hole, board, ev, kernel_args):
            return decided.play(seat, 1)
        return decided.fold(seat)

    return decide
