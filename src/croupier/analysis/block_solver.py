"""What the Ultimate Texas Hold 'Em and Four Card Poker solvers share.

* Dense strengths: every order value of a ranking replaced by its position among the distinct
  values (7,462 for ``poker5``, 2,535 for ``four-card``), so a strength indexes a histogram.  The
  tables of :mod:`croupier.kernels` are re-expressed in these dense indices, and the kernels'
  perfect-hash lookup (:func:`croupier.kernels.blocks.hash_value`) then returns the dense index.
* Dense strengths from one hand per rank pattern (:func:`distinct_values`), not every hand.
* Checkpoints: the integer sums of each finished block of work, written atomically under
  :func:`croupier.kernels.cache_dir` in a folder named after the solver, its version and its
  parameters, so a killed run resumes from its last finished block; the package's shipped copy
  of the same folder (:mod:`croupier.analysis.shipped`) is read first.
* Progress, reported through :mod:`croupier.core.progress` (the faces draw the bars).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.analysis.shipped import folder_name, load_block, shipped_file
from croupier.core.errors import InvalidInput
from croupier.core.progress import Task
from croupier.hands import Ranking
from croupier.kernels import cache_dir
from croupier.kernels.blocks import rank_flat, suit_init, tables

__all__ = [
    "DenseTables",
    "Progress",
    "block_store",
    "dense_tables",
]

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]


@dataclass(frozen=True, slots=True)
class DenseTables:
    """The kernels' lookup tables with every value replaced by its dense strength."""

    ranking: Ranking
    values: I32
    """The distinct order values, ascending: strength ``i`` is ``values[i]``."""
    card_key: I64
    card_bit: I64
    offsets: I32
    plain: I32
    flush: I32
    init: int

    @property
    def size(self) -> int:
        return int(self.values.size)

    def args(self) -> tuple[I64, I64, I32, I32, I32, int]:
        """The arguments of the compiled lookups: card keys and bits, hash offsets, the plain and
        flush tables, and the suit counters' start value."""
        return self.card_key, self.card_bit, self.offsets, self.plain, self.flush, self.init

    def strength(self, value: int) -> int:
        """Dense strength of an order value of this ranking."""
        at = int(np.searchsorted(self.values, value))
        if at >= self.values.size or int(self.values[at]) != value:
            raise InvalidInput(f"{value} is no {self.ranking.value} order value")
        return at


def distinct_values(ranking: Ranking, size: int) -> I32:
    """Every order value of a ``size``-card hand of ``ranking`` (``size`` its own hand size),
    ascending.  A hand that is not all of one suit is valued by its ranks alone, so one hand of
    each rank multiset (:func:`croupier.kernels._count7.plain_hands`) and one suited hand of
    each set of ``size`` ranks give every value: 6,175 + 1,287 hands ranked for ``poker5``
    instead of all 2,598,960 (``tests/test_solved.py`` checks they give the same values)."""
    from croupier.kernels.blocks import plain_hands, rank_multisets

    patterns, _ = rank_multisets(size, 4)
    suited = 4 * np.array(list(combinations(range(13), size)), dtype=np.int64)
    plain = rank_flat(ranking, plain_hands(patterns), table=tables())
    flush = rank_flat(ranking, suited.astype(np.uint8), table=tables())
    return np.unique(np.concatenate((plain, flush))).astype(np.int32)


@cache
def dense_tables(ranking: Ranking) -> DenseTables:
    """Dense tables of ``poker5`` (from five cards) or ``four-card`` (from four cards)."""
    if ranking not in (Ranking.POKER5, Ranking.FOUR_CARD):
        raise InvalidInput(f"dense tables exist for poker5 and four-card, not {ranking.value}")
    values = distinct_values(ranking, ranking.size)
    tab = tables()
    if ranking is Ranking.POKER5:
        plain, flush = tab.plain_poker5, tab.flush_poker5
    else:
        plain, flush = tab.plain_four_card, tab.flush_four_card
    return DenseTables(
        ranking=ranking,
        values=values,
        card_key=tab.card_key,
        card_bit=tab.card_bit,
        offsets=tab.offsets,
        plain=np.searchsorted(values, plain).astype(np.int32),
        flush=np.searchsorted(values, flush).astype(np.int32),
        init=suit_init(ranking.size),
    )


# --------------------------------------------------------------------------------------------
# Checkpoints


@dataclass(frozen=True, slots=True)
class BlockStore:
    """The finished blocks of one solve: ``block-<i>.npz`` files in ``folder`` (None: off), and
    the package's shipped copy of the same solve (``shipped``, None: none; see
    :mod:`croupier.analysis.shipped`), read first."""

    folder: Path | None
    shipped: Path | None = None

    def _path(self, block: int) -> Path | None:
        return None if self.folder is None else self.folder / f"block-{block:05d}.npz"

    def load(self, block: int) -> dict[str, npt.NDArray[Any]] | None:
        if self.shipped is not None:
            found = load_block(self.shipped, block)
            if found is not None:
                return found
        path = self._path(block)
        if path is None:
            return None
        try:
            with np.load(path, allow_pickle=False) as data:
                return {name: data[name] for name in data.files}
        except (OSError, ValueError, KeyError):
            return None

    def save(self, block: int, arrays: Mapping[str, npt.NDArray[Any]]) -> None:
        path = self._path(block)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(
                dir=path.parent, prefix=".block-", suffix=".npz", delete=False
            ) as handle:
                np.savez(handle, **arrays)  # type: ignore[arg-type]
                temp = Path(handle.name)
            os.replace(temp, path)
        except OSError:
            return  # a read-only cache only costs the resume


def block_store(solver: str, version: int, params: str, *, enabled: bool) -> BlockStore:
    """The checkpoint folder of ``solver`` for these parameters, with the package's shipped
    copy of the solve if it has one (both None when disabled)."""
    if not enabled:
        return BlockStore(None)
    name = folder_name(solver, version, params)
    return BlockStore(cache_dir() / name, shipped_file(name))


# --------------------------------------------------------------------------------------------
# Progress


class Progress(Task):
    """Progress over ``total`` units, reported to the callback a face installed
    (:func:`croupier.core.progress.reporting`); ``show=False`` silences it."""

    def __init__(self, total: int, desc: str, show: bool | None, unit: str = "block") -> None:
        super().__init__(total, f"{desc} ({unit}s)", enabled=show is not False)


def chunks(n: int, size: int) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of consecutive chunks of ``size`` covering ``0..n``."""
    for start in range(0, n, size):
        yield start, min(n, start + size)
