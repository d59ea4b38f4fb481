"""``croupier serve`` and ``croupier db upgrade``: the live table system (``croupier recall``,
in :mod:`croupier.cli.recall`, reads its floor tables through :mod:`croupier.server.recall`)."""

from __future__ import annotations

from typing import Annotated

import typer

from croupier.cli.app import JsonOption, app, emit_json

__all__ = ["db_upgrade", "serve"]

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


@app.command()
def serve(
    db: DbOption = None,
    host: Annotated[str, typer.Option("--host", help="address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port to listen on.")] = 8000,
    no_demo: Annotated[bool, typer.Option("--no-demo", help="no demo floor.")] = False,
    tables: Annotated[
        str | None,
        typer.Option(
            "--tables",
            help="serve only these tables (comma-separated): one of several server processes "
            "on one PostgreSQL database, each table served by one of them.",
        ),
    ] = None,
    tls_cert: Annotated[
        str | None, typer.Option("--tls-cert", help="PEM certificate chain: serve HTTPS/WSS.")
    ] = None,
    tls_key: Annotated[
        str | None, typer.Option("--tls-key", help="PEM private key of --tls-cert.")
    ] = None,
    allowed_host: Hosts = None,
    allowed_origin: Origins = None,
    trusted_proxy: Proxies = None,
    docs: Annotated[
        bool,
        typer.Option("--docs", help="serve the API's /docs page (on a demo floor by default)."),
    ] = False,
    session_idle: Annotated[
        float, typer.Option("--session-idle", help="minutes a session lasts without a request.")
    ] = 30.0,
    session_lifetime: Annotated[
        float, typer.Option("--session-lifetime", help="hours a session lasts at most.")
    ] = 12.0,
) -> None:
    """The live table system (API, WebSocket, web page) until Ctrl-C; a demo floor by default."""
    from croupier.server.perimeter import Perimeter
    from croupier.server.run import Tls
    from croupier.server.run import serve as run
    from croupier.server.sessions import SessionLimits

    served = frozenset(t for t in tables.split(",") if t) if tables else None
    perimeter = Perimeter.serving(
        host, hosts=allowed_host or (), origins=allowed_origin or (), docs=docs or not no_demo
    )
    limits = SessionLimits.of(idle_minutes=session_idle, lifetime_hours=session_lifetime)
    run(
        _url(db),
        host=host,
        port=port,
        demo=not no_demo,
        tables=served,
        tls=Tls.of(tls_cert, tls_key),
        perimeter=perimeter,
        sessions=limits,
        proxies=trusted_proxy or (),
    )


@db_app.command("upgrade")
def db_upgrade(db: DbOption = None, json_out: JsonOption = False) -> None:
    """Apply the schema migrations (the schema is only ever changed by a migration)."""
    from croupier.server.db import upgrade
    from croupier.store._db import masked_url

    applied = upgrade(_url(db))
    shown = masked_url(_url(db))  # a PostgreSQL password is not printed
    if json_out:
        emit_json({"database": shown, "applied": applied})
    else:
        typer.echo(f"{shown}: " + (f"migrated to {applied[-1]}" if applied else "up to date"))
