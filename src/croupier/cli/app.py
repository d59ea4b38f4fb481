"""The Typer ``app`` every command module registers on, its error contract and shared options.

* :class:`CroupierGroup` turns every failure into one short line on stderr and exit status 2:
  a :class:`~croupier.core.errors.CroupierError` from the library, a usage error of Typer/Click
  (unknown option, missing argument, bad value), an unreadable or unwritable file, a module of
  an optional extra that is not installed (:mod:`croupier.core.extras`: which extra to install).
* The shared options (``JsonOption``, ``RulesOption``, ``PaytableOption``, ``GameArgument``,
  ``QuietOption``) are ``Annotated`` types, so every command spells them alike.
* :func:`emit_json` writes the stable JSON output; :func:`stdout` and :func:`stderr` are the Rich
  consoles; :func:`progress_bars` draws the library's progress reports as Rich bars.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from typer.core import TyperGroup

from croupier.core.about import version
from croupier.core.errors import CroupierError, InvalidInput, MissingExtra
from croupier.core.extras import extra_of_module

if TYPE_CHECKING:
    from croupier.games import Game

__all__ = [
    "DbOption",
    "GameArgument",
    "JsonOption",
    "PaytableOption",
    "QuietOption",
    "RulesOption",
    "app",
    "emit_json",
    "fail",
    "game_from_options",
    "progress_bars",
    "stderr",
    "stdout",
    "version",
]

EXIT_BAD_INPUT = 2


def _one_line(text: str) -> str:
    return " ".join(part.strip() for part in text.splitlines() if part.strip())


def fail(message: str) -> None:
    """Write one ``croupier: ...`` line on stderr (the error contract)."""
    sys.stderr.write(f"croupier: {_one_line(message)}\n")
    sys.stderr.flush()


class CroupierGroup(TyperGroup):
    """The command group: Typer's parsing, the croupier error contract (one line, exit 2)."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        status = self._run(args, prog_name, complete_var, extra)
        if standalone_mode:
            sys.exit(status)
        return status

    def _run(
        self,
        args: Sequence[str] | None,
        prog_name: str | None,
        complete_var: str | None,
        extra: dict[str, Any],
    ) -> int:
        try:
            result = super().main(
                args=args,
                prog_name=prog_name or "croupier",
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
        except typer.Abort:
            fail("interrupted")
            return EXIT_BAD_INPUT
        except typer.TyperException as exc:  # usage errors (unknown option, bad value, ...)
            ctx = getattr(exc, "ctx", None)
            hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
            fail(exc.format_message() + hint)
            return EXIT_BAD_INPUT
        except CroupierError as exc:
            fail(str(exc))
            return EXIT_BAD_INPUT
        except ModuleNotFoundError as exc:
            # a command that reached an extra's module without calling croupier.core.extras.require
            needed = extra_of_module(exc.name or "")
            if needed is None:
                raise
            fail(str(MissingExtra(needed, _command_words(self, args))))
            return EXIT_BAD_INPUT
        except OSError as exc:
            fail(f"{exc.filename or 'file'}: {exc.strerror or exc}")
            return EXIT_BAD_INPUT
        return result if isinstance(result, int) else 0


def _command_words(group: object, args: Sequence[str] | None) -> str:
    """The command's name as typed (``"floor simulate"``): the leading words that name a
    command of ``group`` (a Click group) and of its subgroups."""
    words: list[str] = []
    for word in args if args is not None else sys.argv[1:]:
        commands = getattr(group, "commands", None)
        if not isinstance(commands, dict) or word not in commands:
            break
        words.append(word)
        group = commands[word]
    return " ".join(words) or "croupier"


def _help() -> str:
    from croupier.games import GAMES
    from croupier.hands import Ranking

    games = "; ".join(
        f"{slug}" + (f" (also {', '.join(cls.aliases)})" if cls.aliases else "")
        for slug, cls in GAMES.items()
    )
    rankings = ", ".join(r.value for r in Ranking)
    return (
        "Runs and proves the casino table games regulated in Pennsylvania (58 Pa. Code, "
        "Subpart K).\n\n"
        f"Games: {games}.\n\n"
        f"Rankings (--ranking): {rankings}.\n\n"
        "Errors: one line on stderr, exit status 2."
    )


app = typer.Typer(
    cls=CroupierGroup,
    name="croupier",
    help=_help(),
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
        sys.stdout.write(f"croupier {version()}\n")
        raise typer.Exit(0)


@app.callback()
def _main(
    ctx: typer.Context,
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Runs and proves the casino table games regulated in Pennsylvania."""
    if ctx.invoked_subcommand is None:
        sys.stdout.write(ctx.get_help() + "\n")
        raise typer.Exit(EXIT_BAD_INPUT)


# ---------------------------------------------------------------------------------------------
# Shared options


def _game_help() -> str:
    from croupier.games import GAMES

    return f"game: {', '.join(GAMES)} (their aliases: croupier --help)"


GAME_HELP = _game_help()
"""The game argument's help: every slug (the aliases are in the top-level help)."""

GameArgument = Annotated[str, typer.Argument(help=GAME_HELP, show_default=False)]
JsonOption = Annotated[bool, typer.Option("--json", help="JSON output (stable keys).")]
RulesOption = Annotated[
    str | None,
    typer.Option("--rules", metavar="FILE", help="Rules Submission (TOML or JSON) in force."),
]
PaytableOption = Annotated[
    list[str] | None,
    typer.Option(
        "--paytable",
        metavar="WAGER=LETTER",
        help="pay table of a wager (repeatable); overrides --rules.",
    ),
]
QuietOption = Annotated[bool, typer.Option("--quiet", help="No progress bar.")]
DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="URL",
        help="database URL (default $CROUPIER_DB, else sqlite:///croupier.sqlite).",
    ),
]


def game_from_options(
    game: str, rules: str | None = None, paytable: Sequence[str] | None = None
) -> Game:
    """The game named on the command line under ``--rules`` and ``--paytable``."""
    from croupier.games import game_class, get_game
    from croupier.rules.submission import load_rules

    data: dict[str, Any] = {"game": game}
    if rules:
        data = dict(load_rules(rules).raw)
        if game and game_class(str(data.get("game"))) is not game_class(game):
            raise InvalidInput(f"--rules is for {data.get('game')!r}, not {game!r}")
    tables = dict(data.get("paytables", {}))
    for item in paytable or []:
        wager, sep, letter = item.partition("=")
        if not sep or not wager or not letter:
            raise InvalidInput(f"--paytable {item!r} must be WAGER=LETTER")
        tables[wager] = letter
    if tables:
        data["paytables"] = tables
    return get_game(data)


# ---------------------------------------------------------------------------------------------
# Output


def emit_json(obj: object, *, pretty: bool = True) -> None:
    """The stable JSON output: indented (or one line), a newline after."""
    sys.stdout.write(json.dumps(obj, indent=2 if pretty else None) + "\n")


def stdout() -> Console:
    """A Rich console on the current stdout (wide when not a terminal, so tables stay aligned)."""
    console = Console(highlight=False, soft_wrap=False, markup=False)
    if not console.is_terminal:
        console = Console(
            highlight=False, soft_wrap=False, markup=False, width=160, color_system=None
        )
    return console


def stderr() -> Console:
    """A Rich console on the current stderr."""
    return Console(stderr=True, highlight=False, markup=False)


_BARS_ACTIVE: ContextVar[bool] = ContextVar("croupier_bars_active", default=False)


@contextmanager
def progress_bars(*, enabled: bool = True) -> Iterator[None]:
    """Draw every progress report of the library made inside the block as a Rich bar with the
    time elapsed and the time remaining, on stderr when it is a terminal (inside another such
    block: the outer one draws them)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskID,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from croupier.core.progress import reporting

    console = stderr()
    if not enabled or not console.is_terminal or _BARS_ACTIVE.get():
        yield
        return
    bars = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    tasks: dict[str, TaskID] = {}

    def show(task: str, done: int, total: int) -> None:
        if task not in tasks:
            tasks[task] = bars.add_task(task, total=total)
        bars.update(tasks[task], completed=done, total=total)
        if done >= total:
            bars.remove_task(tasks.pop(task))

    token = _BARS_ACTIVE.set(True)
    try:
        with bars, reporting(show):
            yield
    finally:
        _BARS_ACTIVE.reset(token)
