"""Several server processes on one PostgreSQL database keep a linked meter exact, awards
included.

Three ``croupier serve --tables ...`` processes on one throwaway cluster, each serving its own
tables (a table's rounds live in one process); four tables of two games (Three Card Poker and a
Let It Ride table with a Three-Card Progressive of the test's own) link the meter
``pa-poker-jackpot``; bots play them all at once. That Let It Ride table's Three-Card
Progressive pays a share of that meter from a straight up (100% on a straight flush or a mini
royal), and its four seats play on until the meter has paid an award. After: every meter equals
its reset plus every contribution (the rate times each accepted progressive wager, from the
records) less every award replayed in the meter's order, each award's payment as the records
show it, to the fraction of a cent (:func:`live.meter_books.meter_books`); the ledger sums to
zero, the audit is clean and each player's balance moved by exactly their settlements (§ 605a.7:
the contributions of linked tables atomic and exact). The long run (50 tables, several minutes,
both backends) is benchmarks/bench_meters.py."""

from __future__ import annotations

import copy
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from croupier.faces.client import ApiError, Client
from croupier.server.demo import demo_rules
from live.live_harness import PASSWORDS, Cluster, Server
from live.meter_books import meter_books
from live.resume_play import Crew, drive

PLAYER_PASSWORD = "green felt, six decks"
"""The bot players' password (at least 12 characters, not their name)."""

METER = "pa-poker-jackpot"
RATE = Fraction(1, 4)
PROGRESSIVE = ("progressive", "three_card_progressive")
ROUNDS = 3
AWARDING = "lir-2"
"""Its Three-Card Progressive pays the linked meter from a straight up: an award about one hand
in 27, each of its four seats a hand a round."""
AWARD_ROUNDS = 80  # P(no award in 80 rounds of four hands) = (26/27)**320, about 1e-5
SERVED = (
    ("three-card-poker", "let-it-ride"),
    ("tcp-2", "lir-2"),
    ("tcp-3",),
)


def _enrol(server: Server) -> dict[str, dict[int, str]]:
    """Two players of their own at each linked table (through a process serving them all)."""
    supervisor = server.client("supervisor")
    rules = demo_rules()
    supervisor.new_table("tcp-2", "Three Card Poker 2", rules["three-card-poker"])
    supervisor.new_table("tcp-3", "Three Card Poker 3", rules["three-card-poker"])
    supervisor.new_table(AWARDING, "Let It Ride 2", _awarding(rules["let-it-ride"]))
    seated: dict[str, dict[int, str]] = {}
    for tables in SERVED:
        for t in tables:
            seated[t] = {}
            for seat in (1, 2, 3, 4) if t == AWARDING else (1, 2):
                pid = f"M-{t}-{seat}"
                supervisor.new_player(pid, pid, pid.lower(), PLAYER_PASSWORD)
                supervisor.buy_in(pid, 5_000_000)
                player = Client(server.url)
                player.login(pid.lower(), PLAYER_PASSWORD)
                server.clients.append(player)
                player.sit(t, seat)
                seated[t][seat] = pid
    return seated


def _awarding(rules: dict[str, object]) -> dict[str, object]:
    """Let It Ride with a Three-Card Progressive of the test's own (the demo table offers none:
    no filed table to cite) on the linked meter, with Three Card Poker's reset, rate and wager,
    paying shares of the meter from a straight up (§ 643a.1: the lowest line a straight)."""
    out = copy.deepcopy(rules)
    custom = out.setdefault("custom_paytables", {})
    assert isinstance(custom, dict)
    custom["three_card_progressive"] = {
        "meter": METER,
        "wager": 100,
        "reset": 500000,
        "rate": "0.25",
        "lines": {
            "mini_royal": "100% of meter",
            "straight_flush": "100% of meter",
            "three_of_a_kind": "20% of meter",
            "straight": "10% of meter",
        },
        "envy": {"mini_royal": 5000},
    }
    return out


def _approve(supervisor: Client, table_id: str) -> None:
    for pay in supervisor.handpays():
        if pay["status"] == "pending" and pay["table_id"] == table_id:
            supervisor.approve(pay["id"])


def _awarded(auditor: Client, round_id: str) -> bool:
    return any(
        (r["kind"], r.get("meter"), r.get("reason")) == ("meter_changed", METER, "award")
        for r in auditor.records(round_id)["records"]
    )


def _login(server: Server, username: str, password: str) -> Client:
    client = Client(server.url, timeout=120)
    client.login(username, password)
    server.clients.append(client)
    return client


def _play(crew: Crew, supervisor: Client, rounds: list[str]) -> None:
    for _ in range(ROUNDS):
        _play_one(crew, supervisor, rounds)


def _play_one(crew: Crew, supervisor: Client, rounds: list[str]) -> None:
    rounds.append(str(crew.dealer.new_round(crew.table_id)["round_id"]))
    assert drive(crew) in ("over", "void")
    _approve(supervisor, crew.table_id)


def _crews(
    servers: list[Server], seated: dict[str, dict[int, str]]
) -> tuple[list[Crew], dict[str, Client]]:
    """Each table's dealer and players, logged in to the process serving it."""
    crews, supervisors = [], {}
    for server, tables in zip(servers, SERVED, strict=True):
        supervisor = server.client("supervisor")
        served = {t["id"] for t in supervisor.tables()}
        assert served == set(tables)  # each table is served by one process
        for t in tables:
            players = {
                seat: _login(server, pid.lower(), PLAYER_PASSWORD)
                for seat, pid in seated[t].items()
            }
            detail = supervisor.table(t)
            house = dict(detail["house_wagers"])
            dealer = _login(server, "dealer", PASSWORDS["dealer"])
            crews.append(Crew(t, dealer, players, detail, dict.fromkeys(players, house)))
            supervisors[t] = supervisor
    return crews, supervisors


def _until_awarded(
    auditor: Client, crews: list[Crew], supervisors: dict[str, Client], rounds: list[str]
) -> None:
    """Play on at the awarding table until the linked meter has paid an award (bounded)."""
    awarding = next(c for c in crews if c.table_id == AWARDING)
    awarded = any(_awarded(auditor, rid) for rid in rounds)
    for _ in range(AWARD_ROUNDS):
        if awarded:
            return
        _play_one(awarding, supervisors[AWARDING], rounds)
        awarded = _awarded(auditor, rounds[-1])


def _from_records(
    auditor: Client,
    crews: list[Crew],
    rounds: dict[str, list[str]],
    balances: dict[str, dict[int, int]],
) -> tuple[Fraction, list[dict[str, object]]]:
    """The linked meter's contributions and awards as the records show them; each player's
    balance moved by exactly their settlements."""
    contributions, awards = Fraction(0), []
    for crew in crews:
        nets = dict.fromkeys(crew.players, 0)
        for rid in rounds[crew.table_id]:
            stored = auditor.records(rid)
            for r in stored["records"]:
                if r["kind"] == "wager_placed" and r["wager"] in PROGRESSIVE:
                    contributions += RATE * r["amount"]
                award = (r["kind"], r.get("meter"), r.get("reason"))
                if award == ("meter_changed", METER, "award"):
                    awards.append(r)
            for seat in nets:
                nets[seat] += stored["settlement"][str(seat)]["net"]
        for seat, player in crew.players.items():
            assert player.me()["balance"] - balances[crew.table_id][seat] == nets[seat]
    return contributions, awards


def test_605a_7_linked_meter_exact_across_three_server_processes(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    url = pg_cluster.database()
    setup = Server(url, tmp_path / "setup.log")
    setup.start()
    try:
        seated = _enrol(setup)
        before_meter = next(m for m in setup.client("auditor").meters() if m["name"] == METER)
    finally:
        setup.stop()
    servers = [
        Server(url, tmp_path / f"server{n}.log", args=("--tables", ",".join(tables)))
        for n, tables in enumerate(SERVED)
    ]
    try:
        for server in servers:
            server.start()
        crews, supervisors = _crews(servers, seated)
        other = servers[2].client("dealer")
        with pytest.raises(ApiError) as refused:
            other.view("three-card-poker")  # served by the first process only
        assert refused.value.status == 404
        balances = {c.table_id: {s: p.me()["balance"] for s, p in c.players.items()} for c in crews}
        rounds: dict[str, list[str]] = {c.table_id: [] for c in crews}
        with ThreadPoolExecutor(max_workers=len(crews)) as pool:
            done = [
                pool.submit(_play, c, supervisors[c.table_id], rounds[c.table_id]) for c in crews
            ]
            for future in done:
                future.result()
        auditor = servers[0].client("auditor")
        _until_awarded(auditor, crews, supervisors, rounds[AWARDING])
        contributions, awards = _from_records(auditor, crews, rounds, balances)
        wagered = sum(
            c.wagers[s].get(w, 0) * len(rounds[c.table_id])
            for c in crews
            for s in c.players
            for w in PROGRESSIVE
        )
        assert wagered > 0 and contributions == RATE * wagered
        assert awards, "the meter paid no award"
        after = next(m for m in auditor.meters() if m["name"] == METER)
        assert Fraction(before_meter["exact"]) == before_meter["reset"]
        engine = create_engine(url)
        try:
            books = meter_books(engine)
        finally:
            engine.dispose()
        assert books.problems == []
        book = books.meters[METER]
        assert (book.contributions, book.awards) == (contributions, len(awards))
        # reset + contributions - awards, each award replayed at the meter's amount then
        assert Fraction(after["exact"]) == book.exact == book.reset + contributions - book.fallen
        assert after["paid_total"] == book.paid > 0
        audit = auditor.audit()  # every meter equals its ledger account, to the fraction
        assert audit["ok"], audit["problems"]
        assert sum(Fraction(v) for v in audit["balances"].values()) == 0
    finally:
        for server in servers:
            server.stop()
