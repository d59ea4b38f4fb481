"""The money oracle's long run (tests/live/oracle_run.py): every game x every decision path x
every outcome class at least once on SQLite, every decision path on PostgreSQL.

    python benchmarks/bench_oracle.py [--backend sqlite|postgresql|both] [--players N]
        [--max-rounds N] [--minutes M] [--json PATH]

Each backend gets a real server on a fresh database with the demo floor; the oracle's own
players (enrolled by the supervisor, bought in) play every game through HTTP and the table
streams, the supervisor voids rounds at every phase before settlement, each round is settled
offline by ``croupier replay`` and every chip compared (``live.oracle_check``), every training
case of ``live.oracle_stacks`` is played at training tables of its own (the shoe case: a whole
six-deck shoe, its markers collected at its end), and the audit runs at the end.  SQLite
plays on until every cell of ``live.oracle_games`` (a decision path with each result its
decided wager can have; at baccarat every wager with each of its results) has been seen,
bounded by ``--max-rounds`` and ``--minutes`` a game.

Prints the counts as JSON (rounds, seat-rounds, decision paths, cells, wagers, results, paid
lines, hand categories, Envy awards, hand-pays, voids by phase, requests, findings) and the CPU
seconds; exit 1 on any finding (a chip that does not match, a round that does not replay, an
audit finding, a training case that failed) or a cell not reached.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from live.live_harness import Cluster, Server
from live.oracle_run import Size, run_oracle

BACCARAT = {"mini-baccarat": 2, "midi-baccarat": 2, "ez-baccarat": 2}
"""Two players at baccarat: every seat sees the same coup, so coups, not seats, reach its
cells, and a coup of fewer seats is quicker."""
UNTIL = {
    "mini-baccarat": frozenset({"banker:win", "shoe:card-repeated"}),
    "midi-baccarat": frozenset({"shoe:card-repeated"}),
    "ez-baccarat": frozenset({"shoe:card-repeated"}),
}


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _run(backend: str, size: Size, tmp: Path) -> dict[str, Any]:
    cluster = Cluster(tmp / "cluster") if backend == "postgresql" else None
    try:
        db_url = cluster.database() if cluster else f"sqlite:///{tmp / 'floor.sqlite'}"
        server = Server(db_url, tmp / "server.log")
        server.start()
        try:
            report = run_oracle(server.url, db_url, size, tmp)
            assert server.proc is not None
            server_cpu = _cpu(server.proc.pid)
        finally:
            server.stop()
    finally:
        if cluster is not None:
            cluster.stop()
    return {**report.to_json(), "cpu_seconds_server": round(server_cpu, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--players", type=int, default=5, help="players at each table")
    parser.add_argument("--max-rounds", type=int, default=400, help="rounds a game at most")
    parser.add_argument("--minutes", type=float, default=4.0, help="wall minutes a game at most")
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    began, cpu = time.perf_counter(), time.process_time()
    sizes = {
        "sqlite": Size(
            players=args.players,
            players_at=BACCARAT,
            mode="cells",
            voids=4,
            until=UNTIL,
            max_rounds=args.max_rounds,
            seconds=args.minutes * 60,
        ),
        "postgresql": Size(
            players=args.players,
            players_at=BACCARAT,
            mode="paths",
            voids=4,
            until=UNTIL,
            max_rounds=args.max_rounds,
            seconds=args.minutes * 60,
        ),
    }
    backends = ("sqlite", "postgresql") if args.backend == "both" else (args.backend,)
    out: dict[str, Any] = {}
    for backend in backends:
        with tempfile.TemporaryDirectory(prefix=f"croupier-oracle-{backend}-") as tmp:
            out[backend] = _run(backend, sizes[backend], Path(tmp))
    out["wall_seconds"] = round(time.perf_counter() - began, 1)
    out["cpu_seconds_oracle"] = round(time.process_time() - cpu, 1)
    out["load_average"] = os.getloadavg()
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text)
    failed = {b: {k: v for k, v in out[b]["training_cases"].items() if v} for b in backends}
    bad = [
        b
        for b in backends
        if out[b]["findings"] or out[b]["unfinished"] or out[b]["audit_findings"] or failed[b]
    ]
    for backend in bad:
        print(
            f"{backend}: {len(out[backend]['findings'])} findings, "
            f"{len(out[backend]['audit_findings'])} audit findings, training cases failed "
            f"{sorted(failed[backend])}, unfinished {out[backend]['unfinished']}",
            file=sys.stderr,
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
