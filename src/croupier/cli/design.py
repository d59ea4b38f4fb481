"""``croupier design``: pay tables of a wager whose exact house edge is nearest a target."""

from __future__ import annotations

import tomllib
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Annotated, Any

import typer
from rich.table import Table

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
from croupier.core.errors import InvalidInput
from croupier.core.extras import require
from croupier.core.reading import read_bounded

__all__ = ["design_command"]

CONSTRAINTS_CAP = 64 * 1024
"""Bytes at most in a constraints file."""


def _edge(text: str) -> Fraction:
    if len(text) > 40:
        raise InvalidInput(f"--target-edge {text[:40]!r}... is too long")
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise InvalidInput(f"--target-edge {text!r} is not a decimal number (e.g. 0.03)") from None
    exponent = value.as_tuple().exponent
    if not value.is_finite() or not isinstance(exponent, int) or abs(exponent) > 12:
        raise InvalidInput(f"--target-edge {text!r} must be a plain decimal, at most 12 places")
    return Fraction(value)


def _constraints(path: str | None) -> dict[str, Any]:
    """``[lines.<hand>]`` tables with ``min``, ``max`` or ``fixed`` (TOML)."""
    if path is None:
        return {}
    raw = read_bounded(path, what="constraints", limit=CONSTRAINTS_CAP)
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as exc:
        raise InvalidInput(f"constraints {path!r} is not UTF-8 TOML: {str(exc)[:80]}") from None
    unknown = sorted(set(data) - {"lines"})
    if unknown:
        raise InvalidInput(f"constraints {path!r}: unknown key(s) {', '.join(unknown)}")
    lines = data.get("lines", {})
    if not isinstance(lines, dict):
        raise InvalidInput(f"constraints {path!r}: [lines] must be a table")
    return lines


@app.command("design")
def design_command(
    game: GameArgument,
    wager: Annotated[str, typer.Option("--wager", help="the wager whose table is designed")],
    target_edge: Annotated[str, typer.Option("--target-edge", help="house edge wanted, e.g. 0.03")],
    constraints: Annotated[
        str | None,
        typer.Option(
            "--constraints", metavar="FILE", help="TOML: [lines.<hand>] min / max / fixed pays"
        ),
    ] = None,
    top: Annotated[int, typer.Option("--top", help="how many tables to list")] = 10,
    verify: Annotated[
        bool, typer.Option("--verify", help="re-price every proposal by the ordinary par sheet")
    ] = False,
    solves: Annotated[
        int, typer.Option("--solves", help="base game: exact re-solves at most")
    ] = 12,
    rules: RulesOption = None,
    paytable: PaytableOption = None,
    json_out: JsonOption = False,
) -> None:
    """Pay tables (integer odds, monotone, the chapter's to/for form) nearest a target edge;
    a base game's table (let-it-ride and mississippi-stud ``base``, four-card-poker
    ``ante_bonus``, ultimate-texas-holdem ``blind``): each candidate's optimal strategy
    re-solved exactly."""
    require("analysis", "design")
    from croupier.analysis.designer import design, reprice
    from croupier.analysis.designer_base import base_game, design_base, is_base, price_base

    chosen = game_from_options(game, rules, paytable)
    limits = _constraints(constraints)
    base = is_base(chosen, wager)
    if base:
        result = design_base(
            chosen, wager, _edge(target_edge), constraints=limits, top=top, solves=solves
        )
    else:
        result = design(chosen, wager, _edge(target_edge), constraints=limits, top=top)
    rows = []
    for cand in result.candidates:
        item = cand.to_json()
        if verify:
            if base:
                sheet = price_base(base_game(chosen, wager), cand)
            else:
                sheet = reprice(chosen, cand, wager)
            if sheet.house_edge != cand.house_edge:  # pragma: no cover - a defect, never expected
                raise InvalidInput(f"table {cand.name()}: par sheet {sheet.house_edge} differs")
            item["verified_by_par"] = True
        rows.append(item)
    if json_out:
        emit_json({**result.to_json(), "candidates": rows})
        return
    console = stdout()
    table = Table(
        title=f"{result.game} {wager}: target house edge {float(result.target) * 100:.4f}% "
        f"(reference table {result.reference})",
        title_justify="left",
    )
    for col in ("rank", "table", "house edge", "hit frequency", "std dev"):
        table.add_column(col, justify="right")
    for rank, item in enumerate(rows, 1):
        table.add_row(
            str(rank),
            item["table"],
            f"{item['house_edge'] * 100:.4f}%",
            f"{item['hit_frequency'] * 100:.3f}%",
            f"{item['std_dev']:.4f}",
        )
    console.print(table)
    kinds = ", ".join(f"{b.hand} ({b.kind.value} 1: {b.low}-{b.high})" for b in result.bounds)
    console.print(f"lines, top to bottom, searched ranges: {kinds}")
    done = "exhaustive" if result.exhaustive else "stopped at the node budget"
    console.print(f"searched {result.nodes:,} nodes ({done})")
