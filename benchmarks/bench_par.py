"""Wall time of the exact par sheets (issue target: under 5 s each on the 2-core machine).

Each sheet is computed in a fresh process so caches and compiled code from one game do not help
the next; numba's on-disk cache is warmed first (compile time is reported separately).  Prints a
table with the ratio to the 5-second target and writes JSON with ``--json PATH``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
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
TARGET_S = 5.0

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
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, slug], check=True, capture_output=True, text=True
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
    print(f"{'game':<24}{'import s':>10}{'sheet s':>10}{'sheets':>8}{'vs 5 s target':>16}")
    for slug in GAMES:
        imp, secs, count = run(slug)
        rows.append({"game": slug, "import_s": imp, "sheet_s": secs, "sheets": count})
        print(f"{slug:<24}{imp:>10.2f}{secs:>10.2f}{count:>8}{secs / TARGET_S:>15.2f}x")
    print(f"(first runs, numba compile and table caches included: {warm:.1f} s for all)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"target_s": TARGET_S, "warm_s": warm, "rows": rows}, fh, indent=2)


if __name__ == "__main__":
    main()
