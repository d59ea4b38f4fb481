"""``croupier replay``, ``croupier play`` and ``croupier demo``: rounds at a table."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from croupier.cli.app import (
    GAME_HELP,
    DbOption,
    JsonOption,
    PaytableOption,
    RulesOption,
    app,
    emit_json,
    game_from_options,
)
from croupier.core.extras import require

__all__ = ["demo", "play", "replay"]


@app.command()
def replay(
    scenario: Annotated[str, typer.Argument(help="scenario JSON file")],
    json_out: JsonOption = True,
) -> None:
    """Replay a scenario round; the settlement as JSON (always)."""
    from croupier.table.scenario import load_scenario, run_scenario

    emit_json(run_scenario(load_scenario(scenario)))


@app.command()
def play(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    rules: RulesOption = None,
    paytable: PaytableOption = None,
    seat: Annotated[int, typer.Option("--seat", help="your seat (1-7).")] = 3,
    seed: Annotated[
        int | None, typer.Option("--seed", help="seeded shuffle (practice only).")
    ] = None,
    db: DbOption = None,
    table: Annotated[
        str, typer.Option("--table", help="table name the hand history is stored under.")
    ] = "terminal",
) -> None:
    """A table in the terminal: you at one seat, house players at two others; the hand
    history is stored (read it back with croupier recall --table TABLE)."""
    require("server", "play")
    from croupier.faces.terminal import play_terminal

    the_game = game_from_options(game, rules, paytable)
    status = play_terminal(the_game, seat=seat, seed=seed, out=sys.stdout, db=db, table=table)
    if status:
        raise typer.Exit(status)


@app.command()
def demo(seed: Annotated[int, typer.Option("--seed", help="seed of the shuffles.")] = 2026) -> None:
    """A seeded demonstration of what croupier does."""
    require("analysis", "demo")
    from croupier.faces.tour import run_demo

    typer.echo(run_demo(seed=seed))
