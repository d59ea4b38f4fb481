"""The floor (pit) stream is resumable: its ``seq`` is the floor's version, the sum of every
table's committed events (read from the database), so it grows with every change, survives a
restart unchanged, and a client reconnecting with its last ``seq`` receives the floor as it now
stands (every change after that version included) before anything else.  A server stopping
with streams open closes them and exits at once."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.frames import Close, CloseCode
from websockets.sync.client import connect

from croupier.faces.client import Client
from croupier.server.run import GRACEFUL_SHUTDOWN
from live.live_harness import Server

TABLE = "three-card-poker"


def _floor(client: Client, since: int) -> dict[str, Any]:
    """The first message of the floor stream from ``since``."""
    ws = client.base_url.replace("http://", "ws://")
    url = f"{ws}/api/floor/stream?since={since}"
    with connect(url, additional_headers=client.stream_headers()) as conn:
        message: dict[str, Any] = json.loads(conn.recv(timeout=60))
    return message


def _tables_seq(server: Server) -> int:
    dealer = server.client("dealer")
    return sum(int(dealer.view(t["id"])["seq"]) for t in dealer.tables())


def test_floor_stream_resumes_from_its_last_seq_across_a_restart(sqlite_server: Server) -> None:
    server = sqlite_server
    observer, dealer, p1 = (server.client(n) for n in ("observer", "dealer", "player1"))
    first = _floor(observer, 0)
    assert first["type"] == "floor" and first["seq"] == _tables_seq(server)
    assert first["data"]["tables_seq"].get(TABLE, 0) == dealer.view(TABLE)["seq"]
    # Changes while the observer is away: a seat taken, a round opened, a wager.
    p1.sit(TABLE, 1)
    started = dealer.new_round(TABLE)
    p1.wager(TABLE, "ante", 500)
    resumed = _floor(observer, first["seq"])
    assert resumed["seq"] == first["seq"] + (
        dealer.view(TABLE)["seq"] - first["data"]["tables_seq"].get(TABLE, 0)
    )
    table = next(t for t in resumed["data"]["tables"] if t["id"] == TABLE)
    assert table["round_id"] == started["round_id"] and table["seats"]["1"] == "P1"
    # The version is the database's: the same after a restart, and it resumes from there.
    server.kill()
    server.start()
    observer = server.client("observer")
    again = _floor(observer, 0)
    assert again["seq"] == resumed["seq"]
    assert again["data"]["tables_seq"] == resumed["data"]["tables_seq"]
    p1 = server.client("player1")
    p1.wager(TABLE, "pair_plus", 500)
    after = _floor(observer, again["seq"])
    assert after["seq"] > again["seq"]
    assert after["data"]["tables_seq"][TABLE] == server.client("dealer").view(TABLE)["seq"]


def test_a_server_with_open_streams_stops_on_sigterm_at_once_and_closes_them(
    sqlite_server: Server,
) -> None:
    """A stream only sends, yet a server asked to stop (SIGTERM, Ctrl-C) closes its open table
    and floor streams and exits at once, well within its graceful shutdown's bound (a stream
    that outlived its connection kept the server waiting until that bound, or for ever); a
    stream its client closed earlier, on a table that then stays quiet, holds nothing up."""
    server = sqlite_server
    observer = server.client("observer")
    ws = server.url.replace("http://", "ws://")
    bearer = observer.stream_headers()
    with connect(f"{ws}/api/tables/{TABLE}/stream", additional_headers=bearer) as early:
        server.client("dealer").view(TABLE)  # the stream is up (and then closed by its client)
    closes: dict[str, Close | None] = {}

    def read(name: str, url: str) -> None:
        with connect(url, additional_headers=bearer) as conn:
            try:
                for _ in conn:
                    pass
            except ConnectionClosed:
                pass
            closes[name] = conn.protocol.close_rcvd

    readers = [
        threading.Thread(target=read, args=(name, url), daemon=True)
        for name, url in (
            ("table", f"{ws}/api/tables/{TABLE}/stream"),
            ("floor", f"{ws}/api/floor/stream"),
        )
    ]
    for reader in readers:
        reader.start()
    _floor(observer, 0)  # both streams are served: the server is busy with them
    assert early.protocol.close_rcvd is not None
    assert server.proc is not None
    began = time.monotonic()
    server.proc.terminate()
    server.proc.wait(timeout=60)
    took = time.monotonic() - began
    for reader in readers:
        reader.join(timeout=30)
    assert "timeout graceful shutdown exceeded" not in server.log.read_text()
    assert took < GRACEFUL_SHUTDOWN, took
    assert set(closes) == {"table", "floor"}, closes
    assert all(c is not None and c.code == CloseCode.SERVICE_RESTART for c in closes.values())
