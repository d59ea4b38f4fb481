"""``croupier serve``, ``croupier db upgrade`` and ``croupier recall``: the live table system."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from croupier.cli.app import JsonOption, app, emit_json

__all__ = ["db_upgrade", "recall", "serve"]

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="database URL: sqlite:///FILE (default croupier-floor.sqlite) or "
        "postgresql+psycopg://USER@HOST:PORT/DB.",
    ),
]

db_app = typer.Typer(help="The database: migrations.", no_args_is_help=True)
app.add_typer(db_app, name="db")


def _url(db: str | None) -> str:
    from croupier.server.db import DEFAULT_SERVER_URL

    return db or DEFAULT_SERVER_URL


@app.command()
def serve(
    db: DbOption = None,
    host: Annotated[str, typer.Option("--host", help="address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port to listen on.")] = 8000,
    no_demo: Annotated[bool, typer.Option("--no-demo", help="no demo floor.")] = False,
) -> None:
    """The live table system (API, WebSocket, web page) until Ctrl-C; a demo floor by default."""
    from croupier.server.run import serve as run

    run(_url(db), host=host, port=port, demo=not no_demo)


@db_app.command("upgrade")
def db_upgrade(db: DbOption = None, json_out: JsonOption = False) -> None:
    """Apply the schema migrations (the schema is only ever changed by a migration)."""
    from croupier.server.db import upgrade

    applied = upgrade(_url(db))
    if json_out:
        emit_json({"database": _url(db), "applied": applied})
    else:
        typer.echo(f"{_url(db)}: " + (f"migrated to {applied[-1]}" if applied else "up to date"))


@app.command()
def recall(
    table: Annotated[str, typer.Option("--table", help="table id.")],
    db: DbOption = None,
    seat: Annotated[int | None, typer.Option("--seat", help="only rounds of this seat.")] = None,
    last: Annotated[int, typer.Option("--last", help="how many rounds.")] = 10,
    scenario: Annotated[
        str | None, typer.Option("--scenario", help="export this round as a scenario JSON.")
    ] = None,
    json_out: JsonOption = False,
) -> None:
    """Recent rounds of a table (or seat) rebuilt from the records; --scenario exports one."""
    from croupier.server.db import connect
    from croupier.server.recall import recall_table, scenario_of
    from croupier.store import RoundStore

    engine = connect(_url(db))
    try:
        store = RoundStore(engine)
        if scenario is not None:
            emit_json(scenario_of(store.info(scenario), store.load(scenario)))
            return
        rounds = recall_table(engine, table, last=last, seat=seat)
        if json_out:
            emit_json(rounds)
            return
        for rnd in rounds:
            nets = {s: e["net"] for s, e in rnd["settlement"].items()}
            typer.echo(f"{rnd['round_id']}  {rnd['status']:<5} net by seat {json.dumps(nets)}")
    finally:
        engine.dispose()
