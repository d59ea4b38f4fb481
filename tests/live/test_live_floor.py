"""50 tables x 7 seats played at once, all linked on one progressive meter with the demo floor's
Three Card Poker table: the meter and the chip ledger exact to the fraction of a cent (one round
per table).  Only tables of one configuration share a meter (the rate, reset, wager and pay
table are stored with it, issue 13), so the linked tables are all Three Card Poker."""

from __future__ import annotations

from fractions import Fraction

from croupier.faces.bots import enrol, play_tables
from croupier.faces.client import Client
from croupier.server.demo import demo_rules
from live.live_harness import Server

METER = "pa-poker-jackpot"


def test_605a_7_fifty_linked_tables_keep_the_meter_and_ledger_exact(
    sqlite_server: Server,
) -> None:
    server = sqlite_server
    supervisor = server.client("supervisor")
    rules = demo_rules()
    linked = [rules["three-card-poker"]]

    def connect(username: str, password: str) -> Client:
        client = Client(server.url, timeout=300)
        client.login(username, password)
        server.clients.append(client)
        return client

    crews = enrol(supervisor, connect, linked, tables=50, seats=7, prefix="floor")
    before = next(m for m in supervisor.meters() if m["name"] == METER)
    play_tables(crews, rounds=1)
    assert [repr(c.error) for c in crews if c.error is not None] == []
    assert all(len(c.rounds) == 1 for c in crews)
    after = next(m for m in supervisor.meters() if m["name"] == METER)
    # The demo's Three Card Poker table links it too (its Let It Ride table offers no
    # Three-Card Progressive: no filed table to cite).
    demo = ["three-card-poker"]
    assert sorted(after["tables"]) == sorted([*demo, *(c.table_id for c in crews)])
    contributed = Fraction(0)
    awards = 0
    for crew in crews:
        for record in supervisor.records(crew.rounds[0])["records"]:
            if record["kind"] == "wager_placed" and record["wager"] == "progressive":
                contributed += Fraction(1, 4) * record["amount"]  # rate of progression 25%
            if record["kind"] == "meter_changed" and record["reason"] == "award":
                awards += 1
    assert contributed == Fraction(1, 4) * 100 * 7 * 50
    if awards == 0:
        assert Fraction(after["exact"]) == Fraction(before["exact"]) + contributed
    audit = supervisor.audit()  # every meter equals its ledger account, to the fraction
    assert audit["ok"], audit["problems"]
    assert sum(Fraction(v) for v in audit["balances"].values()) == 0
