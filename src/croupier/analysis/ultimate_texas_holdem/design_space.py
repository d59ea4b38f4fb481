"""Ultimate Texas Hold 'Em's base table for the pay-table designer
(:mod:`croupier.analysis.designer_base`): ``blind`` (§ 653a.12(b): paid on a winning hand;
every bet), each candidate re-solved exactly before it is priced.
"""

from __future__ import annotations

from croupier.analysis.designer import with_table
from croupier.analysis.designer_base import BaseTable, DesignSpace, words
from croupier.analysis.par import Outcome
from croupier.games import Game
from croupier.games.ultimate_texas_holdem import UltimateTexasHoldem

__all__ = ["DESIGN_SPACE"]


def _line(outcome: Outcome, hands: frozenset[str]) -> tuple[str, int] | None:
    # "<m>x win, <dealer>, blind <line words>": the one Blind paid by its line
    for hand in hands:
        if outcome.name.endswith(f", blind {words(hand)}"):
            return hand, 1
    return None


def base_table(game: Game) -> BaseTable | None:
    """The designable blind table of ``game`` (``None``: the game has none in force)."""
    blind = game.paytable("blind")
    if not isinstance(game, UltimateTexasHoldem) or blind is None:
        return None
    return BaseTable(
        game, "blind", blind, _line, lambda cand: with_table(game, cand.table("blind"))
    )


DESIGN_SPACE = DesignSpace(wager="blind", table=base_table)
