"""``croupier serve`` and ``croupier db upgrade`` (``db backup``, ``db restore``:
:mod:`croupier.cli.backup`): the live table system (``croupier recall``,
in :mod:`croupier.cli.recall`, reads its floor tables through
:mod:`croupier.server.round_recall`)."""

from __future__ import annotations

from typing import Annotated

import typer

from croupier.cli.app import JsonOption, app, emit_json
from croupier.core.extras import require

__all__ = ["DbOption", "db_upgrade", "floor_url", "serve"]

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="database URL: sqlite:///FILE (default croupier-floor.sqlite) or "
        "postgresql+psycopg://USER@HOST:PORT/DB.",
    ),
]

db_app = typer.Typer(help="The database: migrations, backup and restore.", no_args_is_help=True)
app.add_typer(db_app, name="db")


def floor_url(db: str | None) -> str:
    """``db``, else the floor's default SQLite file."""
    from croupier.server.db import DEFAULT_SERVER_URL

    return db or DEFAULT_SERVER_URL


Hosts = Annotated[
    list[str] | None,
    typer.Option(
        "--allowed-host",
        help="a Host name the server answers to besides the address it listens on and the "
        "loopback names (repeatable; e.g. tables.casino.example): any other Host is refused.",
    ),
]
Origins = Annotated[
    list[str] | None,
    typer.Option(
        "--allowed-origin",
        help="a page origin (https://NAME[:PORT]) whose streams are accepted besides the "
        "server's own (repeatable; behind a TLS proxy: the proxy's).",
    ),
]
Proxies = Annotated[
    list[str] | None,
    typer.Option(
        "--trusted-proxy",
        help="the address of a TLS proxy in front of the server (HAProxy) whose "
        "X-Forwarded-Proto/-For are believed (repeatable; default 127.0.0.1).",
    ),
]


NoDemo = Annotated[
    bool, typer.Option("--no-demo", help="a real floor: no demo; demo accounts refused.")
]
Training = Annotated[
    bool,
    typer.Option("--training", help="a training floor: the demo, every table a training table."),
]
LockAfter = Annotated[
    int,
    typer.Option(
        "--lock-after", min=1, max=10**6, help="failed sign-ins that lock an account name."
    ),
]
AddressLockAfter = Annotated[
    int,
    typer.Option(
        "--address-lock-after", min=1, max=10**6, help="failed sign-ins that lock a client address."
    ),
]
LockFor = Annotated[
    float,
    typer.Option("--lock-for", min=1, max=30 * 86400, help="seconds a sign-in lock lasts."),
]
SignInDelay = Annotated[
    float,
    typer.Option(
        "--sign-in-delay",
        min=0,
        max=3600,
        help="seconds after a name's first failure, doubled at each.",
    ),
]
Tables = Annotated[
    str | None,
    typer.Option(
        "--tables",
        help="serve only these tables (comma-separated): one of several server processes "
        "on one PostgreSQL database, each table served by one of them.",
    ),
]
TlsCert = Annotated[
    str | None, typer.Option("--tls-cert", help="PEM certificate chain: serve HTTPS/WSS.")
]
TlsKey = Annotated[str | None, typer.Option("--tls-key", help="PEM private key of --tls-cert.")]
Docs = Annotated[
    bool,
    typer.Option(
        "--docs", help="serve the API's /docs page (on a demo or training floor by default)."
    ),
]
SessionIdle = Annotated[
    float, typer.Option("--session-idle", help="minutes a session lasts without a request.")
]
SessionLifetime = Annotated[
    float, typer.Option("--session-lifetime", help="hours a session lasts at most.")
]


@app.command()
def serve(
    db: DbOption = None,
    host: Annotated[str, typer.Option("--host", help="address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port to listen on.")] = 8000,
    no_demo: NoDemo = False,
    training: Training = False,
    lock_after: LockAfter = 5,
    address_lock_after: AddressLockAfter = 50,
    lock_for: LockFor = 900.0,
    sign_in_delay: SignInDelay = 1.0,
    tables: Tables = None,
    tls_cert: TlsCert = None,
    tls_key: TlsKey = None,
    allowed_host: Hosts = None,
    allowed_origin: Origins = None,
    trusted_proxy: Proxies = None,
    docs: Docs = False,
    session_idle: SessionIdle = 30.0,
    session_lifetime: SessionLifetime = 12.0,
    demo_devices: Annotated[
        bool,
        typer.Option(
            "--demo-devices",
            help="a demo floor: add a table dealt by the reader emulator and one keyed by the "
            "dealer (issue 39).",
        ),
    ] = False,
) -> None:
    """The live table system (API, WebSocket, web page) until Ctrl-C; a demo floor by default."""
    require("server", "serve")
    from datetime import timedelta

    from croupier.core.errors import InvalidInput
    from croupier.server.auth import FloorMode
    from croupier.server.perimeter import Perimeter
    from croupier.server.run import DemoDevices, Tls
    from croupier.server.run import serve as run
    from croupier.server.sessions import SessionLimits
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
    perimeter = Perimeter.serving(
        host,
        hosts=allowed_host or (),
        origins=allowed_origin or (),
        docs=docs or mode is not FloorMode.REAL,
    )
    sessions = SessionLimits.of(idle_minutes=session_idle, lifetime_hours=session_lifetime)
    run(
        floor_url(db),
        host=host,
        port=port,
        mode=mode,
        limits=limits,
        tables=served,
        tls=Tls.of(tls_cert, tls_key),
        perimeter=perimeter,
        sessions=sessions,
        proxies=trusted_proxy or (),
        devices=DemoDevices.EMULATED if demo_devices else DemoDevices.NONE,
    )


@db_app.command("upgrade")
def db_upgrade(db: DbOption = None, json_out: JsonOption = False) -> None:
    """Apply the schema migrations (the schema is only ever changed by a migration)."""
    require("server", "db upgrade")
    from croupier.server.db import upgrade
    from croupier.store import masked_url

    applied = upgrade(floor_url(db))
    shown = masked_url(floor_url(db))  # a PostgreSQL password is not printed
    if json_out:
        emit_json({"database": shown, "applied": applied})
    else:
        typer.echo(f"{shown}: " + (f"migrated to {applied[-1]}" if applied else "up to date"))
