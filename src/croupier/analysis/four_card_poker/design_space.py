"""Four Card Poker's base table for the pay-table designer
(:mod:`croupier.analysis.designer_base`): ``ante_bonus`` (§ 641a.12(b): paid on a played hand,
so folding forfeits it), each candidate re-solved exactly before it is priced.
"""

from __future__ import annotations

from croupier.analysis.designer import with_table
from croupier.analysis.designer_base import BaseTable, DesignSpace
from croupier.analysis.four_card_poker.solver import BONUS_LABELS
from croupier.analysis.par import Outcome
from croupier.games import Game
from croupier.games.four_card_poker import FourCardPoker

__all__ = ["DESIGN_SPACE"]


def _line(outcome: Outcome, hands: frozenset[str]) -> tuple[str, int] | None:
    # "<m>x <result>, <label> bonus": the Ante Bonus on the one Ante (the solver's labels)
    for hand in hands:
        label = BONUS_LABELS.get(hand)
        if label is not None and outcome.name.endswith(f", {label} bonus"):
            return hand, 1
    return None


def base_table(game: Game) -> BaseTable | None:
    """The designable ante_bonus table of ``game`` (``None``: the game has none in force)."""
    if not isinstance(game, FourCardPoker):
        return None
    table = game.ante_bonus_table
    return BaseTable(
        game, "ante_bonus", table, _line, lambda cand: with_table(game, cand.table("ante_bonus"))
    )


DESIGN_SPACE = DesignSpace(wager="ante_bonus", table=base_table)
