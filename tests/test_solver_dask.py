"""The exact solvers on a Dask cluster: the same blocks, the same sheet, the same checkpoints.

A one-worker in-process ``LocalCluster`` stands for the cluster; partial solves (one or two
up-card ranks, a few flops) keep it short.  Skipped when ``dask[distributed]`` is absent.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from croupier.analysis.four_card_poker import solver as fcp_solver
from croupier.analysis.four_card_poker.solver import solve_four_card_poker
from croupier.analysis.ultimate_texas_holdem import kernels
from croupier.analysis.ultimate_texas_holdem import solver as uth_solver
from croupier.analysis.ultimate_texas_holdem.solver import solve_ultimate_texas_holdem
from croupier.core.errors import InvalidInput
from croupier.games.ultimate_texas_holdem.paytables import BLIND

distributed: Any = importlib.import_module("dask.distributed")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Checkpoints go to a fresh folder (the kernel tables are rebuilt there when absent); the
    package's shipped solves are not read (the blocks are solved, here on the cluster)."""
    monkeypatch.setenv("CROUPIER_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("CROUPIER_SHIPPED", "0")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def _blocks(tmp_path: Path, solver: str) -> list[str]:
    folders = list((tmp_path / "cache").glob(f"{solver}-v*"))
    assert len(folders) == 1
    return sorted(p.name for p in folders[0].glob("block-*.npz"))


def _refuse(*args: object) -> None:
    raise AssertionError("solved again instead of reading the checkpoint")


def test_fcp_through_dask_equals_local(
    scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    remote = solve_four_card_poker(
        up_ranks=[2, 14], scheduler=scheduler, checkpoint=True, progress=False
    )
    assert _blocks(tmp_path, "fcp-ante-play") == ["block-00002.npz", "block-00014.npz"]
    local = solve_four_card_poker(up_ranks=[2, 14], checkpoint=False, progress=False)
    assert remote.sheet == local.sheet
    assert np.array_equal(remote.strategy.counts, local.strategy.counts)
    assert remote.strategy.rules == local.strategy.rules

    # the checkpoints written from the cluster's blocks are read back: no scheduler is reached
    monkeypatch.setattr(fcp_solver, "solve_up_rank", _refuse)
    again = solve_four_card_poker(
        up_ranks=[2, 14], scheduler="tcp://127.0.0.1:1", checkpoint=True, progress=False
    )
    assert again.sheet == local.sheet


def test_uth_through_dask_equals_local(
    scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(uth_solver, "FLOPS_PER_BLOCK", 2)  # two full blocks and a partial one
    remote = solve_ultimate_texas_holdem(
        BLIND["B"], flops=5, scheduler=scheduler, checkpoint=True, progress=False
    )
    assert _blocks(tmp_path, "uth-base") == ["block-00000.npz", "block-00001.npz"]
    local = solve_ultimate_texas_holdem(BLIND["B"], flops=5, checkpoint=False, progress=False)
    assert remote.sheet == local.sheet
    assert remote.strategy == local.strategy

    # the full blocks come from the checkpoints; only the partial one is solved again
    calls: list[int] = []
    solve_flop = kernels.solve_flop

    def counted(*args: Any) -> None:
        calls.append(1)
        solve_flop(*args)

    monkeypatch.setattr(uth_solver, "solve_flop", counted)
    again = solve_ultimate_texas_holdem(
        BLIND["B"], flops=5, scheduler=scheduler, checkpoint=True, progress=False
    )
    assert again.sheet == local.sheet and len(calls) == 1


def test_unreachable_or_bad_scheduler_is_invalid_input() -> None:
    dask: Any = importlib.import_module("dask")
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        with pytest.raises(InvalidInput, match="Dask scheduler"):
            solve_ultimate_texas_holdem(
                flops=1, scheduler="tcp://127.0.0.1:1", checkpoint=False, progress=False
            )
        with pytest.raises(InvalidInput, match="Dask scheduler"):
            solve_four_card_poker(
                up_ranks=[14], scheduler="nowhere://x", checkpoint=False, progress=False
            )
