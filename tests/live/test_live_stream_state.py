"""The table stream's carried state (``?carry=state``, :mod:`croupier.server.streams`): the last
message of each batch carries the connection's view and actions as ``GET /view`` and ``GET
/actions`` answer them at that ``seq``, so the web pages apply events without asking again.
Hidden information is a security boundary: a player's messages, the carried view included,
never hold another seat's face-down card (checked against the round's records with the policy
sweep's reading of cards, :mod:`live.policy_truth`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from websockets.sync.client import connect

from croupier.faces.client import Client
from croupier.games.records import NoMoreBets, PlaceWager, record_to_json
from croupier.games.round import Phase
from croupier.server.auth import Account, Role
from croupier.server.live_floor import Floor
from croupier.server.live_tables import LiveTable
from croupier.server.policy import Sight
from croupier.server.streams import Carried, carries_state, messages_seen, with_state
from live.live_harness import Server
from live.policy_truth import cards_in, visible

TABLE = "three-card-poker"
DEALER = Account("dealer", Role.DEALER, demo=True)  # the demo dealer deals every table
P1 = Account("player1", Role.PLAYER, player_id="P1")
P2 = Account("player2", Role.PLAYER, player_id="P2")


def _carried(floor: Floor, account: Account, lt: LiveTable, since: int) -> list[dict[str, Any]]:
    """The stream's messages after ``since`` for ``account`` with the state carried."""
    batch = messages_seen(floor, account, lt, since)
    return [json.loads(text) for _, text in with_state(floor, account, lt, batch)] if batch else []


def _hidden_from_p1(lt: LiveTable, message: dict[str, Any]) -> set[str]:
    """The cards of ``message`` that player 1 (seat 1) may not see after the round's records so
    far (the sweep's truth: its own cards, face-up cards, what a record shows)."""
    full = [record_to_json(r) for r in lt.round.records] if lt.round is not None else []
    allowed = visible(Sight.SEAT, full, {1})
    assert allowed is not None
    return {c for _, c in cards_in(message)} - allowed


def test_569_a_players_stream_never_carries_another_seats_hidden_card(floor: Floor) -> None:
    """Player 1 (seat 1) folds; player 2 (seat 2) plays and is turned over only where the
    round shows it: player 1's messages after every command, the view and actions carried,
    hold no card of seat 2's hand it may not see (nor the dealer's before the reveal)."""
    lt = floor.table(TABLE)
    seen: list[dict[str, Any]] = []
    hidden: list[tuple[int, set[str]]] = []
    steps = 0

    def do(account: Account, run: Any) -> None:
        nonlocal steps
        steps += 1
        floor.commands.transact(account, f"k{steps}", f"k{steps}", TABLE, run)
        for message in _carried(floor, P1, lt, seen[-1]["seq"] if seen else 0):
            seen.append(message)
            found = _hidden_from_p1(lt, message)
            if found:
                hidden.append((message["seq"], found))

    do(P1, lambda txn: {"s": floor.registry.sit(txn, lt, P1, 1)})
    do(P2, lambda txn: {"s": floor.registry.sit(txn, lt, P2, 2)})
    do(DEALER, lambda txn: {"rid": floor.rounds.begin_round(txn, lt, None)})
    for seat in (1, 2):
        ante = PlaceWager(seat=seat, wager="ante", amount=500)
        do(P1 if seat == 1 else P2, lambda txn, a=ante: {"n": len(floor.rounds.apply(txn, lt, a))})
    nmb = NoMoreBets(progressive_chips=0)
    do(DEALER, lambda txn: {"n": len(floor.rounds.apply(txn, lt, nmb))})
    deal = (Phase.DEALING, Phase.DECISIONS)
    do(DEALER, lambda txn: {"n": len(floor.rounds.dealer_steps(txn, lt, deal))})
    assert lt.round is not None
    for seat, who, text in ((1, P1, "fold"), (2, P2, "play")):
        decision = lt.round.parse_decision(seat, text)
        do(who, lambda txn, d=decision: {"n": len(floor.rounds.apply(txn, lt, d))})
    for phases in ((Phase.REVEAL,), (Phase.SETTLEMENT,)):
        if not lt.round.is_over:
            do(DEALER, lambda txn, p=phases: {"n": len(floor.rounds.dealer_steps(txn, lt, p))})
    assert lt.round.is_over
    states = [m for m in seen if "view" in m]
    # a state with every batch (one command each here), at its own seq, as player 1's view
    assert len(states) == steps
    assert all(m["view"]["seq"] == m["seq"] for m in states)
    assert all(m["actions"]["role"] == "player" for m in states)
    shown = [m["view"]["round"]["phase"] for m in states if m["view"].get("round")]
    assert shown[0] == "betting" and shown[-1] == "over", shown
    assert hidden == []
    # seat 2's three cards: never in a message to player 1, before or after the round's end
    records = [record_to_json(r) for r in lt.round.records]
    seat_two = {str(r["card"]) for r in records if r["kind"] == "card_dealt" and r["to"] == "2"}
    assert len(seat_two) == 3
    assert seat_two & {c for m in seen for _, c in cards_in(m)} == set()


def _state_messages(client: Client, since: int, until: int) -> list[dict[str, Any]]:
    """The table stream's messages after ``since`` up to ``until`` with the state carried."""
    url = client.stream_url(TABLE, since=since) + "&carry=state"
    out: list[dict[str, Any]] = []
    with connect(url, additional_headers=client.stream_headers(), open_timeout=10) as conn:
        while not out or out[-1]["seq"] < until or "view" not in out[-1]:
            out.append(json.loads(conn.recv(timeout=30)))
    return out


def test_the_carried_state_is_what_view_and_actions_answer_at_its_seq(
    sqlite_server: Server,
) -> None:
    """After each command of a round (the server otherwise quiet), the state the stream
    carries to the seated player, the dealer and a supervisor is, byte for byte once parsed,
    what ``GET /view`` and ``GET /actions`` answer them at that seq; without ``carry=state``
    the messages are the events alone."""
    server = sqlite_server
    p1, dealer, supervisor = (server.client(n) for n in ("player1", "dealer", "supervisor"))
    readers = {"player1": p1, "dealer": dealer, "supervisor": supervisor}
    last = {name: int(dealer.view(TABLE)["seq"]) for name in readers}
    commands: list[Callable[[], object]] = [
        lambda: p1.sit(TABLE, 1),
        lambda: dealer.new_round(TABLE),
        lambda: p1.wager(TABLE, "ante", 500),
        lambda: dealer.no_more_bets(TABLE),
        lambda: dealer.step(TABLE, "deal"),
        lambda: p1.decide(TABLE, "play"),
        lambda: dealer.step(TABLE, "reveal"),
        lambda: dealer.step(TABLE, "settle"),
    ]
    for command in commands:
        command()
        seq = int(dealer.view(TABLE)["seq"])
        for name, client in readers.items():
            messages = _state_messages(client, last[name], seq)
            carried = messages[-1]
            assert carried["seq"] == seq, name
            assert all("view" not in m for m in messages[:-1])
            assert carried["view"] == client.view(TABLE), name
            assert carried["actions"] == client.get(f"/api/tables/{TABLE}/actions"), name
            last[name] = seq
    over = dealer.view(TABLE)["round"]
    assert over["phase"] == "over"
    url = p1.stream_url(TABLE, since=0)
    with connect(url, additional_headers=p1.stream_headers(), open_timeout=10) as conn:
        events = [json.loads(conn.recv(timeout=30)) for _ in range(3)]
    assert all(set(m) == {"seq", "type", "data"} for m in events)


def test_a_full_batch_ending_at_the_tables_last_event_carries_the_state(floor: Floor) -> None:
    """The policy sweep's event 500: a stream whose events end exactly at a full batch's end
    carries the view and actions on that batch's last message (before, only a batch shorter
    than ``BATCH`` did, so the state waited for the table's next event); a full batch with more
    events after it leaves the state to the batch that ends with them."""
    lt = floor.table(TABLE)
    floor.commands.transact(
        P1, "k1", "k1", TABLE, lambda txn: {"s": floor.registry.sit(txn, lt, P1, 1)}
    )
    floor.commands.transact(
        DEALER, "k2", "k2", TABLE, lambda txn: {"rid": floor.rounds.begin_round(txn, lt, None)}
    )
    batch = messages_seen(floor, P1, lt, 0)
    assert len(batch) >= 2
    assert carries_state(Carried.STATE, batch) and not carries_state(Carried.EVENTS, batch)
    full = [json.loads(text) for _, text in with_state(floor, P1, lt, batch, catch_up=False)]
    assert full[-1]["seq"] == batch[-1][0] and full[-1]["view"]["seq"] == batch[-1][0]
    assert "actions" in full[-1] and all("view" not in m for m in full[:-1])
    early = batch[:-1]
    assert with_state(floor, P1, lt, early, catch_up=False) == early
    assert with_state(floor, P1, lt, early)[-1][0] == batch[-1][0]  # caught up: it carries
