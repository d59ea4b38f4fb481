"""Rounds per second of the fast Monte Carlo, and a long run of each game against its exact value.

Run ``python benchmarks/bench_mc.py [--game fcp|uth|both] [--rounds N] [--seed S]
[--workers N] [--scheduler tcp://host:8786] [--json PATH]``.  For each game: the decision
tables are loaded (or solved, the first time: about a minute on two cores) and the kernel
compiled (or loaded from numba's cache), timed apart; then one thread deals ``--rate-rounds``
rounds, and the long run deals ``--rounds`` (default 10^8: a minute or two per game on two
cores) on every core, or on the Dask cluster at ``--scheduler``.  Prints the mean net per unit
Ante with its standard error beside the exact value.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from croupier.analysis.four_card_poker.decisions import four_card_tables
from croupier.analysis.montecarlo import run, run_block
from croupier.analysis.ultimate_texas_holdem.decisions import uth_tables

GAMES = {"fcp": "four-card-poker", "uth": "ultimate-texas-holdem"}


def bench(
    game: str, rounds: int, rate_rounds: int, seed: int, workers: int | None, scheduler: str | None
) -> dict[str, Any]:
    slug = GAMES[game]
    start = time.perf_counter()
    if game == "fcp":
        four_card_tables()
    else:
        uth_tables()
    tables_s = time.perf_counter() - start
    start = time.perf_counter()
    run_block(slug, 0, 1)
    compile_s = time.perf_counter() - start
    one = run(slug, rate_rounds, seed, workers=1)
    long = run(slug, rounds, seed, workers=workers, scheduler=scheduler)
    print(long.render())
    return {
        "game": slug,
        "tables_s": round(tables_s, 3),
        "compile_s": round(compile_s, 3),
        "one_thread_rounds_per_s": round(one.rounds_per_s),
        **long.to_json(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("fcp", "uth", "both"), default="both")
    parser.add_argument("--rounds", type=int, default=10**8, help="rounds of the long run")
    parser.add_argument("--rate-rounds", type=int, default=2 * 10**6, help="one-thread rounds")
    parser.add_argument("--seed", type=int, default=20250101)
    parser.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    parser.add_argument("--scheduler", default=None, help="a Dask scheduler address")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args(argv)
    games = ("fcp", "uth") if args.game == "both" else (args.game,)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores")
    results = []
    for game in games:
        row = bench(game, args.rounds, args.rate_rounds, args.seed, args.workers, args.scheduler)
        results.append(row)
        print(
            f"  tables {row['tables_s']:.1f} s, compile {row['compile_s']:.1f} s; one thread "
            f"{row['one_thread_rounds_per_s']:,} rounds/s, {row['workers']} "
            f"{'threads' if row['where'] == 'threads' else 'Dask threads'} "
            f"{row['rounds_per_s']:,} rounds/s"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
