"""A table stream read with ``frames=batch`` (as the table page reads it,
:class:`croupier.server.streams.Framing`): each batch the server sends goes as one WebSocket
message, an array of the very messages the default framing sends one by one.  Read by every
role that may read the stream, before, during and after a round, it holds the same messages in
the same order (the carried state included), none missed nor repeated; a connection open
while the round is played is sent one message a command."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from websockets.sync.client import ClientConnection, connect

from croupier.faces.client import Client
from live.live_harness import Server

TABLE = "three-card-poker"
READERS = ("player1", "player2", "dealer", "supervisor", "observer")


def _open(client: Client, since: int, frames: str) -> ClientConnection:
    url = f"{client.stream_url(TABLE, since=since)}&carry=state&frames={frames}"
    return connect(url, additional_headers=client.stream_headers(), open_timeout=10)


def _read(conn: ClientConnection, until: int) -> list[list[dict[str, Any]]]:
    """The stream's WebSocket messages, each as the list of stream messages it holds, until
    the one at ``until`` (a lone message: a list of one)."""
    frames: list[list[dict[str, Any]]] = []
    while not frames or frames[-1][-1]["seq"] < until:
        data = json.loads(conn.recv(timeout=30))
        frames.append(data if isinstance(data, list) else [data])
    return frames


def _flat(frames: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return [m for frame in frames for m in frame]


def test_a_batch_framed_stream_sends_what_the_event_framed_one_sends(
    sqlite_server: Server,
) -> None:
    server = sqlite_server
    clients = {name: server.client(name) for name in READERS}
    p1, p2, dealer = clients["player1"], clients["player2"], clients["dealer"]
    start = int(dealer.view(TABLE)["seq"])
    commands: list[Callable[[], object]] = [
        lambda: p1.sit(TABLE, 1),
        lambda: p2.sit(TABLE, 2),
        lambda: dealer.new_round(TABLE),
        lambda: p1.wager(TABLE, "ante", 500),
        lambda: p2.wager(TABLE, "ante", 700),
        lambda: dealer.no_more_bets(TABLE),
        lambda: dealer.step(TABLE, "deal"),
        lambda: p1.decide(TABLE, "play"),
        lambda: p2.decide(TABLE, "fold"),
        lambda: dealer.step(TABLE, "reveal"),
        lambda: dealer.step(TABLE, "settle"),
    ]
    seen: dict[str, list[list[dict[str, Any]]]] = {name: [] for name in clients}
    with ExitStack() as stack:
        live = {name: stack.enter_context(_open(c, start, "batch")) for name, c in clients.items()}
        for command in commands:
            command()
            seq = int(dealer.view(TABLE)["seq"])
            for name, conn in live.items():
                got = _read(conn, seq)
                # each command's events together: one message (its last carries the state)
                assert len(got) == 1 and "view" in got[0][-1], (name, [len(f) for f in got])
                seen[name] += got
    end = int(dealer.view(TABLE)["seq"])
    assert end - start > len(commands)  # some commands made several events
    for name, client in clients.items():
        live_seqs = [m["seq"] for m in _flat(seen[name])]
        assert live_seqs == list(range(start + 1, end + 1)), name
        # read afresh: one batch from the start, the same messages as the default framing's
        with _open(client, start, "batch") as batched, _open(client, start, "event") as single:
            one, each = _read(batched, end), _read(single, end)
        assert len(one) == 1 and all(len(frame) == 1 for frame in each), name
        assert _flat(one) == _flat(each), name
        assert [m["seq"] for m in _flat(one)] == live_seqs, name
