"""Linked meters at scale: 50 tables of four games sharing linked progressive meters, bots
playing them for several minutes, then every meter rebuilt exactly from the wagers.

    python benchmarks/bench_meters.py [--minutes 4] [--tables 50] [--processes 3]
                                      [--backends postgresql,sqlite] [--json PATH]

On PostgreSQL (a throwaway cluster, scripts/pg-throwaway.sh) ``--processes`` server processes
share one database, each serving its share of the tables (``croupier serve --tables ...``); on
SQLite one process serves them all.  The tables cycle through Three Card Poker and Let It Ride
(their Three-Card Progressives link the meter ``scale-poker``) and Mississippi Stud and Ultimate
Texas Hold 'Em (the Stud mega jackpot and the Hold 'Em progressive link ``scale-stud-mega``);
rates of progression like 1/3 and 0.0625 make every contribution a fraction of a cent.  The
Let It Ride tables' Three-Card Progressive pays a share of the meter from a straight up (100%
on a straight flush), so awards, partial and whole, come every few rounds; each whole-meter
award is a hand-pay a supervisor bot approves before the table deals again (§ 641a.11(c)(5)).

After the play, :func:`live.meter_books.meter_books` rebuilds every meter from the round
records alone (reset + rate x each accepted progressive wager - each award replayed in the
meter's order, each award's payment checked against the records) and compares it with what the
meter holds, to the fraction of a cent; ``GET /api/audit/verify`` must be clean and the ledger
sum to zero.  Prints, per backend, the rounds, commands, wagers, awards and hand-pays, each
meter's figures and the exactness result, the CPU seconds of the bots and of the servers and the
load average.  Exit 1 when a meter is not exact, a bot fails or the audit finds a problem.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from sqlalchemy import create_engine

from croupier.faces.bots import Crew, enrol, play_round
from croupier.faces.client import ApiError, Client
from croupier.server.demo import demo_rules
from live.live_harness import PASSWORDS, Cluster, Server
from live.meter_books import meter_books

SEATS = 2


def scale_rules() -> list[dict[str, Any]]:
    """The four games' rules, their progressives on the benchmark's own linked meters."""
    demo: dict[str, Any] = demo_rules()
    tcp = copy.deepcopy(demo["three-card-poker"])
    tcp["progressive"].update(meter="scale-poker", rate="1/3")
    lir = copy.deepcopy(demo["let-it-ride"])
    lir["progressive"].update(meter="scale-lir-five", rate="0.1975")
    # The demo table offers no Three-Card Progressive (no filed table to cite): the benchmark's
    # own, paying shares of the linked meter from a straight up so that awards come often.
    lir.setdefault("custom_paytables", {})["three_card_progressive"] = {
        "meter": "scale-poker",
        "wager": 100,
        "rate": "1/3",
        "reset": 500000,
        "lines": {
            "mini_royal": "100% of meter",
            "straight_flush": "100% of meter",
            "three_of_a_kind": "25% of meter",
            "straight": "10% of meter",
        },
        "envy": {"mini_royal": 5000},
    }
    stud = copy.deepcopy(demo["mississippi-stud"])
    jackpots = stud["progressive"]["meters"]
    jackpots["mega"].update(meter="scale-stud-mega", rate="0.0625")
    jackpots["major"].update(meter="scale-stud-major", rate="1/30")
    jackpots["minor"].update(meter="scale-stud-minor", rate="0.0125")
    uth = copy.deepcopy(demo["ultimate-texas-holdem"])
    uth["progressive"].update(
        meter="scale-stud-mega", rate="0.0625", reset=jackpots["mega"]["reset"]
    )
    return [tcp, lir, stud, uth]


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Bots:
    """Each table's bots play rounds until the deadline; a table waiting on a hand-pay has it
    approved by its process's supervisor bot first."""

    def __init__(self, crews: list[Crew], supervisors: dict[str, Client]) -> None:
        self.crews, self.supervisors = crews, supervisors
        self.handpays = 0
        self.errors: list[str] = []
        self._lock = threading.Lock()

    def _approve(self, table_id: str) -> int:
        supervisor = self.supervisors[table_id]
        with self._lock:  # one supervisor client per process, shared by its tables' threads
            pending = [
                h
                for h in supervisor.handpays()
                if h["status"] == "pending" and h["table_id"] == table_id
            ]
            for pay in pending:
                supervisor.approve(pay["id"])
            self.handpays += len(pending)
        return len(pending)

    def _work(self, crew: Crew, deadline: float) -> None:
        try:
            while time.monotonic() < deadline:
                try:
                    played = play_round(crew.dealer, crew.players, crew.table_id, crew.detail)
                except ApiError as exc:
                    # A round refused at its start: a hand-pay waits for its approval.
                    if exc.status == 409 and self._approve(crew.table_id):
                        continue
                    raise
                crew.rounds.append(played.round_id)
                crew.commands += played.commands
            self._approve(crew.table_id)  # none left pending at the end
        except Exception as exc:  # reported with the figures
            self.errors.append(f"{crew.table_id}: {exc!r}")

    def play(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        threads = [threading.Thread(target=self._work, args=(c, deadline)) for c in self.crews]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()


def _connect(server: Server, username: str, password: str) -> Client:
    client = Client(server.url, timeout=120)
    client.login(username, password)
    server.clients.append(client)
    return client


def _setup(url: str, workdir: Path, tables: int) -> dict[str, dict[int, str]]:
    """Create the tables and their players (through one process serving every table); each
    table's players' passwords by seat."""
    setup = Server(url, workdir / "setup.log")
    setup.start()
    try:
        supervisor = setup.client("supervisor")
        crews = enrol(
            supervisor,
            lambda u, p: _connect(setup, u, p),
            scale_rules(),
            tables=tables,
            seats=SEATS,
            prefix="scale",
            workers=4,
        )
        return {c.table_id: c.passwords for c in crews}
    finally:
        setup.stop()


def _crews(server: Server, passwords: dict[str, dict[int, str]]) -> list[Crew]:
    def one(table_id: str) -> Crew:
        players = {
            seat: _connect(server, f"{table_id}-p{seat}", passwords[table_id][seat])
            for seat in range(1, SEATS + 1)
        }
        crew = Crew(table_id, _connect(server, "dealer", PASSWORDS["dealer"]), players)
        crew.detail = crew.dealer.table(table_id)
        return crew

    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(one, passwords))


def run(backend: str, minutes: float, tables: int, processes: int, workdir: Path) -> dict[str, Any]:
    began, cpu = time.perf_counter(), time.process_time()
    cluster = Cluster(workdir / "cluster") if backend == "postgresql" else None
    try:
        url = cluster.database() if cluster else f"sqlite:///{workdir / 'floor.sqlite'}"
        passwords = _setup(url, workdir, tables)
        table_ids = list(passwords)
        count = processes if cluster else 1
        shares = [table_ids[n::count] for n in range(count)]
        servers = [
            Server(url, workdir / f"server{n}.log", args=("--tables", ",".join(share)))
            for n, share in enumerate(shares)
        ]
        try:
            crews: list[Crew] = []
            supervisors: dict[str, Client] = {}
            for server, share in zip(servers, shares, strict=True):
                server.start()
                crews += _crews(server, {t: passwords[t] for t in share})
                supervisor = server.client("supervisor")
                supervisors.update(dict.fromkeys(share, supervisor))
            served_cpu = [_cpu(s.proc.pid) for s in servers if s.proc is not None]
            bots, played = Bots(crews, supervisors), time.perf_counter()
            bots.play(minutes * 60)
            played = time.perf_counter() - played
            served_cpu = [
                _cpu(s.proc.pid) - c
                for s, c in zip(servers, served_cpu, strict=True)
                if s.proc is not None
            ]
            audit = servers[0].client("auditor").audit()
        finally:
            for server in servers:
                server.stop()
        engine = create_engine(url)
        try:
            books = meter_books(engine)
        finally:
            engine.dispose()
    finally:
        if cluster is not None:
            cluster.stop()
    rounds = sum(len(c.rounds) for c in crews)
    problems = bots.errors + list(audit["problems"]) + books.problems
    if sum(Fraction(v) for v in audit["balances"].values()) != 0:
        problems.append("the ledger's balances do not sum to zero")
    linked = {
        name: book.to_json() for name, book in books.meters.items() if name.startswith("scale-")
    }
    return {
        "backend": backend,
        "server_processes": count,
        "tables": len(crews),
        "games": sorted({str(c.detail["game"]) for c in crews}),
        "minutes_played": round(played / 60, 2),
        "rounds": rounds,
        "commands": sum(c.commands for c in crews),
        "progressive_wagers": sum(b["wagers"] for b in linked.values()),
        "meter_awards": sum(b["awards"] for b in linked.values()),
        "handpays_approved": bots.handpays,
        "meters": linked,
        "every_meter_exact": not books.problems,
        "audit_ok": bool(audit["ok"]),
        "problems": problems,
        "wall_seconds": round(time.perf_counter() - began, 1),
        "cpu_seconds_bots": round(time.process_time() - cpu, 1),
        "cpu_seconds_servers_playing": [round(c, 1) for c in served_cpu],
        "load_average": os.getloadavg(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=4.0, help="minutes of play a backend")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--processes", type=int, default=3, help="server processes on PostgreSQL")
    parser.add_argument("--backends", default="postgresql,sqlite")
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    results = []
    for backend in args.backends.split(","):
        with tempfile.TemporaryDirectory(prefix="croupier-meters-") as tmp:
            out = run(backend, args.minutes, args.tables, args.processes, Path(tmp))
        print(json.dumps(out, indent=2), flush=True)
        results.append(out)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 1 if any(r["problems"] or not r["audit_ok"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
