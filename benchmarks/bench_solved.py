"""The package's shipped solves against full fresh solves: every block, and the par sheets.

Run ``python benchmarks/bench_solved.py [--game fcp|uth|uth-b|all] [--json PATH]``.

For each game whose default tables the package ships (:mod:`croupier.analysis.shipped`:
Ultimate Texas Hold 'Em under Blind tables A and B, Four Card Poker under the § 641a.12(b) Ante
Bonus):

* the full solve runs afresh (an empty cache folder, no shipped data: ``CROUPIER_SHIPPED=0``),
  and every block it saves is compared with the shipped block byte for byte (names, dtypes,
  shapes, contents);
* the par sheet and strategy of that fresh solve are compared with those read from the shipped
  blocks (:func:`~croupier.analysis.ultimate_texas_holdem.solver.solve_ultimate_texas_holdem`,
  :func:`~croupier.analysis.four_card_poker.solver.solve_four_card_poker`: outcomes, house edge,
  every
  strategy field).

A difference stops the bench (exit 1) after listing it.  Prints the CPU seconds of each fresh
solve (in this process: its kernels' compilation too) and of each read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from croupier.analysis import shipped as shipped_blocks
from croupier.analysis.block_solver import BlockStore
from croupier.analysis.four_card_poker import solver as fcp_solver
from croupier.analysis.ultimate_texas_holdem import solver as uth_solver
from croupier.games.four_card_poker import ANTE_BONUS
from croupier.games.ultimate_texas_holdem.paytables import BLIND


def _same_strategy(a: Any, b: Any) -> bool:
    """Dataclass fields equal, arrays compared by dtype, shape and bytes."""
    for name in a.__slots__:
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, np.ndarray):
            if (x.dtype, x.shape, x.tobytes()) != (y.dtype, y.shape, y.tobytes()):
                return False
        elif x != y:
            return False
    return True


SOLVES: dict[str, tuple[Any, Any]] = {
    "fcp": (
        lambda: fcp_solver.solve_four_card_poker(ANTE_BONUS, progress=False),
        lambda: fcp_solver.solve_spec(ANTE_BONUS),
    ),
    "uth": (
        lambda: uth_solver.solve_ultimate_texas_holdem(BLIND["A"], progress=False),
        lambda: uth_solver.solve_spec(BLIND["A"]),
    ),
    "uth-b": (
        lambda: uth_solver.solve_ultimate_texas_holdem(BLIND["B"], progress=False),
        lambda: uth_solver.solve_spec(BLIND["B"]),
    ),
}
"""Each shipped solve: the full solve (par sheet and strategy) and its checkpoint spec."""


def _solve(game: str) -> Any:
    return SOLVES[game][0]()


def bench(game: str, scratch: Path) -> dict[str, Any]:
    spec = SOLVES[game][1]()
    problems: list[str] = []
    # a full fresh solve (an empty cache, no shipped data): it saves every block in the cache
    os.environ["CROUPIER_CACHE"] = str(scratch / game)
    os.environ["CROUPIER_SHIPPED"] = "0"
    start = time.process_time()
    fresh = _solve(game)
    fresh_sheet = time.process_time() - start
    store = BlockStore(scratch / game / spec.name)
    for block in spec.blocks:
        diff = shipped_blocks.differences(
            store.load(block) or {}, shipped_blocks.load_block(spec.shipped, block)
        )
        problems += [f"block {block}: {d}" for d in diff]
    # ... and the one read from the shipped blocks (the cache left empty: nothing saved there)
    os.environ["CROUPIER_CACHE"] = str(scratch / f"{game}-shipped")
    os.environ["CROUPIER_SHIPPED"] = "1"
    start = time.process_time()
    shipped = _solve(game)
    read = time.process_time() - start
    if any((scratch / f"{game}-shipped").rglob("*.npz")):
        problems.append("the shipped solve was solved again (blocks saved in the cache)")
    if fresh.sheet != shipped.sheet:
        problems.append("the par sheet of the fresh solve differs from the shipped one's")
    if not _same_strategy(fresh.strategy, shipped.strategy):
        problems.append("the strategy of the fresh solve differs from the shipped one's")
    return {
        "game": game,
        "shipped": spec.shipped.name,
        "shipped_bytes": spec.shipped.stat().st_size,
        "blocks": len(spec.blocks),
        "fresh_sheet_cpu_s": round(fresh_sheet, 2),
        "shipped_sheet_cpu_s": round(read, 2),
        "house_edge_exact": str(shipped.sheet.house_edge),
        "problems": problems,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=(*SOLVES, "all"), default="all")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args(argv)
    games = tuple(SOLVES) if args.game == "all" else (args.game,)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, load {load}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-solved-") as tmp:
        for game in games:
            row = bench(game, Path(tmp))
            rows.append(row)
            verdict = "identical" if not row["problems"] else "DIFFERENT"
            print(
                f"{row['shipped']} ({row['shipped_bytes']:,} bytes): {row['blocks']} blocks "
                f"solved afresh in {row['fresh_sheet_cpu_s']:.1f} CPU-s, {verdict}; the par "
                f"sheet read from the shipped blocks "
                f"{row['shipped_sheet_cpu_s']:.2f} CPU-s; house edge {row['house_edge_exact']}"
            )
            for problem in row["problems"]:
                print(f"  {problem}")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 1 if any(r["problems"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
