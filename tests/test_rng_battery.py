"""The randomness battery of ``benchmarks/bench_rng.py``: its statistics are right and it has power.

The long run (10^7 shuffles) is ``make bench``; here a short run shows that the production
shuffle passes and the naive shuffle (the negative control) is caught, and the chi-square
survival function matches closed forms.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_rng", ROOT / "benchmarks" / "bench_rng.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_rng"] = module
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


@pytest.mark.parametrize("x", [0.01, 0.5, 1.0, 3.0, 10.0, 40.0])
def test_chi2_sf_matches_closed_forms(x: float) -> None:
    # dof 2: exp(-x/2); dof 1: erfc(sqrt(x/2)); dof 4: exp(-x/2) (1 + x/2)
    assert BENCH.chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9)
    assert BENCH.chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-9)
    assert BENCH.chi2_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-9)


def test_chi2_sf_at_2601_dof_is_about_one_half_at_the_mean() -> None:
    # the median of chi-square(k) is about k (1 - 2/(9k))^3
    k = 2601
    median = k * (1 - 2 / (9 * k)) ** 3
    assert BENCH.chi2_sf(median, k) == pytest.approx(0.5, abs=1e-3)


def test_short_battery_passes_the_production_shuffle_and_catches_the_naive_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    results, ok = BENCH.battery(3_000, 6_000, 1)
    out = capsys.readouterr().out
    assert ok, out
    controls = [r for r in results if str(r["test"]).startswith("negative control")]
    assert len(controls) == 2
    assert all(r["verdict"] == "caught" for r in controls)
    assert next(r for r in results if r["test"] == "repeated decks")["repeats"] == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_vectorized_shuffle_is_the_production_fisher_yates_draw_for_draw(seed: int) -> None:
    """bench_rng's batch shuffle, fed one deck's bit stream, makes exactly the permutation
    croupier.table.shoe.fisher_yates makes from the same stream (so its 10^7 shuffles test the
    production algorithm)."""
    import random

    import numpy as np

    from croupier.table.shoe import fisher_yates

    production = fisher_yates(list(range(52)), random.Random(seed).getrandbits)
    stream = random.Random(seed)

    def draw(count: int, k: int) -> object:
        return np.array([stream.getrandbits(k) for _ in range(count)], dtype=np.int64)

    batch = BENCH.batch_fisher_yates(1, 52, draw)
    assert batch[0].tolist() == production
