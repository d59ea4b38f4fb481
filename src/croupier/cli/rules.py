"""``croupier rules check|sign FILE``: Rules Submissions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from croupier.cli.app import JsonOption, app, emit_json, fail
from croupier.core.errors import MissingExtra
from croupier.core.extras import installed

if TYPE_CHECKING:
    from croupier.games import Game

__all__ = ["rules_app"]

rules_app = typer.Typer(help="Check a Rules Submission or print its pay-table sign.")
app.add_typer(rules_app, name="rules")

FileArgument = Annotated[str, typer.Argument(help="Rules Submission (TOML, or JSON)")]


def _load(file: str, json_out: bool) -> Game:
    from croupier.core.errors import RulesViolation, format_problem
    from croupier.games import get_game
    from croupier.rules.submission import load_rules

    try:
        return get_game(load_rules(file))
    except RulesViolation as exc:
        if json_out:
            problems = [{"problem": m, "section": s} for m, s in exc.problems]
            emit_json({"file": file, "ok": False, "problems": problems})
        for problem in exc.problems:
            fail(f"{file}: {format_problem(problem)}")
        raise typer.Exit(2) from None


@rules_app.command()
def check(file: FileArgument, json_out: JsonOption = False) -> None:
    """Validate a Rules Submission: every problem with its section, one a line (exit 2); a
    valid one is priced exactly and each wager whose house edge is negative (a progressive's
    return at its meter's reset above 100%) or above 50% is warned of (exit 0).  Without the
    analysis extra it is validated, not priced, and says so (JSON: ``unpriced``; exit 0)."""
    game = _load(file, json_out)
    warnings: tuple[tuple[str, str], ...] = ()
    unpriced = None
    if installed("analysis"):
        from croupier.analysis import sanity_flags

        warnings = sanity_flags(game)
    else:
        unpriced = str(MissingExtra("analysis", "not priced, no house-edge warnings"))
    if json_out:
        report: dict[str, object] = {
            "file": file,
            "ok": True,
            "game": game.slug,
            "problems": [],
            "warnings": [{"wager": w, "warning": text} for w, text in warnings],
        }
        if unpriced is not None:
            report["unpriced"] = unpriced
        emit_json(report)
        return
    typer.echo(f"{file}: a valid {game.title} Rules Submission")
    for wager, text in warnings:
        typer.echo(f"{file}: warning: {wager}: {text}")
    if unpriced is not None:
        typer.echo(f"{file}: {unpriced}")


@rules_app.command()
def sign(file: FileArgument, json_out: JsonOption = False) -> None:
    """The pay-table sign for the table."""
    game = _load(file, json_out)
    if json_out:
        emit_json({"game": game.slug, "sign": game.sign().splitlines()})
    else:
        typer.echo(game.sign())
