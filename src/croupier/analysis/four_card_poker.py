"""Four Card Poker par sheet: Aces Up and the progressive, exact over every five-card hand.

The Ante/Play optimal-strategy solver is its own piece of work (the player's best four of five
against the dealer's best four of six with one card up); until it lands, ``base`` is absent and
the sheet says so.
"""

from __future__ import annotations

from croupier.analysis.par import ParSheet, WagerSheet
from croupier.analysis.sidebets import wager_sheet
from croupier.games.four_card_poker import FourCardPoker, hand_keys
from croupier.hands import Ranking

__all__ = ["par_four_card_poker"]


def par_four_card_poker(game: FourCardPoker, *, meter: int | None = None) -> ParSheet:
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
        base=None,
        wagers=wagers,
        notes=("base (Ante/Play with optimal strategy): the exact solver is not built yet",),
    )
