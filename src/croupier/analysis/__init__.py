"""Exact analysis: hand counts, par sheets, strategy solvers and simulation.

:func:`par_sheet`, :func:`optimal_strategy` and :func:`strategy_text` read each game's entry in
:mod:`croupier.analysis.registry`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from croupier.analysis.par import CONVENTIONS, Outcome, ParSheet, WagerSheet
from croupier.core.errors import InvalidInput, shown_value
from croupier.games import Game, Round, verify_game
from croupier.games.records import Action

__all__ = [
    "CONVENTIONS",
    "Outcome",
    "ParSheet",
    "Strategy",
    "WagerSheet",
    "optimal_strategy",
    "par_sheet",
    "sanity_flags",
    "strategy_text",
]

Strategy = Callable[[Round, int], Action]
"""A decision rule: (round, seat) -> the action that seat takes now."""


def par_sheet(game: Game, *, wagers: Sequence[str] = (), scheduler: str | None = None) -> ParSheet:
    """The exact par sheet of ``game`` under its Rules Submission; ``wagers`` limits it to
    those wagers (``"base"`` for the game's required wagers); ``scheduler``: a Dask scheduler
    address for the block solvers of Four Card Poker and Ultimate Texas Hold 'Em."""
    from croupier.analysis.registry import analysis_for, registered

    game = verify_game(game)
    if (
        isinstance(wagers, str)
        or not isinstance(wagers, Sequence)
        or not all(type(w) is str for w in wagers)
    ):
        raise InvalidInput(
            f"wagers {shown_value(wagers)} are not a list of wager names (e.g. ['base'])"
        )
    entry = analysis_for(game)
    if scheduler is not None:
        if not entry.solved_by_blocks:
            blocks = sorted(s for s in registered() if analysis_for(s).solved_by_blocks)
            raise InvalidInput(
                f"--scheduler spreads the block solvers of {', '.join(blocks)}; "
                f"{game.slug} is solved in seconds on one machine"
            )
        sheet = entry.par(game, scheduler=scheduler)
    else:
        sheet = entry.par(game)
    if not wagers:
        return sheet
    known = {"base", *sheet.wagers}
    unknown = [w for w in wagers if w not in known]
    if unknown:
        raise InvalidInput(
            f"--wager {', '.join(unknown)} not in the {game.slug} sheet "
            f"(have: {', '.join(sorted(known))})"
        )
    return ParSheet(
        game=sheet.game,
        method=sheet.method,
        base=sheet.base if "base" in wagers else None,
        wagers={k: v for k, v in sheet.wagers.items() if k in wagers},
        rules=sheet.rules,
        notes=sheet.notes,
    )


def sanity_flags(game: Game) -> tuple[tuple[str, str], ...]:
    """The sanity flags of every wager ``game``'s Rules Submission offers, as (wager, flag):
    each priced exactly, a progressive at its meter's reset, and flagged where its house edge is
    negative (the exact return exceeds 100%) or above 50% (:attr:`WagerSheet.flags`).  What
    ``croupier rules check`` warns of; a warning, never a refusal."""
    sheet = par_sheet(game)
    return tuple((name, flag) for name, ws in sheet.sheets.items() for flag in ws.flags)


def optimal_strategy(game: Game) -> Strategy | None:
    """The optimal strategy of ``game`` as a decision rule, where an exact solver provides one
    (the same decisions its par sheet assumes); ``None`` for a game without decisions or
    without an analysis."""
    from croupier.analysis.registry import NoDecisions, analysis_for, registered

    game = verify_game(game)
    if game.slug not in registered():
        return None
    make = analysis_for(game).strategy
    return None if isinstance(make, NoDecisions) else make(game)


def strategy_text(game: Game) -> str:
    """The optimal strategy of ``game`` as a readable table, derived from its exact solver."""
    from croupier.analysis.registry import analysis_for

    game = verify_game(game)
    return analysis_for(game).strategy_text(game)
