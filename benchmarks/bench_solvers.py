"""Wall time of the exact optimal-strategy solvers: Four Card Poker Ante/Play and Ultimate Texas
Hold 'Em (Ante, Blind, Play with Blind table A).

Run ``python benchmarks/bench_solvers.py [--game fcp|uth|both] [--workers N] [--json PATH]``.
Each solver is first warmed up on a sliver of its work (so numba's compilation, or the load of
its on-disk cache, is timed apart), then solved in full with checkpoints off, so every block is
computed.  Prints the wall times, the exact house edges and the element of risk.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from croupier.analysis.fcp_solver import solve_four_card_poker
from croupier.analysis.par import WagerSheet, exact
from croupier.analysis.uth_solver import solve_ultimate_texas_holdem


def _timed(run: Callable[[], WagerSheet]) -> tuple[float, WagerSheet]:
    start = time.perf_counter()
    sheet = run()
    return time.perf_counter() - start, sheet


def bench(game: str, workers: int | None) -> dict[str, Any]:
    if game == "fcp":
        name = "Four Card Poker Ante/Play"

        def warm() -> WagerSheet:
            return solve_four_card_poker(up_ranks=[2], workers=1, checkpoint=False).sheet

        def full() -> WagerSheet:
            return solve_four_card_poker(workers=workers, checkpoint=False).sheet

    else:
        name = "Ultimate Texas Hold 'Em (Blind table A)"

        def warm() -> WagerSheet:
            return solve_ultimate_texas_holdem(flops=1, workers=1, checkpoint=False).sheet

        def full() -> WagerSheet:
            return solve_ultimate_texas_holdem(workers=workers, checkpoint=False).sheet

    warm_s, _ = _timed(warm)
    wall_s, sheet = _timed(full)
    return {
        "game": name,
        "warm_up_s": round(warm_s, 3),
        "wall_s": round(wall_s, 3),
        "combinations": sheet.total,
        "house_edge": float(sheet.house_edge),
        "house_edge_exact": exact(sheet.house_edge),
        "element_of_risk": float(sheet.element_of_risk),
        "element_of_risk_exact": exact(sheet.element_of_risk),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("fcp", "uth", "both"), default="both")
    parser.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args(argv)
    games = ("fcp", "uth") if args.game == "both" else (args.game,)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores")
    results = []
    for game in games:
        row = bench(game, args.workers)
        results.append(row)
        print(
            f"{row['game']}: {row['wall_s']:.1f} s wall (warm-up {row['warm_up_s']:.1f} s), "
            f"{row['combinations']:,} combinations, house edge {row['house_edge']:.6%} "
            f"= {row['house_edge_exact']}, element of risk {row['element_of_risk']:.6%}"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
