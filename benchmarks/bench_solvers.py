"""The exact optimal-strategy solvers side by side with hand-written C solvers: Four Card Poker
Ante/Play and Ultimate Texas Hold 'Em (Ante, Blind, Play with Blind table A).

Run ``python benchmarks/bench_solvers.py [--game fcp|uth|both] [--repeat N] [--json PATH]``.

For each game, each of ``--repeat`` times (the medians are printed):

* croupier cold: ``croupier par GAME --json --quiet`` in a fresh process with an empty
  ``CROUPIER_CACHE`` and an empty numba cache (``NUMBA_CACHE_DIR``), as a first run on a new
  machine: the default tables' solve is read from the package's shipped blocks
  (:mod:`croupier.analysis.shipped`, verified by ``benchmarks/bench_solved.py``);
* croupier warm: the same command again with both caches filled;
* croupier solving cold: the same cold command with ``CROUPIER_SHIPPED=0`` (the shipped blocks
  ignored), as for a pay table the package does not ship, twice: a first run (empty numba
  cache: compilation and the whole solve) and a second one with an empty ``CROUPIER_CACHE`` but
  the compiled code the first cached, as a user's second table (issue 41: its time over the C
  peer's is the from-scratch ratio; ``--scratch 0`` skips both);
* the C peer: ``benchmarks/peers/c/uth.c`` or ``fcp.c``, compiled with ``gcc -O3
  -march=native -fopenmp`` (issue 41's flags; the peers are single-threaded C, so OpenMP
  changes nothing) into a temp folder (not timed), run single-threaded; its exact expected
  net must equal croupier's house edge (checked: a mismatch stops the bench).

Times are CPU seconds of the child process (user + system, all its threads) and wall seconds.
The target of issue 18 is croupier cold under half the C solver's time; the ratio printed is
croupier cold / C (CPU and wall): below 0.5 meets it.  The solving-cold ratio (the second
from-scratch run over the C peer) has issue 41's target: at most 0.5.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

PEERS = Path(__file__).resolve().parent / "peers" / "c"
GAMES = {
    "fcp": ("Four Card Poker Ante/Play", "four-card-poker", "fcp.c"),
    "uth": ("Ultimate Texas Hold 'Em (Blind table A)", "ultimate-texas-holdem", "uth.c"),
}


def _run(args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(CPU s, wall s, stdout) of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.stdout


def _croupier(slug: str, scratch: Path, *, solve: int) -> dict[str, Any]:
    """One cold and one warm ``croupier par`` in fresh cache folders, and (``solve``) one cold
    run that ignores the shipped solves."""
    env = dict(os.environ)
    env["CROUPIER_CACHE"] = str(scratch / "croupier-cache")
    env["NUMBA_CACHE_DIR"] = str(scratch / "numba-cache")
    env.pop("CROUPIER_SHIPPED", None)
    args = [sys.executable, "-m", "croupier", "par", slug, "--json", "--quiet"]
    cold_cpu, cold_wall, out = _run(args, env)
    warm_cpu, warm_wall, again = _run(args, env)
    if again != out:
        raise SystemExit(f"croupier par {slug}: the warm sheet differs from the cold one")
    found: dict[str, Any] = {"cold": (cold_cpu, cold_wall), "warm": (warm_cpu, warm_wall)}
    if solve:
        env["NUMBA_CACHE_DIR"] = str(scratch / "numba-cache-solving")
        env["CROUPIER_SHIPPED"] = "0"
        for run in ("compiling", "solving"):  # the second run reads the first's compiled code
            env["CROUPIER_CACHE"] = str(scratch / f"croupier-cache-{run}")
            solve_cpu, solve_wall, solved = _run(args, env)
            if solved != out:
                raise SystemExit(f"croupier par {slug}: the solved sheet differs from the shipped")
            found[run] = (solve_cpu, solve_wall)
    found["edge"] = Fraction(json.loads(out)["base"]["house_edge_exact"])
    return found


def _peer(binary: Path) -> dict[str, Any]:
    cpu, wall, out = _run([str(binary)], dict(os.environ))
    fields = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    return {"c": (cpu, wall), "edge": -Fraction(fields["expected"])}


C_FLAGS = ("-O3", "-march=native", "-fopenmp")
"""The C peers' compiler flags (issue 41 measured against C built so)."""


def _median(rows: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows)


def bench(game: str, repeat: int, scratch: Path, solving: int = 1) -> dict[str, Any]:
    name, slug, source = GAMES[game]
    gcc = shutil.which("gcc")
    if gcc is None:
        raise SystemExit("gcc is needed for the C peers (gcc --version)")
    binary = scratch / game
    subprocess.run([gcc, *C_FLAGS, "-o", str(binary), str(PEERS / source)], check=True)
    cold, warm, peer, solve, compiling = [], [], [], [], []
    edge = None
    for i in range(repeat):
        run = _croupier(slug, scratch / f"{game}-{i}", solve=int(i < solving))
        c = _peer(binary)
        if run["edge"] != c["edge"]:
            raise SystemExit(f"{name}: croupier {run['edge']} but the C peer {c['edge']}")
        edge = run["edge"]
        cold.append(run["cold"])
        warm.append(run["warm"])
        peer.append(c["c"])
        if "solving" in run:
            solve.append(run["solving"])
            compiling.append(run["compiling"])
    cold_m, warm_m, peer_m = _median(cold), _median(warm), _median(peer)
    solve_m = _median(solve) if solve else (float("nan"), float("nan"))
    compile_m = _median(compiling) if compiling else (float("nan"), float("nan"))
    return {
        "game": name,
        "house_edge_exact": str(edge),
        "croupier_cold_cpu_s": round(cold_m[0], 2),
        "croupier_cold_wall_s": round(cold_m[1], 2),
        "croupier_warm_cpu_s": round(warm_m[0], 2),
        "croupier_warm_wall_s": round(warm_m[1], 2),
        "c_cpu_s": round(peer_m[0], 2),
        "c_wall_s": round(peer_m[1], 2),
        "cold_over_c_cpu": round(cold_m[0] / peer_m[0], 3),
        "cold_over_c_wall": round(cold_m[1] / peer_m[1], 3),
        "croupier_solving_cold_cpu_s": round(solve_m[0], 2),
        "croupier_solving_cold_wall_s": round(solve_m[1], 2),
        "solving_cold_over_c_cpu": round(solve_m[0] / peer_m[0], 3),
        "solving_cold_over_c_wall": round(solve_m[1] / peer_m[1], 3),
        "croupier_solving_first_cpu_s": round(compile_m[0], 2),
        "croupier_solving_first_wall_s": round(compile_m[1], 2),
        "repeat": repeat,
        "solving_runs": len(solve),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("fcp", "uth", "both"), default="both")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (medians printed)")
    parser.add_argument(
        "--scratch",
        type=int,
        default=1,
        help="of the runs, how many also solve cold without "
        "the shipped solves (CROUPIER_SHIPPED=0; default 1)",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args(argv)
    games = ("fcp", "uth") if args.game == "both" else (args.game,)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {load}")
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-solvers-") as tmp:
        for game in games:
            row = bench(game, max(1, args.repeat), Path(tmp), max(0, args.scratch))
            results.append(row)
            print(
                f"{row['game']}: house edge {row['house_edge_exact']} (croupier = C)\n"
                f"  croupier par, cold: {row['croupier_cold_cpu_s']:.1f} CPU-s, "
                f"{row['croupier_cold_wall_s']:.1f} s wall\n"
                f"  croupier par, warm: {row['croupier_warm_cpu_s']:.1f} CPU-s, "
                f"{row['croupier_warm_wall_s']:.1f} s wall\n"
                f"  C peer (gcc {' '.join(C_FLAGS)}, one thread): {row['c_cpu_s']:.1f} CPU-s, "
                f"{row['c_wall_s']:.1f} s wall\n"
                f"  croupier cold / C: {row['cold_over_c_cpu']:.2f} CPU, "
                f"{row['cold_over_c_wall']:.2f} wall (target: below 0.5, half the C solver)"
            )
            if row["solving_runs"]:
                print(
                    f"  croupier par solving cold (CROUPIER_SHIPPED=0, "
                    f"{row['solving_runs']} run), compiled code cached: "
                    f"{row['croupier_solving_cold_cpu_s']:.1f} CPU-s, "
                    f"{row['croupier_solving_cold_wall_s']:.1f} s wall; / C: "
                    f"{row['solving_cold_over_c_cpu']:.2f} CPU, "
                    f"{row['solving_cold_over_c_wall']:.2f} wall (target: at most 0.5)\n"
                    f"  croupier par solving cold, first run (numba compiling too): "
                    f"{row['croupier_solving_first_cpu_s']:.1f} CPU-s, "
                    f"{row['croupier_solving_first_wall_s']:.1f} s wall"
                )
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
