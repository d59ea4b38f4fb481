"""The randomness battery a gaming lab runs on the production shuffle (GLI-19 style).

Run ``python benchmarks/bench_rng.py [--shuffles N] [--small M] [--workers W] [--json PATH]``.

Every 52-card shuffle here is the production algorithm, :func:`croupier.table.shoe.fisher_yates`
over
the OS CSPRNG, run vectorized (:func:`batch_fisher_yates`: 10^5 decks a step in NumPy, the same
bit-length draws and the same rejection; tests/test_rng_battery.py holds it equal, draw for draw,
to ``fisher_yates`` on one bit stream), in ``--workers`` processes: 10^7 shuffles take seconds,
not hours.  The small-deck tests run :class:`croupier.table.shoe.SecureShuffler` itself.  Printed,
each with its
statistic and p-value:

1. **Card by position**: Pearson's chi-square over the 52 x 52 table (position, card) of
   ``--shuffles`` shuffles (default 10^7).  The cells of a sum of permutation matrices are tied
   (every row and column sum is fixed), so the raw statistic is scaled by 51/52 and read against
   chi-square with 51^2 = 2601 degrees of freedom (the derivation is in tests/test_shoe.py).
2. **Serial independence**: the first card of each shuffle against the first card of the next
   one, a 52 x 52 contingency table (chi-square, 51^2 dof), and the same for the last card; a
   generator that leaks state from one deal to the next fails it.
3. **No repeated deck**: every shuffled order is hashed (a 64-bit universal hash with random
   odd multipliers: two different orders collide with probability at most 2^-58); a repeat among
   10^7 of the 52! orders has probability about 10^-54, so any repeat is a defect.
4. **Permutation frequency on small decks**: ``--small`` shuffles of a 4-card and a 5-card deck,
   chi-square over the 24 and 120 orders.  A deliberately naive shuffle (swap each position with
   any position, ``n^n`` equally likely paths onto ``n!`` orders) run on the same CSPRNG is the
   negative control: the battery must reject it (p < 1e-6) while the production shuffle passes.

A p-value below ``ALPHA`` (0.001) for the production shuffle is reported as FAIL; the exit status
is 1 if any check fails, the negative control included (it must be caught).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.table.shoe import SecureShuffler

CARDS = 52
ALPHA = 1e-3
CONTROL_ALPHA = 1e-6
BLOCK = 100_000

IntArray = npt.NDArray[np.int64]


# --------------------------------------------------------------------------------------------
# Chi-square survival function (no SciPy): the regularized upper incomplete gamma Q(k/2, x/2)


def _gamma_series(a: float, x: float) -> float:
    """P(a, x) by its power series (converges fast for x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(100_000):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-16:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction, modified Lentz (for x >= a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def chi2_sf(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square with ``dof`` degrees of freedom."""
    if statistic <= 0:
        return 1.0
    a, x = dof / 2.0, statistic / 2.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _gamma_series(a, x))
    return _gamma_fraction(a, x)


def two_sided(statistic: float, dof: int) -> float:
    """Two-sided p-value: too regular is as suspect as too irregular."""
    upper = chi2_sf(statistic, dof)
    return min(1.0, 2.0 * min(upper, 1.0 - upper))


# --------------------------------------------------------------------------------------------
# Work done in the worker processes


@dataclass(frozen=True, slots=True)
class BlockCounts:
    """What one block of shuffles contributes to the battery."""

    position: IntArray  # 52*52 counts of (position, card)
    serial_first: IntArray  # 52*52 counts of (first card, next shuffle's first card)
    serial_last: IntArray
    first: int  # first and last card of the block's first and last shuffle (to join blocks)
    last_first: int
    last: int
    last_last: int
    digests: IntArray  # one 64-bit hash per shuffle
    shuffles: int


Draw = Callable[[int, int], IntArray]
"""``draw(count, k)``: ``count`` independent uniform ``k``-bit values."""


def urandom_draw(count: int, k: int) -> IntArray:
    """``count`` uniform ``k``-bit values (``k <= 8``) from the OS CSPRNG (``os.urandom``, the
    source of :mod:`secrets`): the low ``k`` bits of uniform bytes."""
    raw = np.frombuffer(os.urandom(count), dtype=np.uint8)
    return (raw & ((1 << k) - 1)).astype(np.int64)


def batch_fisher_yates(rows: int, n: int, draw: Draw) -> IntArray:
    """``rows`` shuffles of ``range(n)`` at once by the production algorithm
    (:func:`croupier.table.shoe.fisher_yates`): for ``i = n-1 .. 1``, ``j`` is drawn as
    ``i.bit_length()`` bits, drawn again while ``j > i``, and positions ``i`` and ``j`` swap.
    With ``rows == 1`` it makes exactly the draws ``fisher_yates`` makes, in the same order (the
    test holds the two equal on one bit stream)."""
    deck = np.tile(np.arange(n, dtype=np.int64), (rows, 1))
    idx = np.arange(rows)
    for i in range(n - 1, 0, -1):
        k = i.bit_length()
        j = draw(rows, k)
        bad = np.nonzero(j > i)[0]
        while bad.size:
            j[bad] = draw(bad.size, k)
            bad = bad[j[bad] > i]
        held = deck[idx, i].copy()
        deck[idx, i] = deck[idx, j]
        deck[idx, j] = held
    return deck


def _digests(table: IntArray, keys: npt.NDArray[np.uint64]) -> IntArray:
    """A 64-bit universal hash of each row (random odd multipliers, wrapping arithmetic): two
    different orders collide with probability at most 2^-58."""
    with np.errstate(over="ignore"):
        mixed = (table.astype(np.uint64) + np.uint64(1)) * keys
        out: IntArray = mixed.sum(axis=1, dtype=np.uint64).view(np.int64)
        return out


def _block(n: int, keys: npt.NDArray[np.uint64] | None = None) -> BlockCounts:
    if keys is None:
        keys = _hash_keys()
    table = batch_fisher_yates(n, CARDS, urandom_draw)
    digests = _digests(table, keys)
    cells = (np.arange(CARDS, dtype=np.int64) * CARDS + table).ravel()
    position = np.bincount(cells, minlength=CARDS * CARDS)
    first, last = table[:, 0], table[:, -1]
    serial_first = np.bincount(first[:-1] * CARDS + first[1:], minlength=CARDS * CARDS)
    serial_last = np.bincount(last[:-1] * CARDS + last[1:], minlength=CARDS * CARDS)
    return BlockCounts(
        position=position,
        serial_first=serial_first,
        serial_last=serial_last,
        first=int(first[0]),
        last_first=int(first[-1]),
        last=int(last[0]),
        last_last=int(last[-1]),
        digests=digests,
        shuffles=n,
    )


def _hash_keys() -> npt.NDArray[np.uint64]:
    raw = np.frombuffer(secrets.token_bytes(8 * CARDS), dtype=np.uint64)
    keys: npt.NDArray[np.uint64] = raw | np.uint64(1)
    return keys


def _small_counts(n: int, shuffles: int, naive: bool) -> list[int]:
    """Counts of each of the n! orders of range(n) over ``shuffles`` shuffles."""
    index = {perm: i for i, perm in enumerate(_permutations(n))}
    counts = [0] * len(index)
    shuffler = SecureShuffler()
    base = list(range(n))
    for _ in range(shuffles):
        order = _naive_shuffle(base) if naive else shuffler.shuffle(base)
        counts[index[tuple(order)]] += 1
    return counts


def _naive_shuffle(items: Sequence[int]) -> list[int]:
    """The classic mistake: swap every position with a uniformly chosen position of all n."""
    out = list(items)
    for i in range(len(out)):
        j = secrets.randbelow(len(out))
        out[i], out[j] = out[j], out[i]
    return out


def _permutations(n: int) -> list[tuple[int, ...]]:
    from itertools import permutations

    return list(permutations(range(n)))


# --------------------------------------------------------------------------------------------
# Statistics


def _pearson(observed: IntArray, expected: float) -> float:
    obs = observed.astype(np.float64)
    return float(((obs - expected) ** 2).sum() / expected)


def _contingency(table: IntArray) -> tuple[float, int]:
    """Pearson's statistic of independence for a 52 x 52 table, with its dof."""
    cells = table.reshape(CARDS, CARDS).astype(np.float64)
    total = cells.sum()
    expected = np.outer(cells.sum(axis=1), cells.sum(axis=0)) / total
    return float(((cells - expected) ** 2 / expected).sum()), (CARDS - 1) ** 2


def _line(name: str, statistic: float, dof: int, p: float, verdict: str) -> dict[str, Any]:
    print(f"{name:<44} chi2 = {statistic:>12.2f}  dof = {dof:>5}  p = {p:.4g}  {verdict}")
    return {"test": name, "statistic": statistic, "dof": dof, "p_value": p, "verdict": verdict}


def _verdict(p: float) -> str:
    return "pass" if p >= ALPHA else "FAIL"


def _join_serial(blocks: list[BlockCounts]) -> tuple[IntArray, IntArray]:
    first = sum((b.serial_first for b in blocks), np.zeros(CARDS * CARDS, dtype=np.int64))
    last = sum((b.serial_last for b in blocks), np.zeros(CARDS * CARDS, dtype=np.int64))
    for prev, nxt in itertools.pairwise(blocks):
        first[prev.last_first * CARDS + nxt.first] += 1
        last[prev.last_last * CARDS + nxt.last] += 1
    return first, last


def battery(shuffles: int, small: int, workers: int) -> tuple[list[dict[str, Any]], bool]:
    sizes = [BLOCK] * (shuffles // BLOCK) + ([shuffles % BLOCK] if shuffles % BLOCK else [])
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        keys = _hash_keys()  # one hash for every block: repeats are found across blocks
        blocks = list(pool.map(_block, sizes, [keys] * len(sizes)))
        small_jobs = {
            (n, naive): pool.submit(_small_counts, n, small, naive)
            for n in (4, 5)
            for naive in (False, True)
        }
        small_counts = {key: job.result() for key, job in small_jobs.items()}
    elapsed = time.perf_counter() - start
    print(
        f"{shuffles:,} production shuffles + {4 * small:,} small-deck shuffles in {elapsed:.1f} s"
    )
    results: list[dict[str, Any]] = []
    ok = True

    position = sum((b.position for b in blocks), np.zeros(CARDS * CARDS, dtype=np.int64))
    statistic = _pearson(position, shuffles / CARDS) * (CARDS - 1) / CARDS
    p = two_sided(statistic, (CARDS - 1) ** 2)
    results.append(_line("card by position (52x52)", statistic, (CARDS - 1) ** 2, p, _verdict(p)))
    ok &= p >= ALPHA

    for name, table in zip(("first card", "last card"), _join_serial(blocks), strict=True):
        stat, dof = _contingency(table)
        p = chi2_sf(stat, dof)
        results.append(_line(f"serial independence, {name}", stat, dof, p, _verdict(p)))
        ok &= p >= ALPHA

    digests = np.concatenate([b.digests for b in blocks])
    repeats = int(digests.size - np.unique(digests).size)
    print(f"{'repeated decks (64-bit hash)':<44} {repeats} among {digests.size:,} decks")
    results.append({"test": "repeated decks", "repeats": repeats, "decks": int(digests.size)})
    ok &= repeats == 0

    for (n, naive), counts in sorted(small_counts.items()):
        observed = np.array(counts, dtype=np.int64)
        dof = math.factorial(n) - 1
        stat = _pearson(observed, small / math.factorial(n))
        p = chi2_sf(stat, dof)
        if naive:
            verdict = "caught" if p < CONTROL_ALPHA else "NOT CAUGHT"
            ok &= p < CONTROL_ALPHA
            name = f"negative control: naive shuffle, {n} cards"
        else:
            verdict = _verdict(p)
            ok &= p >= ALPHA
            name = f"permutation frequency, {n} cards"
        results.append(_line(name, stat, dof, p, verdict))
    return results, ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shuffles", type=int, default=10**7, help="52-card shuffles")
    parser.add_argument("--small", type=int, default=240_000, help="shuffles per small deck")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--json", default=None, help="write the results here")
    args = parser.parse_args(argv)
    if args.shuffles < 2 or args.small < 1 or args.workers < 1:
        parser.error("--shuffles must be at least 2, --small and --workers at least 1")
    results, ok = battery(args.shuffles, args.small, args.workers)
    print("battery:", "PASS" if ok else "FAIL")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"shuffles": args.shuffles, "results": results, "pass": ok}, out, indent=2)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
