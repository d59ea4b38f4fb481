"""Crash recovery: a server killed (``kill -9``) in the middle of a round starts again with the
round held for a supervisor's void; the void returns every wager exactly once, takes the
progressive contributions back off the linked meter, and the ledger balances."""

from __future__ import annotations

from fractions import Fraction

from croupier.client import ApiError
from live.live_harness import Server

TABLE = "three-card-poker"
METER = "pa-poker-jackpot"


def test_641a_13_round_open_at_a_crash_is_held_then_voided_exactly_once(server: Server) -> None:
    dealer, p1 = server.client("dealer"), server.client("player1")
    supervisor = server.client("supervisor")
    p1.sit(TABLE, 1)
    balance = p1.me()["balance"]
    meter = next(m for m in supervisor.meters() if m["name"] == METER)
    started = dealer.new_round(TABLE)
    p1.wager(TABLE, "ante", 500)
    p1.wager(TABLE, "progressive", 100)
    dealer.no_more_bets(TABLE, 1)
    dealer.step(TABLE, "deal")
    assert p1.me()["balance"] == balance - 600
    server.kill()
    server.start()
    dealer, p1 = server.client("dealer"), server.client("player1")
    supervisor = server.client("supervisor")
    table = next(t for t in dealer.tables() if t["id"] == TABLE)
    assert table["round_id"] == started["round_id"] and table["held"]
    try:
        dealer.step(TABLE, "reveal")
        raise AssertionError("a held round must not go on")
    except ApiError as exc:
        assert exc.status == 409
    voided = supervisor.void(started["round_id"], "server stopped mid-round", key="void-1")
    assert voided["phase"] == "void"
    again = supervisor.void(started["round_id"], "server stopped mid-round", key="void-1")
    assert again == voided
    assert p1.me()["balance"] == balance
    after = next(m for m in supervisor.meters() if m["name"] == METER)
    assert Fraction(after["exact"]) == Fraction(meter["exact"])
    audit = supervisor.audit()
    assert audit["ok"], audit["problems"]
    settled = supervisor.records(started["round_id"])["settlement"]["1"]["wagers"]
    assert {w: s["result"] for w, s in settled.items()} == {"ante": "void", "progressive": "void"}
