"""A full round of Three Card Poker, Four Card Poker, Let It Ride and Ultimate Texas Hold 'Em
played by clicking (:mod:`clicked_rounds`: the dealer and two players in their own browser
contexts; no player's page ever holds a card it may not see), and the stream's resumption."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from clicked_rounds import leave_every_seat, play_round
from playwright.sync_api import Browser
from shots import Shots

from croupier.faces.client import tls_context

GAMES: dict[str, list[str]] = {
    # table id (the demo floor: one table of every game) -> the wagers each player places
    "three-card-poker": ["ante", "pair_plus"],
    "four-card-poker": ["ante"],
    "let-it-ride": ["bet1", "bet2", "bet3"],
    "ultimate-texas-holdem": ["ante", "blind"],
}


@pytest.mark.parametrize("table", list(GAMES))
def test_full_round_by_clicking_hides_every_card_a_player_may_not_see(
    browser: Browser, live_server: str, shots: Shots, table: str
) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    try:
        play_round(contexts, live_server, shots, table, GAMES[table])
    finally:
        for ctx in contexts:
            ctx.close()
        leave_every_seat(live_server)


def test_stream_resumes_from_the_last_sequence_number(live_server: str) -> None:
    """The page's reconnect asks ``since=<last seq>``: the server sends exactly what was
    missed (checked here on the socket itself, as the page uses it)."""
    from websockets.sync.client import connect

    with httpx.Client(base_url=live_server, timeout=30, verify=tls_context()) as client:
        tokens = {}
        for user in ("observer", "player3"):
            res = client.post("/api/login", json={"username": user, "password": f"{user}-demo"})
            tokens[user] = res.json()["token"]
        player = {"Authorization": f"Bearer {tokens['player3']}"}
        for n in range(4):  # eight "seats" events on the table's stream
            sit = {**player, "Idempotency-Key": f"sit-{n}"}
            client.post("/api/tables/three-card-poker/sit", json={"seat": 7}, headers=sit)
            leave = {**player, "Idempotency-Key": f"leave-{n}"}
            client.post("/api/tables/three-card-poker/leave", headers=leave)
    url = live_server.replace("http", "ws") + "/api/tables/three-card-poker/stream"
    token = tokens["observer"]

    def read(since: int, count: int) -> list[dict[str, Any]]:
        # max_queue=None: the messages not read here (the rounds' records after them) are
        # buffered, not left on the socket; with websockets' default queue of 16 the client stops
        # reading, misses the server's close frame and waits out its 10 s close timeout
        # the page's way: the token in the first message (never in the address)
        with connect(f"{url}?since={since}", max_queue=None) as ws:
            ws.send(json.dumps({"token": token}))
            return [json.loads(ws.recv(timeout=10)) for _ in range(count)]

    first = read(0, 6)
    assert [e["seq"] for e in first] == sorted({e["seq"] for e in first})
    again = read(first[2]["seq"], 3)
    assert again == first[3:6]
