"""``croupier par``, ``croupier strategy`` and ``croupier simulate``: the game's mathematics."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from croupier.cli.app import (
    GAME_HELP,
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
from croupier.core.errors import InvalidInput
from croupier.core.extras import require
from croupier.core.reading import save_file

if TYPE_CHECKING:
    from croupier.analysis.par import ParSheet
    from croupier.games import Game

__all__ = ["par", "priced_game", "simulate", "strategy"]


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


def priced_game(
    game: str, rules: str | None, paytable: list[str] | None
) -> tuple[Game, tuple[str, ...]]:
    """The game of the command line with every wager priced (without ``--rules``: each wager
    the defaults leave out gets a table, see :func:`croupier.analysis.pricing.every_wager`;
    with ``--rules``: the wagers the submission offers), and the notes saying so."""
    from croupier.analysis.pricing import every_wager, not_offered

    the_game = game_from_options(game, rules, paytable)
    if rules:
        return the_game, not_offered(the_game)
    return every_wager(the_game)


def _seed(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


_WagerOption = Annotated[
    list[str] | None,
    typer.Option("--wager", metavar="NAME", help="limit the sheet to these ('base' too)."),
]
_MethodOption = Annotated[
    Method, typer.Option("--method", help="exact (every deal) or simulate (Monte Carlo).")
]
_RoundsOption = Annotated[
    int | None, typer.Option("--rounds", help="rounds with --method simulate (default 100000).")
]
_SeedOption = Annotated[
    str | None,
    typer.Option("--seed", help="seed with --method simulate, int or text (default 'croupier')."),
]
_ReportOption = Annotated[
    str | None, typer.Option("--report", metavar="FILE.html", help="also write an HTML report.")
]
_XlsxOption = Annotated[
    str | None, typer.Option("--xlsx", metavar="FILE", help="also write the sheet as XLSX.")
]
_PdfOption = Annotated[
    str | None, typer.Option("--pdf", metavar="FILE", help="also write the sheet as PDF.")
]
_AllOption = Annotated[
    bool, typer.Option("--all", help="every game (with --book): the whole book.")
]
_BookOption = Annotated[
    str | None, typer.Option("--book", metavar="DIR", help="write GAME.xlsx and GAME.pdf into DIR.")
]


@app.command()
def par(
    game: Annotated[str | None, typer.Argument(help=GAME_HELP)] = None,
    rules: RulesOption = None,
    paytable: PaytableOption = None,
    wager: _WagerOption = None,
    method: _MethodOption = Method.exact,
    rounds: _RoundsOption = None,
    seed: _SeedOption = None,
    scheduler: SchedulerOption = None,
    json_out: JsonOption = False,
    report: _ReportOption = None,
    xlsx: _XlsxOption = None,
    pdf: _PdfOption = None,
    every_game: _AllOption = False,
    book: _BookOption = None,
    quiet: QuietOption = False,
) -> None:
    """Par sheet: the exact house edge of every wager; as XLSX, PDF or HTML files too."""
    require("analysis", "par")
    from croupier.analysis import par_sheet

    files = {"--report": report, "--xlsx": xlsx, "--pdf": pdf}
    if every_game:
        _refuse(
            "--all writes the whole book: give --book DIR and no game or other option",
            GAME=game, **{"--rules": rules, "--paytable": paytable, "--wager": wager},
            **{"--json": json_out, **files, "--scheduler": scheduler},
            **{"--rounds": rounds, "--seed": seed, "--method simulate": method.value != "exact"},
            **{"no --book": not book},
        )  # fmt: skip
        assert book is not None
        _whole_book(book, quiet=quiet)
        return
    if game is None:
        raise InvalidInput("par needs a GAME (or --all --book DIR)")
    if method is Method.simulate:
        _refuse(
            "for the exact sheet (--method exact), not --method simulate",
            **{**files, "--book": book, "--scheduler": scheduler, "--wager": wager},
        )
        _simulate(
            game,
            rules,
            paytable,
            100_000 if rounds is None else rounds,
            "croupier" if seed is None else seed,
            100,
            json_out=json_out,
            quiet=quiet,
        )
        return
    if rounds is not None or seed is not None:
        raise InvalidInput("--rounds and --seed are for --method simulate")
    the_game, notes = priced_game(game, rules, paytable)
    with progress_bars(enabled=not quiet):
        sheet = par_sheet(the_game, wagers=wager or (), scheduler=scheduler)
    if wager:  # the notes of the wagers asked for only
        notes = tuple(n for n in notes if n.partition(":")[0] in wager)
    sheet = dataclasses.replace(sheet, notes=(*sheet.notes, *notes))
    if json_out:
        emit_json(sheet.to_json())
    else:
        from croupier.cli.render import par_sheet as render

        render(sheet)
    if book:
        folder = _folder(book)
        xlsx = xlsx or str(folder / f"{the_game.slug}.xlsx")
        pdf = pdf or str(folder / f"{the_game.slug}.pdf")
    _write_files(the_game, sheet, report=report, xlsx=xlsx, pdf=pdf, quiet=quiet)


def _refuse(why: str, **options: object) -> None:
    """Refuse the options given (not None, False or empty) among ``options``, naming them."""
    given = [name for name, value in options.items() if value not in (None, False, [], ())]
    if given:
        raise InvalidInput(f"{why} ({', '.join(given)})")


def _folder(path: str) -> Path:
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidInput(f"--book {path}: cannot create the folder ({exc.strerror})") from None
    return folder


def _write_files(
    game: Game,
    sheet: ParSheet,
    *,
    report: str | None,
    xlsx: str | None,
    pdf: str | None,
    quiet: bool,
) -> None:
    """Write the requested files of ``sheet`` (each named on stderr)."""
    if not (report or xlsx or pdf):
        return
    from croupier.analysis.report import paytable_returns

    with progress_bars(enabled=not quiet):
        returns = paytable_returns(game, sheet)  # every letter priced once, for every file
        if report:
            from croupier.analysis.report import write_report

            _written(report, lambda: write_report(game, report, sheet=sheet, returns=returns))
        if xlsx or pdf:
            from croupier.analysis.book import build_book
            from croupier.analysis.book_files import write_pdf, write_xlsx

            the_book = build_book(game, sheet, returns=returns)
            if xlsx:
                _written(xlsx, lambda: write_xlsx(the_book, xlsx))
            if pdf:
                _written(pdf, lambda: write_pdf(the_book, pdf))


def _written(path: str, write: Callable[[], object]) -> None:
    """``write()`` (every writer saves through :func:`croupier.core.reading.save_file`, which
    refuses a failed write in one line), then the line that says so."""
    write()
    sys.stderr.write(f"croupier: wrote {path}\n")


def _whole_book(book: str, *, quiet: bool) -> None:
    """Every game's par sheet, each as ``SLUG.xlsx`` and ``SLUG.pdf`` in ``book``."""
    from croupier.analysis import par_sheet
    from croupier.analysis.pricing import every_wager
    from croupier.core.progress import Task
    from croupier.games import GAMES

    folder = _folder(book)
    with progress_bars(enabled=not quiet), Task(len(GAMES), "the book: games written") as task:
        for slug, cls in GAMES.items():
            the_game, notes = every_wager(cls())
            sheet = par_sheet(the_game)
            sheet = dataclasses.replace(sheet, notes=(*sheet.notes, *notes))
            _write_files(
                the_game,
                sheet,
                report=None,
                xlsx=str(folder / f"{slug}.xlsx"),
                pdf=str(folder / f"{slug}.pdf"),
                quiet=quiet,
            )
            task.update()


@app.command()
def strategy(
    game: GameArgument,
    rules: RulesOption = None,
    paytable: PaytableOption = None,
    csv_file: Annotated[
        str | None, typer.Option("--csv", metavar="FILE", help="also write it as CSV.")
    ] = None,
    xlsx: Annotated[
        str | None, typer.Option("--xlsx", metavar="FILE", help="also write it as XLSX.")
    ] = None,
    json_out: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """The optimal strategy: every decision as a table (CSV and XLSX too)."""
    require("analysis", "strategy")
    from croupier.analysis import strategy_text
    from croupier.analysis.strategy_table import strategy_table, write_strategy_xlsx

    the_game = game_from_options(game, rules, paytable)
    with progress_bars(enabled=not quiet):
        text = strategy_text(the_game)
        table = strategy_table(the_game)
    if json_out:
        emit_json({"game": game, "strategy": text.splitlines(), "decisions": table.to_json()})
    else:
        from croupier.cli.render import strategy_table as render

        render(table)
    if csv_file:
        _written(csv_file, lambda: save_file(csv_file, table.to_csv().encode("utf-8")))
    if xlsx:
        _written(xlsx, lambda: write_strategy_xlsx(table, xlsx))


@app.command()
def simulate(
    game: GameArgument,
    rounds: Annotated[int, typer.Option("--rounds", help="number of rounds N.")],
    seed: Annotated[str, typer.Option("--seed", help="seed of the generator (int or text).")],
    rules: RulesOption = None,
    paytable: PaytableOption = None,
    unit: Annotated[
        int | None, typer.Option("--unit", help="cents per wager (default 100; not --kernel).")
    ] = None,
    json_out: JsonOption = False,
    quiet: QuietOption = False,
    kernel: Annotated[
        bool,
        typer.Option(
            "--kernel",
            help="the fast numba kernel instead of the round engine (the base game and the "
            "wagers the kernel plays, under the default pay tables).",
        ),
    ] = False,
    scheduler: SchedulerOption = None,
) -> None:
    """Monte Carlo through the round engine, with standard errors."""
    require("analysis", "simulate")
    if kernel:
        if unit is not None:
            raise InvalidInput("--unit is for the round engine (without --kernel)")
        _kernel_simulate(
            game, rules, paytable, rounds, seed, scheduler, json_out=json_out, quiet=quiet
        )
    else:
        if scheduler is not None:
            raise InvalidInput("--scheduler spreads the work of --kernel; give --kernel too")
        unit = 100 if unit is None else unit
        _simulate(game, rules, paytable, rounds, seed, unit, json_out=json_out, quiet=quiet)


def _simulate(
    game: str,
    rules: str | None,
    paytable: list[str] | None,
    rounds: int,
    seed: str,
    unit: int,
    *,
    json_out: bool,
    quiet: bool,
) -> None:
    from croupier.analysis.simulate import simulate as run_simulation
    from croupier.core.progress import report

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
    *,
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
