"""The hidden-information fuzzer's long run (tests/live/fuzz_harness.py): 10^5 messages.

    python benchmarks/bench_fuzz.py [--messages N] [--seed S] [--streams K] [--json PATH]

Prints the figures as JSON (messages, requests, stream events, refusals by status, cards
checked against the database, stream reconnects, rounds finished, problems) and the CPU seconds
of this process and of the server; exit 1 on a problem (a card reached someone who may not see
it, a 500, a stream gap).
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

from live.fuzz_harness import fuzz
from live.live_harness import Server


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--streams", type=int, default=6, help="streams per table")
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    began, cpu = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory(prefix="croupier-fuzz-") as tmp:
        server = Server(f"sqlite:///{Path(tmp) / 'floor.sqlite'}", Path(tmp) / "server.log")
        server.start()
        try:
            figures = fuzz(server, messages=args.messages, seed=args.seed, streams=args.streams)
            assert server.proc is not None
            server_cpu = _cpu(server.proc.pid)
        finally:
            server.stop()
    out = {
        **figures.to_json(),
        "wall_seconds": round(time.perf_counter() - began, 1),
        "cpu_seconds_fuzzer": round(time.process_time() - cpu, 1),
        "cpu_seconds_server": round(server_cpu, 1),
        "load_average": os.getloadavg(),
    }
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text)
    return 1 if figures.problems else 0


if __name__ == "__main__":
    sys.exit(main())
