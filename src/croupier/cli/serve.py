"""``croupier serve`` and ``croupier db upgrade``: the live table system (``croupier recall``,
in :mod:`croupier.cli.recall`, reads its floor tables through :mod:`croupier.server.recall`)."""

from __future__ import annotations

from typing import Annotated

import typer

from croupier.cli.app import JsonOption, app, emit_json

__all__ = ["DbOption", "db_upgrade", "floor_url", "serve"]

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


def floor_url(db: str | None) -> str:
    """``db``, else the floor's default SQLite file."""
    from croupier.server.db import DEFAULT_SERVER_URL

    return db or DEFAULT_SERVER_URL


@app.command()
def serve(
    db: DbOption = None,
    host: Annotated[str, typer.Option("--host", help="address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port to listen on.")] = 8000,
    no_demo: Annotated[
        bool, typer.Option("--no-demo", help="a real floor: no demo; demo accounts refused.")
    ] = False,
    training: Annotated[
        bool,
        typer.Option(
            "--training", help="a training floor: the demo, every table a training table."
        ),
    ] = False,
    lock_after: Annotated[
        int,
        typer.Option(
            "--lock-after", min=1, max=10**6, help="failed sign-ins that lock an account name."
        ),
    ] = 5,
    address_lock_after: Annotated[
        int,
        typer.Option(
            "--address-lock-after",
            min=1,
            max=10**6,
            help="failed sign-ins that lock a client address.",
        ),
    ] = 50,
    lock_for: Annotated[
        float,
        typer.Option("--lock-for", min=1, max=30 * 86400, help="seconds a sign-in lock lasts."),
    ] = 900.0,
    sign_in_delay: Annotated[
        float,
        typer.Option(
            "--sign-in-delay",
            min=0,
            max=3600,
            help="seconds after a name's first failure, doubled at each.",
        ),
    ] = 1.0,
    tables: Annotated[
        str | None,
        typer.Option(
            "--tables",
            help="serve only these tables (comma-separated): one of several server processes "
            "on one PostgreSQL database, each table served by one of them.",
        ),
    ] = None,
) -> None:
    """The live table system (API, WebSocket, web page) until Ctrl-C; a demo floor by default."""
    from datetime import timedelta

    from croupier.errors import InvalidInput
    from croupier.server.auth import FloorMode
    from croupier.server.run import serve as run
    from croupier.server.signin import SignInLimits

    if no_demo and training:
        raise InvalidInput("--no-demo and --training: a floor is one or the other")
    mode = FloorMode.REAL if no_demo else FloorMode.TRAINING if training else FloorMode.DEMO
    limits = SignInLimits(
        account_failures=lock_after,
        address_failures=address_lock_after,
        lock_for=timedelta(seconds=lock_for),
        delay=timedelta(seconds=sign_in_delay),
    )
    served = frozenset(t for t in tables.split(",") if t) if tables else None
    run(floor_url(db), host=host, port=port, mode=mode, limits=limits, tables=served)


@db_app.command("upgrade")
def db_upgrade(db: DbOption = None, json_out: JsonOption = False) -> None:
    """Apply the schema migrations (the schema is only ever changed by a migration)."""
    from croupier.server.db import upgrade
    from croupier.store._db import masked_url

    applied = upgrade(floor_url(db))
    shown = masked_url(floor_url(db))  # a PostgreSQL password is not printed
    if json_out:
        emit_json({"database": shown, "applied": applied})
    else:
        typer.echo(f"{shown}: " + (f"migrated to {applied[-1]}" if applied else "up to date"))
