"""Mississippi Stud's base table for the pay-table designer
(:mod:`croupier.analysis.designer_base`): ``base`` (§ 655a.12(a): the Ante and the street
wagers; the street bets), each candidate re-solved exactly before it is priced.
"""

from __future__ import annotations

from croupier.analysis.designer import with_table
from croupier.analysis.designer_base import BaseTable, DesignSpace
from croupier.analysis.par import Outcome
from croupier.games import Game
from croupier.games.mississippi_stud import MississippiStud

__all__ = ["DESIGN_SPACE"]


def _line(outcome: Outcome, hands: frozenset[str]) -> tuple[str, int] | None:
    # "<line>" with the Ante and street bets wagered, each paid by the line
    return (outcome.name, int(outcome.wagered)) if outcome.name in hands else None


def base_table(game: Game) -> BaseTable | None:
    """The designable base table of ``game`` (``None``: the game has none in force)."""
    if not isinstance(game, MississippiStud):
        return None
    table = game.base_table
    return BaseTable(
        game, "base", table, _line, lambda cand: with_table(game, cand.table(table.wager))
    )


DESIGN_SPACE = DesignSpace(wager="base", table=base_table)
