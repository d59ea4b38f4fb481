"""Running the server: ``croupier serve`` (Uvicorn, until Ctrl-C)."""

from __future__ import annotations

import sys
from typing import TextIO

from croupier.server.db import DEFAULT_SERVER_URL

__all__ = ["GRACEFUL_SHUTDOWN", "serve"]

GRACEFUL_SHUTDOWN = 5
"""Seconds a stopping server (SIGTERM, Ctrl-C) waits for its requests in flight to finish
before cancelling them (a stream ends at once: the shutdown closes its connection)."""


def serve(
    db_url: str = DEFAULT_SERVER_URL,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    demo: bool = True,
    out: TextIO | None = None,
    tables: frozenset[str] | None = None,
) -> None:
    """Migrate the database, set up the demo floor (where the database has none), print the URL
    and the demo credentials, and serve until interrupted."""
    import uvicorn

    from croupier.server.app import create_app
    from croupier.store._db import masked_url

    stream = out if out is not None else sys.stdout
    app = create_app(db_url, demo=demo, tables=tables)
    url = f"http://{host}:{port}/"
    if tables is not None:
        stream.write(f"serving tables {', '.join(sorted(tables))}\n")
    shown = masked_url(db_url)  # a PostgreSQL password is not printed
    stream.write(f"croupier live tables on {url}  (API {url}docs, database {shown})\n")
    creds: dict[str, str] = app.state.demo_credentials
    if creds:
        stream.write("demo accounts (username / password):\n")
        for username, password in creds.items():
            stream.write(f"  {username:<12} {password}\n")
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
