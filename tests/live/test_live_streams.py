"""The floor (pit) stream is resumable: its ``seq`` is the floor's version, the sum of every
table's committed events (read from the database), so it grows with every change, survives a
restart unchanged, and a client reconnecting with its last ``seq`` receives the floor as it now
stands (every change after that version included) before anything else."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import connect

from croupier.client import Client
from live.live_harness import Server

TABLE = "three-card-poker"


def _floor(client: Client, since: int) -> dict[str, Any]:
    """The first message of the floor stream from ``since``."""
    ws = client.base_url.replace("http://", "ws://")
    with connect(f"{ws}/api/floor/stream?token={client.token}&since={since}") as conn:
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
