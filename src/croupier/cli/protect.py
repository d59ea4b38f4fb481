"""``croupier protect GAME --known K``: what forbidden information is worth to a player."""

from __future__ import annotations

from typing import Annotated

import typer

from croupier.cli.app import (
    GameArgument,
    JsonOption,
    PaytableOption,
    RulesOption,
    app,
    emit_json,
    game_from_options,
    stdout,
)
from croupier.core.extras import require

__all__ = ["protect_command"]


@app.command("protect")
def protect_command(
    game: GameArgument,
    known: Annotated[
        str | None,
        typer.Option(
            "--known",
            help="dealer-card (a flashed card), burn-card, or dealer-cards (UTH: both hole cards)",
        ),
    ] = None,
    colluders: Annotated[
        int, typer.Option("--colluders", help="seats sharing their hands, 2 to 6")
    ] = 1,
    samples: Annotated[
        int | None,
        typer.Option("--samples", help="deals sampled (default: exact where the size allows)"),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="seed of the sample")] = 0,
    rules: RulesOption = None,
    paytable: PaytableOption = None,
    json_out: JsonOption = False,
) -> None:
    """The house edge with information the rules forbid, beside the edge without it: a
    flashed dealer card, a known burn card, or --colluders N seats sharing their hands."""
    require("analysis", "protect")
    from croupier.analysis.protect import protect

    result = protect(
        game_from_options(game, rules, paytable), known, colluders, samples=samples, seed=seed
    )
    if json_out:
        emit_json(result.to_json())
        return
    data = result.to_json()
    how = (
        "exact"
        if result.std_error is None
        else f"{result.samples} deals sampled, standard error {result.std_error:.4%}"
    )
    stdout().print(
        f"{data['game']}, {data['known']} ({data['note']}; {how}):\n"
        f"  house edge without it {data['house_edge_without']:.4%} "
        f"({data['house_edge_without_exact']})\n"
        f"  house edge with it    {data['house_edge_with']:.4%} ({data['house_edge_with_exact']})\n"
        f"  worth to the player   {data['value_to_player']:.4%} of the initial wager"
        + (
            ""
            if result.changed is None
            else f"; the decision changes in {data['decisions_changed']:.2%} of the cases"
        )
    )
