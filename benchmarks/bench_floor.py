"""A 400-table casino floor for a month of play, on the fast kernels: wall time and rounds/s.

Run ``python benchmarks/bench_floor.py [--tables N] [--hours H] [--seed S] [--workers W]
[--scheduler ADDR] [--target-minutes M] [--json PATH]``.  The floor mixes every game (a
quarter baccarat, the rest the poker games in turn), four seats an hour at every table, each
game at its default pace; the Mississippi Stud tables share one progressive meter.  The
decision tables are loaded (or built) by a short warm-up first, then the month is timed.
Printed: seat-rounds, wall minutes, rounds per second and per second per core, the ratio of
the wall minutes to the stated target (``--target-minutes``, default 10: a month of a
400-table floor in ten minutes on a two-core machine), the floor's hold by game, and each
game's kernel rounds per CPU second on one core (one table's rounds on one thread).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from croupier.analysis.floor_forecast import load_floor, simulate_floor

GAMES = (
    "three-card-poker",
    "four-card-poker",
    "let-it-ride",
    "ultimate-texas-holdem",
    "mississippi-stud",
    "mini-baccarat",
)


def floor_file(folder: Path, tables: int) -> Path:
    per_game = dict.fromkeys(GAMES, 0)
    for i in range(tables):
        per_game["mini-baccarat" if i % 4 == 3 else GAMES[i % 5]] += 1
    rules = folder / "stud.toml"
    rules.write_text(
        'game = "mississippi-stud"\n[progressive]\npaytable = "A"\nwager = 500\n'
        'reset = 1000000\nrate = "0.20"\nmeter = "floor-stud"\n',
        encoding="utf-8",
    )
    parts = ['name = "benchmark floor"']
    for game, count in per_game.items():
        if not count:
            continue
        source = (
            'rules = "stud.toml"\nprogressive_share = 0.3'
            if game == "mississippi-stud"
            else (f'game = "{game}"')
        )
        parts.append(
            f'[[tables]]\nname = "{game}"\n{source}\ncount = {count}\naverage_bet = 2500\n'
            "occupancy = 4\n"
        )
    path = folder / "floor.toml"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def per_game_rates(rounds: int, seed: int) -> dict[str, float]:
    """Each game's rounds per CPU second on one thread (one table's worth of ``rounds``)."""
    from croupier.analysis.floor_forecast import _table_task

    rates = {}
    for game in GAMES:
        _table_task(game, 1_000, seed)  # tables and compiled kernel, off the clock
        start = time.process_time()
        _table_task(game, rounds, seed)
        rates[game] = rounds / max(time.process_time() - start, 1e-9)
    return rates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument("--hours", type=int, default=720, help="a month: 30 days of 24 hours")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--scheduler", default=None)
    parser.add_argument("--target-minutes", type=float, default=10.0)
    parser.add_argument("--game-rounds", type=int, default=300_000)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        floor = load_floor(floor_file(Path(tmp), args.tables))
        start = time.perf_counter()
        simulate_floor(floor, 1, args.seed, workers=args.workers)  # tables and kernels, warm
        warm = time.perf_counter() - start
        cpu_start = time.process_time()
        result = simulate_floor(
            floor, args.hours, args.seed, workers=args.workers, scheduler=args.scheduler
        )
        cpu = time.process_time() - cpu_start  # every thread of this process
    cores = args.workers or os.cpu_count() or 1
    rate = result.rounds / result.wall_s
    print(f"warm-up (decision tables, kernels): {warm:.1f} s")
    print(
        f"{len(result.tables)} tables x {args.hours} h: {result.rounds:,} seat-rounds in "
        f"{result.wall_s / 60:.2f} min ({rate:,.0f} rounds/s, {rate / cores:,.0f} per core "
        f"on {cores})"
    )
    data = result.to_json()
    for game, g in data["games"].items():
        print(f"  {game:<24} hold {g['hold']:.3%} (theoretical {g['theoretical_hold']:.3%})")
    print(f"  jackpots: {len(data['jackpots'])}")
    per_cpu = result.rounds / max(cpu, 1e-9)
    # the 400-table month's seat-rounds, scaled from this floor (exact for a multiple of 20
    # tables: the same mix of games)
    month = result.rounds * 400 * 720 / (args.tables * args.hours)
    print(
        f"CPU {cpu:.1f} s: {per_cpu:,.0f} seat-rounds per CPU second; a 400-table month "
        f"({month / 1e6:.2f} M seat-rounds) at this rate: {month / per_cpu / 60:.2f} CPU min, "
        f"{month / per_cpu / 60 / cores:.2f} min on {cores} idle cores"
    )
    minutes = result.wall_s / 60
    ratio = minutes / args.target_minutes
    verdict = "within" if ratio <= 1 else "over"
    print(
        f"target {args.target_minutes:g} min: {minutes:.2f} min = {ratio:.2f} x the target "
        f"({verdict}); load average {os.getloadavg()[0]:.1f}"
    )
    rates = per_game_rates(args.game_rounds, args.seed)
    for game, per_s in rates.items():
        print(f"  {game:<24} {per_s:,.0f} rounds per CPU second (one core)")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "wall_s": result.wall_s,
                    "cpu_s": cpu,
                    "rounds_per_cpu_s": per_cpu,
                    "rounds": result.rounds,
                    "per_core": rate / cores,
                    "minutes": minutes,
                    "target_minutes": args.target_minutes,
                    "ratio_to_target": ratio,
                    "rounds_per_cpu_s_by_game": rates,
                }
            ),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
