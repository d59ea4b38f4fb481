"""Hidden information is a security boundary: over REST and WebSocket a player never receives
another player's cards, the dealer's face-down cards before the reveal, or the shoe order."""

from __future__ import annotations

import json

from croupier.bots import DECISIONS
from croupier.client import ApiError
from live.live_harness import Server

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
