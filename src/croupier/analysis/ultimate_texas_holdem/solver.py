"""Exact Ultimate Texas Hold 'Em (Ante, Blind, Play) under the optimal strategy.

Rules (§ 569.11, § 653a.12(b)): equal Ante and Blind; before the flop the player checks or bets
3x or 4x the Ante; after the flop a player who has not bet checks or bets 2x; after the turn and
river a player who has not bet bets 1x or folds (losing Ante and Blind).  The dealer qualifies
with a pair or better; if not, the Ante pushes and Play and Blind are still settled.  The higher
hand (best five of seven) wins: Ante (if the dealer qualifies) and Play 1 to 1, the Blind by its
table when the winning hand reaches a line, else it pushes; a tie pushes everything; a losing
hand loses Ante (if the dealer qualifies), Play and Blind.

Every decision maximises the expected value given the cards the player sees, exactly: the river
over the 990 dealer holdings, the flop over the 1,081 turn-and-river pairs, the preflop over the
19,600 flops, all integer sums (scaled by the Blind table's common denominator).  On equal value
the smaller wager is chosen (check before 3x before 4x, check before 2x, fold before 1x).

The deals are counted with the board in order (flop, then turn and river), because the decisions
depend on which three cards came first: 1,326 x 19,600 x 1,081 x 990 = 27,813,810,024,000, ten
times the 2,781,381,002,400 deals of unordered boards; probabilities and the edge are the same.

Work: one pass over the 1,755 flops up to suit renaming (weighted by their classes), each flop
solved by :func:`croupier.analysis.ultimate_texas_holdem.kernels.solve_flop` (by classes of
boards and holdings), spread over threads, or in blocks of
flops over the workers of a Dask cluster (``scheduler="tcp://host:8786"``, with
``dask[distributed]`` installed); every block of flops is saved under the cache folder as it
completes, so a killed run resumes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from croupier.analysis.block_solver import Progress, block_store, chunks, dense_tables
from croupier.analysis.dask_cluster import as_completed, dask_client, task_key
from croupier.analysis.par import Outcome, WagerSheet, merge_outcomes
from croupier.analysis.shipped import SolveSpec, fingerprint
from croupier.analysis.ultimate_texas_holdem.kernels import (
    DEALER,
    NFLOP_FEATURES,
    NRIVER_FEATURES,
    NTYPES,
    PAIR_INDEX,
    board_counts,
    solve_flop,
)
from croupier.analysis.ultimate_texas_holdem.settle import (
    LN,
    LQ,
    TIE,
    WN,
    WQ,
    SettleTables,
    settle_tables,
)
from croupier.core.cards import Card, Rank, parse_cards
from croupier.core.errors import InvalidInput
from croupier.games.paytables import PayTable
from croupier.games.ultimate_texas_holdem.paytables import BLIND_HANDS
from croupier.hands import Ranking
from croupier.kernels import canonical_hands
from croupier.kernels.blocks import load_kernel

__all__ = [
    "DEALS",
    "ORDERED_DEALS",
    "FeatureShare",
    "FlopValues",
    "PreflopDecision",
    "RiverCounts",
    "UthSolution",
    "UthStrategy",
    "flop_values",
    "river_counts",
    "solve_spec",
    "solve_ultimate_texas_holdem",
    "starting_hand",
    "uth_decisions",
]

SOLVER_VERSION = 4
"""2: the flop sums of the Ante, Play and Blind nets are all in units of ``1 / scale``; 3: each
saved block holds its flop decisions too (``bets``), so the par sheet and the decision tables
read one solve; 4: and what each flop and river decision gains over the other action, by hand
feature (``flop_gain``, ``river_gain``: the cost of a readable rule)."""
FLOPS_PER_BLOCK = 65

DEALS = comb(52, 2) * comb(50, 2) * comb(48, 5)
"""2,781,381,002,400 deals: player two, dealer two, board five."""
ORDERED_DEALS = comb(52, 2) * comb(50, 3) * comb(47, 2) * comb(45, 2)
"""27,813,810,024,000: the deals with the flop told apart from the turn and river."""
_PER_HOLDING = comb(50, 3) * comb(47, 2) * DEALER

_TYPE_NAMES = (
    *(("win", True, line) for line in (*BLIND_HANDS, None)),
    *(("win", False, line) for line in (*BLIND_HANDS, None)),
    ("tie", None, None),
    ("lose", True, None),
    ("lose", False, None),
)
"""The solver's result types (:attr:`SettleTables.type_net`): a win by Blind line against a
qualifying and a non-qualifying dealer, a tie, a loss to a qualifying and a non-qualifying one."""
_TYPE_RESULTS = (
    *((WQ, c) for c in range(7)),
    *((WN, c) for c in range(7)),
    (TIE, 0),
    (LQ, 0),
    (LN, 0),
)
_CATEGORIES = Ranking.POKER5.categories


def _cards(cards: Sequence[Card] | str) -> tuple[Card, ...]:
    return parse_cards(cards) if isinstance(cards, str) else tuple(cards)


def _category_name(index: int) -> str:
    return _CATEGORIES[index].value.replace("_", " ")


# --------------------------------------------------------------------------------------------
# Parameters and small helpers


@cache
def holding_classes() -> tuple[npt.NDArray[np.int64], tuple[str, ...]]:
    """The starting-hand class (0..168, a 13 x 13 grid) of each pair index, and class names."""
    cls = np.empty(1326, dtype=np.int64)
    for b in range(52):
        for a in range(b):
            hi, lo = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
            suited = (a & 3) == (b & 3)
            cls[PAIR_INDEX[a, b]] = hi * 13 + lo if suited or hi == lo else lo * 13 + hi
    names = []
    for i in range(169):
        r1, r2 = divmod(i, 13)
        hi, lo = max(r1, r2), min(r1, r2)
        text = Rank(hi + 2).symbol + Rank(lo + 2).symbol
        names.append(text if hi == lo else text + ("s" if r1 > r2 else "o"))
    return cls, tuple(names)


def starting_hand(hole: Sequence[Card] | str) -> str:
    """The starting-hand class of two hole cards: ``"AKs"``, ``"T9o"``, ``"77"``."""
    cards = _cards(hole)
    if len(cards) != 2 or cards[0] == cards[1]:
        raise InvalidInput("a starting hand is two different cards")
    cls, names = holding_classes()
    return names[int(cls[PAIR_INDEX[cards[0].index, cards[1].index]])]


# --------------------------------------------------------------------------------------------
# Single situations


class RiverCounts(NamedTuple):
    """The 990 dealer holdings against a player's hand on a full board."""

    win_qualified: int
    win_not_qualified: int
    tie: int
    lose_qualified: int
    lose_not_qualified: int


def river_counts(hole: Sequence[Card] | str, board: Sequence[Card] | str) -> RiverCounts:
    """How the dealer holdings of the 45 unseen cards fare against ``hole`` on ``board``
    (counted by the solver's kernel)."""
    h, b = _cards(hole), _cards(board)
    if len(h) != 2 or len(b) != 5 or len({c.index for c in (*h, *b)}) != 7:
        raise InvalidInput("give two hole cards and a five-card board, seven different cards")
    dense = dense_tables(Ranking.POKER5)
    p = settle_tables()
    out = np.zeros((1326, 6), dtype=np.int64)
    board_counts(np.array([c.index for c in b], dtype=np.int64), *dense.args(), p.q0, out)
    row = out[PAIR_INDEX[h[0].index, h[1].index]]
    return RiverCounts(*(int(x) for x in row[1:]))


class FlopValues(NamedTuple):
    """Expected results per unit Ante after the flop, both exact."""

    bet: Fraction
    """Bet 2x now."""
    check: Fraction
    """Check, then play 1x or fold on the river, whichever is better."""

    @property
    def action(self) -> str:
        return "2x" if self.bet > self.check else "check"


def _run_flop(flop: Sequence[int], p: SettleTables) -> dict[str, npt.NDArray[Any]]:
    out, args = _flop_call(flop, p)
    solve_flop(*args)
    return out


def _flop_call(
    flop: Sequence[int], p: SettleTables
) -> tuple[dict[str, npt.NDArray[Any]], tuple[Any, ...]]:
    """The results of one flop, zero, and the arguments of :func:`solve_flop` that fill them."""
    dense = dense_tables(Ranking.POKER5)
    cls, _ = holding_classes()
    out: dict[str, npt.NDArray[Any]] = {
        "holding_lin": np.zeros((1326, 3), np.int64),
        "holding_checked": np.zeros(1326, np.int64),
        "holding_bet": np.zeros(1326, np.int8),
        **_empty_sums(),
    }
    holding = (out["holding_lin"], out["holding_checked"], out["holding_bet"])
    sums = tuple(out[key] for key in _SUM_KEYS)
    flop_cards = np.asarray(flop, dtype=np.int64)
    args = (
        flop_cards, dense.args(), p.q0, p.category, p.bclass, p.type_net, p.fold,
        PAIR_INDEX, cls, holding, sums,
    )  # fmt: skip
    return out, args


def _value(lin: Sequence[int], multiple: int) -> int:
    """The sum of the nets of playing ``multiple`` times the Ante, from the sums of the Ante,
    Play-per-1x and Blind nets."""
    return int(lin[0]) + multiple * int(lin[1]) + int(lin[2])


def flop_values(
    hole: Sequence[Card] | str,
    flop: Sequence[Card] | str,
    blind: PayTable | None = None,
) -> FlopValues:
    """The exact values of betting 2x and of checking after ``flop`` with ``hole`` (Blind table
    ``blind``, default A), over every turn, river and dealer holding."""
    h, f = _cards(hole), _cards(flop)
    if len(h) != 2 or len(f) != 3 or len({c.index for c in (*h, *f)}) != 5:
        raise InvalidInput("give two hole cards and a three-card flop, five different cards")
    p = settle_tables(blind)
    out = _run_flop([c.index for c in f], p)
    at = PAIR_INDEX[h[0].index, h[1].index]
    lin = [int(x) for x in out["holding_lin"][at]]
    total = comb(47, 2) * DEALER * p.scale
    bet = Fraction(_value(lin, 2), total)
    return FlopValues(bet=bet, check=Fraction(int(out["holding_checked"][at]), total))


# --------------------------------------------------------------------------------------------
# Strategy


@dataclass(frozen=True, slots=True)
class PreflopDecision:
    """One starting hand: the best action and the exact value of each, per unit Ante."""

    hand: str
    action: str
    values: Mapping[str, Fraction]


@dataclass(frozen=True, slots=True)
class FeatureShare:
    """How often a decision is taken in the situations that share a feature (reached under the
    optimal strategy, each situation counted once per equally likely deal of its cards)."""

    feature: str
    taken: int
    situations: int
    gain_taken: Fraction = Fraction(0)
    """Where the optimum takes the decision: the expected value per round (units of the Ante,
    every deal counted) it gains over the other action, so what a rule that never takes it here
    gives up."""
    gain_declined: Fraction = Fraction(0)
    """Where the optimum declines: what it gains over taking the decision, so what a rule that
    always takes it here gives up."""

    @property
    def share(self) -> Fraction:
        return Fraction(self.taken, self.situations) if self.situations else Fraction(0)


@dataclass(frozen=True, slots=True)
class UthStrategy:
    """The optimal strategy: the preflop table, and how the flop and river decisions fall by the
    player's hand (the decisions themselves depend on the exact cards)."""

    preflop: tuple[PreflopDecision, ...]
    flop: tuple[FeatureShare, ...]
    """Bet 2x after the flop, among hands that checked, by the five-card hand."""
    river: tuple[FeatureShare, ...]
    """Play 1x on the river, among hands that checked twice, by the seven-card hand."""

    def action(self, hand: str) -> str:
        for d in self.preflop:
            if d.hand == hand:
                return d.action
        raise InvalidInput(f"{hand!r} is no starting hand (write e.g. AKs, T9o, 77)")

    def render(self) -> list[str]:
        lines = ["preflop (rows: first card, columns: second; suited above the diagonal):"]
        grid = {d.hand: d.action for d in self.preflop}
        symbols = [Rank(r).symbol for r in range(14, 1, -1)]
        lines.append("      " + "".join(f"{s:>6}" for s in symbols))
        for i, hi in enumerate(symbols):
            cells = []
            for j, lo in enumerate(symbols):
                name = hi + hi if i == j else (hi + lo + "s" if i < j else lo + hi + "o")
                cells.append(f"{grid[name]:>6}")
            lines.append(f"{hi:>6}" + "".join(cells))
        for title, rows in (("flop: bet 2x", self.flop), ("river: play 1x", self.river)):
            lines.append(f"{title} (share of the situations reached):")
            for row in rows:
                if row.situations:
                    lines.append(
                        f"  {row.feature:<52}{float(row.share):>9.2%}  of {row.situations:,}"
                    )
        return lines


def _flop_feature(index: int) -> str:
    cat, rest = divmod(index, 4)
    hidden, draw = divmod(rest, 2)
    text = _category_name(cat)
    if cat in (1, 3):  # a pair or three of a kind may lie on the flop alone
        text += ", using a hole card" if hidden else ", on the flop alone"
    if draw:
        text += ", four to a flush"
    return text


def _river_feature(index: int) -> str:
    cat, hidden = divmod(index, 2)
    return _category_name(cat) + (", hole cards beat the board" if hidden else ", board plays")


# --------------------------------------------------------------------------------------------
# Solver


@dataclass(frozen=True, slots=True)
class UthSolution:
    """The exact base sheet (Ante, Blind and Play per unit Ante) and the optimal strategy."""

    sheet: WagerSheet
    strategy: UthStrategy


_SUM_KEYS = ("lin", "best", "t_raise", "t_check", "flop", "river", "flop_gain", "river_gain")
_BETS = "bets"
"""The block entry of the flop decisions: ``(flops in the block, 1326)`` int8, as
:func:`uth_decisions` returns them."""


def _empty_sums() -> dict[str, npt.NDArray[np.int64]]:
    """The per-class sums of one or more flops (weighted by their suit classes)."""
    return {
        "lin": np.zeros((169, 3), np.int64),
        "best": np.zeros(169, np.int64),
        "t_raise": np.zeros((169, NTYPES), np.int64),
        "t_check": np.zeros((169, 2 * NTYPES + 1), np.int64),
        "flop": np.zeros((169, NFLOP_FEATURES, 2), np.int64),
        "river": np.zeros((169, NRIVER_FEATURES, 2), np.int64),
        "flop_gain": np.zeros((169, NFLOP_FEATURES, 2), np.int64),
        "river_gain": np.zeros((169, NRIVER_FEATURES, 2), np.int64),
    }


def _outcome_rows(counts: npt.NDArray[np.int64], m: int, p: SettleTables) -> list[Outcome]:
    """The outcomes of playing ``m`` times the Ante, by result type, their nets the game's."""
    rows = []
    for t, (result, qualified, line) in enumerate(_TYPE_NAMES):
        weight = int(counts[t])
        net = p.nets(*_TYPE_RESULTS[t], m)
        if result == "tie":
            rows.append(Outcome(name=f"{m}x tie", net=net, weight=weight,
                                wagered=Fraction(2 + m), pays="push"))  # fmt: skip
            continue
        q = "dealer qualifies" if qualified else "dealer does not qualify"
        if result == "lose":
            rows.append(Outcome(name=f"{m}x lose, {q}", net=net, weight=weight,
                                wagered=Fraction(2 + m), pays="lose"))  # fmt: skip
            continue
        bonus = Fraction(int(p.net[(*_TYPE_RESULTS[t], 1)]), p.scale)
        blind = f"blind {line.replace('_', ' ')}" if line and bonus else "blind push"
        rows.append(
            Outcome(
                name=f"{m}x win, {q}, {blind}",
                net=net,
                weight=weight,
                wagered=Fraction(2 + m),
                pays=f"1 to 1, {bonus} to 1" if bonus else "1 to 1",
            )
        )
    return rows


def _flop_block(
    flops: npt.NDArray[np.uint8], weights: npt.NDArray[np.int64], p: SettleTables
) -> dict[str, npt.NDArray[Any]]:
    """The weighted sums of a block of flop classes, solved one after another, and their flop
    decisions (``bets``, a row per flop; a Dask task)."""
    part = _empty_sums()
    bets = np.empty((len(flops), 1326), dtype=np.int8)
    for i, (flop, weight) in enumerate(zip(flops, weights, strict=True)):
        out = _run_flop(flop.tolist(), p)
        for key in part:
            part[key] += int(weight) * out[key]
        bets[i] = out["holding_bet"]
    return {**part, _BETS: bets}


_Block = tuple[int, int, int]
"""A block of flop classes: its number, first and past-last flop index."""


def _run_blocks(
    todo: Sequence[_Block],
    p: SettleTables,
    threads: int,
    scheduler: str | None,
    params: str,
    bar: Progress,
) -> Iterator[tuple[_Block, dict[str, npt.NDArray[Any]]]]:
    """Each block of ``todo`` with its sums: on local threads (a block at a time, its flops
    spread over the threads) or, with a ``scheduler`` address, on that Dask cluster (a task a
    block, as they complete); ``bar`` advances a flop at a time."""
    if not todo:
        return
    reps, class_weights = canonical_hands(3)
    if scheduler is None:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            for block in todo:
                _, start, stop = block
                part = _empty_sums()
                bets = np.empty((stop - start, 1326), dtype=np.int8)
                results = pool.map(lambda i: _run_flop(reps[i].tolist(), p), range(start, stop))
                for i, out in zip(range(start, stop), results, strict=True):
                    for key in part:
                        part[key] += int(class_weights[i]) * out[key]
                    bets[i - start] = out["holding_bet"]
                    bar.update()
                yield block, {**part, _BETS: bets}
        return
    tasks = [
        (task_key("uth", f"{SOLVER_VERSION}/{params}", f"{start}-{stop}"), _flop_block,
         (reps[start:stop], class_weights[start:stop], p))
        for _, start, stop in todo
    ]  # fmt: skip
    with dask_client(scheduler) as client:
        for i, part in as_completed(client, tasks):
            _, start, stop = todo[i]
            bar.update(stop - start)
            yield todo[i], part


def solve_ultimate_texas_holdem(
    blind: PayTable | None = None,
    *,
    workers: int | None = None,
    progress: bool | None = None,
    checkpoint: bool = True,
    flops: int | None = None,
    scheduler: str | None = None,
) -> UthSolution:
    """The exact base par sheet and optimal strategy of Ultimate Texas Hold 'Em.

    ``blind``: a Blind pay table of the game (default table A of
    :data:`croupier.games.ultimate_texas_holdem.paytables.BLIND`; B pushes straights).
    ``workers``: threads (default every core); ``progress``: False silences the progress reports
    (:mod:`croupier.core.progress`); ``checkpoint``: save and reuse finished blocks under the cache
    folder, and read those the package ships for this key (:mod:`croupier.analysis.shipped`:
    Blind table A); False solves every block.  ``flops`` solves only the first that many flop
    classes (a partial sheet, for tests).  ``scheduler``: a Dask scheduler address
    (``"tcp://host:8786"``) to run the blocks of flops on that cluster instead of local threads
    (``workers`` is then unused); the result is the same.  The saved blocks hold the flop
    decisions too: :func:`uth_decisions` reads the same solve.
    """
    solution, _ = _solve(blind, workers, progress, checkpoint, flops, scheduler)
    return solution


def _solve(
    blind: PayTable | None,
    workers: int | None,
    progress: bool | None,
    checkpoint: bool,
    flops: int | None,
    scheduler: str | None,
) -> tuple[UthSolution, npt.NDArray[np.int8]]:
    """The solution and the flop decisions of the solved flop classes (a row each)."""
    p = settle_tables(blind)
    reps, _ = canonical_hands(3)
    total_flops = len(reps) if flops is None else max(1, min(flops, len(reps)))
    params = _params(p)
    store = block_store(_SOLVER, SOLVER_VERSION, params, enabled=checkpoint)
    sums = _empty_sums()
    bets = np.empty((total_flops, 1326), dtype=np.int8)
    keys = {*sums, _BETS}
    threads = max(1, workers or os.cpu_count() or 1)
    todo: list[_Block] = []
    with Progress(total_flops, "ultimate texas hold 'em: flops", progress, unit="flop") as bar:
        for block, (start, stop) in enumerate(chunks(total_flops, FLOPS_PER_BLOCK)):
            found = store.load(block) if stop - start == FLOPS_PER_BLOCK else None
            if (
                found is not None
                and set(found) == keys
                and found[_BETS].shape == (stop - start, 1326)
            ):
                _add_block(sums, bets, start, found)
                bar.update(stop - start)
            else:
                todo.append((block, start, stop))
        if todo and scheduler is None:  # loading the kernel, or compiling it cold, takes seconds
            call = _flop_call(reps[todo[0][1]].tolist(), p)[1]
            load_kernel(solve_flop, call, "hold 'em flop solver", enabled=progress is not False)
        for (block, start, stop), part in _run_blocks(todo, p, threads, scheduler, params, bar):
            if stop - start == FLOPS_PER_BLOCK:
                store.save(block, part)
            _add_block(sums, bets, start, part)
    partial = flops is not None and total_flops < len(reps)
    return _assemble(sums, p, partial=partial), bets


_SOLVER = "uth-base"
"""The solver's name in its checkpoint folders and shipped files."""


def _params(p: SettleTables) -> str:
    """The solve's checkpoint key: the Blind table's pays, the block size, and a fingerprint of
    every settlement array the kernels read (the rules they were tabulated from)."""
    pays = ",".join(f"{k}={v}" for k, v in sorted(p.pays.items()))
    rules = fingerprint(p.values, p.q0, p.category, p.bclass, p.net, p.fold, p.type_net, p.scale)
    return f"{pays};{FLOPS_PER_BLOCK};rules={rules}"


def solve_spec(blind: PayTable | None = None, *, workers: int | None = None) -> SolveSpec:
    """The full solve under Blind table ``blind`` (default A) as its checkpoint folder and the
    package's shipped copy know it (:mod:`croupier.analysis.shipped`): its key and blocks, and
    how to solve one block with the real kernel (on ``workers`` threads, as the solve does)."""
    p = settle_tables(blind)
    reps, _ = canonical_hands(3)
    params = _params(p)
    full = tuple(
        (b, start, stop)
        for b, (start, stop) in enumerate(chunks(len(reps), FLOPS_PER_BLOCK))
        if stop - start == FLOPS_PER_BLOCK
    )
    threads = max(1, workers or os.cpu_count() or 1)

    def solve_block(block: int) -> dict[str, npt.NDArray[Any]]:
        with Progress(FLOPS_PER_BLOCK, f"hold 'em block {block}", False, unit="flop") as bar:
            ((_, part),) = _run_blocks([full[block]], p, threads, None, params, bar)
        return part

    return SolveSpec(_SOLVER, SOLVER_VERSION, params, tuple(b for b, _, _ in full), solve_block)


def _add_block(
    sums: dict[str, npt.NDArray[np.int64]],
    bets: npt.NDArray[np.int8],
    start: int,
    block: Mapping[str, npt.NDArray[Any]],
) -> None:
    for key in sums:
        sums[key] += block[key]
    rows = block[_BETS]
    bets[start : start + len(rows)] = rows


def uth_decisions(
    blind: PayTable | None = None,
    *,
    workers: int | None = None,
    progress: bool | None = None,
) -> tuple[UthSolution, npt.NDArray[np.uint8], npt.NDArray[np.int8]]:
    """The full solve (as :func:`solve_ultimate_texas_holdem`, the same checkpointed solve:
    after a par sheet this only reads its saved blocks), keeping every flop decision.

    Returns the solution, the flop classes ``reps`` (the canonical flops of
    :func:`croupier.kernels.canonical_hands`, shape (1755, 3)) and ``bets``, an int8 array of
    shape (1755, 1326): ``bets[k, h]`` is 1 where the holding of pair index ``h``
    (:data:`~croupier.analysis.ultimate_texas_holdem.kernels.PAIR_INDEX`) bets 2x on the flop
    ``reps[k]`` after
    checking before it, 0 where it checks, -1 where it touches the flop.
    """
    reps, _ = canonical_hands(3)
    solution, bets = _solve(blind, workers, progress, True, None, None)
    return solution, reps, bets


def _feature_shares(
    sums: Mapping[str, npt.NDArray[np.int64]], street: str, checks: npt.NDArray[np.bool_], per: int
) -> tuple[FeatureShare, ...]:
    """The decisions of ``street`` ("flop" or "river") by hand feature, over the starting hands
    that check (``checks``), with what each decision gains over the other one; the gains are
    sums over every ordered deal in units of ``1 / scale``, so ``per`` is their denominator."""
    rows = sums[street][checks].sum(axis=0)
    gains = sums[f"{street}_gain"][checks].sum(axis=0)
    name = _flop_feature if street == "flop" else _river_feature
    return tuple(
        FeatureShare(
            name(f),
            int(rows[f, 1]),
            int(rows[f].sum()),
            gain_taken=Fraction(int(gains[f, 1]), per),
            gain_declined=Fraction(int(gains[f, 0]), per),
        )
        for f in range(len(rows))
    )


def _assemble(
    sums: dict[str, npt.NDArray[np.int64]], p: SettleTables, *, partial: bool
) -> UthSolution:
    _, names = holding_classes()
    s = p.scale
    lin, best, t_raise, t_check = sums["lin"], sums["best"], sums["t_raise"], sums["t_check"]
    outcomes: list[Outcome] = []
    preflop: list[PreflopDecision] = []
    checks = np.zeros(169, dtype=bool)
    for c in range(169):
        total = int(t_raise[c].sum())
        if total == 0:
            continue
        values = {
            "check": Fraction(int(best[c]), total * s),
            "3x": Fraction(_value(lin[c], 3), total * s),
            "4x": Fraction(_value(lin[c], 4), total * s),
        }
        action = "check"
        for name in ("3x", "4x"):
            if values[name] > values[action]:
                action = name
        preflop.append(PreflopDecision(hand=names[c], action=action, values=values))
        if action == "check":
            checks[c] = True
            outcomes += _outcome_rows(t_check[c, :NTYPES], 2, p)
            outcomes += _outcome_rows(t_check[c, NTYPES : 2 * NTYPES], 1, p)
            folds = int(t_check[c, 2 * NTYPES])
            outcomes.append(Outcome(name="fold", net=p.nets(WQ, 0, 0), weight=folds,
                                    wagered=Fraction(2), pays="lose"))  # fmt: skip
        else:
            outcomes += _outcome_rows(t_raise[c], int(action[0]), p)
    strategy = UthStrategy(
        preflop=tuple(sorted(preflop, key=lambda d: names.index(d.hand))),
        flop=_feature_shares(sums, "flop", checks, ORDERED_DEALS * s),
        river=_feature_shares(sums, "river", checks, ORDERED_DEALS * s),
    )
    notes = [
        "optimal play: every decision maximises the exact expected value given the cards seen; "
        "on equal value the smaller wager",
        "combinations count the board in order (flop, then turn and river): "
        f"{ORDERED_DEALS:,} = 10 x {DEALS:,} deals",
        "net per unit Ante (Ante, Blind and Play results); wagered counts Ante, Blind and Play",
    ]
    if partial:
        notes.append("partial: only some flops were solved")
    sheet = WagerSheet(
        wager="base",
        outcomes=merge_outcomes(outcomes),
        paytable="blind " + ", ".join(f"{k} {v} to 1" for k, v in p.pays.items()),
        method="exact (optimal strategy)",
        notes=tuple(notes),
    )
    expected = _PER_HOLDING * 1326
    if not partial and sheet.total != expected:  # pragma: no cover - a broken kernel
        raise AssertionError(f"counted {sheet.total} deals of {expected}")
    return UthSolution(sheet=sheet, strategy=strategy)
