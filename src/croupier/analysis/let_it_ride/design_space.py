"""Let It Ride's base table for the pay-table designer (:mod:`croupier.analysis.designer_base`):
``base`` (§ 643a.12: the three bets paid by one table; take back Bet 1, Bet 2), each candidate
priced as a Rules Submission (``[custom_paytables.base]``) and re-solved exactly.
"""

from __future__ import annotations

from croupier.analysis.designer_base import BaseTable, DesignSpace, base_rules
from croupier.analysis.par import Outcome
from croupier.games import Game, get_game
from croupier.games.let_it_ride import LetItRide

__all__ = ["DESIGN_SPACE"]


def _line(outcome: Outcome, hands: frozenset[str]) -> tuple[str, int] | None:
    line = outcome.name.split(", ")[0]  # "<line>, <n> bets riding": each bet paid by the line
    return (line, int(outcome.wagered)) if line in hands else None


def base_table(game: Game) -> BaseTable | None:
    """The designable base table of ``game`` (``None``: the game has none in force)."""
    if not isinstance(game, LetItRide):
        return None
    return BaseTable(
        game,
        "base",
        game.base_table,
        _line,
        lambda cand: get_game(base_rules(game, "base", cand)),
    )


DESIGN_SPACE = DesignSpace(wager="base", table=base_table)
