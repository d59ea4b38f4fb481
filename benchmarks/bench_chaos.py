"""Kill -9 at every moment, the long run (tests/live/chaos_harness.py): 1,000 kills.

    python benchmarks/bench_chaos.py [--kills N] [--seed S] [--audit-every K] [--json PATH]

Bots play five tables (every round state, a hand-pay table among them) of a real server, which
is SIGKILLed ``--kills`` times at aimed round states and restarted; after each kill the books
are checked (see the harness).  Prints the figures as JSON: kills by state, where the command in
flight stood, rounds finished, interrupted rounds voided or resumed, hand-pays approved, wagers
checked settled once, full audits, stream events checked, the median restart, the problems.
Exit 1 on a problem.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from live.chaos_harness import chaos


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--audit-every", type=int, default=25)
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    began, cpu = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory(prefix="croupier-chaos-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'floor.sqlite'}"
        figures = chaos(
            url, Path(tmp), kills=args.kills, seed=args.seed, audit_every=args.audit_every
        )
    out = {
        **figures.to_json(),
        "wall_seconds": round(time.perf_counter() - began, 1),
        "cpu_seconds_harness": round(time.process_time() - cpu, 1),
        "load_average": os.getloadavg(),
    }
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text)
    return 1 if figures.problems else 0


if __name__ == "__main__":
    sys.exit(main())
