"""Exact analysis: hand counts, par sheets, strategy solvers and simulation.

:func:`par_sheet` dispatches to each game's exact analyser.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from croupier.analysis.par import CONVENTIONS, Outcome, ParSheet, WagerSheet
from croupier.errors import InvalidInput
from croupier.games import Game, Round
from croupier.games.records import Action

__all__ = [
    "CONVENTIONS",
    "Outcome",
    "ParSheet",
    "Strategy",
    "WagerSheet",
    "optimal_strategy",
    "par_sheet",
    "strategy_text",
]

Analyser = Callable[[Game], ParSheet]
Strategy = Callable[[Round, int], Action]
"""A decision rule: (round, seat) -> the action that seat takes now."""


def _analysers() -> dict[str, Analyser]:
    from croupier.analysis.baccarat import par_baccarat
    from croupier.analysis.four_card_poker import par_four_card_poker
    from croupier.analysis.let_it_ride import par_let_it_ride
    from croupier.analysis.mississippi_stud import par_mississippi_stud
    from croupier.analysis.three_card_poker import par_three_card_poker
    from croupier.analysis.ultimate_texas_holdem import par_ultimate_texas_holdem

    found: dict[str, Analyser] = {
        "four-card-poker": par_four_card_poker,  # type: ignore[dict-item]
        "three-card-poker": par_three_card_poker,  # type: ignore[dict-item]
        "ultimate-texas-holdem": par_ultimate_texas_holdem,
        "mini-baccarat": par_baccarat,  # type: ignore[dict-item]
        "midi-baccarat": par_baccarat,  # type: ignore[dict-item]
        "ez-baccarat": par_baccarat,  # type: ignore[dict-item]
        "mississippi-stud": par_mississippi_stud,  # type: ignore[dict-item]
        "let-it-ride": par_let_it_ride,  # type: ignore[dict-item]
    }
    return found


SOLVED_BY_BLOCKS = frozenset({"four-card-poker", "ultimate-texas-holdem"})
"""Games whose exact sheet comes from a block solver that a Dask cluster can share."""


def par_sheet(game: Game, *, wagers: Sequence[str] = (), scheduler: str | None = None) -> ParSheet:
    """The exact par sheet of ``game`` under its Rules Submission; ``wagers`` limits it to
    those wagers (``"base"`` for the game's required wagers); ``scheduler``: a Dask scheduler
    address for the block solvers of Four Card Poker and Ultimate Texas Hold 'Em."""
    analysers = _analysers()
    analyse = analysers.get(game.slug)
    if analyse is None:
        raise InvalidInput(f"no exact analysis for {game.slug} yet (have: {', '.join(analysers)})")
    if scheduler is not None:
        if game.slug not in SOLVED_BY_BLOCKS:
            raise InvalidInput(
                f"--scheduler spreads the block solvers of {', '.join(sorted(SOLVED_BY_BLOCKS))}; "
                f"{game.slug} is solved in seconds on one machine"
            )
        sheet = analyse(game, scheduler=scheduler)  # type: ignore[call-arg]
    else:
        sheet = analyse(game)
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


def _strategies() -> dict[str, Callable[[Game], Strategy]]:
    from croupier.analysis.decisions import four_card_poker_strategy, uth_strategy
    from croupier.analysis.let_it_ride import let_it_ride_strategy
    from croupier.analysis.mississippi_stud import mississippi_stud_strategy
    from croupier.analysis.three_card_poker import three_card_strategy

    return {
        "three-card-poker": three_card_strategy,  # type: ignore[dict-item]
        "mississippi-stud": mississippi_stud_strategy,  # type: ignore[dict-item]
        "let-it-ride": let_it_ride_strategy,  # type: ignore[dict-item]
        "four-card-poker": four_card_poker_strategy,
        "ultimate-texas-holdem": uth_strategy,
    }


def optimal_strategy(game: Game) -> Strategy | None:
    """The optimal strategy of ``game`` as a decision rule, where an exact solver provides one
    (the same decisions its par sheet assumes); ``None`` otherwise."""
    make = _strategies().get(game.slug)
    return make(game) if make is not None else None


def _strategy_texts() -> dict[str, Callable[[Game], str]]:
    from croupier.analysis.four_card_poker import four_card_poker_strategy_text
    from croupier.analysis.let_it_ride import let_it_ride_strategy_text
    from croupier.analysis.stud_rules import mississippi_stud_text
    from croupier.analysis.three_card_poker import three_card_strategy_text
    from croupier.analysis.ultimate_texas_holdem import uth_strategy_text

    return {
        "three-card-poker": three_card_strategy_text,  # type: ignore[dict-item]
        "mississippi-stud": mississippi_stud_text,
        "let-it-ride": let_it_ride_strategy_text,  # type: ignore[dict-item]
        "four-card-poker": four_card_poker_strategy_text,  # type: ignore[dict-item]
        "ultimate-texas-holdem": uth_strategy_text,
    }


def strategy_text(game: Game) -> str:
    """The optimal strategy of ``game`` as a readable table, derived from its exact solver."""
    make = _strategy_texts().get(game.slug)
    if make is None and game.slug in ("mini-baccarat", "midi-baccarat", "ez-baccarat"):
        return (
            f"{game.title}: the player makes no decision after the wagers; the Player's and "
            "Banker's third cards follow the fixed rules of § 631a.11 and Table 1 "
            "(`croupier par` prices every wager)."
        )
    if make is None:
        known = ", ".join(sorted(_strategy_texts()))
        raise InvalidInput(f"no solved strategy for {game.slug} yet (have: {known})")
    return make(game)
