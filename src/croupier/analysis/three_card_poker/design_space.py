"""Three Card Poker's base table for the pay-table designer
(:mod:`croupier.analysis.designer_base`): ``ante_bonus`` (§ 649a.12(b): paid on a played hand,
so folding forfeits it), each candidate re-solved exactly before it is priced.
"""

from __future__ import annotations

from croupier.analysis.designer import with_table
from croupier.analysis.designer_base import BaseTable, DesignSpace
from croupier.analysis.par import Outcome
from croupier.games import Game
from croupier.games.three_card_poker import ThreeCardPoker

__all__ = ["DESIGN_SPACE"]


def _line(outcome: Outcome, hands: frozenset[str]) -> tuple[str, int] | None:
    # "<result>, ante bonus <category>": the Ante Bonus on the one Ante of a played hand
    for hand in hands:
        if outcome.name.endswith(f", ante bonus {hand}"):
            return hand, 1
    return None


def base_table(game: Game) -> BaseTable | None:
    """The designable ante_bonus table of ``game`` (``None``: the game has none in force)."""
    bonus = game.paytable("ante_bonus")
    if not isinstance(game, ThreeCardPoker) or bonus is None:
        return None
    return BaseTable(
        game, "ante_bonus", bonus, _line, lambda cand: with_table(game, cand.table("ante_bonus"))
    )


DESIGN_SPACE = DesignSpace(wager="ante_bonus", table=base_table)
