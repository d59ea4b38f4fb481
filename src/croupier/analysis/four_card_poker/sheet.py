"""Four Card Poker par sheet: Ante/Play with the optimal strategy, Aces Up and the progressive.

``base`` comes from the exact solver (:mod:`croupier.analysis.four_card_poker.solver`: every player
hand and
up card against all 1,370,754 hidden dealer completions, in integers); Aces Up and the
progressive are exact over every five-card hand.
"""

from __future__ import annotations

from functools import cache

from croupier.analysis.four_card_poker.solver import FourCardSolution, solve_four_card_poker
from croupier.analysis.par import ParSheet, WagerSheet
from croupier.analysis.sidebets import wager_sheet
from croupier.games.four_card_poker import ANTE_BONUS, FourCardPoker, hand_keys
from croupier.games.paytables import PayTable
from croupier.hands import Ranking

__all__ = ["four_card_poker_strategy_text", "par_four_card_poker", "solved"]


@cache
def solved(scheduler: str | None = None, table: PayTable = ANTE_BONUS) -> FourCardSolution:
    """The exact solution under the Ante Bonus ``table`` (the game's,
    :attr:`~croupier.games.four_card_poker.FourCardPoker.ante_bonus_table`; default the one
    table of § 641a.12(b)) (cached; checkpointed on disk); ``scheduler``: a Dask scheduler
    address to spread the blocks over."""
    return solve_four_card_poker(table, scheduler=scheduler)


def four_card_poker_strategy_text(game: FourCardPoker) -> str:
    lines = [
        "Four Card Poker: optimal Ante/Play strategy by the dealer's up card (exact solver)",
        "  (the player's best four of five; the Play may be any amount from 1x to 3x the Ante,",
        "  § 641a.7(d)(1), but its value is linear in its size, so the best Play is always 1x",
        "  or 3x: 2x and every amount between are never better)",
    ]
    lines += [f"  {rule}" for rule in solved(None, game.ante_bonus_table).strategy.render()]
    return "\n".join(lines)


def par_four_card_poker(
    game: FourCardPoker, *, meter: int | None = None, scheduler: str | None = None
) -> ParSheet:
    """Aces Up under the chosen table and, where offered, the progressive at ``meter`` cents
    (default: the reset amount)."""
    wagers: dict[str, WagerSheet] = {}
    aces_up = game.paytable("aces_up")
    if aces_up is not None:
        # § 641a.12(c): the player's best four of five cards (§ 641a.6).
        wagers["aces_up"] = wager_sheet(
            "aces_up", aces_up, ranking=Ranking.FOUR_CARD, ncards=5, keys=hand_keys
        )
    prog = game.rules.progressive
    table = game.progressive_table
    if prog is not None and table is not None:
        wagers["progressive"] = wager_sheet(
            "progressive",
            table,
            ranking=Ranking.FOUR_CARD,
            ncards=5,
            keys=hand_keys,
            meter=meter if meter is not None else prog.reset,
            stake=prog.wager,
        )
    return ParSheet(
        game=game.slug,
        method="exact",
        base=solved(scheduler, game.ante_bonus_table).sheet,
        wagers=wagers,
    )
