"""``croupier theo GAME --average-bet CENTS --hours H``: the theoretical win of a player."""

from __future__ import annotations

from typing import Annotated

import typer

from croupier.cli.app import (
    GameArgument,
    JsonOption,
    PaytableOption,
    QuietOption,
    RulesOption,
    app,
    emit_json,
    progress_bars,
    stdout,
)
from croupier.core.errors import InvalidInput
from croupier.core.extras import require

__all__ = ["theo"]


@app.command()
def theo(
    game: GameArgument,
    average_bet: Annotated[
        int, typer.Option("--average-bet", metavar="CENTS", help="average bet, cents.")
    ],
    hours: Annotated[str, typer.Option("--hours", metavar="H", help="hours played (1.5 too).")],
    rounds_per_hour: Annotated[
        int | None,
        typer.Option("--rounds-per-hour", metavar="N", help="pace (default: the game's)."),
    ] = None,
    wager: Annotated[
        str | None,
        typer.Option(
            "--wager", metavar="NAME", help="the wager rated (default: base; baccarat: banker)."
        ),
    ] = None,
    rules: RulesOption = None,
    paytable: PaytableOption = None,
    json_out: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Theoretical win: rounds per hour x hours x average bet x house edge."""
    require("analysis", "theo")
    from croupier.analysis import par_sheet
    from croupier.analysis.pricing import parse_hours, theoretical_win
    from croupier.cli.par import priced_game

    the_game, _ = priced_game(game, rules, paytable)
    with progress_bars(enabled=not quiet):
        sheet = par_sheet(the_game)
    name = wager or ("base" if sheet.base is not None else "banker")
    rated = sheet.base if name == "base" else sheet.wagers.get(name)
    if rated is None:
        have = ["base"] if sheet.base is not None else []
        raise InvalidInput(
            f"--wager {name} not in the {the_game.slug} sheet "
            f"(have: {', '.join([*have, *sheet.wagers])})"
        )
    result = theoretical_win(
        the_game,
        rated,
        average_bet=average_bet,
        hours=parse_hours(hours),
        rounds_per_hour=rounds_per_hour,
    )
    if json_out:
        emit_json(result.to_json())
        return
    from croupier.core.money import format_cents

    console = stdout()
    console.print(
        f"{the_game.title}, {name}: {float(result.rounds):g} rounds "
        f"({result.rounds_per_hour} an hour x {float(result.hours):g} h) x "
        f"{format_cents(average_bet)} x house edge {float(result.house_edge):.4%}"
    )
    console.print(f"theoretical win: {format_cents(round(result.theo))}")
    console.print(f"rounds per hour: {result.rounds_source}")
