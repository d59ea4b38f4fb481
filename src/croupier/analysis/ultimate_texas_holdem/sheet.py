"""Ultimate Texas Hold 'Em par sheet: Trips over every seven-card hand, the progressive over
every five-card hand.

Trips is paid on the player's best five of seven cards (the two hole cards and the five
community cards, § 569.1 "Hand"), every seven-card set equally likely: the exhaustive category
counts of all 133,784,560 sets give it exactly.  The progressive is paid on the player's two
cards and the three-card flop (§ 569.12(f)(1) as read in
:mod:`croupier.games.ultimate_texas_holdem`, with its sources), every five-card set equally
likely: the 2,598,960 five-card hands.  The base game (Ante, Blind and Play with the optimal
strategy) comes from the exact solver (:mod:`croupier.analysis.ultimate_texas_holdem.solver`) under
the Blind
table the Rules Submission names.
"""

from __future__ import annotations

import dataclasses
from functools import cache

from croupier.analysis.par import ParSheet, WagerSheet
from croupier.analysis.sidebets import category_keys, wager_sheet
from croupier.analysis.ultimate_texas_holdem.solver import UthSolution, solve_ultimate_texas_holdem
from croupier.core.cards import DECK
from croupier.games.base import Game
from croupier.games.paytables import PayTable
from croupier.games.ultimate_texas_holdem import progressive_cards
from croupier.hands import Ranking

__all__ = ["par_ultimate_texas_holdem", "solved"]


def _blind(game: Game) -> PayTable:
    table = game.paytable("blind")
    assert table is not None
    return table


@cache
def _solve(blind: PayTable, scheduler: str | None = None) -> UthSolution:
    return solve_ultimate_texas_holdem(blind, scheduler=scheduler)


def solved(game: Game, scheduler: str | None = None) -> UthSolution:
    """The exact solution under the game's Blind table (cached; checkpointed on disk)."""
    return _solve(_blind(game), scheduler)


def par_ultimate_texas_holdem(
    game: Game, *, meter: int | None = None, scheduler: str | None = None
) -> ParSheet:
    wagers: dict[str, WagerSheet] = {}
    trips = game.paytable("trips")
    if trips is not None:
        wagers["trips"] = wager_sheet(
            "trips", trips, ranking=Ranking.POKER5, ncards=7, keys=category_keys
        )
    prog = game.rules.progressive
    table = game.progressive_table
    if prog is not None and table is not None:
        # § 569.12(f)(1): the two cards and the flop, a uniformly random five-card set
        # (progressive_cards, the game's reading of the section)
        sheet = wager_sheet(
            "progressive",
            table,
            ranking=Ranking.POKER5,
            ncards=len(progressive_cards(DECK[:2], DECK[2:7])),
            keys=category_keys,
            meter=meter if meter is not None else prog.reset,
            stake=prog.wager,
        )
        wagers["progressive"] = dataclasses.replace(sheet, notes=(*sheet.notes, _READING))
    return ParSheet(
        game=game.slug,
        method="exact",
        base=solved(game, scheduler).sheet,
        wagers=wagers,
    )


_READING = (
    "the progressive is paid on the player's two cards and the three-card flop: § 569.12(f)(1) "
    "does not say which cards form the hand; the game as played, and PA's same table for "
    "Mississippi Stud (§ 571.12(d)), use five (sources in croupier.games.ultimate_texas_holdem)"
)
