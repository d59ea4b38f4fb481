"""``croupier schema rules|scenario``: the JSON Schema of the files users write."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from croupier.cli.app import JsonOption, app, emit_json

__all__ = ["schema"]


class Which(StrEnum):
    RULES = "rules"
    SCENARIO = "scenario"


@app.command()
def schema(
    which: Annotated[Which, typer.Argument(help="rules (a Rules Submission) or scenario.")],
    json_out: JsonOption = True,
) -> None:
    """The JSON Schema of a Rules Submission or a scenario (the pydantic models the live server
    uses too; JSON out, always)."""
    from croupier.core.shapes import json_schema

    emit_json(json_schema(which.value))
