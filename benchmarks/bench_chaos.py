"""Kill -9 at every moment, the long run (tests/live/chaos_harness.py): 1,000 kills.

    python benchmarks/bench_chaos.py [--kills N] [--pg-kills M] [--minutes T] [--pg-minutes U]
                                     [--seed S] [--audit-every K] [--json PATH]

Bots play five tables (every round state, a hand-pay table among them) of a real server, which
is SIGKILLed ``--kills`` times at aimed round states and restarted; after each kill the books
are checked (see the harness).  Prints the figures as JSON: kills by state, where the command in
flight stood, rounds finished, interrupted rounds voided or resumed, hand-pays approved, wagers
checked settled once, full audits, stream events checked, the median restart, the problems.
The run is on SQLite (``--kills``), then on a throwaway PostgreSQL cluster (``--pg-kills``, made
by scripts/pg-throwaway.sh; 0 skips it), each with its figures; ``--minutes`` /
``--pg-minutes`` cap a backend's kills by time (the figures give the kills made).  Each check
reads the whole database, so a kill costs more as the run goes on.  Exit 1 on a problem.
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=1000, help="kills on SQLite")
    parser.add_argument("--pg-kills", type=int, default=100, help="kills on PostgreSQL")
    parser.add_argument("--minutes", type=float, help="stop the SQLite kills after this long")
    parser.add_argument("--pg-minutes", type=float, help="stop the PostgreSQL kills after this")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--audit-every", type=int, default=25)
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    runs = [("sqlite", args.kills, args.minutes), ("postgresql", args.pg_kills, args.pg_minutes)]
    results = [_run(b, k, m, args.seed, args.audit_every) for b, k, m in runs if k > 0]
    if args.json:
        Path(args.json).write_text(json.dumps([out for _, out in results], indent=2))
    return 1 if any(figures.problems for figures, _ in results) else 0


if __name__ == "__main__":
    sys.exit(main())
