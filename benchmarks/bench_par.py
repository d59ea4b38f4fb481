"""Wall time of the exact par sheets against their targets on the 2-core machine: 5 s for each
game whose base is solved by enumeration, 90 s for Four Card Poker and 40 s for Ultimate Texas
Hold 'Em (the heavy Ante/Play solvers).

Each sheet is computed in a fresh process with an empty ``$CROUPIER_CACHE`` (no lookup tables
and no solver checkpoints carried over), after numba's on-disk code cache is warmed (compile time
is reported separately).  Prints the ratio to each target; writes JSON with ``--json PATH``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

GAMES = (
    "three-card-poker",
    "let-it-ride",
    "mississippi-stud",
    "mini-baccarat",
    "midi-baccarat",
    "ez-baccarat",
    "four-card-poker",
    "ultimate-texas-holdem",
)
TARGET_S = {"four-card-poker": 90.0, "ultimate-texas-holdem": 40.0}
DEFAULT_TARGET_S = 5.0

_CHILD = """
import time, sys
t0 = time.perf_counter()
from croupier.analysis import par_sheet
from croupier.games import game_class, get_game
cls = game_class(sys.argv[1])
game = get_game(cls.example_rules or sys.argv[1])
t1 = time.perf_counter()
sheet = par_sheet(game)
t2 = time.perf_counter()
print(t1 - t0, t2 - t1, len(sheet.wagers) + (sheet.base is not None))
"""


def run(slug: str) -> tuple[float, float, int]:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "CROUPIER_CACHE": cache}
        out = subprocess.run(
            [sys.executable, "-c", _CHILD, slug],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        ).stdout.split()
    return float(out[0]), float(out[1]), int(out[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", help="write results here")
    args = parser.parse_args()
    print("warming numba caches ...", file=sys.stderr)
    start = time.perf_counter()
    for slug in GAMES:
        run(slug)
    warm = time.perf_counter() - start
    rows = []
    print(f"{'game':<24}{'import s':>10}{'sheet s':>10}{'sheets':>8}{'target s':>10}{'ratio':>8}")
    for slug in GAMES:
        imp, secs, count = run(slug)
        target = TARGET_S.get(slug, DEFAULT_TARGET_S)
        rows.append(
            {"game": slug, "import_s": imp, "sheet_s": secs, "sheets": count, "target_s": target}
        )
        print(f"{slug:<24}{imp:>10.2f}{secs:>10.2f}{count:>8}{target:>10.0f}{secs / target:>7.2f}x")
    print(f"(first runs, numba compile and table caches included: {warm:.1f} s for all)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"warm_s": warm, "rows": rows}, fh, indent=2)


if __name__ == "__main__":
    main()
