"""``croupier par``, ``croupier strategy`` and ``croupier simulate``: the game's mathematics."""

from __future__ import annotations

import sys
from enum import StrEnum
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
    game_from_options,
    progress_bars,
)
from croupier.errors import InvalidInput

__all__ = ["par", "simulate", "strategy"]


class Method(StrEnum):
    exact = "exact"
    simulate = "simulate"


SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help="a Dask scheduler address (tcp://...): spread the block solvers' work.",
    ),
]
SeedOption = Annotated[str, typer.Option("--seed", help="seed of the generator (int or text).")]


def _seed(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


@app.command()
def par(
    game: GameArgument,
    rules: RulesOption = None,
    paytable: PaytableOption = None,
    wager: Annotated[
        list[str] | None,
        typer.Option("--wager", metavar="NAME", help="limit the sheet to these ('base' too)."),
    ] = None,
    method: Annotated[Method, typer.Option("--method")] = Method.exact,
    rounds: Annotated[int, typer.Option("--rounds", help="rounds with --method simulate.")] = (
        100_000
    ),
    seed: SeedOption = "croupier",
    scheduler: SchedulerOption = None,
    json_out: JsonOption = False,
    report: Annotated[
        str | None,
        typer.Option("--report", metavar="FILE.html", help="also write an HTML report."),
    ] = None,
    quiet: QuietOption = False,
) -> None:
    """Par sheet: the exact house edge of every wager."""
    from croupier.analysis import par_sheet

    if method is Method.simulate:
        if report:
            raise InvalidInput("--report draws the exact sheet; use it with --method exact")
        _simulate(game, rules, paytable, rounds, seed, 100, json_out, quiet)
        return
    the_game = game_from_options(game, rules, paytable)
    with progress_bars(enabled=not quiet):
        sheet = par_sheet(the_game, wagers=wager or (), scheduler=scheduler)
    if json_out:
        emit_json(sheet.to_json())
    else:
        from croupier.cli.render import par_sheet as render

        render(sheet)
    if report:
        from croupier.analysis.report import write_report

        with progress_bars(enabled=not quiet):
            write_report(the_game, report, sheet=sheet)
        sys.stderr.write(f"croupier: report written to {report}\n")


@app.command()
def strategy(
    game: GameArgument,
    rules: RulesOption = None,
    paytable: PaytableOption = None,
    json_out: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """The optimal strategy as a readable table."""
    from croupier.analysis import strategy_text

    with progress_bars(enabled=not quiet):
        text = strategy_text(game_from_options(game, rules, paytable))
    if json_out:
        emit_json({"game": game, "strategy": text.splitlines()})
    else:
        typer.echo(text)


@app.command()
def simulate(
    game: GameArgument,
    rounds: Annotated[int, typer.Option("--rounds", help="number of rounds N.")],
    seed: Annotated[str, typer.Option("--seed", help="seed of the generator (int or text).")],
    rules: RulesOption = None,
    paytable: PaytableOption = None,
    unit: Annotated[int, typer.Option("--unit", help="cents per wager.")] = 100,
    json_out: JsonOption = False,
    quiet: QuietOption = False,
    kernel: Annotated[
        bool,
        typer.Option(
            "--kernel",
            help="fast numba path (Four Card Poker, UTH base game): 10^8 rounds in a minute.",
        ),
    ] = False,
    scheduler: SchedulerOption = None,
) -> None:
    """Monte Carlo through the round engine, with standard errors."""
    if kernel:
        _kernel_simulate(game, rules, paytable, rounds, seed, scheduler, json_out, quiet)
    else:
        _simulate(game, rules, paytable, rounds, seed, unit, json_out, quiet)


def _simulate(
    game: str,
    rules: str | None,
    paytable: list[str] | None,
    rounds: int,
    seed: str,
    unit: int,
    json_out: bool,
    quiet: bool,
) -> None:
    from croupier.analysis.simulate import simulate as run_simulation
    from croupier.progress import report

    the_game = game_from_options(game, rules, paytable)
    with progress_bars(enabled=not quiet):
        result = run_simulation(
            the_game,
            rounds=rounds,
            seed=_seed(seed),
            unit=unit,
            progress=lambda done, total: report(f"simulating {the_game.slug}", done, total),
        )
    if json_out:
        emit_json(result.to_json())
    else:
        typer.echo(result.render())


def _kernel_simulate(
    game: str,
    rules: str | None,
    paytable: list[str] | None,
    rounds: int,
    seed: str,
    scheduler: str | None,
    json_out: bool,
    quiet: bool,
) -> None:
    from croupier.analysis.montecarlo import run

    number = _seed(seed)
    if not isinstance(number, int):
        raise InvalidInput(f"--seed {seed!r} must be an integer with --kernel")
    the_game = game_from_options(game, rules, paytable)
    blind = the_game.paytable("blind")
    if (rules or paytable) and blind is None:
        raise InvalidInput(
            f"--kernel plays {the_game.slug} under its default pay tables; drop --rules/--paytable"
            " or simulate through the round engine (without --kernel)"
        )
    with progress_bars(enabled=not quiet):
        result = run(
            the_game.slug,
            rounds,
            number,
            scheduler=scheduler,
            blind=blind.letter if blind is not None else "A",
            progress=not quiet,
        )
    if json_out:
        emit_json(result.to_json())
    else:
        typer.echo(result.render())
