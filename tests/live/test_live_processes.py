"""Several server processes on one PostgreSQL database keep a linked meter exact.

Three ``croupier serve --tables ...`` processes on one throwaway cluster, each serving its own
tables (a table's rounds live in one process); five tables of two games (Three Card Poker and
Let It Ride's Three-Card Progressive) link the meter ``pa-poker-jackpot``; bots play them all at
once.  After: the meter equals its reset plus every contribution (25% of each progressive wager,
from the records) less the awards, to the fraction of a cent; the ledger sums to zero, the
audit is clean and each player's balance moved by exactly their settlements (§ 605a.7: the
contributions of linked tables atomic and exact).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.client import ApiError, Client
from croupier.server.demo import demo_rules
from live.live_harness import PASSWORDS, Cluster, Server
from live.resume_play import Crew, drive

METER = "pa-poker-jackpot"
RATE = Fraction(1, 4)
PROGRESSIVE = ("progressive", "three_card_progressive")
ROUNDS = 3
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
    supervisor.new_table("lir-2", "Let It Ride 2", rules["let-it-ride"])
    seated: dict[str, dict[int, str]] = {}
    for tables in SERVED:
        for t in tables:
            seated[t] = {}
            for seat in (1, 2):
                pid = f"M-{t}-{seat}"
                supervisor.new_player(pid, pid, pid.lower(), f"{pid}-pw")
                supervisor.buy_in(pid, 5_000_000)
                player = Client(server.url)
                player.login(pid.lower(), f"{pid}-pw")
                server.clients.append(player)
                player.sit(t, seat)
                seated[t][seat] = pid
    return seated


def _login(server: Server, username: str, password: str) -> Client:
    client = Client(server.url, timeout=120)
    client.login(username, password)
    server.clients.append(client)
    return client


def _play(crew: Crew, supervisor: Client, rounds: list[str]) -> None:
    for _ in range(ROUNDS):
        rounds.append(str(crew.dealer.new_round(crew.table_id)["round_id"]))
        assert drive(crew) in ("over", "void")
        for pay in supervisor.handpays():
            if pay["status"] == "pending" and pay["table_id"] == crew.table_id:
                supervisor.approve(pay["id"])


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
        crews, supervisors = [], {}
        for server, tables in zip(servers, SERVED, strict=True):
            supervisor = server.client("supervisor")
            served = {t["id"] for t in supervisor.tables()}
            assert served == set(tables)  # each table is served by one process
            for t in tables:
                players = {
                    seat: _login(server, pid.lower(), f"{pid}-pw")
                    for seat, pid in seated[t].items()
                }
                detail = supervisor.table(t)
                house = dict(detail["house_wagers"])
                dealer = _login(server, "dealer", PASSWORDS["dealer"])
                crews.append(Crew(t, dealer, players, detail, {1: house, 2: house}))
                supervisors[t] = supervisor
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
        contributions, awards = Fraction(0), []
        for crew in crews:
            nets = {1: 0, 2: 0}
            for rid in rounds[crew.table_id]:
                stored = auditor.records(rid)
                for r in stored["records"]:
                    if r["kind"] == "wager_placed" and r["wager"] in PROGRESSIVE:
                        contributions += RATE * r["amount"]
                    award = (r["kind"], r.get("meter"), r.get("reason"))
                    if award == ("meter_changed", METER, "award"):
                        awards.append(r)
                for seat in nets:
                    settled = stored["settlement"][str(seat)]
                    nets[seat] += settled["net"]
            for seat, player in crew.players.items():
                assert player.me()["balance"] - balances[crew.table_id][seat] == nets[seat]
        wagered = sum(c.wagers[1].get(w, 0) for c in crews for w in PROGRESSIVE)
        assert wagered > 0 and contributions == RATE * wagered * 2 * ROUNDS
        after = next(m for m in auditor.meters() if m["name"] == METER)
        assert Fraction(before_meter["exact"]) == before_meter["reset"]
        if not awards:
            assert Fraction(after["exact"]) == before_meter["reset"] + contributions
        audit = auditor.audit()  # every meter equals its ledger account, to the fraction
        assert audit["ok"], audit["problems"]
        assert sum(Fraction(v) for v in audit["balances"].values()) == 0
    finally:
        for server in servers:
            server.stop()
