"""Running the server: ``croupier serve`` (Uvicorn, until Ctrl-C)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TextIO

from croupier.core.errors import InvalidInput
from croupier.server.auth import FloorMode
from croupier.server.db import DEFAULT_SERVER_URL
from croupier.server.perimeter import Perimeter
from croupier.server.sessions import SessionLimits
from croupier.server.signin import SignInLimits

__all__ = ["GRACEFUL_SHUTDOWN", "KEEP_ALIVE", "DemoDevices", "Tls", "serve"]

GRACEFUL_SHUTDOWN = 5
"""Seconds a stopping server (SIGTERM, Ctrl-C) waits for its requests in flight to finish
before cancelling them (a stream ends at once: the shutdown closes its connection)."""

KEEP_ALIVE = 75
"""Seconds an idle HTTP connection stays open for the client's next request (Uvicorn's
``timeout_keep_alive``, and HAProxy's ``timeout http-keep-alive`` before several servers).  A
person at a table acts every few seconds to a minute: a browser keeps its connection that long,
and so does croupier's client (:data:`croupier.faces.client.KEEP_ALIVE`, a little less, so that
it never sends on a connection the server is closing)."""


class DemoDevices(Enum):
    """Whether a demo floor gets its tables of real cards (issue 39, ``--demo-devices``)."""

    NONE = "none"
    EMULATED = "emulated"
    """A Four Card Poker table dealt by the reader emulator and one keyed by the dealer."""


@dataclass(frozen=True, slots=True)
class Tls:
    """The server's certificate chain and private key (PEM files): ``croupier serve
    --tls-cert FILE --tls-key FILE`` serves HTTPS and WSS itself."""

    cert: Path
    key: Path

    @classmethod
    def of(cls, cert: str | None, key: str | None) -> Tls | None:
        """The pair from the command line (``None``: neither given); :class:`InvalidInput`
        where one is missing or not a file."""
        if cert is None and key is None:
            return None
        if cert is None or key is None:
            raise InvalidInput("--tls-cert and --tls-key go together: give both or neither")
        for option, value in (("--tls-cert", cert), ("--tls-key", key)):
            if not Path(value).is_file():
                raise InvalidInput(f"{option} {value!r} is not a file")
        return cls(Path(cert), Path(key))


def serve(
    db_url: str = DEFAULT_SERVER_URL,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    mode: FloorMode = FloorMode.DEMO,
    limits: SignInLimits | None = None,
    out: TextIO | None = None,
    tables: frozenset[str] | None = None,
    tls: Tls | None = None,
    perimeter: Perimeter | None = None,
    sessions: SessionLimits | None = None,
    proxies: Sequence[str] = (),
    devices: DemoDevices = DemoDevices.NONE,
) -> None:
    """Migrate the database, set up the demo floor (where the database has none), print the URL
    and the demo credentials (a demo or training floor only) or the one-time set-up token (a
    real floor with no administrator), and serve until interrupted.

    ``limits``: the sign-in delays and locks; ``tls``: serve HTTPS itself; ``perimeter``: the
    allowed hosts and origins (default: ``host`` and the loopback names; ``/docs`` on a demo
    or training floor); ``sessions``: idle time and lifetime; ``proxies``: the addresses of
    the TLS proxies in front of it (HAProxy) whose ``X-Forwarded-Proto`` and
    ``X-Forwarded-For`` are believed (default: 127.0.0.1)."""
    import uvicorn

    from croupier.server.app import create_app
    from croupier.store import masked_url

    stream = out if out is not None else sys.stdout
    shield = (
        perimeter
        if perimeter is not None
        else Perimeter.serving(host, docs=mode is not FloorMode.REAL)
    )
    app = create_app(
        db_url, mode=mode, limits=limits, tables=tables, perimeter=shield, sessions=sessions
    )
    url = f"{'https' if tls else 'http'}://{host}:{port}/"
    if tables is not None:
        stream.write(f"serving tables {', '.join(sorted(tables))}\n")
    shown = masked_url(db_url)  # a PostgreSQL password is not printed
    api = f"API {url}docs" if shield.docs else f"API {url}openapi.json"
    stream.write(f"croupier live tables on {url}  ({api}, database {shown})\n")
    stream.write(f"answering to the hosts {', '.join(sorted(shield.hosts))}\n")
    _banner(stream, mode, app.state.demo_credentials, app.state.setup_token)
    if devices is DemoDevices.EMULATED and mode is not FloorMode.REAL:
        # issue 39: a table dealt by the reader emulator and one keyed by the dealer
        from croupier.server.demo.devices import DEVICE_TABLES, add_device_tables, start_demo_reader

        add_device_tables(app.state.floor)
        start_demo_reader(app.state.floor, url.rstrip("/"))
        stream.write(f"tables of real cards: {', '.join(DEVICE_TABLES)} (a reader emulator deals ")
        stream.write("the first)\n")
    stream.write("Ctrl-C stops the server.\n")
    stream.flush()
    # No per-message compression of the streams: small JSON events on a floor's network, where
    # deflating each one costs the server more CPU than the bytes it saves.  A stream's message
    # is bounded as a request's body is (a token, a few dozen bytes, is all a client sends).
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        timeout_keep_alive=KEEP_ALIVE,
        ws_per_message_deflate=False,
        ws_max_size=shield.max_body,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN,
        server_header=False,
        ssl_certfile=str(tls.cert) if tls else None,
        ssl_keyfile=str(tls.key) if tls else None,
        forwarded_allow_ips=",".join(proxies) if proxies else None,
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
