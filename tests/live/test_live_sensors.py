"""The progressive table game system's sensors through the real server (issue 39): a device of
the table reports chips on the progressive sensors, the lights are in every view and in the
pit's device status, a sensor event after the lock-out is refused and recorded, a count
mismatch is held for a supervisor's recount, the audit rebuilds such rounds, and a sensor
device's token reports for its own table only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from croupier.faces.bots import play_round
from croupier.faces.client import ApiError, Client
from croupier.faces.reader import ShoeReader
from live.live_harness import Server


def _sensor_table(supervisor: Client, cards: str = "shuffle") -> tuple[str, dict[str, Any]]:
    """A Four Card Poker table of the demo's rules whose progressive wagers come from sensors."""
    rules = supervisor.get("/api/tables/four-card-poker")["rules"]
    assert "progressive" in rules
    rules["table"] = {**rules.get("table", {}), "progressive_wagers": "sensors", "cards": cards}
    table_id = f"fcp-sensors-{cards}"
    supervisor.post("/api/tables", {"id": table_id, "name": "sensor table", "rules": rules})
    if supervisor.get(f"/api/tables/{table_id}")["status"] != "open":
        supervisor.post(f"/api/tables/{table_id}/open")
    return table_id, supervisor.get(f"/api/tables/{table_id}")


def _device(server: Server, supervisor: Client, table_id: str) -> ShoeReader:
    issued = supervisor.post(f"/api/tables/{table_id}/devices")
    assert issued["device"] == f"{table_id}-sensors-1"
    return ShoeReader(server.url, table_id, issued["token"])


def _betting(server: Server, dealer: Client, table_id: str) -> tuple[dict[int, Client], str]:
    """Players at seats 1 and 2 with their Antes, a round open."""
    players = {seat: server.client(f"player{seat}") for seat in (1, 2)}
    for seat, player in players.items():
        player.sit(table_id, seat)
    round_id = str(dealer.new_round(table_id)["round_id"])
    for seat, player in players.items():
        player.wager(table_id, "ante", 500, seat=seat)
    return players, round_id


def _kinds(auditor: Client, round_id: str) -> list[str]:
    return [r["kind"] for r in auditor.records(round_id)["records"]]


def _finish(dealer: Client, players: Mapping[int, Client], table_id: str) -> str:
    """The dealer's steps and the seats' first decisions until the round ends."""
    last = dealer.view(table_id)["round"]
    for _ in range(60):
        phase, to_act = last["phase"], str(last.get("to_act"))
        if phase in ("over", "void"):
            return str(phase)
        if to_act.startswith("seat "):
            seat = int(to_act.removeprefix("seat "))
            last = players[seat].decide(table_id, "fold", seat=seat)
        else:
            step = {"reveal": "reveal", "settlement": "settle"}.get(phase, "deal")
            last = dealer.step(table_id, step)
    raise AssertionError(f"the round at {table_id} did not finish")


def test_641a_2_c_2_sensor_after_the_lock_out_refused_and_recorded_lights_in_every_view(
    server: Server,
) -> None:
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    auditor, observer = server.client("auditor"), server.client("observer")
    table_id, _ = _sensor_table(supervisor)
    device = _device(server, supervisor, table_id)
    players, round_id = _betting(server, dealer, table_id)
    # § 641a.2(c)(1): the sensors take the progressive wagers, not the players' commands
    with pytest.raises(ApiError) as placed:
        players[1].wager(table_id, "progressive", 100, seat=1)
    assert placed.value.status == 409
    for seat, light in ((1, "lit"), (2, "lit"), (2, "dark")):
        ack = device.sense(seat, light)
        assert ack["accepted"] and ack["records"] == ["wager_sensed"]
    lights = {"1": "lit", "2": "dark"}
    for client in (players[1], players[2], dealer, observer, supervisor):
        assert client.view(table_id)["round"].get("lights") == lights, client.view(table_id)[
            "round"
        ]
    (status,) = supervisor.get(f"/api/tables/{table_id}/devices")
    assert (status["last_seq"], status["silent"], status["lights"]) == (3, False, lights)
    assert dealer.get(f"/api/tables/{table_id}/actions")["progressive_chips"] == 1
    dealer.no_more_bets(table_id, 1)
    # § 641a.2(c)(2): the lock-out; the late chip is refused and the attempt recorded
    late = device.sense(2, "lit")
    assert (late["accepted"], late["records"]) == (False, ["sensor_refused"])
    assert "locked out" in str(late["refused"])
    assert dealer.view(table_id)["round"]["lights"] == lights
    assert device.duplicate() == late  # the resend: the same answer, nothing twice
    assert _finish(dealer, players, table_id) == "over"
    kinds = _kinds(auditor, round_id)
    assert kinds.count("wager_sensed") == 3 and kinds.count("sensor_refused") == 1
    audit = auditor.audit()
    assert audit["ok"] and audit["audit"]["findings"] == []
    device.close()


def test_641a_8_b_count_mismatch_held_until_the_supervisors_recount(server: Server) -> None:
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    auditor = server.client("auditor")
    table_id, _ = _sensor_table(supervisor)
    device = _device(server, supervisor, table_id)
    players, round_id = _betting(server, dealer, table_id)
    device.sense(1, "lit")
    meter_before = {m["name"]: m["amount"] for m in dealer.meters()}
    held = dealer.no_more_bets(table_id, 2)
    assert held["phase"] == "count_held" and held["records"][-1]["kind"] == "count_held"
    actions = dealer.get(f"/api/tables/{table_id}/actions")
    assert actions["count_held"] == {"counted": 2, "accepted": 1} and actions["steps"] == []
    for step in ("deal", "reveal"):
        with pytest.raises(ApiError) as refused:
            dealer.step(table_id, step)
        assert refused.value.status == 409
    # the dealer cannot resolve it: the supervisor recounts
    with pytest.raises(ApiError) as not_dealer:
        dealer.post(f"/api/tables/{table_id}/progressive-count", {"count": 1})
    assert not_dealer.value.status == 403
    assert {m["name"]: m["amount"] for m in dealer.meters()} == meter_before
    resolved = supervisor.post(f"/api/tables/{table_id}/progressive-count", {"count": 1})
    assert resolved["records"][0]["kind"] == "count_resolved"
    assert resolved["phase"] != "count_held"
    assert _finish(dealer, players, table_id) == "over"
    kinds = _kinds(auditor, round_id)
    assert kinds.index("count_held") < kinds.index("count_resolved") < kinds.index("card_dealt")
    audit = auditor.audit()
    assert audit["ok"] and audit["audit"]["findings"] == []
    device.close()


def test_641a_8_b_a_recount_that_differs_voids_the_round(server: Server) -> None:
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    table_id, _ = _sensor_table(supervisor)
    device = _device(server, supervisor, table_id)
    players, _ = _betting(server, dealer, table_id)
    balance = players[1].me()["balance"]  # the Ante placed
    device.sense(1, "lit")
    assert players[1].me()["balance"] == balance - 100  # the progressive chip: the system's
    dealer.no_more_bets(table_id, 0)
    voided = supervisor.post(f"/api/tables/{table_id}/progressive-count", {"count": 0})
    assert voided["phase"] == "void"
    assert players[1].me()["balance"] == balance + 500  # every wager returned
    device.close()


def test_a_sensor_devices_token_reports_for_its_own_table_only(sqlite_server: Server) -> None:
    server = sqlite_server
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    table_id, _ = _sensor_table(supervisor)
    device = _device(server, supervisor, table_id)
    as_device = Client(server.url)
    as_device.token = device.token
    for method, path in (
        ("GET", f"/api/tables/{table_id}/view"),
        ("POST", f"/api/tables/{table_id}/no-more-bets"),
        ("POST", f"/api/tables/{table_id}/progressive-count"),
        ("POST", f"/api/tables/{table_id}/wagers"),
        ("POST", "/api/tables/four-card-poker/reader/messages"),
    ):
        body = {"seq": 1, "type": "wager", "seat": 1, "light": "lit"} if "reader" in path else {}
        with pytest.raises(ApiError) as refused:
            as_device.request(method, path, body if method == "POST" else None)
        assert refused.value.status == 403, (method, path)
    # its table has no card reader: a card message is answered with a refusal (409)
    with pytest.raises(ApiError) as card:
        device.send({"seq": 1, "type": "card", "card": "As"})
    assert card.value.status == 409
    assert device.heartbeat()["accepted"]
    # a table without sensors refuses a sensor's message; a shuffle table issues no device
    with pytest.raises(ApiError) as no_device:
        supervisor.post("/api/tables/four-card-poker/devices")
    assert no_device.value.status == 409
    with pytest.raises(ApiError) as dealer_refused:
        dealer.post(f"/api/tables/{table_id}/reader/messages", {"seq": 2, "type": "heartbeat"})
    assert dealer_refused.value.status == 403
    as_device.close()
    device.close()


def test_a_reader_and_sensors_table_plays_full_rounds_from_one_device(server: Server) -> None:
    """Cards and sensors from the same device (one token, one numbering), the rounds audited."""
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    auditor = server.client("auditor")
    table_id, detail = _sensor_table(supervisor, "reader")
    issued = supervisor.post(f"/api/tables/{table_id}/devices")
    assert issued["device"] == f"{table_id}-reader-1"
    reader = ShoeReader(server.url, table_id, issued["token"])
    players = {seat: server.client(f"player{seat}") for seat in (1, 2)}
    for seat, player in players.items():
        player.sit(table_id, seat)
    for _ in range(2):
        reader.shuffle()
        done = play_round(
            dealer,
            players,
            table_id,
            detail,
            deal=reader.card,
            sense=lambda s: reader.sense(s, "lit"),
        )
        assert done.phase == "over"
        kinds = _kinds(auditor, done.round_id)
        assert kinds.count("wager_sensed") == 2 and "card_dealt" in kinds
    audit = auditor.audit()
    assert audit["ok"] and audit["audit"]["findings"] == []
    reader.close()


def test_641a_11_c_5_ii_a_declared_hand_at_the_felt_paid_after_the_supervisors_verification(
    server: Server,
) -> None:
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    auditor = server.client("auditor")
    table_id, _ = _sensor_table(supervisor, "felt")
    device = _device(server, supervisor, table_id)
    players = {seat: server.client(f"player{seat}") for seat in (1, 2)}
    for seat, player in players.items():
        player.sit(table_id, seat)
    round_id = str(dealer.new_round(table_id)["round_id"])
    with pytest.raises(ApiError) as at_felt:  # the base game's chips are at the felt
        players[1].wager(table_id, "ante", 500, seat=1)
    assert at_felt.value.status == 409
    for seat in (1, 2):
        device.sense(seat, "lit")
    balance = players[1].me()["balance"]
    assert dealer.no_more_bets(table_id, 2)["phase"] == "declaring"
    quads = {"seat": 1, "cards": "9c 9d 9h 9s 2c"}
    with pytest.raises(ApiError) as not_supervisor:
        supervisor.post(f"/api/tables/{table_id}/declarations", quads)
    assert not_supervisor.value.status == 403
    declared = dealer.post(f"/api/tables/{table_id}/declarations", quads)
    assert [r["kind"] for r in declared["records"]] == ["hand_declared"]
    assert players[1].me()["balance"] == balance  # nothing paid on the dealer's word
    assert dealer.get(f"/api/tables/{table_id}/actions")["declared"] == {"1": False}
    with pytest.raises(ApiError) as unverified:
        dealer.post(f"/api/tables/{table_id}/declarations/close")
    assert unverified.value.status == 409
    with pytest.raises(ApiError) as not_dealer:
        dealer.post(f"/api/tables/{table_id}/declarations/verify", {"seat": 1})
    assert not_dealer.value.status == 403
    verified = supervisor.post(f"/api/tables/{table_id}/declarations/verify", {"seat": 1})
    kinds = [r["kind"] for r in verified["records"]]
    assert kinds[0] == "declaration_verified" and "progressive_paid" in kinds
    paid = next(r for r in verified["records"] if r["kind"] == "progressive_paid")
    assert players[1].me()["balance"] == balance + paid["amount"]
    closed = dealer.post(f"/api/tables/{table_id}/declarations/close")
    assert closed["phase"] == "over"
    assert "envy_paid" in [r["kind"] for r in closed["records"]]  # seat 2, for seat 1's quads
    kinds = _kinds(auditor, round_id)
    assert kinds.index("hand_declared") < kinds.index("declaration_verified")
    assert "card_dealt" not in kinds
    audit = auditor.audit()
    assert audit["ok"] and audit["audit"]["findings"] == []
    device.close()


def test_a_chip_reading_layouts_amounts_are_the_seats_wagers(server: Server) -> None:
    """At a reader table with a chip-reading layout the device reports each Ante's amount: the
    seat's wager (its balance debited), refused below the posted minimum or beyond the seat's
    balance, a placed Ante refused; after the lock-out a reading is refused and recorded; the
    round deals from the reader and settles every wager, the audit rebuilds it."""
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    auditor = server.client("auditor")
    rules = supervisor.get("/api/tables/four-card-poker")["rules"]
    table = {"progressive_wagers": "sensors", "cards": "reader", "base_wagers": "chip_reading"}
    rules["table"] = {**rules.get("table", {}), **table}
    table_id = "fcp-chip-reading"
    supervisor.post("/api/tables", {"id": table_id, "name": "chip reading", "rules": rules})
    supervisor.post(f"/api/tables/{table_id}/open")
    issued = supervisor.post(f"/api/tables/{table_id}/devices")  # the reader reads the chips
    device = ShoeReader(server.url, table_id, issued["token"])
    players = {seat: server.client(f"player{seat}") for seat in (1, 2)}
    for seat, player in players.items():
        player.sit(table_id, seat)
    me = players[2].me()
    supervisor.cash_out(str(me["player_id"]), int(me["balance"]) - 300)  # 300 cents left
    round_id = str(dealer.new_round(table_id)["round_id"])
    with pytest.raises(ApiError) as placed:
        players[1].wager(table_id, "ante", 500, seat=1)
    assert placed.value.status == 409 and "read from the chips" in placed.value.problem["detail"]
    low = device.chips(1, "ante", 100)  # below the demo table's $5 minimum
    assert low["accepted"] is False and "minimum" in low["refused"] and low["records"] == []
    poor = device.chips(2, "ante", 500)
    assert poor["accepted"] is False and "has 300 cents" in poor["refused"], poor
    supervisor.buy_in(str(me["player_id"]), 1000)
    before = int(players[1].me()["balance"])
    for seat in (1, 2):
        read = device.chips(seat, "ante", 500)
        assert read["accepted"] and read["records"] == ["chips_read"], read
    assert players[1].me()["balance"] == before - 500  # the seat's wager, debited
    assert dealer.view(table_id)["round"]["stakes"]["1"] == {"ante": 500}
    dealer.no_more_bets(table_id, 0)
    late = device.chips(1, "aces_up", 500)
    assert (late["accepted"], late["records"]) == (False, ["chips_refused"])
    assert "locked out" in late["refused"]
    for _ in range(400):
        shown = dealer.view(table_id)["round"]
        if shown["phase"] != "dealing":
            break
        device.card()
    assert _finish(dealer, players, table_id) == "over"
    kinds = _kinds(auditor, round_id)
    assert kinds.count("chips_read") == 2 and "chips_refused" in kinds
    assert kinds.count("wager_settled") >= 2
    audit = auditor.audit()
    assert audit["ok"] and audit["audit"]["findings"] == [], audit
    device.close()
