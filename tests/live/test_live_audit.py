"""``GET /api/audit/verify`` is ``croupier audit verify`` on the floor's database (every record
chain intact, every settlement rebuilt from its records) besides the chip ledger's check: a
record altered in the database behind the server's back is found, named by its table and
round, and the audit is not ok; ``scope=ledger`` checks the ledger alone."""

from __future__ import annotations

import json

from sqlalchemy import create_engine, select, update

from croupier.faces.bots import play_round
from croupier.store.database import round_records
from live.live_harness import Server


def test_the_api_audit_rebuilds_every_round_and_finds_an_altered_record(
    sqlite_server: Server,
) -> None:
    dealer, player = sqlite_server.client("dealer"), sqlite_server.client("player1")
    auditor = sqlite_server.client("auditor")
    table = next(t["id"] for t in dealer.tables() if t["game"] == "three-card-poker")
    player.sit(table, 1)
    played = play_round(dealer, {1: player}, table, dealer.table(table))
    clean = auditor.audit()
    assert clean["ok"] and clean["audit"]["findings"] == [], clean["problems"]
    assert clean["audit"]["checked"]["rounds"] == 1
    assert clean["audit"]["checked"]["records"] > 0
    assert auditor.audit(scope="ledger")["audit"] is None

    engine = create_engine(sqlite_server.db_url)
    try:
        with engine.begin() as conn:
            row = conn.execute(
                select(round_records.c.seq, round_records.c.data)
                .where(round_records.c.round_id == played.round_id)
                .where(round_records.c.data.like('%"wager_settled"%'))
                .limit(1)
            ).one()
            data = json.loads(row.data)
            data["paid"] = int(data["paid"]) + 100  # a payout made larger by hand
            conn.execute(
                update(round_records)
                .where(round_records.c.round_id == played.round_id)
                .where(round_records.c.seq == row.seq)
                .values(data=json.dumps(data))
            )
    finally:
        engine.dispose()
    tampered = auditor.audit()
    assert not tampered["ok"]
    assert tampered["audit"]["findings"], tampered
    assert any(played.round_id in f["key"] for f in tampered["audit"]["findings"]), tampered
    assert any(played.round_id in p for p in tampered["problems"])
    # the ledger alone does not see it: the chips moved as the server settled them
    assert auditor.audit(scope="ledger")["ok"]
