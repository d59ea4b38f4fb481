"""``croupier compliance``: the matrix of regulation subsections, the code and the tests."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from croupier.cli.app import JsonOption, app, emit_json

__all__ = ["compliance"]


@app.command()
def compliance(
    tests: Annotated[
        str | None,
        typer.Option("--tests", help="tests folder (default: the checkout's, when present)"),
    ] = None,
    json_out: JsonOption = False,
) -> None:
    """The matrix: each regulation subsection, the code citing it and the tests named after it."""
    from croupier.core.errors import InvalidInput
    from croupier.rules.compliance import build, render

    folder = Path(tests) if tests else None
    if folder is not None and not folder.is_dir():
        raise InvalidInput(f"tests folder {tests!r} is not a directory")
    rows = build(folder)
    if json_out:
        emit_json({"subsections": [r.to_json() for r in rows]})
    else:
        typer.echo(render(rows), nl=False)
