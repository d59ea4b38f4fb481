"""Kill -9 drill: kill a process writing rounds N times at random moments and recover each time.

    python benchmarks/kill9_recovery.py --kills 50 [--seed S] [--db sqlite:///drill.sqlite]

Prints the figures as JSON: kills, rounds stored, rounds the kills left open, rounds recovered
(resumed with their persisted cards and played to the end), cards checked against the persisted
shoe orders, and the problems found (none when every round recovered exactly and the audit of
the books is clean).  Exit 1 on a problem.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from store_kill import kill_and_recover


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--db", help="database URL (default: a temporary SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite:///{Path(tmp) / 'drill.sqlite'}"
        figures = kill_and_recover(url, args.kills, seed=args.seed)
    print(json.dumps(asdict(figures), indent=2))
    return 1 if figures.problems else 0


if __name__ == "__main__":
    sys.exit(main())
