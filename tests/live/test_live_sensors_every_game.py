"""A game with more than one progressive through the real server (issue 39): Let It Ride's
Three- and Five-Card Progressives each sensed by a device message naming its wager, each
position's light per wager in every view, the lock-out refusing and recording a late chip of
either, the audit clean."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from croupier.faces.reader import ShoeReader
from live.live_harness import Server

RULES = Path(__file__).parents[1] / "rules" / "let-it-ride.toml"
THREE, FIVE = "three_card_progressive", "five_card_progressive"


def _lir_sensor_table(supervisor: Any) -> str:
    """The demo's Let It Ride rules, the Three-Card Progressive of tests/rules added, sensors."""
    rules = supervisor.get("/api/tables/let-it-ride")["rules"]
    custom = tomllib.loads(RULES.read_text(encoding="utf-8"))["custom_paytables"]
    rules["custom_paytables"] = {**rules.get("custom_paytables", {}), THREE: custom[THREE]}
    rules["table"] = {**rules.get("table", {}), "progressive_wagers": "sensors"}
    table_id = "lir-sensors"
    supervisor.post("/api/tables", {"id": table_id, "name": "two progressives", "rules": rules})
    if supervisor.get(f"/api/tables/{table_id}")["status"] != "open":
        supervisor.post(f"/api/tables/{table_id}/open")
    return table_id


def _finish(dealer: Any, players: Mapping[int, Any], table_id: str) -> str:
    """The dealer's steps and every seat letting its bets ride until the round ends."""
    for _ in range(80):
        shown = dealer.view(table_id)["round"]
        phase, to_act = shown["phase"], str(shown.get("to_act"))
        if phase in ("over", "void"):
            return str(phase)
        if to_act.startswith("seat "):
            seat = int(to_act.removeprefix("seat "))
            players[seat].decide(table_id, "ride", seat=seat)
        elif phase == "stub_count":
            out = sum(1 for r in shown["records"] if r["kind"] in ("card_dealt", "card_hidden"))
            dealer.stub_count(table_id, 52 - out)
        else:
            dealer.step(table_id, {"reveal": "reveal", "settlement": "settle"}.get(phase, "deal"))
    raise AssertionError(f"the round at {table_id} did not finish")


def test_643a_2_c_2_both_progressives_sensed_and_locked_out(server: Server) -> None:
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    auditor, observer = server.client("auditor"), server.client("observer")
    table_id = _lir_sensor_table(supervisor)
    issued = supervisor.post(f"/api/tables/{table_id}/devices")
    device = ShoeReader(server.url, table_id, issued["token"])
    players = {seat: server.client(f"player{seat}") for seat in (1, 2)}
    for seat, player in players.items():
        player.sit(table_id, seat)
    round_id = str(dealer.new_round(table_id)["round_id"])
    for seat, player in players.items():
        for bet in ("bet1", "bet2", "bet3"):
            player.wager(table_id, bet, 500, seat=seat)
    for seat, wager in ((1, THREE), (1, FIVE), (2, FIVE)):
        ack = device.sense(seat, "lit", wager)
        assert ack["accepted"] and ack["records"] == ["wager_sensed"], ack
    unknown = device.sense(2, "lit", "progressive")  # not a Let It Ride progressive
    assert unknown["accepted"] is False
    per_wager = {"1": {THREE: "lit", FIVE: "lit"}, "2": {THREE: "dark", FIVE: "lit"}}
    for client in (players[1], players[2], dealer, observer, supervisor):
        shown = client.view(table_id)["round"]
        assert shown["lights"] == {"1": "lit", "2": "lit"}
        assert shown["wager_lights"] == per_wager
    assert players[1].view(table_id)["round"]["stakes"]["1"][THREE] == 100
    dealer.no_more_bets(table_id, 3)
    # § 643a.2(c)(2): the lock-out; either progressive's late chip refused and recorded
    late = device.sense(2, "lit", THREE)
    assert (late["accepted"], late["records"]) == (False, ["sensor_refused"])
    assert dealer.view(table_id)["round"]["wager_lights"] == per_wager
    assert _finish(dealer, players, table_id) == "over"
    records = auditor.records(round_id)["records"]
    (refused,) = [r for r in records if r["kind"] == "sensor_refused"]
    assert (refused["seat"], refused["wager"], refused["section"]) == (2, THREE, "§ 643a.2(c)(2)")
    assert [r["wager"] for r in records if r["kind"] == "wager_sensed"] == [THREE, FIVE, FIVE]
    audit = auditor.audit()
    assert audit["ok"] and audit["audit"]["findings"] == []
    device.close()


def test_641a_11_c_5_ii_let_it_rides_two_hands_declared_at_the_felt_each_paid_by_its_light(
    server: Server,
) -> None:
    """A felt Let It Ride table: the dealer declares seat 1's three cards (its Three-Card
    Progressive, found by the number of cards) and five cards (its Five-Card); the supervisor
    verifies the seat twice, each hand against its own light and meter."""
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    auditor = server.client("auditor")
    rules = supervisor.get("/api/tables/let-it-ride")["rules"]
    custom = tomllib.loads(RULES.read_text(encoding="utf-8"))["custom_paytables"]
    rules["custom_paytables"] = {**rules.get("custom_paytables", {}), THREE: custom[THREE]}
    rules["table"] = {**rules.get("table", {}), "progressive_wagers": "sensors", "cards": "felt"}
    table_id = "lir-felt"
    supervisor.post("/api/tables", {"id": table_id, "name": "felt LIR", "rules": rules})
    supervisor.post(f"/api/tables/{table_id}/open")
    device = ShoeReader(
        server.url, table_id, supervisor.post(f"/api/tables/{table_id}/devices")["token"]
    )
    player = server.client("player1")
    player.sit(table_id, 1)
    round_id = str(dealer.new_round(table_id)["round_id"])
    for wager in (THREE, FIVE):
        assert device.sense(1, "lit", wager)["accepted"]
    assert dealer.no_more_bets(table_id, 2)["phase"] == "declaring"
    url = f"/api/tables/{table_id}/declarations"
    three = dealer.post(url, {"seat": 1, "cards": "As Ks Qs"})["records"]
    five = dealer.post(url, {"seat": 1, "cards": "As Ks Qs Js 10s"})["records"]
    assert [r["wager"] for r in three + five] == [THREE, FIVE]
    paid = []
    for wager in (THREE, FIVE):  # the seat's next hand awaiting, in the game's order
        verified = supervisor.post(f"{url}/verify", {"seat": 1})["records"]
        assert verified[0]["wager"] == wager and verified[0]["light"] == "lit"
        paid += [r for r in verified if r["kind"] == "progressive_paid"]
    assert len({r["meter"] for r in paid}) == 2  # each from its own meter
    assert dealer.post(f"{url}/close")["phase"] == "over"
    kinds = _kinds_of(auditor, round_id)
    assert kinds.count("hand_declared") == 2 and kinds.count("declaration_verified") == 2
    audit = auditor.audit()
    assert audit["ok"] and audit["audit"]["findings"] == []
    device.close()


def _kinds_of(auditor: Any, round_id: str) -> list[str]:
    return [r["kind"] for r in auditor.records(round_id)["records"]]
