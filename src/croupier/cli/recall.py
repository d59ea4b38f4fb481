"""``croupier recall``: recent rounds of a table rebuilt from the stored records."""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer
from rich.table import Table

from croupier.cli.app import DbOption, JsonOption, app, emit_json, stdout
from croupier.core.extras import require

__all__ = ["recall"]


def _floor(engine: Any, table: str, seat: int | None, last: int) -> list[dict[str, Any]] | None:
    """The live table system's recall where the database holds that floor table (None when
    the server package or the table is absent)."""
    try:
        server = importlib.import_module("croupier.server.round_recall")
    except ImportError:
        return None
    from sqlalchemy.exc import SQLAlchemyError

    from croupier.core.errors import CroupierError

    try:
        found: list[dict[str, Any]] = server.recall_table(engine, table, last=last, seat=seat)
    except (CroupierError, SQLAlchemyError):  # not a floor table here: the store's rounds
        return None
    return found


@app.command()
def recall(
    table: Annotated[str, typer.Option("--table", help="table name (or floor table id).")],
    db: DbOption = None,
    seat: Annotated[int | None, typer.Option("--seat", help="only rounds of this seat.")] = None,
    last: Annotated[int, typer.Option("--last", help="how many rounds (newest first).")] = 10,
    scenario: Annotated[
        str | None,
        typer.Option("--scenario", metavar="ROUND", help="export this round as a scenario."),
    ] = None,
    json_out: JsonOption = False,
) -> None:
    """Recent rounds of a table (of one seat) rebuilt from the records; --scenario exports
    one round as a scenario JSON that croupier replay settles alike."""
    require("server", "recall")
    from sqlalchemy.exc import SQLAlchemyError

    from croupier.faces.terminal import database_url
    from croupier.store import RoundStore, open_existing, unreadable
    from croupier.table.history import table_rounds

    # a reading command: the database must exist and be croupier's (nothing is created in it)
    engine = open_existing(database_url(db))
    try:
        _verify_croupiers(engine)
        store = RoundStore(engine)
        if scenario is not None:
            _export(store, scenario)
            return
        rounds = _floor(engine, table, seat, last)
        if rounds is None:
            rounds = table_rounds(store, table, seat=seat, last=last)
    except SQLAlchemyError as exc:
        raise unreadable(exc) from None
    finally:
        engine.dispose()
    if json_out:
        emit_json(rounds)
        return
    _render(rounds, seat)


def _verify_croupiers(engine: Any) -> None:
    """Refuse a database without croupier's round tables (before the store would make them)."""
    from sqlalchemy import inspect

    from croupier.core.errors import InvalidInput

    with engine.connect() as conn:
        tables = set(inspect(conn).get_table_names())
    if not {"rounds", "round_records"} <= tables:
        raise InvalidInput("the database holds no croupier rounds (no rounds table)")


def _export(store: Any, round_id: str) -> None:
    from croupier.core.errors import InvalidInput

    try:
        server = importlib.import_module("croupier.server.round_recall")
    except ImportError:
        raise InvalidInput("--scenario needs the live table system (croupier.server)") from None
    emit_json(server.scenario_of(store.info(round_id), store.load(round_id)))


def _render(rounds: list[dict[str, Any]], seat: int | None) -> None:
    from croupier.core.money import format_cents

    out = Table(title_justify="left")
    for name in ("round", "game", "status", "seat", "player", "net"):
        out.add_column(name, justify="right" if name == "net" else "left")
    for rnd in rounds:
        for key, entry in sorted(rnd["settlement"].items()):
            if not key.isdigit() or (seat is not None and int(key) != seat):
                continue
            out.add_row(
                rnd["round_id"],
                rnd["game"],
                rnd["status"],
                key,
                rnd["players"].get(key, ""),
                format_cents(entry.get("net", 0)),
            )
    stdout().print(out)
