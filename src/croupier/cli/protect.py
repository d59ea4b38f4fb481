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

__all__ = ["protect_command"]


@app.command("protect")
def protect_command(
    game: GameArgument,
    known: Annotated[
        str, typer.Option("--known", help="dealer-card (a flashed card) or burn-card")
    ],
    colluders: Annotated[int, typer.Option("--colluders", help="seats sharing hands")] = 1,
    rules: RulesOption = None,
    paytable: PaytableOption = None,
    json_out: JsonOption = False,
) -> None:
    """The house edge with information the rules forbid, beside the edge without it."""
    from croupier.analysis.protect import protect

    result = protect(game_from_options(game, rules, paytable), known, colluders)
    if json_out:
        emit_json(result.to_json())
        return
    data = result.to_json()
    stdout().print(
        f"{data['game']}, {data['known']} ({data['note']}):\n"
        f"  house edge without it {data['house_edge_without']:.4%} "
        f"({data['house_edge_without_exact']})\n"
        f"  house edge with it    {data['house_edge_with']:.4%} ({data['house_edge_with_exact']})\n"
        f"  worth to the player   {data['value_to_player']:.4%} of the initial wager; the "
        f"decision changes in {data['decisions_changed']:.2%} of the cases"
    )
