"""Hand-evaluation speed: croupier's batch rankers against the usual Python poker evaluators.

Run ``python benchmarks/bench_eval.py [--quick] [--json PATH] [--seed N]``.  Every evaluator ranks
the same seeded uniform random hands (best five of seven, then five cards); each is timed the way
it is meant to be called, its input already in its own card type, best of several repeats.
Peers that call one hand per Python call get fewer hands (the slowest only a few hundred).  Also
times the exhaustive ``count_categories("poker5", 7)`` (133,784,560 hands).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from math import comb
from pathlib import Path
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

from croupier.core.cards import DECK
from croupier.hands import Ranking, evaluate
from croupier.kernels import comb_unrank_batch, count_categories, rank_batch

Hands = NDArray[np.uint8]
NAMES = [str(card) for card in DECK]


@dataclass(frozen=True)
class Result:
    name: str
    cards: int
    hands: int
    seconds: float
    """Best time over the repeats, for ``hands`` hands."""
    note: str = ""

    @property
    def rate(self) -> float:
        return self.hands / self.seconds if self.hands else 0.0


def best_time(run: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def random_hands(seed: int, n: int, k: int) -> Hands:
    """``n`` uniform random k-card hands (card order shuffled within each row)."""
    rng = np.random.default_rng(seed)
    ranks = rng.integers(0, comb(52, k), size=n)
    return rng.permuted(comb_unrank_batch(ranks, k), axis=1)


def loop(fn: Callable[..., object], rows: list[Any]) -> Callable[[], None]:
    def run() -> None:
        for row in rows:
            fn(*row)

    return run


def peers(hands: Hands, k: int, scale: float) -> list[Result]:
    """Time each outside evaluator on (a prefix of) ``hands``."""
    out: list[Result] = []

    def add(name: str, n: int, make: Callable[[list[list[int]]], Callable[[], object]]) -> None:
        n = max(50, int(n * scale))
        rows = hands[:n].tolist()
        try:
            run = make(rows)
        except Exception as exc:  # an evaluator that is not installed or changed its API
            out.append(Result(name, k, 0, 0.0, note=f"unavailable: {exc}"))
            return
        run()  # warm up
        out.append(Result(name, k, n, best_time(run, 3)))

    def phevaluator_c(rows: list[list[int]]) -> Callable[[], object]:
        from phevaluator import _pheval

        return loop(getattr(_pheval, f"evaluate_{k}cards"), rows)

    def phevaluator_api(rows: list[list[int]]) -> Callable[[], object]:
        from phevaluator import evaluate_cards

        return loop(evaluate_cards, rows)

    def eval7_api(rows: list[list[int]]) -> Callable[[], object]:
        import eval7

        cards = [eval7.Card(name) for name in NAMES]
        lists = [[[cards[c] for c in row]] for row in rows]
        return loop(eval7.evaluate, lists)

    def treys_api(rows: list[list[int]]) -> Callable[[], object]:
        import treys

        evaluator = treys.Evaluator()
        cards = [treys.Card.new(name) for name in NAMES]
        split = [([cards[c] for c in row[:2]], [cards[c] for c in row[2:]]) for row in rows]
        return loop(evaluator.evaluate, split)

    def pokerkit_api(rows: list[list[int]]) -> Callable[[], object]:
        from pokerkit import StandardHighHand

        texts = [
            ("".join(NAMES[c] for c in row[:2]), "".join(NAMES[c] for c in row[2:])) for row in rows
        ]
        return loop(StandardHighHand.from_game, texts)

    def croupier_scalar(rows: list[list[int]]) -> Callable[[], object]:
        cards = [[tuple(DECK[c] for c in row), Ranking.POKER5] for row in rows]
        return loop(evaluate, cards)

    add("phevaluator C core (_pheval.evaluate_Ncards)", 2_000_000, phevaluator_c)
    add("phevaluator evaluate_cards", 500_000, phevaluator_api)
    add("eval7 evaluate", 1_000_000, eval7_api)
    add("treys Evaluator.evaluate", 60_000, treys_api)
    add("pokerkit StandardHighHand.from_game", 600 if k == 7 else 6_000, pokerkit_api)
    add("croupier evaluate (scalar truth)", 3_000 if k == 7 else 30_000, croupier_scalar)
    return out


def croupier_batch(hands: Hands, k: int, repeats: int) -> list[Result]:
    rank_batch(Ranking.POKER5, hands[:1000])  # compile / load the cache
    rank_batch(Ranking.POKER5, hands[:1000], parallel=True)
    one = best_time(lambda: rank_batch(Ranking.POKER5, hands), repeats)
    every = best_time(lambda: rank_batch(Ranking.POKER5, hands, parallel=True), repeats)
    threads = numba.get_num_threads()
    return [
        Result("croupier rank_batch, 1 thread", k, len(hands), one),
        Result(f"croupier rank_batch, parallel ({threads} threads)", k, len(hands), every),
    ]


def table(results: list[Result]) -> str:
    by_name: dict[str, dict[int, Result]] = {}
    for result in results:
        by_name.setdefault(result.name, {})[result.cards] = result
    names = list(by_name)
    one, every = by_name[names[0]], by_name[names[1]]  # croupier, 1 thread and parallel
    head = f"{'M/s':>9} {'1T/it':>8} {'all/it':>8}"
    lines = [
        f"{'':<46} {'best five of seven':^27} {'five cards':^27}",
        f"{'evaluator':<46} {head} {head}",
        "-" * 102,
    ]
    for name, row in by_name.items():
        cells = []
        for k in (7, 5):
            found = row.get(k)
            if found is None or not found.hands:
                cells.append(f"{'n/a':>9} {'':>8} {'':>8}")
                continue
            ratios = f"{one[k].rate / found.rate:>7.1f}x {every[k].rate / found.rate:>7.1f}x"
            cells.append(f"{found.rate / 1e6:>9.3f} {ratios}")
        lines.append(f"{name:<46} {' '.join(cells)}")
    lines.append(
        "M/s: millions of hands a second; 1T/it, all/it: croupier rank_batch on one thread, on"
        " all threads, over this row"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the results as JSON to this file")
    parser.add_argument("--quick", action="store_true", help="a tenth of the hands, one count")
    parser.add_argument("--seed", type=int, default=20240601)
    args = parser.parse_args(argv)
    scale = 0.1 if args.quick else 1.0
    batch = 1_000_000 if args.quick else 10_000_000
    repeats = 3 if args.quick else 7

    results: list[Result] = []
    for k in (7, 5):
        hands = random_hands(args.seed + k, batch, k)
        results += croupier_batch(hands, k, repeats)
        results += peers(hands, k, scale)
        print(f"timed {k}-card hands", file=sys.stderr)

    count_categories("poker5", 5)  # compile / load the cache
    start = time.perf_counter()
    counts = count_categories("poker5", 7)
    count_seconds = time.perf_counter() - start

    print(table(results))
    for result in results:
        if result.note:
            print(f"{result.name}: {result.note}")
    print(
        f"count_categories('poker5', 7): {sum(counts.values()):,} hands in {count_seconds:.2f} s"
        f" ({sum(counts.values()) / count_seconds / 1e6:.0f} M hands/s, one thread)"
    )
    if args.json:
        report = {
            "machine": {
                "platform": platform.platform(),
                "processor": platform.processor(),
                "cpu_count": os.cpu_count(),
                "numba_threads": numba.get_num_threads(),
                "python": platform.python_version(),
                "numpy": np.__version__,
                "numba": numba.__version__,
            },
            "seed": args.seed,
            "quick": args.quick,
            "results": [asdict(r) | {"rate": r.rate if r.hands else None} for r in results],
            "count_poker5_7": {"hands": sum(counts.values()), "seconds": count_seconds},
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
