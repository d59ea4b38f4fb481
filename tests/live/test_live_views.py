"""Hidden information is a security boundary: over REST and WebSocket a player never receives
another player's cards, the dealer's face-down cards before the reveal, or the shoe order."""

from __future__ import annotations

import json
import re
from typing import Any

from croupier.faces.bots import DECISIONS
from croupier.faces.client import ApiError, Event
from live.live_harness import Server
from live.resume_play import Crew, drive

TABLE = "ultimate-texas-holdem"


def _cards(view: dict[str, object], place: str) -> list[str]:
    rnd = view["round"]
    assert isinstance(rnd, dict)
    return [c for c in rnd["cards"].get(place, []) if c is not None]


def test_569_a_player_sees_only_their_own_hole_cards(sqlite_server: Server) -> None:
    dealer, observer = sqlite_server.client("dealer"), sqlite_server.client("observer")
    p1, p2 = sqlite_server.client("player1"), sqlite_server.client("player2")
    p1.sit(TABLE, 1)
    p2.sit(TABLE, 2)
    with p1.stream(TABLE) as stream:
        dealer.new_round(TABLE)
        for player in (p1, p2):
            player.wager(TABLE, "ante", 500)
            player.wager(TABLE, "blind", 500)
        dealer.no_more_bets(TABLE, 0)
        dealer.step(TABLE, "deal")
        v1, v2 = p1.view(TABLE), p2.view(TABLE)
        mine, theirs = _cards(v1, "1"), _cards(v2, "2")
        assert len(mine) == 2 and len(theirs) == 2
        assert _cards(v1, "2") == [] and _cards(v1, "dealer") == []
        assert v1["round"]["cards"]["2"] == [None, None]
        # Nothing of seat 2's cards anywhere in player 1's view, nor in the pit view.
        text = json.dumps(v1)
        assert not [c for c in theirs if f'"{c}"' in text]
        pit = json.dumps(observer.view(TABLE))
        assert not [c for c in mine + theirs if f'"{c}"' in pit]
        # Play the round out; until the reveal player 1's stream holds no hidden card.
        while (rnd := dealer.view(TABLE)["round"])["phase"] == "decisions":
            seat = rnd["to_act_seat"]
            if seat is None:
                dealer.step(TABLE, "deal")
                continue
            player = p1 if seat == 1 else p2
            for decision in DECISIONS:
                try:
                    player.decide(TABLE, decision)
                    break
                except ApiError:
                    continue
        events = stream.drain(dealer.view(TABLE)["seq"])
    before_reveal = []
    for event in events:
        if event.type == "record" and event.data["kind"] == "dealer_revealed":
            break
        before_reveal.append(event)
    text = json.dumps([e.data for e in before_reveal])
    assert not [c for c in theirs if f'"{c}"' in text]
    dealt = [e.data for e in before_reveal if e.type == "record"]
    assert [d for d in dealt if d["kind"] == "card_hidden" and d["to"] == "dealer"]
    assert not [
        d
        for d in dealt
        if d["kind"] == "card_dealt" and d["to"] in ("2", "dealer") and not d["face_up"]
    ]


def test_a_reconnecting_stream_resumes_after_the_last_event_it_received(
    sqlite_server: Server,
) -> None:
    dealer, p1 = sqlite_server.client("dealer"), sqlite_server.client("player1")
    p1.sit(TABLE, 1)
    dealer.new_round(TABLE)
    with p1.stream(TABLE) as stream:
        first = stream.drain(dealer.view(TABLE)["seq"])
    p1.wager(TABLE, "ante", 500)
    p1.wager(TABLE, "blind", 500)
    last = first[-1].seq
    with p1.stream(TABLE, since=last) as stream:
        rest = stream.drain(dealer.view(TABLE)["seq"])
    assert [e.seq for e in first + rest] == list(range(1, rest[-1].seq + 1))
    assert [e.data.get("wager") for e in rest if e.type == "record"] == ["ante", "blind"]


CARD = re.compile(r'"([2-9TJQKA][cdhs])"')
ROLES = ("player1", "player2", "dealer", "observer", "supervisor", "auditor")


def _tokens(data: object) -> set[str]:
    return set(CARD.findall(json.dumps(data)))


def _allowed(full: list[dict[str, Any]], seat: int | None) -> set[str]:
    """The cards a viewer may hold: its seat's (``seat``), those dealt face up, and every card
    a record other than a deal or discard shows (a reveal, a result, a shown hand)."""
    out: set[str] = set()
    for r in full:
        if r["kind"] == "card_dealt":
            if r["face_up"] or (seat is not None and r["to"] == str(seat)):
                out.add(r["card"])
        elif r["kind"] != "card_discarded":
            out |= _tokens(r)
    return out


def _unturned(data: dict[str, Any]) -> dict[str, Any]:
    """An event's data less the one card a table's own event shows: a new baccarat shoe's
    first card, turned up for everyone before as many more are burned (casino practice)."""
    record = data.get("record")
    if isinstance(record, dict) and record.get("kind") == "shoe_opened":
        return {**data, "record": {k: v for k, v in record.items() if k != "first_card"}}
    return data


def _check_round(
    role: str, events: list[Event], views: list[dict[str, Any]], full: list[dict[str, Any]]
) -> None:
    """Each record ``role`` received, and each view it fetched, holds only cards it may know
    at that point of the round (``full``: the supervisor's records of the finished round):
    never another seat's face-down cards, the dealer's before the reveal, or any card still in
    the shoe (its order)."""
    seat = int(role[-1]) if role.startswith("player") else None
    records = [e.data for e in events if e.type == "record"]
    assert len(records) == len(full), role
    for n, r in enumerate(records):
        extra = _tokens(r) - _allowed(full[: n + 1], seat)
        assert not extra, (role, n, r["kind"], sorted(extra))
        if r["kind"] == "card_dealt" and not r["face_up"]:
            assert seat is not None and r["to"] == str(seat), (role, r)
        assert r["kind"] != "card_discarded", (role, r)  # a burnt card is face down
    others = [_unturned(e.data) for e in events if e.type != "record"]
    assert not _tokens(others), role
    for fetched in views:
        view = fetched
        deal = view.get("deal") or {}
        if deal.get("revealed") and role in ("supervisor", "auditor"):
            # A finished round's shoe order and nonce, for the floor and the audit to prove
            # the deal (each round here deals from a shoe of its own, never used again).
            view = {k: v for k, v in view.items() if k != "deal"}
        else:
            assert deal.get("order") is None, role
        shown = int(view["round"]["seq"])
        extra = _tokens(view) - _allowed(full[:shown], seat)
        assert not extra, (role, "view", shown, sorted(extra))


def test_569_every_role_reconnecting_mid_round_misses_nothing_and_sees_only_its_own(
    sqlite_server: Server,
) -> None:
    server = sqlite_server
    clients = {role: server.client(role) for role in ROLES}
    dealer, supervisor = clients["dealer"], clients["supervisor"]
    for table in dealer.tables():
        t = table["id"]
        players = {1: clients["player1"], 2: clients["player2"]}
        for seat, player in players.items():
            player.sit(t, seat)
        detail = dealer.table(t)
        house = dict(detail["house_wagers"])
        crew = Crew(t, dealer, players, detail, dict.fromkeys(players, house))
        start = int(dealer.view(t)["seq"])
        received: dict[str, list[Event]] = {}
        views: dict[str, list[dict[str, Any]]] = {role: [] for role in ROLES}
        rid = str(dealer.new_round(t)["round_id"])
        # Connected from the round's start to mid-round (the first decision, or the end).
        streams = {role: clients[role].stream(t, since=start) for role in ROLES}
        opened = {role: cm.__enter__() for role, cm in streams.items()}
        drive(crew, "decisions")
        mid = int(dealer.view(t)["seq"])
        for role in ROLES:
            received[role] = opened[role].drain(mid)
            views[role].append(clients[role].view(t))
            streams[role].__exit__(None, None, None)
        # Disconnected while the round goes on; each reconnects after its last event.
        drive(crew)
        end = int(dealer.view(t)["seq"])
        full = supervisor.records(rid)["records"]
        for role in ROLES:
            last = received[role][-1].seq
            with clients[role].stream(t, since=last) as stream:
                rest = stream.drain(end)
            with clients[role].stream(t, since=start) as stream:
                whole = stream.drain(end)
            events = received[role] + rest
            assert [e.seq for e in events] == list(range(start + 1, end + 1)), (t, role)
            assert [(e.seq, e.type, e.data) for e in events] == [
                (e.seq, e.type, e.data) for e in whole
            ], (t, role)
            views[role].append(clients[role].view(t))
            _check_round(role, events, views[role], full)
        for player in players.values():
            player.leave(t)
