"""Issue 35, defect 1: a Let It Ride bet the player takes back (§ 643a.11(b)) comes back once.

The engine records the pull as ``bet_withdrawn`` and a ``wager_settled`` push returning the
stake (net 0 for that bet); the chip ledger used to credit the stake twice (a ``withdrawn`` row
for the stake leaving the table and a ``settled`` row for the push), so the balance rose by
twice the bet and ended the round above the settlement's net.  Played on a real server: player1
at the demo ``let-it-ride`` table, seat 1, Bet 1, 2 and 3 at 500 cents, Bet 1 pulled."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from sqlalchemy import create_engine, select

from croupier.server.ledger import player_account
from croupier.store.schema import chip_ledger
from live.chip_books import dealer_to
from live.live_harness import Server

TABLE = "let-it-ride"
BET = 500


def _rows(db_url: str, round_id: str, account: str) -> list[Any]:
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            return list(
                conn.execute(
                    select(chip_ledger.c.txn, chip_ledger.c.amount, chip_ledger.c.reason)
                    .where(chip_ledger.c.round_id == round_id)
                    .where(chip_ledger.c.account == account)
                    .order_by(chip_ledger.c.id)
                )
            )
    finally:
        engine.dispose()


def test_643a_11_b_pulled_bet_returned_once(sqlite_server: Server) -> None:
    dealer, player = sqlite_server.client("dealer"), sqlite_server.client("player1")
    supervisor = sqlite_server.client("supervisor")
    player.sit(TABLE, 1)
    me = player.me()
    start, account = me["balance"], player_account(str(me["player_id"]))
    round_id = str(dealer.new_round(TABLE)["round_id"])
    for wager in ("bet1", "bet2", "bet3"):
        player.wager(TABLE, wager, BET, seat=1)
    dealer_to(dealer, TABLE, dealer.no_more_bets(TABLE, 0), [1])
    pulled = player.decide(TABLE, "pull bet1", seat=1)
    kinds = [(r["kind"], r.get("amount", r.get("returned"))) for r in pulled["records"]]
    assert kinds[:2] == [("bet_withdrawn", BET), ("wager_settled", BET)], kinds
    # the three bets are out, Bet 1 is back once
    assert player.me()["balance"] == start - 2 * BET
    withdrawn = [r for r in _rows(sqlite_server.db_url, round_id, account) if r.reason != "wager"]
    assert len({r.txn for r in withdrawn}) == 1, withdrawn
    assert sum(Fraction(r.amount) for r in withdrawn) == BET, withdrawn

    last = dealer_to(dealer, TABLE, pulled, [1])
    while last["phase"] not in ("over", "void"):
        last = dealer_to(dealer, TABLE, player.decide(TABLE, "ride", seat=1), [1])
    assert last["phase"] == "over"
    net = supervisor.records(round_id)["settlement"]["1"]["net"]
    assert player.me()["balance"] - start == net
    assert sum(Fraction(r.amount) for r in _rows(sqlite_server.db_url, round_id, account)) == net
    audit = supervisor.audit()
    assert audit["ok"], audit["problems"]
