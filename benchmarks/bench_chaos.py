"""Kill -9 at every moment, the long run (tests/live/chaos_harness.py): 1,000 kills.

    python benchmarks/bench_chaos.py [--kills N] [--pg-kills M] [--minutes T] [--pg-minutes U]
                                     [--parallel P] [--seed S] [--audit-every K] [--json PATH]

Bots play five tables (every round state, a hand-pay table among them) of a real server, which
is SIGKILLed ``--kills`` times at aimed round states and restarted; after each kill the books
are checked (see the harness).  Prints the figures as JSON: kills by state, where the command in
flight stood, rounds finished, interrupted rounds voided or resumed, hand-pays approved, wagers
checked settled once, full audits, stream events checked, the median restart, the problems.
The run is on SQLite (``--kills``), then on a throwaway PostgreSQL cluster (``--pg-kills``, made
by scripts/pg-throwaway.sh; 0 skips it), each with its figures; ``--minutes`` /
``--pg-minutes`` cap a backend's kills by time (the figures give the kills made).
``--parallel P`` splits each backend's kills over P harnesses run at once, each with its own
server, database (cluster) and seed: a harness mostly waits (for a restart, a command, a
stream), so P of them make kills P times as fast on a busy machine; each prints its figures
and the total line sums them.  Exit 1 on a problem.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from live.chaos_harness import ChaosFigures, chaos
from live.live_harness import Cluster


def _run(
    backend: str, kills: int, minutes: float | None, seed: int, audit_every: int
) -> tuple[ChaosFigures, dict[str, Any]]:
    began, cpu = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory(prefix="croupier-chaos-") as tmp:
        cluster = Cluster(Path(tmp) / "cluster") if backend == "postgresql" else None
        try:
            url = cluster.database() if cluster else f"sqlite:///{Path(tmp) / 'floor.sqlite'}"
            seconds = minutes * 60 if minutes is not None else None
            figures = chaos(
                url, Path(tmp), kills=kills, seed=seed, audit_every=audit_every, seconds=seconds
            )
        finally:
            if cluster is not None:
                cluster.stop()
    out = {
        "backend": backend,
        **figures.to_json(),
        "wall_seconds": round(time.perf_counter() - began, 1),
        "cpu_seconds_harness": round(time.process_time() - cpu, 1),
        "load_average": os.getloadavg(),
    }
    print(json.dumps(out, indent=2), flush=True)
    return figures, out


def _backend(
    backend: str, kills: int, minutes: float | None, args: argparse.Namespace
) -> list[tuple[ChaosFigures, dict[str, Any]]]:
    """One backend's kills, over ``--parallel`` harnesses (processes) at once."""
    parts = [kills // args.parallel + (i < kills % args.parallel) for i in range(args.parallel)]
    if args.parallel == 1:
        return [_run(backend, kills, minutes, args.seed, args.audit_every)]
    with concurrent.futures.ProcessPoolExecutor(args.parallel) as pool:
        runs = [
            pool.submit(_run, backend, n, minutes, args.seed + i, args.audit_every)
            for i, n in enumerate(parts)
            if n > 0
        ]
        results = [run.result() for run in runs]
    total = {
        "backend": backend,
        "harnesses": len(results),
        "kills": sum(f.kills for f, _ in results),
        "rounds_finished": sum(f.rounds_finished for f, _ in results),
        "wagers_checked_settled_once": sum(f.wagers_checked for f, _ in results),
        "full_audits": sum(f.audits for f, _ in results),
        "events_checked": sum(f.events_checked for f, _ in results),
        "problems": sum(len(f.problems) for f, _ in results),
    }
    print(json.dumps({"total": total}), flush=True)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=1000, help="kills on SQLite")
    parser.add_argument("--pg-kills", type=int, default=100, help="kills on PostgreSQL")
    parser.add_argument("--minutes", type=float, help="stop the SQLite kills after this long")
    parser.add_argument("--pg-minutes", type=float, help="stop the PostgreSQL kills after this")
    parser.add_argument("--parallel", type=int, default=1, help="harnesses at once")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--audit-every", type=int, default=25)
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    runs = [("sqlite", args.kills, args.minutes), ("postgresql", args.pg_kills, args.pg_minutes)]
    if args.parallel < 1:
        parser.error(f"--parallel {args.parallel}: at least 1")
    results = [r for b, k, m in runs if k > 0 for r in _backend(b, k, m, args)]
    if args.json:
        Path(args.json).write_text(json.dumps([out for _, out in results], indent=2))
    return 1 if any(figures.problems for figures, _ in results) else 0


if __name__ == "__main__":
    sys.exit(main())
