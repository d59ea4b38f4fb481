"""Fast Monte Carlo of the table games under the optimal strategy.

:func:`run` deals ``rounds`` random rounds of one game in numba kernels
(:mod:`croupier.analysis.mc_kernels`), decides every one by the exact decision tables
(:mod:`croupier.analysis.decisions`) and settles it by the regulation's rules, then reports the
mean net per unit Ante with its standard error beside the exact value of the same strategy.
It runs the base game only (Four Card Poker: Ante, Play and Ante Bonus; Hold 'Em: Ante, Blind
and Play), one player, a fresh deck every round; :mod:`croupier.analysis.simulate` plays the
full round engine, side wagers included, at a few thousand rounds a second.  The kernels are
proven against the round engine deal by deal (``tests/test_montecarlo.py``).

Three Card Poker (Ante, Play and Ante Bonus), Let It Ride (the three bets, per unit of one bet),
Mississippi Stud (Ante and street bets, per unit Ante) and the baccarat family (the Banker or
the Player wager, a fresh 8-deck shoe every coup) run the kernels of
:mod:`croupier.analysis.<game>.montecarlo`, decided by their exact solvers' tables and compared
with the
exact sheets of :func:`croupier.analysis.par_sheet` (``tests/test_montecarlo_more.py``).

Randomness and reproducibility: the rounds are cut into blocks of ``block_rounds``; the injected
generator (``numpy.random.default_rng(seed)`` for an integer seed) draws one 32-bit seed per
block, and each block seeds numba's own generator with it (``np.random.seed`` inside the
kernel, per thread) before it deals.  The result depends on the seed, the rounds and the block
size only, never on how many threads or machines ran the blocks, nor in which order.

Where the blocks run: threads of this process (every core by default; the kernels release the
GIL), or the workers of a Dask cluster (``scheduler="tcp://host:8786"``, with
``dask[distributed]`` installed); each worker loads or builds the decision tables once, from its
own cache folder.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from croupier.analysis.block_solver import Progress
from croupier.analysis.dask_cluster import as_completed, dask_client
from croupier.analysis.mc_kernels import NSTATS
from croupier.analysis.par import exact as exact_text
from croupier.analysis.registry import MonteCarloKernel, analysis_for, registered
from croupier.core.arguments import verify_whole
from croupier.core.errors import InvalidInput
from croupier.games import Game, game_class, get_game

__all__ = [
    "BLOCK_ROUNDS",
    "MAX_ROUNDS",
    "MonteCarloResult",
    "block_plan",
    "exact_and_scale",
    "run",
    "run_block",
]

BLOCK_ROUNDS = 1 << 18
"""Rounds per block (262,144): the unit of work of a thread or a Dask task."""
MAX_ROUNDS = 10**11
"""The most rounds one kernel simulation plays (381,470 blocks: days of a core; a larger count
is a typing error, and the plan of blocks stays small)."""

WAGERS = ("banker", "player")
"""The baccarat wagers :func:`run` plays."""


@dataclass(frozen=True, kw_only=True)
class MonteCarloResult:
    """What :func:`run` found; sums are exact integers in units of ``1 / scale`` Ante (of one
    bet in Let It Ride, of the wager in baccarat)."""

    game: str
    rounds: int
    seed: str
    """The injected seed, as text (``repr`` of an integer, or the generator's description)."""
    paytable: str
    scale: int
    total: int
    """Sum over the rounds of the net result (Ante, Play and Ante Bonus or Blind)."""
    total_sq: int
    won: int
    pushed: int
    lost: int
    actions: Mapping[str, int]
    """Rounds by the decision taken (fold, or the Play multiple; Let It Ride: bets riding;
    Mississippi Stud: the street folded on; baccarat: coups by result)."""
    exact: Fraction
    """The exact mean net per unit Ante of the same strategy (from the solver)."""
    unit: str = "Ante"
    """What the nets are counted in: ``Ante``, ``one bet`` (Let It Ride), ``wager``."""
    blocks: int
    block_rounds: int
    workers: int
    where: str
    """``"threads"`` or ``"dask <scheduler address>"``."""
    wall_s: float
    notes: tuple[str, ...] = field(default=())

    @property
    def mean(self) -> Fraction:
        """The sample mean net per unit Ante."""
        return Fraction(self.total, self.rounds * self.scale)

    @property
    def house_edge(self) -> Fraction:
        return -self.mean

    @property
    def variance(self) -> Fraction:
        """The unbiased sample variance of the net per unit Ante."""
        n = self.rounds
        if n < 2:
            return Fraction(0)
        return Fraction(n * self.total_sq - self.total**2, n * (n - 1) * self.scale**2)

    @property
    def std_error(self) -> float:
        return math.sqrt(self.variance / self.rounds)

    @property
    def z(self) -> float:
        """(mean - exact) / standard error."""
        se = self.std_error
        return float(self.mean - self.exact) / se if se else 0.0

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.wall_s if self.wall_s > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "method": "monte carlo (numba kernels, optimal decision tables)",
            "rounds": self.rounds,
            "seed": self.seed,
            "paytable": self.paytable,
            "mean": float(self.mean),
            "house_edge": float(self.house_edge),
            "std_error": self.std_error,
            "std_dev": math.sqrt(self.variance),
            "exact_mean": float(self.exact),
            "exact_mean_exact": exact_text(self.exact),
            "z": self.z,
            "won": self.won,
            "pushed": self.pushed,
            "lost": self.lost,
            "actions": dict(self.actions),
            "net_total": self.total,
            "net_total_sq": self.total_sq,
            "net_unit": f"1/{self.scale} {self.unit}",
            "blocks": self.blocks,
            "block_rounds": self.block_rounds,
            "workers": self.workers,
            "where": self.where,
            "wall_s": round(self.wall_s, 3),
            "rounds_per_s": round(self.rounds_per_s),
            "notes": list(self.notes),
        }

    def render(self) -> str:
        shares = ", ".join(f"{a} {n / self.rounds:.2%}" for a, n in self.actions.items() if n)
        return "\n".join(
            [
                f"Monte Carlo: {self.game}, {self.rounds:,} rounds, seed {self.seed}, "
                f"{self.paytable}; {self.blocks} blocks on {self.workers} threads"
                + ("" if self.where == "threads" else f" ({self.where})"),
                f"  mean net per unit {self.unit} {float(self.mean):+.6%} +/- "
                f"{self.std_error:.6%} (SE)",
                f"  exact {float(self.exact):+.6%} ({exact_text(self.exact)})",
                f"  z {self.z:+.2f}; house edge {float(self.house_edge):.4%}; won "
                f"{self.won / self.rounds:.2%}, pushed {self.pushed / self.rounds:.2%}, lost "
                f"{self.lost / self.rounds:.2%}",
                f"  decisions: {shares}",
                f"  {self.wall_s:.1f} s, {self.rounds_per_s:,.0f} rounds/s",
                *(f"  note: {n}" for n in self.notes),
            ]
        )


def base_expected(game: Game) -> Fraction:
    """The exact mean net per unit initial wager of ``game``'s base game, from its par sheet:
    what a game's kernel record (:attr:`MonteCarloKernel.exact`) compares a run with."""
    from croupier.analysis import par_sheet

    sheet = par_sheet(game)
    assert sheet.base is not None
    return sheet.base.expected


def _kernel(game: str) -> tuple[str, MonteCarloKernel]:
    """The slug and the fast Monte Carlo kernel of ``game`` (aliases accepted)."""
    slug = game_class(game).slug
    if slug not in registered():
        raise InvalidInput(f"the fast Monte Carlo plays {', '.join(registered())}, not {slug}")
    return slug, analysis_for(slug).kernel


def _game(slug: str, blind: str) -> Game:
    """The game played: under its default rules, or with Blind table ``blind``."""
    if "blind" in game_class(slug).paytables:
        return get_game({"game": slug, "paytables": {"blind": blind}})
    return get_game(slug)


def exact_and_scale(game: str, wager: str = "banker") -> tuple[Fraction, int]:
    """The exact mean net per unit of ``game``'s kernel strategy under its default rules, and
    the scale of the kernel's sums (nets in ``1 / scale`` units)."""
    slug, kernel = _kernel(game)
    return kernel.exact(_game(slug, "A"), wager, False)


def run_block(
    game: str, seed: int, rounds: int, blind: str = "A", wager: str = "banker"
) -> list[int]:
    """The :data:`~croupier.analysis.mc_kernels.NSTATS` statistics of one block: ``rounds``
    rounds of ``game`` dealt after seeding numba's generator with ``seed`` (0 <= seed < 2**32);
    ``blind``: the Hold 'Em Blind table; ``wager``: the baccarat wager.  The unit of work of
    the threads and of the Dask workers."""
    slug, kernel = _kernel(game)
    the_game = _game(slug, blind)
    stats = np.zeros(NSTATS, dtype=np.int64)
    kernel.block(seed, rounds, the_game.shoe_decks, kernel.tables(the_game, wager), stats)
    return [int(x) for x in stats]


def block_plan(
    rounds: int, seed: int | np.random.Generator, block_rounds: int = BLOCK_ROUNDS
) -> list[tuple[int, int]]:
    """``(seed, rounds)`` of each block: full blocks, then the rest; one 32-bit seed a block
    drawn from the injected generator (or ``numpy.random.default_rng(seed)``)."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidInput(f"rounds {rounds!r} must be a whole number from 1 to {MAX_ROUNDS:,}")
    if isinstance(block_rounds, bool) or not isinstance(block_rounds, int) or block_rounds < 1:
        raise InvalidInput(f"block_rounds {block_rounds!r} must be a whole number of at least 1")
    if isinstance(seed, bool) or not isinstance(seed, int | np.random.Generator):
        raise InvalidInput(f"seed {seed!r} must be an integer or a numpy Generator")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    full, rest = divmod(rounds, block_rounds)
    sizes = [block_rounds] * full + ([rest] if rest else [])
    seeds = rng.integers(0, 2**32, size=len(sizes), dtype=np.uint64).tolist()
    return list(zip((int(s) for s in seeds), sizes, strict=True))


def _on_threads(
    slug: str,
    plan: Sequence[tuple[int, int]],
    blind: str,
    wager: str,
    workers: int,
    bar: Progress,
) -> list[list[int]]:
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run_block, slug, s, n, blind, wager) for s, n in plan]
        out = []
        for future in futures:
            out.append(future.result())
            bar.update()
        return out


def _on_dask(
    slug: str,
    plan: Sequence[tuple[int, int]],
    blind: str,
    wager: str,
    scheduler: str,
    bar: Progress,
) -> tuple[list[list[int]], int]:
    tasks = [
        (f"croupier-mc-{slug}-{blind}-{wager}-{i}-{s}-{n}", run_block, (slug, s, n, blind, wager))
        for i, (s, n) in enumerate(plan)
    ]
    blocks: list[list[int]] = [[] for _ in plan]
    with dask_client(scheduler) as client:
        threads = sum(client.nthreads().values())
        for i, block in as_completed(client, tasks):
            blocks[i] = list(block)
            bar.update()
    return blocks, threads


def run(
    game_slug: str,
    rounds: int,
    seed: int | np.random.Generator,
    *,
    workers: int | None = None,
    blind: str = "A",
    wager: str = "banker",
    block_rounds: int = BLOCK_ROUNDS,
    scheduler: str | None = None,
    progress: bool | None = None,
) -> MonteCarloResult:
    """Deal and settle ``rounds`` random rounds of ``game_slug`` (a registered game, aliases
    accepted) under the optimal strategy.

    ``seed``: an integer or an injected ``numpy.random.Generator``, which draws the blocks'
    seeds; ``workers``: threads (default every core); ``blind``: the Hold 'Em Blind table (A or
    B); ``wager``: the baccarat wager (``banker`` or ``player``); ``block_rounds``: rounds per
    block (the result depends on it); ``scheduler``: a Dask
    scheduler address to run the blocks on that cluster instead; ``progress``: False silences the
    progress reports over the blocks (:mod:`croupier.core.progress`).  The decision tables are
    loaded
    (or, the first time, solved) before the clock starts.
    """
    slug, kernel = _kernel(game_slug)
    if not isinstance(seed, np.random.Generator):
        verify_whole(seed, what="seed", low=0, high=2**128 - 1)
    if workers is not None:
        verify_whole(workers, what="workers", high=1024)
    if blind not in ("A", "B"):
        raise InvalidInput(f"blind table {blind!r}: A or B")
    if "blind" not in game_class(slug).paytables and blind != "A":
        raise InvalidInput(f"{slug} has no Blind table")
    if wager not in WAGERS or (wager not in kernel.wagers and wager != "banker"):
        raise InvalidInput(f"wager {wager!r}: the baccarat games play banker or player")
    seed_text = repr(seed) if isinstance(seed, int) else "injected generator"
    plan = block_plan(rounds, seed, block_rounds)
    the_game = _game(slug, blind)
    exact, scale = kernel.exact(the_game, wager, progress)
    threads = max(1, min(workers or os.cpu_count() or 1, len(plan)))
    run_block(slug, 0, 1, blind, wager)  # compile, or load the compiled kernel, off the clock
    start = time.perf_counter()
    with Progress(len(plan), f"monte carlo: {slug}", progress) as bar:
        if scheduler is None:
            blocks = _on_threads(slug, plan, blind, wager, threads, bar)
            where = "threads"
        else:
            blocks, threads = _on_dask(slug, plan, blind, wager, scheduler, bar)
            where = f"dask {scheduler}"
    wall = time.perf_counter() - start
    sums = [sum(column) for column in zip(*blocks, strict=True)]
    if sum(sums[5:]) != rounds:  # pragma: no cover - a broken kernel
        raise AssertionError(f"settled {sum(sums[5:])} rounds of {rounds}")
    names = kernel.actions
    return MonteCarloResult(
        game=slug,
        rounds=rounds,
        seed=seed_text,
        paytable=kernel.paytable(the_game, wager),
        scale=scale,
        total=sums[0],
        total_sq=sums[1],
        won=sums[2],
        pushed=sums[3],
        lost=sums[4],
        actions={a: sums[5 + i] for i, a in enumerate(names)},
        exact=exact,
        blocks=len(plan),
        block_rounds=block_rounds,
        workers=threads,
        where=where,
        wall_s=wall,
        unit=kernel.unit,
        notes=(kernel.note,),
    )
