"""Game protection, every figure: what forbidden information is worth in each game.

Run ``python benchmarks/bench_protect.py [--samples-scale X] [--seed S] [--json PATH]``.  For
Three Card Poker, Four Card Poker, Mississippi Stud and Ultimate Texas Hold 'Em: a flashed
dealer card (UTH: one hole card, and both) and a known burn card where the game has them, and 2
to 6 seats sharing their hands; each the house edge without
and with the information, the value to the player, exact or with its standard error, and the
CPU seconds it took (``croupier protect`` prints the same rows one at a time).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from croupier.analysis.protect import protect
from croupier.analysis.registry import analysis_for
from croupier.analysis.ultimate_texas_holdem.protect import UTH_SAMPLES
from croupier.core.errors import CroupierError
from croupier.games import get_game

GAMES = ("three-card-poker", "four-card-poker", "mississippi-stud", "ultimate-texas-holdem")


def cases() -> list[tuple[str, str | None, int]]:
    rows: list[tuple[str, str | None, int]] = []
    for slug in GAMES:
        rows += [(slug, "dealer-card", 1), (slug, "burn-card", 1)]
        if slug == "ultimate-texas-holdem":
            rows.append((slug, "dealer-cards", 1))
        rows += [(slug, None, n) for n in range(2, 7)]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples-scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    out: list[dict[str, Any]] = []
    for slug, known, colluders in cases():
        if slug == "ultimate-texas-holdem":
            base = UTH_SAMPLES[known or "shared-cards"]
        else:
            face = analysis_for(slug).protect
            base = face.samples if face is not None and face.samples else 2
        samples = max(2, round(base * args.samples_scale))
        exact = (known is not None and slug != "four-card-poker") or (
            slug == "mississippi-stud" and colluders == 2
        )
        start = time.process_time()
        try:
            result = protect(
                get_game(slug), known, colluders, samples=None if exact else samples, seed=args.seed
            )
        except CroupierError as exc:
            print(f"{slug:22} {known or f'{colluders} colluders':14} refused: {exc}")
            continue
        cpu = time.process_time() - start
        row = result.to_json() | {"cpu_seconds": round(cpu, 1)}
        out.append(row)
        se = "exact" if result.std_error is None else f"se {result.std_error:.4%}"
        print(
            f"{slug:22} {known or f'{colluders} colluders':14} edge {row['house_edge_without']:.4%}"
            f" -> {row['house_edge_with']:.4%}  worth {row['value_to_player']:.4%} ({se}, "
            f"{result.states} states, {cpu:.0f} s CPU)",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(out, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
