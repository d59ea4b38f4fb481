"""Four Card Poker's optimal decisions as a table, built once from the exact solver, and the
fast strategy made of it.

:func:`four_card_tables`: the action (fold, 1x, 3x; 2x is never better) of every player hand
against every up card.  The solver walks the hands against an up card in clubs, one per renaming
of the other three suits; its decision is kept for the hand and every renaming
(:func:`croupier.analysis.four_card_poker.solver.four_card_decisions`), giving a table of 13 up
ranks x C(52, 5) hands (int8, 34 MB).  A hand against an up card of another suit is read after
swapping that suit with clubs.  :func:`four_card_poker_strategy` turns it into a
:data:`croupier.analysis.Strategy` for the round engine; :mod:`croupier.analysis.montecarlo`
uses the same table inside its kernel.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from croupier.analysis import Strategy, decided
from croupier.analysis.block_solver import dense_tables
from croupier.analysis.decisions import I8, I64, Cards, indices, memo
from croupier.analysis.four_card_poker import solver as fcp_solver
from croupier.analysis.four_card_poker.mc_kernels import fcp_action
from croupier.core.cards import Card
from croupier.core.errors import InvalidInput
from croupier.games import Game, Round
from croupier.games.four_card_poker import FourCardPoker
from croupier.games.pov import seat_cards
from croupier.games.records import DEALER, Action
from croupier.hands import Ranking

__all__ = ["FourCardTables", "four_card_poker_strategy", "four_card_tables"]


@dataclass(frozen=True, slots=True, eq=False)
class FourCardTables:
    """The optimal Four Card Poker decisions (§ 641a.12(b) Ante Bonus)."""

    table: I8
    """(13, C(52, 5)): the action index (0 fold, 1 play 1x, 3 play 3x) of the hand of colex
    rank ``j`` against the up card of rank ``r + 2`` in clubs at ``[r, j]``; -1 where the hand
    holds that card."""
    expected: Fraction
    """The exact mean net per unit Ante under these decisions, from the same solve."""

    @property
    def ev(self) -> tuple[Any, ...]:
        """The ranker's tables as the kernels take them (dense ``four-card`` strengths)."""
        return dense_tables(Ranking.FOUR_CARD).args()

    @property
    def kernel_args(self) -> tuple[I8, I64, I64]:
        """``(table, bonus, stakes)``: the kernels' game tables, the settlement tabulated from
        the game's rules (:func:`croupier.analysis.four_card_poker.solver.ante_play_tables`)."""
        tabs = fcp_solver.ante_play_tables()
        return self.table, tabs.bonus, tabs.stakes

    @property
    def scale(self) -> int:
        """The kernels' nets are in units of ``1 / scale`` Ante."""
        return fcp_solver.ante_play_tables().scale

    def action(self, hand: Cards, up: Card | int) -> int:
        """The Play multiple (0: fold) of five cards against the dealer's up card."""
        cards = indices(hand, 5, "a Four Card Poker hand")
        u = up.index if isinstance(up, Card) else int(up)
        if not 0 <= u < 52 or u in cards:
            raise InvalidInput(f"the up card {up!r} must be a card not in the hand")
        return int(fcp_action(np.array(cards, dtype=np.int64), u, self.table))


def four_card_tables(*, progress: bool | None = None) -> FourCardTables:
    """The Four Card Poker decision table: loaded from the cache folder, or solved (and saved;
    ``progress``: False silences the progress reports of :mod:`croupier.core.progress`)."""
    return memo((FourCardTables, "base"), lambda: _four_card_tables(progress))


def _four_card_tables(progress: bool | None) -> FourCardTables:
    # the solver's own checkpointed solve: after a par sheet, only its saved blocks are read
    solution, table = fcp_solver.four_card_decisions(progress=progress)
    return FourCardTables(table=table, expected=solution.sheet.expected)


def four_card_poker_strategy(game: Game) -> Strategy:
    """The optimal Ante/Play decisions as a :data:`~croupier.analysis.Strategy`: the table's
    action for the seat's five cards against the dealer's face-up card."""
    if not isinstance(game, FourCardPoker):
        raise InvalidInput(f"a Four Card Poker strategy, not one for {game.slug}")
    tables = four_card_tables()
    tables.action(range(5), 51)  # load the compiled lookup now, not at the first decision

    def decide(rnd: Round, seat: int) -> Action:
        up = rnd.visible_cards()[DEALER][0]
        multiple = tables.action(seat_cards(rnd, seat), up)
        return decided.play(seat, multiple) if multiple else decided.fold(seat)

    return decide
