"""Cold and warm wall time of ``croupier par GAME --json --quiet``, the command users run.

Cold: a fresh process with an empty ``$CROUPIER_CACHE`` (no lookup tables, no solver
checkpoints) and an empty numba code cache (``$NUMBA_CACHE_DIR``), so compilation, table builds
and solves are all paid.  Warm: the same command again with both caches as the cold run left
them.  Each figure is the median of three runs (``--repeat N`` for N), cold and warm, and the
table ends with the ratio of the cold CPU time to the issue's target (every base par sheet under
5 s cold; below 1.0 meets it).  Prints a Markdown table, with the load
average at the start and the end; writes JSON with ``--json PATH``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from croupier.games import GAMES as REGISTRY

TARGET_COLD_S = 5.0
"""Issue 18: every base par sheet under 5 s cold."""

GAMES = tuple(REGISTRY)
"""Every game of the registry (``croupier.games.GAMES``)."""


def _timed(slug: str, env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; the CPU time (user + system of the child) is what the
    sheet costs when the machine is shared, the wall time what a user waits."""
    command = [sys.executable, "-m", "croupier", "par", slug, "--json", "--quiet"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(slug: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """((wall, CPU) cold, (wall, CPU) warm) seconds of one game's par sheet."""
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as numba:
        env = {**os.environ, "CROUPIER_CACHE": cache, "XDG_CACHE_HOME": cache}
        env["NUMBA_CACHE_DIR"] = numba
        return _timed(slug, env), _timed(slug, env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    results: dict[str, dict[str, float]] = {}
    print(
        f"`croupier par GAME --json --quiet`, seconds, median of {args.repeat}; load average at "
        f"the start {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n"
    )
    print("| game | cold wall | cold CPU | warm wall | warm CPU | cold CPU / 5 s |")
    print("|---|---|---|---|---|---|")
    for slug in args.games:
        runs = [measure(slug) for _ in range(args.repeat)]
        figures = {
            "cold_wall_s": statistics.median(r[0][0] for r in runs),
            "cold_cpu_s": statistics.median(r[0][1] for r in runs),
            "warm_wall_s": statistics.median(r[1][0] for r in runs),
            "warm_cpu_s": statistics.median(r[1][1] for r in runs),
        }
        figures["cold_cpu_over_target"] = figures["cold_cpu_s"] / TARGET_COLD_S
        results[slug] = figures
        shown = " | ".join(f"{v:.1f}" for v in list(figures.values())[:4])
        print(f"| {slug} | {shown} | {figures['cold_cpu_over_target']:.2f} |", flush=True)
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(
                {"par_cli": results, "repeat": args.repeat, "target_cold_s": TARGET_COLD_S},
                fh,
                indent=2,
            )


if __name__ == "__main__":
    main()
