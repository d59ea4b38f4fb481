"""Game recall of a seat against a real server: the seat's last rounds rebuilt from the records,
newest first, each with the seat's own cards, wagers and settlement as stored; a player
recalls only their own seat's rounds; each recalled round exports as a scenario JSON that
``croupier replay`` settles identically."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from croupier.cli import main
from croupier.faces.client import ApiError
from live.live_harness import Server
from live.resume_play import Crew, drive
from live.sight import allowed, tokens

GAME = "three-card-poker"
SEAT, OTHER = 2, 5
ROUNDS = 3


def _stakes(full: list[dict[str, Any]], seat: int) -> dict[str, int]:
    """The seat's wagers as the records settle them (those placed before the deal and those a
    decision made: a play wager).  A bonus paid on a wager without a stake of its own (Three
    Card Poker's Ante Bonus, § 649a.12(b)) is settled with stake 0 and is no wager."""
    placed = {
        r["wager"]: r["amount"] for r in full if r["kind"] == "wager_placed" and r["seat"] == seat
    }
    settled = {
        r["wager"]: r["stake"]
        for r in full
        if r["kind"] == "wager_settled" and r["seat"] == seat and r["stake"] > 0
    }
    assert placed and placed.items() <= settled.items(), (placed, settled)
    return settled


def _settled(full: list[dict[str, Any]], seat: int) -> list[tuple[str, int, str, int, int]]:
    return [
        (r["wager"], r["stake"], r["result"], r["paid"], r["returned"])
        for r in full
        if r["kind"] == "wager_settled" and r["seat"] == seat
    ]


def _check_recalled(recalled: dict[str, Any], stored: dict[str, Any]) -> None:
    """One round of the seat's recall against the supervisor's records of it."""
    full = stored["records"]
    assert recalled["phase"] == stored["phase"] == "over"
    assert recalled["pov"] == f"player:{SEAT}"
    assert recalled["players"] == stored["players"] == {str(SEAT): "P1", str(OTHER): "P2"}
    dealt = [r["card"] for r in full if r["kind"] == "card_dealt" and r["to"] == str(SEAT)]
    assert dealt and recalled["cards"][str(SEAT)] == dealt
    assert recalled["stakes"][str(SEAT)] == _stakes(full, SEAT) != {}
    mine = [
        (w["wager"], w["stake"], w["result"], w["paid"], w["returned"])
        for w in recalled["settled"]
        if w["seat"] == SEAT
    ]
    assert mine == _settled(full, SEAT) != []
    assert recalled["settlement"] == stored["settlement"] != {}
    # Nothing of the other account's hand (a folded hand is never turned up) nor of the shoe.
    extra = tokens(recalled) - allowed(full, (SEAT,))
    assert not extra, sorted(extra)


def test_a_seats_recall_is_its_rounds_from_the_records_and_each_replays_identically(
    sqlite_server: Server, tmp_path: Path
) -> None:
    dealer, supervisor = sqlite_server.client("dealer"), sqlite_server.client("supervisor")
    p1, p2 = sqlite_server.client("player1"), sqlite_server.client("player2")
    table_id = {t["game"]: t["id"] for t in dealer.tables()}[GAME]
    p1.sit(table_id, SEAT)
    p2.sit(table_id, OTHER)
    detail = dealer.table(table_id)
    house = dict(detail["house_wagers"])
    crew = Crew(table_id, dealer, {SEAT: p1, OTHER: p2}, detail, {SEAT: house, OTHER: house})
    played = []
    for _ in range(ROUNDS):
        played.append(str(dealer.new_round(table_id)["round_id"]))
        assert drive(crew) == "over"
    recalled = p1.seat_rounds(table_id, SEAT, last=10)
    assert [r["round_id"] for r in recalled] == played[::-1]
    assert [r["round_id"] for r in p1.seat_rounds(table_id, SEAT, last=2)] == played[:0:-1]
    for one in recalled:
        stored = supervisor.records(one["round_id"])
        _check_recalled(one, stored)
        scenario = supervisor.scenario(one["round_id"])
        path = tmp_path / f"{one['round_id']}.json"
        path.write_text(json.dumps(scenario))
        out = io.StringIO()
        assert main(["replay", str(path)], out=out) == 0
        assert json.loads(out.getvalue())["seats"] == stored["settlement"]
    # The table's recall (the pit and the floor) holds the same rounds.
    table_recall = supervisor.rounds(table_id, last=10, seat=SEAT)
    assert [r["round_id"] for r in table_recall] == played[::-1]


def test_a_player_recalls_only_their_own_seats_rounds(sqlite_server: Server) -> None:
    dealer = sqlite_server.client("dealer")
    p1, p2 = sqlite_server.client("player1"), sqlite_server.client("player2")
    table_id = {t["game"]: t["id"] for t in dealer.tables()}[GAME]
    p1.sit(table_id, SEAT)
    p2.sit(table_id, OTHER)
    detail = dealer.table(table_id)
    house = dict(detail["house_wagers"])
    crew = Crew(table_id, dealer, {SEAT: p1, OTHER: p2}, detail, {SEAT: house, OTHER: house})
    dealer.new_round(table_id)
    assert drive(crew) == "over"
    for player, seat in ((p2, SEAT), (p1, OTHER), (p1, 7)):
        with pytest.raises(ApiError) as refused:
            player.seat_rounds(table_id, seat)
        assert refused.value.status == 403, (seat, refused.value.problem)
        assert refused.value.problem["status"] == 403
    with pytest.raises(ApiError) as refused:
        p1.rounds(table_id, seat=SEAT)  # the table's recall is the readers'
    assert refused.value.status == 403
    # Player 2 takes seat 2 once player 1 has left: the seat's earlier round was not theirs.
    p1.leave(table_id)
    p2.leave(table_id)
    p2.sit(table_id, SEAT)
    assert p2.seat_rounds(table_id, SEAT) == []
    with pytest.raises(ApiError) as refused:
        p1.seat_rounds(table_id, SEAT)
    assert refused.value.status == 403
