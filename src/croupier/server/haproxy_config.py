"""HAProxy before several ``croupier serve`` processes on one PostgreSQL (docs/scale-out.md).

:func:`haproxy_config` writes the configuration of Debian's HAProxy (installed by
``scripts/haproxy-install.sh``) for N servers under one URL:

- ``balance uri depth 3`` with ``hash-type consistent``: a request is sent by the hash of its
  path's first three levels (``/api/tables/T1``), so a table's commands, views and stream
  usually reach one process and its state stays warm there; a server going down moves only
  its own tables.  Correctness never depends on it: a command takes the database's lock for
  its table and rebuilds a table another process moved (:mod:`croupier.server.table_sync`).
- a TCP health check every :data:`CHECK_MS` (Uvicorn accepts connections only once the
  application has started); ``option redispatch`` with ``retries``: a request whose connection
  is refused (its server was just killed) goes to another server after HAProxy's turn-around
  delay (``timeout connect``, 500 ms); HAProxy retries only a connection that failed, never a
  request a server received.
- ``timeout http-keep-alive``: a client's idle connection stays open as long as ``croupier
  serve`` keeps one (:data:`croupier.server.run.KEEP_ALIVE`), not only ``timeout
  http-request``'s 10 s;
- ``timeout tunnel``: a WebSocket stream stays open while idle (its pump polls every 2 s);
  ``on-marked-down shutdown-sessions`` closes the streams of a server marked down, so their
  clients reconnect with their last ``seq`` (to the other server).
- ``maxconn`` :data:`MAXCONN`: each person at a table holds a stream and a keep-alive
  connection (a 400-table floor of eight people a table: some 6,400 connections);
- each answer names the server that gave it (``X-Croupier-Server: s1``);
- it listens on ``127.0.0.1`` unless told otherwise (TLS: docs/TLS.md).

``python -m croupier.server.haproxy_config --listen 8000 --backend 127.0.0.1:8001
--backend 127.0.0.1:8002`` prints it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from croupier.core.errors import InvalidInput
from croupier.server.run import KEEP_ALIVE

__all__ = ["CHECK_MS", "MAXCONN", "Backend", "haproxy_config", "main", "parse_backend"]

CHECK_MS = 500
"""Milliseconds between two health checks of a server (two failures mark it down)."""

MAXCONN = 8000
"""Connections HAProxy holds at once.  It needs about two file descriptors each, which the
open-file limit it starts under must allow (16,019 for 8,000)."""


@dataclass(frozen=True, slots=True)
class Backend:
    """One ``croupier serve`` process: its address and port."""

    host: str
    port: int


def parse_backend(text: str) -> Backend:
    """``HOST:PORT`` (a refusal names the input)."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InvalidInput(f"backend {text!r} is not HOST:PORT (a port 1-65535)")
    return Backend(host, int(port))


def haproxy_config(
    backends: Sequence[Backend], *, listen_port: int, listen_host: str = "127.0.0.1"
) -> str:
    """The haproxy.cfg of one frontend on ``listen_host:listen_port`` before ``backends``."""
    if not backends:
        raise InvalidInput("backends: at least one croupier serve process is needed")
    if not 0 < listen_port < 65536:
        raise InvalidInput(f"listen port {listen_port} is not 1-65535")
    servers = "\n".join(
        f"    server s{n} {b.host}:{b.port} check inter {CHECK_MS} fall 2 rise 2 "
        "on-marked-down shutdown-sessions"
        for n, b in enumerate(backends, 1)
    )
    return f"""global
    maxconn {MAXCONN}

defaults
    mode http
    option http-server-close
    option redispatch 1
    retries 3
    timeout connect 500ms
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    timeout client-fin 5s
    timeout http-request 10s
    timeout http-keep-alive {KEEP_ALIVE}s

frontend croupier
    bind {listen_host}:{listen_port}
    default_backend servers

backend servers
    balance uri depth 3
    hash-type consistent
    http-response set-header X-Croupier-Server %s
{servers}
"""


def main(argv: Sequence[str] | None = None) -> int:
    """Print the configuration (a refused argument: one line on stderr, exit 2)."""
    parser = argparse.ArgumentParser(description="haproxy.cfg for several croupier servers")
    parser.add_argument("--listen", type=int, required=True, help="the port HAProxy listens on")
    parser.add_argument("--host", default="127.0.0.1", help="the address it listens on")
    parser.add_argument("--backend", action="append", default=[], help="HOST:PORT of a server")
    args = parser.parse_args(argv)
    try:
        backends = [parse_backend(b) for b in args.backend]
        text = haproxy_config(backends, listen_port=args.listen, listen_host=args.host)
    except InvalidInput as exc:
        print(f"haproxy_config: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
