"""Crash recovery against a real server killed with ``kill -9``, on SQLite and PostgreSQL.

A round left open resumes exactly: the same records, dealing on from the shoe order persisted
when it began, to the settlement an uninterrupted round with that shoe reaches; every table of
every game is killed at each phase its rounds stand in between two commands (a round held for a
void instead: ``test_live_recovery.py``).  The books balance to the cent after each restart: the
ledger sums to zero, the audit is clean, and each player's balance moved by exactly their seats'
settlement.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from croupier.faces.client import Client
from croupier.games import get_game
from croupier.rules.submission import load_rules
from croupier.store import RoundStore
from live.live_harness import Server
from live.resume_play import (
    Crew,
    Played,
    drive,
    reachable_phases,
    uninterrupted,
    without_meter_amounts,
)

PLAYER_PASSWORD = "green felt, six decks"
"""The bot players' password (at least 12 characters, not their name)."""

STOPS = ("betting", "dealing", "decisions", "reveal", "settlement")
SEATS = (1, 2)
BUY_IN = 2_000_000
TRIES = 10
"""Rounds a table plays at most to stand in the phase of a kill (a round may end without
standing in one: all its wagers lose at the reveal)."""


def _wagers(detail: dict[str, Any]) -> dict[int, dict[str, int]]:
    """The house wagers at every seat; at baccarat, seat 2 backs the Player (so that some
    wager wins or pushes and each round stands in settlement)."""
    house = dict(detail["house_wagers"])
    out = {seat: dict(house) for seat in SEATS}
    if "banker" in house:
        out[2] = {"player": house.pop("banker"), **house}
    return out


def _crews(server: Server) -> list[Crew]:
    """Two players of their own at each table of the demo floor (a player sits at one table)."""
    supervisor, dealer = server.client("supervisor"), server.client("dealer")
    crews = []
    for table in dealer.tables():
        players: dict[int, Client] = {}
        for seat in SEATS:
            pid = f"R-{table['id']}-{seat}"
            supervisor.new_player(pid, pid, pid.lower(), PLAYER_PASSWORD)
            supervisor.buy_in(pid, BUY_IN)
            client = Client(server.url)
            client.login(pid.lower(), PLAYER_PASSWORD)
            server.clients.append(client)
            client.sit(table["id"], seat)
            players[seat] = client
        detail = dealer.table(table["id"])
        crews.append(Crew(table["id"], dealer, players, detail, _wagers(detail)))
    return crews


def _settle_handpays(supervisor: Client) -> None:
    for pay in supervisor.handpays():
        if pay["status"] == "pending":
            supervisor.approve(pay["id"])


def _balances(crew: Crew) -> dict[int, int]:
    return {seat: int(p.me()["balance"]) for seat, p in crew.players.items()}


def _play_to(crew: Crew, stop: str, reachable: set[str]) -> list[tuple[str, str, int]]:
    """Rounds until one stands in ``stop`` (where the game's rounds may): each round's id,
    the phase it stopped in, the table's stream position."""
    played = []
    for _ in range(TRIES):
        rid = str(crew.dealer.new_round(crew.table_id)["round_id"])
        phase = drive(crew, stop)
        played.append((rid, phase, int(crew.dealer.view(crew.table_id)["seq"])))
        if phase == stop or stop not in reachable:
            break
    return played


def _check_round(store: RoundStore, supervisor: Client, crew: Crew, rid: str) -> Played:
    """The round ``rid`` (over) against the same round played uninterrupted from its shoe."""
    played = uninterrupted(store, rid, crew.wagers)
    stored = store.load(rid)
    assert without_meter_amounts(stored) == without_meter_amounts(played.round.records), rid
    settlement = supervisor.records(rid)["settlement"]
    assert settlement == played.round.settlement(), rid
    return played


def _moved_as_settled(
    crew: Crew, before: dict[int, int], settlements: list[dict[str, Any]]
) -> None:
    after = _balances(crew)
    for seat in SEATS:
        expected = 0
        for settlement in settlements:
            seat_settled = settlement[str(seat)]
            # A deferred vigorish is marked against the seat, its chips collected later.
            expected += seat_settled["net"] + seat_settled.get("vig", {}).get("marked", 0)
        assert after[seat] - before[seat] == expected, (crew.table_id, seat)


def test_641a_13_every_round_open_at_a_kill_resumes_to_the_uninterrupted_settlement(
    server: Server,
) -> None:
    crews = _crews(server)
    games = {c.table_id: str(c.detail["game"]) for c in crews}
    reachable = {
        c.table_id: reachable_phases(get_game(load_rules(c.detail["rules"])), c.wagers)
        for c in crews
    }
    interrupted: dict[str, set[str]] = defaultdict(set)
    for stop in STOPS:
        before = {c.table_id: _balances(c) for c in crews}
        rounds = {c.table_id: _play_to(c, stop, reachable[c.table_id]) for c in crews}
        server.kill()
        server.start()
        supervisor = server.client("supervisor")
        with RoundStore(server.db_url) as store:
            for crew in crews:
                t = crew.table_id
                rid, phase, seq = rounds[t][-1]
                view = crew.dealer.view(t)
                assert view["round_id"] == rid and view["seq"] == seq, t
                if phase not in ("over", "void"):
                    # Resumed, not held: the same round in the same phase, dealing on.
                    assert view["held"] is None, (t, view["held"])
                    assert view["round"]["phase"] == phase, t
                    interrupted[games[t]].add(phase)
                    assert drive(crew) in ("over", "void"), t
                _settle_handpays(supervisor)
                settled = []
                for rid, _, _ in rounds[t]:
                    played = _check_round(store, supervisor, crew, rid)
                    settled.append(played.round.settlement())
                _moved_as_settled(crew, before[t], settled)
        audit = supervisor.audit()
        assert audit["ok"], audit["problems"]
        assert sum(Fraction(v) for v in audit["balances"].values()) == 0
    for crew in crews:
        # Every phase the game's rounds stand in between commands was the phase of a kill.
        game = games[crew.table_id]
        assert reachable[crew.table_id] - {"stub_count"} <= interrupted[game], game
