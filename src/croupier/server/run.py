"""Running the server: ``croupier serve`` (Uvicorn, until Ctrl-C)."""

from __future__ import annotations

import sys
from typing import TextIO

from croupier.server.auth import FloorMode
from croupier.server.db import DEFAULT_SERVER_URL
from croupier.server.signin import SignInLimits

__all__ = ["GRACEFUL_SHUTDOWN", "serve"]

GRACEFUL_SHUTDOWN = 5
"""Seconds a stopping server (SIGTERM, Ctrl-C) waits for its requests in flight to finish
before cancelling them (a stream ends at once: the shutdown closes its connection)."""


def serve(
    db_url: str = DEFAULT_SERVER_URL,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    mode: FloorMode = FloorMode.DEMO,
    limits: SignInLimits | None = None,
    out: TextIO | None = None,
    tables: frozenset[str] | None = None,
) -> None:
    """Migrate the database, set up the demo floor (where the database has none), print the URL
    and the demo credentials (a demo or training floor only) or the one-time set-up token (a
    real floor with no administrator), and serve until interrupted."""
    import uvicorn

    from croupier.server.app import create_app
    from croupier.store._db import masked_url

    stream = out if out is not None else sys.stdout
    app = create_app(db_url, mode=mode, limits=limits, tables=tables)
    url = f"http://{host}:{port}/"
    if tables is not None:
        stream.write(f"serving tables {', '.join(sorted(tables))}\n")
    shown = masked_url(db_url)  # a PostgreSQL password is not printed
    stream.write(f"croupier live tables on {url}  (API {url}docs, database {shown})\n")
    _banner(stream, mode, app.state.demo_credentials, app.state.setup_token)
    stream.write("Ctrl-C stops the server.\n")
    stream.flush()
    # No per-message compression of the streams: small JSON events on a floor's network, where
    # deflating each one costs the server more CPU than the bytes it saves.
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        timeout_keep_alive=75,
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN,
    )


def _banner(stream: TextIO, mode: FloorMode, creds: dict[str, str], token: str | None) -> None:
    """What the operator needs to sign in: the published demo passwords on a demo or training
    floor only; on a real floor with no administrator, the one-time set-up token (printed this
    once: only its hash is stored)."""
    if creds and mode.admits_demo:
        stream.write(f"{mode.value} floor: demo accounts (username / password), refused on a ")
        stream.write("floor started with --no-demo:\n")
        for username, password in creds.items():
            stream.write(f"  {username:<12} {password}\n")
    if token is not None:
        stream.write(
            "no administrator yet: create the first with `croupier accounts create NAME --role "
            "admin`, or POST /api/setup with this one-time set-up token (valid 24 hours, "
            f"shown once):\n  {token}\n"
        )
