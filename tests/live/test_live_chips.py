"""Every chip and every record: idempotent commands, the double-entry ledger, hand-pays."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from croupier.core.money import MAX_WAGER
from croupier.faces.bots import play_round
from croupier.faces.client import Client
from live.live_harness import Server

TABLE = "three-card-poker"


def _state(auditor: Client, supervisor: Client) -> tuple[Any, ...]:
    audit = auditor.audit()
    rounds = supervisor.rounds(TABLE, last=100)
    return (audit["balances"], [len(r["records"]) for r in rounds])


def test_resending_every_command_of_a_full_round_moves_nothing_twice(server: Server) -> None:
    dealer = server.client("dealer")
    auditor, supervisor = server.client("auditor"), server.client("supervisor")
    players = {seat: server.client(f"player{seat}") for seat in (1, 2, 3)}
    for seat, player in players.items():
        player.sit(TABLE, seat)
    for client in (dealer, *players.values()):
        client.sent = []
    played = play_round(dealer, players, TABLE, dealer.table(TABLE))
    assert played.phase == "over"
    before = _state(auditor, supervisor)
    sent = [s for c in (dealer, *players.values()) for s in (c.sent or [])]
    assert len(sent) == played.commands
    for client in (dealer, *players.values()):
        for method, path, body, key, first in list(client.sent or []):
            # The retry returns the first response, word for word.
            assert client.request(method, path, body, key=key) == first
    assert _state(auditor, supervisor) == before


def test_ledger_sums_to_zero_and_equals_the_settlements(server: Server) -> None:
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    players = {seat: server.client(f"player{seat}") for seat in range(1, 8)}
    for seat, player in players.items():
        player.sit(TABLE, seat)
    start = {seat: p.me()["balance"] for seat, p in players.items()}
    for _ in range(3):
        assert play_round(dealer, players, TABLE, dealer.table(TABLE)).phase == "over"
    net = dict.fromkeys(players, 0)
    for rnd in supervisor.rounds(TABLE, last=3):
        for seat, entry in rnd["settlement"].items():
            net[int(seat)] += entry["net"]
    for seat, player in players.items():
        assert player.me()["balance"] - start[seat] == net[seat]
    audit = supervisor.audit()
    assert audit["ok"], audit["problems"]
    assert sum(Fraction(v) for v in audit["balances"].values()) == 0
    assert Fraction(audit["balances"][f"table:{TABLE}"]) == 0  # the round's chips went home


def test_a_retry_with_a_key_of_another_request_is_refused(sqlite_server: Server) -> None:
    player = sqlite_server.client("player1")
    player.sit(
        TABLE,
        1,
    )
    dealer = sqlite_server.client("dealer")
    dealer.new_round(TABLE)
    player.wager(TABLE, "ante", 500, key="same-key")
    r = player.http.post(
        f"/api/tables/{TABLE}/wagers",
        json={"wager": "pair_plus", "amount": 500},
        headers={"Authorization": f"Bearer {player.token}", "Idempotency-Key": "same-key"},
    )
    assert r.status_code == 409
    assert dealer.view(TABLE)["round"]["stakes"] == {"1": {"ante": 500}}


def test_buy_in_and_cash_out_move_chips_through_the_cage(sqlite_server: Server) -> None:
    supervisor, player = sqlite_server.client("supervisor"), sqlite_server.client("player4")
    start = player.me()["balance"]
    assert supervisor.buy_in("P4", 2500, key="b1")["balance"] == start + 2500
    assert supervisor.buy_in("P4", 2500, key="b1")["balance"] == start + 2500  # a retry
    assert supervisor.cash_out("P4", 1000)["balance"] == start + 1500
    assert player.me()["balance"] == start + 1500


def test_a_buy_in_tells_the_tables_where_the_player_sits_without_the_amount(
    sqlite_server: Server,
) -> None:
    supervisor, player = sqlite_server.client("supervisor"), sqlite_server.client("player4")
    other = sqlite_server.client("player5")
    player.sit(TABLE, 3)
    seq = int(player.view(TABLE)["seq"])
    with other.stream(TABLE, since=seq) as stream:
        supervisor.buy_in("P4", 2500)
        supervisor.cash_out("P4", 700)
        events = [stream.next(), stream.next()]
    assert [(e.type, e.data) for e in events] == [
        ("chips", {"seats": [3], "kind": "buy_in"}),
        ("chips", {"seats": [3], "kind": "cash_out"}),
    ]  # another seat's device learns no amount; the player's own reads it from /api/me


def test_a_wager_above_the_largest_is_refused_over_http_and_moves_no_chip(
    sqlite_server: Server,
) -> None:
    # croupier.core.money.MAX_WAGER: the largest wager whose every win a record holds exactly
    player, dealer = sqlite_server.client("player1"), sqlite_server.client("dealer")
    auditor = sqlite_server.client("auditor")
    player.sit(TABLE, 1)
    dealer.new_round(TABLE)
    balance, books = player.me()["balance"], auditor.audit()["balances"]
    for amount in (MAX_WAGER + 1, 2**52):
        r = player.http.post(
            f"/api/tables/{TABLE}/wagers",
            json={"wager": "pair_plus", "amount": amount, "seat": 1},
            headers={"Authorization": f"Bearer {player.token}", "Idempotency-Key": f"k{amount}"},
        )
        assert r.status_code == 422, r.text
        assert r.headers["content-type"] == "application/problem+json"
    assert dealer.view(TABLE)["round"]["stakes"] == {}
    assert player.me()["balance"] == balance
    assert auditor.audit()["balances"] == books
    schema = player.http.get("/openapi.json").json()["components"]["schemas"]["Wager"]
    assert schema["properties"]["amount"]["maximum"] == MAX_WAGER
