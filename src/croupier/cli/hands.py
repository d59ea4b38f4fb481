"""``croupier hand`` and ``croupier count``: hand rankings."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from croupier.cli.app import JsonOption, QuietOption, app, emit_json, fail, progress_bars
from croupier.core.errors import CroupierError
from croupier.core.extras import require

__all__ = ["count", "hand"]

RankingOption = Annotated[
    str,
    typer.Option(
        "--ranking", help="poker5, four-card, three-card or three-card-bonus (see --help)."
    ),
]


@app.command()
def hand(
    cards: Annotated[
        list[str] | None,
        typer.Argument(help="cards such as 'As Kd Th 9c 2s' ('10h' also read); none: stdin"),
    ] = None,
    ranking: RankingOption = "poker5",
    json_out: JsonOption = True,
) -> None:
    """Rank one hand, or one hand a line from stdin (JSON out, always)."""
    from croupier.core.reading import hand_text, text_lines
    from croupier.hands import hand_report

    if cards:
        emit_json(hand_report(hand_text(" ".join(cards)), ranking))
        return
    status = 0
    for number, line in enumerate(text_lines(sys.stdin), start=1):
        if isinstance(line, str) and not line.strip():
            continue
        try:
            emit_json(hand_report(hand_text(line), ranking), pretty=False)
        except CroupierError as exc:
            fail(f"line {number}: {exc}")
            status = 2
    if status:
        raise typer.Exit(status)


@app.command()
def count(
    cards: Annotated[int, typer.Option("--cards", help="hand size N.", show_default=False)],
    ranking: RankingOption = "poker5",
    json_out: JsonOption = False,
    quiet: QuietOption = False,
) -> None:
    """Category counts over every N-card hand (exhaustive)."""
    require("analysis", "count")
    from croupier.analysis.counts import count_table

    with progress_bars(enabled=not quiet):
        table = count_table(ranking, cards)
    if json_out:
        emit_json(table.to_json())
    else:
        from croupier.cli.render import count_table as render

        render(table)
