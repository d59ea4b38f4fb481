"""Issue 35, "reconcile every chip": ``croupier audit verify`` (and ``GET /api/audit/verify``)
reconciles each seat's chip-ledger rows of each round with the engine's settlement of that seat
rebuilt from the records (:mod:`croupier.audit.reconcile`).

Each defect is recreated in a real server's database as the code once wrote it, with the books
kept balanced (every transaction sums to zero, every balance equals its rows: the ledger's own
check sees nothing), and the audit names the round, the seat and both amounts.  A clean floor of
every game, a hand-pay pending and approved, and deferred commission posted as the parts of
issue 35 agreed (``commission:<player>``) audit clean."""

from __future__ import annotations

import io
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, update

from croupier.audit import Finding, verify
from croupier.cli import main
from croupier.faces.bots import play_round
from croupier.faces.client import Client
from croupier.server.ledger import (
    HOUSE,
    Entry,
    Ledger,
    commission_account,
    player_account,
    table_account,
)
from croupier.store.schema import chip_ledger, handpays
from live.chaos_harness import HANDPAY_RULES
from live.chip_books import add_legs, play, rebalance, repost, round_rows
from live.live_harness import Server


@pytest.fixture
def books(sqlite_server: Server) -> Iterator[Engine]:
    engine = create_engine(sqlite_server.db_url)
    try:
        yield engine
    finally:
        engine.dispose()


def _seat_finding(findings: list[Finding], round_id: str, seat: int) -> Finding:
    """The one finding naming ``seat`` of the round (``seat 2``; ``seats 1, 2`` for a player
    at two boxes, reconciled over both)."""
    prefix = f"round {round_id!r} seat"
    named = [
        f
        for f in findings
        if f.key.startswith(prefix)
        and str(seat) in f.key.partition("seat")[2].lstrip("s ").split(", ")
    ]
    assert len(named) == 1, [str(f) for f in findings]
    return named[0]


def _ledger_balanced(engine: Engine) -> None:
    """The ledger's own check (transactions, balances) finds nothing: only the reconciliation
    can."""
    with engine.connect() as conn:
        assert Ledger.check(conn) == []


def test_defect_1_pulled_bet_credited_twice_is_caught_naming_round_and_seat(
    sqlite_server: Server, books: Engine
) -> None:
    dealer, player = sqlite_server.client("dealer"), sqlite_server.client("player1")
    supervisor = sqlite_server.client("supervisor")
    player.sit("let-it-ride", 1)
    bets = {"bet1": 500, "bet2": 500, "bet3": 500}
    rid = play(dealer, {1: player}, "let-it-ride", bets, {1: ("pull bet1", "ride")})
    net = supervisor.records(rid)["settlement"]["1"]["net"]
    assert supervisor.audit()["ok"]
    sqlite_server.stop()
    with books.begin() as conn:
        rows = round_rows(conn, rid)
        pulled = next(r for r in rows if r.reason == "withdrawn")
        ended = next(r for r in rows if r.reason in ("round_won", "round_lost"))
        # the old round_entries: a 'settled' row returning the pulled stake a second time,
        # and the round's end moving the table's shortfall from the house
        pid, table = player_account("P1"), table_account("let-it-ride")
        add_legs(conn, pulled, [(pid, 500, "settled"), (table, -500, "settled")])
        add_legs(conn, ended, [(table, 500, ended.reason), (HOUSE, -500, ended.reason)])
        rebalance(conn)
    _ledger_balanced(books)
    out = io.StringIO()
    assert main(["audit", "verify", "--db", sqlite_server.db_url], out=out) == 1
    line = next(x for x in out.getvalue().splitlines() if f"round {rid!r} seat 1:" in x)
    assert f"move {net + 500} " in line and f"gives {net} " in line, line
    assert "the difference is 500" in line


def _banker_win(sqlite_server: Server) -> tuple[str, dict[str, Any]]:
    """A Minibaccarat coup (deferred commission, the demo table) where player1's Banker
    wager of 1,000 wins: its id and records."""
    dealer, player = sqlite_server.client("dealer"), sqlite_server.client("player1")
    supervisor = sqlite_server.client("supervisor")
    player.sit("mini-baccarat", 1)
    for _ in range(60):
        rid = play(dealer, {1: player}, "mini-baccarat", {"banker": 1000})
        recalled = supervisor.records(rid)
        if any(r["kind"] == "vig_marked" for r in recalled["records"]):
            return rid, recalled
    raise AssertionError("the Banker did not win in 60 coups")


def test_defect_2_deferred_commission_not_posted_is_caught_and_the_contract_reconciles(
    sqlite_server: Server, books: Engine
) -> None:
    rid, recalled = _banker_win(sqlite_server)
    marked = next(r for r in recalled["records"] if r["kind"] == "vig_marked")
    assert (marked["seat"], marked["amount"]) == (1, 50)
    assert recalled["settlement"]["1"]["net"] == 950
    sqlite_server.stop()
    pid, table = player_account("P1"), table_account("mini-baccarat")
    placed = [Entry(pid, table, Fraction(1000), "wager")]
    # the defect: paid 1,000 and the stake back, no commission row: the player's +1,000
    with books.begin() as conn:
        paid = Entry(table, pid, Fraction(2000), "settled")
        lost = Entry(HOUSE, table, Fraction(1000), "round_lost")
        repost(conn, rid, "mini-baccarat", [placed, [paid, lost]])
    _ledger_balanced(books)
    finding = _seat_finding(verify(sqlite_server.db_url).findings, rid, 1)
    assert "move 1000 (player 1000, commission 0)" in finding.what, finding
    assert "gives 950 " in finding.what, finding
    # contract 1: the marker owed on commission:P1 at the coup, collected later (§ 541.13(g))
    owed = commission_account("P1")
    with books.begin() as conn:
        marker = Entry(owed, table, Fraction(50), "vig_marked")
        settled = [paid, marker, Entry(HOUSE, table, Fraction(950), "round_lost")]
        repost(conn, rid, "mini-baccarat", [placed, settled])
    report = verify(sqlite_server.db_url)
    assert report.ok, [str(f) for f in report.findings]
    with books.begin() as conn:
        Ledger().post(conn, [Entry(pid, owed, Fraction(50), "vig_marker_collected")])
    assert verify(sqlite_server.db_url).ok


@pytest.mark.parametrize("tamper", ["rows only", "balances too"])
def test_a_hand_edited_ledger_row_is_caught_naming_the_seat(
    sqlite_server: Server, books: Engine, tamper: str
) -> None:
    dealer = sqlite_server.client("dealer")
    seats = {s: sqlite_server.client(f"player{s}") for s in (1, 2, 3)}
    for s, p in seats.items():
        p.sit("three-card-poker", s)
    detail = dealer.table("three-card-poker")
    rid = play_round(dealer, seats, "three-card-poker", detail).round_id
    sqlite_server.stop()
    assert verify(sqlite_server.db_url).ok
    with books.begin() as conn:
        rows = round_rows(conn, rid)
        edited = next(r for r in rows if r.account == player_account("P2"))
        counter = next(r for r in rows if r.txn == edited.txn and r.id != edited.id)
        # 100 cents less taken from the player, 100 less to the table: the transaction
        # still sums to zero
        for row in (edited, counter):
            amount = Fraction(row.amount) + (100 if row.id == edited.id else -100)
            conn.execute(
                update(chip_ledger).where(chip_ledger.c.id == row.id).values(amount=str(amount))
            )
        if tamper == "balances too":
            rebalance(conn)
    if tamper == "balances too":
        _ledger_balanced(books)
    findings = verify(sqlite_server.db_url).findings
    finding = _seat_finding(findings, rid, 2)
    assert "the difference is 100" in finding.what, finding
    assert all(f"seat {s}" not in f.key for f in findings for s in (1, 3)), findings


def test_641a_11_c_5_hand_pay_reconciled_pending_and_on_approval(
    sqlite_server: Server, books: Engine
) -> None:
    supervisor, dealer = sqlite_server.client("supervisor"), sqlite_server.client("dealer")
    table = "reconcile-handpay"
    supervisor.new_table(table, "Hand-pay", HANDPAY_RULES)
    players = {n: sqlite_server.client(f"player{n}") for n in (6, 7)}
    seats = {1: players[6], 2: players[6], 3: players[7], 4: players[7]}  # two boxes each
    for s, p in seats.items():
        p.sit(table, s)
    start = {n: p.me()["balance"] for n, p in players.items()}
    detail, played = dealer.table(table), []
    for _ in range(120):
        played.append(play_round(dealer, seats, table, detail).round_id)
        pending = [h for h in supervisor.handpays() if h["table_id"] == table]
        if pending:
            break
    assert pending, f"no hand-pay in {len(played)} rounds"
    pay = pending[0]  # two boxes may both win a hand-pay in one round: each is approved below
    audit = supervisor.audit()
    assert audit["ok"], audit["problems"]
    # the award waits in the hand-pay account; a status flipped without paying is found
    with books.begin() as conn:
        conn.execute(update(handpays).where(handpays.c.id == pay["id"]).values(status="approved"))
    findings = verify(sqlite_server.db_url).findings
    assert _seat_finding(findings, pay["round_id"], pay["seat"])
    assert any(f.key == "account handpay" for f in findings), findings
    with books.begin() as conn:
        conn.execute(update(handpays).where(handpays.c.id == pay["id"]).values(status="pending"))
    for each in pending:
        supervisor.approve(each["id"])
    audit = supervisor.audit()
    assert audit["ok"], audit["problems"]
    assert audit["audit"]["checked"]["seats_reconciled"] == 4 * len(played)
    nets = {6: 0, 7: 0}
    for rid in played:
        for seat, entry in supervisor.records(rid)["settlement"].items():
            nets[6 if int(seat) <= 2 else 7] += entry["net"]
    assert {n: p.me()["balance"] - start[n] for n, p in players.items()} == nets


FIRST = {
    # table -> (seat -> demo player); the choices of each Let It Ride seat below
    "three-card-poker": {1: "player1", 2: "player2"},
    "let-it-ride": {1: "player3", 2: "player3", 3: "player4"},
    "ultimate-texas-holdem": {1: "player5"},
    "mississippi-stud": {1: "player6"},
    "four-card-poker": {1: "player7"},
}
SECOND = {
    "mini-baccarat": {1: "player1", 2: "player2"},
    "midi-baccarat": {1: "player3", 2: "player4"},
    "ez-baccarat": {1: "player5"},
}
WAGERS = {
    # Player wagers only at the deferred-commission table: its marker postings are the
    # commission part of issue 35 (contract 1), reconciled above on hand-posted rows
    "mini-baccarat": {"player": 500},
    "midi-baccarat": {"banker": 1000, "player": 500},
    "ez-baccarat": {"banker": 500},
    "let-it-ride": {"bet1": 500, "bet2": 500, "bet3": 500},
}
PULLS = {1: ("pull",), 2: ("ride",), 3: ("pull bet1", "ride")}


def test_a_clean_floor_of_every_game_reconciles_on_each_backend(server: Server) -> None:
    dealer, supervisor = server.client("dealer"), server.client("supervisor")
    clients = {f"player{n}": server.client(f"player{n}") for n in range(1, 8)}
    start = {name: c.me()["balance"] for name, c in clients.items()}
    played: list[tuple[str, dict[int, str]]] = []
    for floor in (FIRST, SECOND):
        for table, names in floor.items():
            for seat, name in names.items():
                clients[name].sit(table, seat)
            seats = {seat: clients[name] for seat, name in names.items()}
            detail = dealer.table(table)
            for _ in range(2):
                if table in WAGERS:
                    choices = PULLS if table == "let-it-ride" else None
                    rid = play(dealer, seats, table, WAGERS[table], choices)
                else:
                    rid = play_round(dealer, seats, table, detail).round_id
                played.append((rid, names))
            for name in set(names.values()):
                clients[name].leave(table)
    supervisor.buy_in("P7", 2500)
    supervisor.cash_out("P6", 1000)
    played.append((_voided(dealer, supervisor, clients["player1"]), {1: "player1"}))
    # a round in play while the audit runs: its stakes are still in action on its table
    clients["player5"].sit("ultimate-texas-holdem", 1)
    dealer.new_round("ultimate-texas-holdem")
    for wager in ("ante", "blind"):
        clients["player5"].wager("ultimate-texas-holdem", wager, 500, seat=1)
    audit = supervisor.audit()
    assert audit["ok"], audit["problems"]
    reconciled = sum(len(n) for _, n in played) + 1
    assert audit["audit"]["checked"]["seats_reconciled"] == reconciled
    assert Fraction(audit["balances"]["table:ultimate-texas-holdem"]) == 1000
    assert verify(server.db_url).ok
    # the oracle apart from the ledger: each balance moved by its seats' settled nets
    moved = dict.fromkeys(clients, 0)
    for rid, names in played:
        for seat, entry in supervisor.records(rid)["settlement"].items():
            moved[names[int(seat)]] += entry["net"]
    moved["player7"] += 2500
    moved["player6"] -= 1000
    moved["player5"] -= 1000
    assert {name: c.me()["balance"] - start[name] for name, c in clients.items()} == moved


def _voided(dealer: Client, supervisor: Client, player: Client) -> str:
    """A Three Card Poker round voided by the supervisor after the deal (§ 641a.13)."""
    player.sit("three-card-poker", 1)
    rid = str(dealer.new_round("three-card-poker")["round_id"])
    player.wager("three-card-poker", "ante", 500, seat=1)
    dealer.no_more_bets("three-card-poker", 0)
    dealer.step("three-card-poker", "deal")
    assert supervisor.void(rid, "reconcile drill")["phase"] == "void"
    player.leave("three-card-poker")
    return rid
