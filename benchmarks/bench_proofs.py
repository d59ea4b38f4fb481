"""The long proofs: the test suite's ``long`` batteries, which ``make test`` leaves out.

Run ``python benchmarks/bench_proofs.py [--json PATH] [pytest arguments...]``.  Runs
``pytest -m long`` (every test marked ``long``: the full-size versions of checks whose fast
siblings run in ``make test``, e.g. 10^6 random hands instead of 10^5, 10,000 engine rounds a
game instead of 2,000), prints each battery's own figures (``-s``) and pytest's verdicts, and
writes the outcome, the wall and CPU seconds to ``--json``.  Exits with pytest's status, so a
failed proof fails ``make bench``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the outcome here")
    args, extra = parser.parse_known_args(argv)
    os.chdir(ROOT)
    start, cpu = time.perf_counter(), time.process_time()
    status = int(
        pytest.main(["-m", "long", "-s", "-q", "-W", "error", "-rA", "--cpu-durations=20", *extra])
    )
    report = {
        "benchmark": "proofs",
        "selection": "pytest -m long",
        "status": status,
        "passed": status == 0,
        "wall_s": round(time.perf_counter() - start, 1),
        "cpu_s": round(time.process_time() - cpu, 1),
        "python": platform.python_version(),
        "load_average": os.getloadavg()[0],
    }
    print(json.dumps(report, indent=2))
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return status


if __name__ == "__main__":
    sys.exit(main())
