"""One player account at two adjacent boxes of a table, against a real server: over REST and
the WebSocket stream it sees both of its own seats' cards (as dealt and as shown), and never
another account's cards, the dealer's face-down cards before the reveal, or the shoe's order.
The Rules Submission sets how many adjacent boxes a player may hold (Ultimate Texas Hold 'Em
and Mississippi Stud: one, § 569.7(h), § 571.7(f))."""

from __future__ import annotations

import json
from typing import Any

import pytest

from croupier.faces.client import ApiError, Client, Event
from live.live_harness import Server
from live.resume_play import Crew, drive
from live.sight import allowed, tokens

MINE = (2, 3)
OTHER = 5
STOPS = ("dealing", "decisions", "reveal", "settlement", None)


def _check_stream(records: list[dict[str, Any]], full: list[dict[str, Any]]) -> None:
    """Record by record, the player's stream is the engine's ``Pov.player(2, 3)``: both own
    seats' cards and shown hands, nothing else face down."""
    mine = {str(s) for s in MINE}
    assert len(records) == len(full)
    for n, (seen, real) in enumerate(zip(records, full, strict=True)):
        extra = tokens(seen) - allowed(full[: n + 1], MINE)
        assert not extra, (n, seen, sorted(extra))
        if real["kind"] == "card_dealt" and (real["to"] in mine or real["face_up"]):
            assert seen == real, (n, seen)
        elif real["kind"] == "card_dealt":
            assert seen["kind"] == "card_hidden" and "card" not in seen, (n, seen)
        elif real["kind"] == "hand_shown" and str(real["seat"]) in mine:
            assert seen == real, (n, seen)
        elif real["kind"] == "hand_shown":
            assert seen["kind"] == "hand_hidden" and not tokens(seen), (n, seen)
        elif real["kind"] == "card_discarded":
            assert seen["kind"] == "card_hidden" and not tokens(seen), (n, seen)
        else:
            assert seen == real, (n, seen)


def _check_view(view: dict[str, Any], full: list[dict[str, Any]]) -> None:
    """A REST view holds the cards the player may know at its point of the round, every card
    of both own seats face up to it, and no shoe order."""
    assert (view.get("deal") or {}).get("order") is None
    rnd = view["round"]
    shown = int(rnd["seq"])
    extra = tokens(view) - allowed(full[:shown], MINE)
    assert not extra, (rnd["phase"], sorted(extra))
    assert rnd["pov"] == "player:2,3"
    for seat in MINE:
        dealt = [r for r in full[:shown] if r["kind"] == "card_dealt"]
        to_seat = [r["card"] for r in dealt if r["to"] == str(seat)]
        assert rnd["cards"].get(str(seat), []) == to_seat, (seat, rnd["cards"])


def _play(server: Server, table_id: str) -> None:
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    me, other = server.client("player1"), server.client("player2")
    for seat in MINE:
        me.sit(table_id, seat)
    other.sit(table_id, OTHER)
    detail = dealer.table(table_id)
    house = dict(detail["house_wagers"])
    players: dict[int, Client] = {MINE[0]: me, MINE[1]: me, OTHER: other}
    crew = Crew(table_id, dealer, players, detail, dict.fromkeys(players, house))
    start = int(dealer.view(table_id)["seq"])
    views: list[dict[str, Any]] = []
    with me.stream(table_id, since=start) as stream:
        rid = str(dealer.new_round(table_id)["round_id"])
        for stop in STOPS:
            drive(crew, stop)
            views.append(me.view(table_id))
        end = int(dealer.view(table_id)["seq"])
        events: list[Event] = stream.drain(end)
    stored = supervisor.records(rid)
    full = stored["records"]
    assert stored["players"] == {"2": "P1", "3": "P1", "5": "P2"}
    _check_stream([e.data for e in events if e.type == "record"], full)
    for view in views:
        _check_view(view, full)
    assert views[-1]["round"]["phase"] == "over"
    for player in (me, other):
        player.leave(table_id)


@pytest.mark.parametrize(
    "game", ["three-card-poker", "four-card-poker", "let-it-ride", "mini-baccarat"]
)
def test_641a_7_e_a_player_at_two_boxes_sees_both_own_hands_and_nobody_elses(
    sqlite_server: Server, game: str
) -> None:
    tables = {t["game"]: t["id"] for t in sqlite_server.client("dealer").tables()}
    _play(sqlite_server, tables[game])


@pytest.mark.parametrize(
    ("game", "section"), [("ultimate-texas-holdem", "569.7(h)"), ("mississippi-stud", "571.7(f)")]
)
def test_569_7_h_a_one_box_game_refuses_a_players_second_seat(
    sqlite_server: Server, game: str, section: str
) -> None:
    dealer, me = sqlite_server.client("dealer"), sqlite_server.client("player1")
    table_id = {t["game"]: t["id"] for t in dealer.tables()}[game]
    me.sit(table_id, 2)
    with pytest.raises(ApiError) as refused:
        me.sit(table_id, 3)
    assert refused.value.status in (409, 422)
    assert section in json.dumps(refused.value.problem)
    assert dealer.table(table_id)["seats"]["3"] is None
