"""Exact Four Card Poker Ante/Play: the optimal decision at every (player hand, up card).

The player holds five cards and plays the best four (§ 641a.6); the dealer holds six, the sixth
face up, and plays the best four.  The player folds (losing the Ante) or plays 1, 2 or 3 times
the Ante; the higher hand wins Ante and Play 1 to 1 and a tie goes to the player
(§ 641a.11(c)(3)); the Ante Bonus is paid on any played hand whatever the dealer holds
(§ 641a.12(b)).  There is no dealer qualification.

Every deal is counted: 2,598,960 player hands x 47 up cards x 1,370,754 hidden dealer
completions = 167,439,136,344,480.  The up card's suit is fixed to clubs (times four), the player
hands are reduced by renaming the other three suits, and for each (hand, up card) the dealer
completions below, equal to and above the player's hand are counted exactly by
inclusion-exclusion over precomputed tables (:mod:`croupier.analysis.four_card_poker.kernels`).
The value of
each decision is an exact integer over the same 1,370,754 completions; the best is kept and, on
equal value, the smaller wager (fold, then 1x, 2x, 3x).  The Play may be any whole-cent amount
from one to three times the Ante (§ 641a.7(d)(1)), but for a given deal its value is linear in
its size (the same 1 to 1 on the Ante and the Play, the Ante Bonus on the Ante alone), so the
optimum over the whole range is at an end, 1x or 3x: 2x and every size between are never chosen,
and solving the three whole multiples is exact (tests/test_play_linearity.py proves it cent by
cent for sample hands).

The work runs in 13 blocks, one per up-card rank, spread over threads, or over the workers of a
Dask cluster (``scheduler="tcp://host:8786"``, with ``dask[distributed]`` installed); each
finished block is saved under the cache folder as it completes, so a killed run resumes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb, lcm
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.analysis.block_solver import Progress, block_store, dense_tables
from croupier.analysis.dask_cluster import as_completed, dask_client, task_key
from croupier.analysis.four_card_poker.kernels import (
    HIDDEN,
    NO_DECISIONS,
    solve_up_rank,
    versus_counts,
)
from croupier.analysis.par import Outcome, WagerSheet, merge_outcomes
from croupier.analysis.shipped import SolveSpec, fingerprint
from croupier.core.cards import Card, Rank, parse_cards
from croupier.core.errors import InvalidInput
from croupier.games.four_card_poker import ANTE_BONUS, base_net
from croupier.games.paytables import PayTable
from croupier.hands import Category, HandRank, Ranking
from croupier.kernels import Versus
from croupier.kernels.blocks import load_kernel

__all__ = [
    "ACTIONS",
    "DEALS",
    "HIDDEN_COMPLETIONS",
    "AntePlayTables",
    "FourCardSolution",
    "FourCardStrategy",
    "UpCardRule",
    "ante_play_tables",
    "dealer_versus",
    "describe_four_card",
    "four_card_decisions",
    "solve_four_card_poker",
    "solve_spec",
    "strength_strategy_value",
]

SOLVER_VERSION = 3
"""2: each saved block (an up-card rank) holds its decisions too, so the par sheet and the
decision tables (:func:`four_card_decisions`) read one solve; 3: and its ``moments``, so any
strategy that decides by the player's strength is valued from the same solve
(:func:`strength_strategy_value`)."""

I64 = npt.NDArray[np.int64]

ACTIONS = ("fold", "1x", "2x", "3x")
"""Decisions, by index: fold, or play 1, 2 or 3 times the Ante."""

HIDDEN_COMPLETIONS = HIDDEN
"""1,370,754 hidden dealer completions of one (player hand, up card): C(46, 5)."""

_HANDS = comb(52, 5)

DEALS = comb(52, 5) * 47 * HIDDEN
"""167,439,136,344,480 (player hand, up card, hidden dealer cards) deals."""

_BONUS_CLASSES = (None, "three_of_a_kind", "straight_flush", "four_of_a_kind")
_RESULTS = ("win", "tie (player wins)", "lose")
"""The dealer's hand below, equal to and above the player's (the kernels' result index)."""
BONUS_LABELS = {"three_of_a_kind": "trips", "straight_flush": "SF", "four_of_a_kind": "quads"}


def _card(card: Card | str) -> Card:
    return Card.parse(card) if isinstance(card, str) else card


def _cards(cards: Sequence[Card] | str) -> tuple[Card, ...]:
    return parse_cards(cards) if isinstance(cards, str) else tuple(cards)


# --------------------------------------------------------------------------------------------
# Strategy


def describe_four_card(value: int) -> str:
    """A four-card order value in words: ``"pair of 9s, K-Q"``, ``"high card A-K-Q-7"``."""
    rank = HandRank.of_value(value, Ranking.FOUR_CARD)
    category = rank.category
    sym = [Rank(r).symbol for r in rank.tie_ranks]
    if category is Category.PAIR:
        return f"pair of {sym[0]}s, {'-'.join(sym[1:])}"
    if category is Category.TWO_PAIR:
        return f"two pair {sym[0]}s and {sym[1]}s"
    if category is Category.THREE_OF_A_KIND:
        return f"three {sym[0]}s, {sym[1]}"
    if category is Category.FOUR_OF_A_KIND:
        return f"four {sym[0]}s"
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        return f"{category.value.replace('_', ' ')} to the {sym[0]}"
    return f"{category.value.replace('_', ' ')} {'-'.join(sym)}"


@dataclass(frozen=True, slots=True)
class UpCardRule:
    """The decisions against one up-card rank, by the player's best four of five.

    ``raise_from``: every hand at least this strong is played 3x; ``play_from``: every hand at
    least this strong is played; below ``lowest_raised`` none is played 3x, below
    ``lowest_played`` every hand folds.  Between them the decision depends on the other cards
    (card removal).  Values are four-card order values (:func:`describe_four_card`).
    """

    up_rank: Rank
    raise_from: int
    lowest_raised: int
    play_from: int
    lowest_played: int

    def render(self) -> str:
        text = f"up {self.up_rank.symbol}: 3x with {describe_four_card(self.raise_from)} or better"
        if self.lowest_raised != self.raise_from:
            text += f" (sometimes down to {describe_four_card(self.lowest_raised)})"
        text += f"; play 1x with {describe_four_card(self.play_from)} or better"
        if self.lowest_played != self.play_from:
            text += f" (sometimes down to {describe_four_card(self.lowest_played)})"
        return text + "; fold the rest"


@dataclass(frozen=True, slots=True)
class FourCardStrategy:
    """The optimal decisions, by up-card rank and the player's hand strength.

    ``counts[r, s, a]``: how many (player hand, up card) situations with the up card of rank
    ``r + 2`` and a player hand of strength ``s`` (four-card order value ``values[s]``) take
    action ``a`` (:data:`ACTIONS`).
    """

    values: npt.NDArray[np.int32]
    counts: npt.NDArray[np.int64]
    rules: tuple[UpCardRule, ...]
    moments: npt.NDArray[np.int64]
    """``moments[r, s]``: over the situations of up rank ``r + 2`` and player strength ``s``,
    the summed dealer completions below the player's hand and at most it (each situation has
    :data:`HIDDEN_COMPLETIONS`): the exact value of every decision at that strength."""

    def action_share(self, up_rank: int, value: int) -> dict[str, Fraction]:
        """The share of each action among the situations of this up rank (2..14) and player
        hand value (e.g. ``evaluate(hand, "four-card").value``)."""
        at = int(np.searchsorted(self.values, value))
        if at >= self.values.size or int(self.values[at]) != value:
            raise InvalidInput(f"{value} is no four-card order value")
        row = self.counts[up_rank - 2, at]
        total = int(row.sum())
        if total == 0:
            raise InvalidInput(f"no situation of up rank {up_rank} was solved")
        return {a: Fraction(int(row[i]), total) for i, a in enumerate(ACTIONS) if row[i]}

    def render(self) -> list[str]:
        return [rule.render() for rule in self.rules]


def _lowest_from(
    values: npt.NDArray[np.int32], seen: npt.NDArray[np.bool_], bad: npt.NDArray[np.bool_]
) -> int:
    """The weakest value from which on no seen strength is ``bad``."""
    worst = np.flatnonzero(bad)
    start = int(worst.max()) + 1 if worst.size else 0
    above = np.flatnonzero(seen[start:])
    return int(values[start + above[0]]) if above.size else int(values[-1])


def _lowest(values: npt.NDArray[np.int32], good: npt.NDArray[np.bool_]) -> int:
    found = np.flatnonzero(good)
    return int(values[found[0]]) if found.size else int(values[-1])


def _rules(values: npt.NDArray[np.int32], counts: npt.NDArray[np.int64]) -> tuple[UpCardRule, ...]:
    rules = []
    for r in range(13):
        table = counts[r]
        seen = table.sum(axis=1) > 0
        if not seen.any():
            continue
        raised = table[:, 3] > 0
        played = table[:, 1:].sum(axis=1) > 0
        not_raised = seen & (table[:, :3].sum(axis=1) > 0)
        folded = table[:, 0] > 0

        rules.append(
            UpCardRule(
                up_rank=Rank(r + 2),
                raise_from=_lowest_from(values, seen, not_raised),
                lowest_raised=_lowest(values, raised),
                play_from=_lowest_from(values, seen, folded),
                lowest_played=_lowest(values, played),
            )
        )
    return tuple(rules)


# --------------------------------------------------------------------------------------------
# Solver


@dataclass(frozen=True, slots=True)
class FourCardSolution:
    """The exact Ante/Play sheet under optimal play, and the strategy behind it."""

    sheet: WagerSheet
    strategy: FourCardStrategy


@dataclass(frozen=True, slots=True, eq=False)
class AntePlayTables:
    """The base game's settlement by dense four-card strength, as the kernels read it: every
    entry is :func:`croupier.games.four_card_poker.base_net` of an Ante of ``scale`` units (the
    common denominator of the Ante Bonus odds, so every net is a whole number of units).

    A decision ``a`` is an index of :data:`ACTIONS` (fold, or a Play of ``a`` times the Ante);
    a dealer relation ``r`` is 0, 1, 2 for the dealer's best four below, equal to, above the
    player's.
    """

    table: PayTable
    """The Ante Bonus table tabulated."""
    scale: int
    bonus: I64
    """``bonus[a, s]``: the Ante Bonus of decision ``a`` for the player strength ``s``."""
    stakes: I64
    """``stakes[a, r]``: the net of the Ante and the Play of decision ``a`` against relation
    ``r``."""
    bclass: I64
    """``bclass[s]``: the tally class of strength ``s`` (index in the Ante Bonus classes: no
    bonus, trips, straight flush, quads)."""

    def net(self, action: int, strength: int, relation: int) -> int:
        """The whole net (Ante, Play, Ante Bonus) in units of ``1 / scale`` Ante."""
        return int(self.bonus[action, strength] + self.stakes[action, relation])

    def args(self) -> tuple[I64, I64, I64]:
        """The solver kernel's settlement arguments: ``(bonus, stakes, bclass)``."""
        return self.bonus, self.stakes, self.bclass


def _pays(table: PayTable) -> dict[str, Fraction]:
    """The table's lines as "to 1" payouts per unit Ante, in the table's order."""
    return {line.hand: line.odds.net for line in table.lines if line.odds is not None}


@cache
def ante_play_tables(table: PayTable = ANTE_BONUS) -> AntePlayTables:
    """Tabulate :func:`~croupier.games.four_card_poker.base_net` over every dense four-card
    strength (the player's hand) and decision, under the Ante Bonus ``table`` (default
    § 641a.12(b)); the Ante Bonus may pay only three of a kind, straight flush, four of a kind."""
    dense = dense_tables(Ranking.FOUR_CARD)
    scale = lcm(1, *(pay.denominator for pay in _pays(table).values()))
    ranks = [HandRank.of_value(int(v), Ranking.FOUR_CARD) for v in dense.values.tolist()]
    bonus = np.zeros((len(ACTIONS), dense.size), dtype=np.int64)
    bclass = np.zeros(dense.size, dtype=np.int64)
    paid: set[str] = set()
    for s, rank in enumerate(ranks):
        for a in range(len(ACTIONS)):
            net = base_net(rank, rank, scale, a * scale, table)
            bonus[a, s] = net.bonus
            if net.bonus_line in _BONUS_CLASSES:
                bclass[s] = _BONUS_CLASSES.index(net.bonus_line)
            elif net.bonus_line is not None:
                paid.add(net.bonus_line)
    if paid:
        raise InvalidInput(
            f"the Ante Bonus may pay only {', '.join(n for n in _BONUS_CLASSES if n)}; "
            f"got {sorted(paid)}"
        )
    low, high = ranks[0], ranks[1]
    relations = ((high, low), (low, low), (low, high))  # the dealer below, equal, above
    stakes = np.zeros((len(ACTIONS), len(relations)), dtype=np.int64)
    for a in range(len(ACTIONS)):
        for r, (player, dealer) in enumerate(relations):
            net = base_net(player, dealer, scale, a * scale, table)
            stakes[a, r] = net.ante + net.play
    return AntePlayTables(table=table, scale=scale, bonus=bonus, stakes=stakes, bclass=bclass)


def _block_call(
    rank: int, bonus: I64, stakes: I64, bclass: I64
) -> tuple[dict[str, npt.NDArray[Any]], tuple[Any, ...]]:
    """The block of one up-card rank, zero, and the arguments of :func:`solve_up_rank` that
    fill it."""
    dense = dense_tables(Ranking.FOUR_CARD)
    block: dict[str, npt.NDArray[Any]] = {
        "tally": np.zeros((4, 4, 3), dtype=np.int64),
        "strategy": np.zeros((dense.size, 4), dtype=np.int64),
        "moments": np.zeros((dense.size, 2), dtype=np.int64),
        "decisions": np.full(_HANDS, -1, dtype=np.int8),
    }
    args = (rank, *dense.args(), dense.size, bonus, stakes, bclass, *block.values())
    return block, args


def _solve_block(rank: int, bonus: I64, stakes: I64, bclass: I64) -> dict[str, npt.NDArray[Any]]:
    """One up-card rank (0 = deuce): the deals by outcome (``tally``), the situations by
    strength and action (``strategy``), the dealer completions below and at most each strength
    (``moments``) and the action of every hand (``decisions``, as a row of
    :func:`four_card_decisions`)."""
    block, args = _block_call(rank, bonus, stakes, bclass)
    solve_up_rank(*args)
    return block


def _class_bonus(tabs: AntePlayTables, action: int, bc: int) -> Fraction:
    """The Ante Bonus of a played hand of tally class ``bc``, per unit Ante."""
    members = np.flatnonzero(tabs.bclass == bc)
    units = int(tabs.bonus[action, members[0]]) if members.size else 0
    return Fraction(units, tabs.scale)


def _outcomes(tally: I64, tabs: AntePlayTables) -> list[Outcome]:
    fold = Fraction(int(tabs.stakes[0, 0]), tabs.scale)
    rows = [Outcome(name="fold", net=fold, weight=int(tally[0].sum()), pays="lose")]
    for m in (1, 2, 3):
        for bc, name in enumerate(_BONUS_CLASSES):
            bonus = _class_bonus(tabs, m, bc)
            tag = f", {BONUS_LABELS[name]} bonus" if name and bonus else ""
            for res, word in enumerate(_RESULTS):
                stake = Fraction(int(tabs.stakes[m, res]), tabs.scale)
                rows.append(
                    Outcome(
                        name=f"{m}x {word}{tag}",
                        net=stake + bonus,
                        wagered=Fraction(1 + m),
                        weight=int(tally[m, bc, res]),
                        pays=("lose" if stake < 0 else "1 to 1")
                        + (f" + {bonus} to 1" if bonus else ""),
                    )
                )
    return rows


def _run_blocks(
    todo: Sequence[int],
    args: tuple[I64, I64, I64],
    threads: int,
    scheduler: str | None,
    params: str,
) -> Iterator[tuple[int, dict[str, npt.NDArray[Any]]]]:
    """``(up rank, block)`` of each rank in ``todo``, solved on local threads or, with a
    ``scheduler`` address, on that Dask cluster (as the blocks complete)."""
    if not todo:
        return
    if scheduler is None:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            futures = {r: pool.submit(_solve_block, r - 2, *args) for r in todo}
            for r, future in futures.items():
                yield r, future.result()
        return
    version = f"{SOLVER_VERSION}/{params}"
    tasks = [(task_key("fcp", version, r), _solve_block, (r - 2, *args)) for r in todo]
    with dask_client(scheduler) as client:
        for i, block in as_completed(client, tasks):
            yield todo[i], block


def solve_four_card_poker(
    ante_bonus: PayTable = ANTE_BONUS,
    *,
    workers: int | None = None,
    progress: bool | None = None,
    checkpoint: bool = True,
    up_ranks: Iterable[int] | None = None,
    scheduler: str | None = None,
) -> FourCardSolution:
    """The exact Ante/Play par sheet (per unit Ante) and optimal strategy.

    ``ante_bonus``: the Ante Bonus table (lines for three of a kind, straight flush, four of a
    kind only); default § 641a.12(b) (25, 20, 2 to 1).  ``workers``: threads (default
    every core); ``progress``: False silences the progress reports (:mod:`croupier.core.progress`);
    ``checkpoint``: save and reuse finished blocks under the cache folder, and read those the
    package ships for this key (:mod:`croupier.analysis.shipped`: the § 641a.12(b) table);
    False solves every block.  ``up_ranks`` (2..14) limits the solve to those up-card ranks: a
    partial sheet, for tests.  ``scheduler``: a Dask scheduler
    address (``"tcp://host:8786"``) to run the blocks on that cluster instead of local threads
    (``workers`` is then unused); the result is the same.  The saved blocks hold every decision
    too: :func:`four_card_decisions` reads the same solve.
    """
    ranks = sorted(set(range(2, 15) if up_ranks is None else up_ranks))
    if not ranks or any(not 2 <= r <= 14 for r in ranks):
        raise InvalidInput(f"up ranks must be 2..14; got {ranks}")
    solution, _ = _solve(ante_bonus, workers, progress, checkpoint, ranks, scheduler)
    return solution


_SOLVER = "fcp-ante-play"
"""The solver's name in its checkpoint folders and shipped files."""


def _params(tabs: AntePlayTables) -> str:
    """The solve's checkpoint key: the Ante Bonus pays and a fingerprint of every settlement
    array the kernel reads (the rules they were tabulated from, on the ranker's strengths)."""
    pays = ",".join(f"{k}={v}" for k, v in sorted(_pays(tabs.table).items()))
    values = dense_tables(Ranking.FOUR_CARD).values
    return f"{pays};rules={fingerprint(values, tabs.bonus, tabs.stakes, tabs.bclass, tabs.scale)}"


def solve_spec(ante_bonus: PayTable = ANTE_BONUS) -> SolveSpec:
    """The full solve under the Ante Bonus ``ante_bonus`` as its checkpoint folder and the
    package's shipped copy know it (:mod:`croupier.analysis.shipped`): its key, its blocks
    (the up-card ranks 2..14) and how to solve one with the real kernel."""
    tabs = ante_play_tables(ante_bonus)

    def solve_block(rank: int) -> dict[str, npt.NDArray[Any]]:
        return _solve_block(rank - 2, *tabs.args())

    return SolveSpec(_SOLVER, SOLVER_VERSION, _params(tabs), tuple(range(2, 15)), solve_block)


def _solve(
    ante_bonus: PayTable,
    workers: int | None,
    progress: bool | None,
    checkpoint: bool,
    ranks: Sequence[int],
    scheduler: str | None,
) -> tuple[FourCardSolution, npt.NDArray[np.int8]]:
    """The solution over the up ranks ``ranks`` and the decisions (13 rows, -1 in the rows of
    the ranks not solved)."""
    tabs = ante_play_tables(ante_bonus)
    params = _params(tabs)
    store = block_store(_SOLVER, SOLVER_VERSION, params, enabled=checkpoint)
    dense = dense_tables(Ranking.FOUR_CARD)
    tally = np.zeros((4, 4, 3), dtype=np.int64)
    counts = np.zeros((13, dense.size, 4), dtype=np.int64)
    moments = np.zeros((13, dense.size, 2), dtype=np.int64)
    table = np.full((13, _HANDS), -1, dtype=np.int8)
    todo: list[int] = []
    for r in ranks:
        found = store.load(r)
        if (
            found is not None
            and found["strategy"].shape == (dense.size, 4)
            and found.get("decisions", NO_DECISIONS).shape == (_HANDS,)
            and found.get("moments", NO_DECISIONS).shape == (dense.size, 2)
        ):
            tally += found["tally"]
            counts[r - 2] = found["strategy"]
            moments[r - 2] = found["moments"]
            table[r - 2] = found["decisions"]
        else:
            todo.append(r)
    threads = max(1, min(workers or os.cpu_count() or 1, len(todo) or 1))
    if todo and scheduler is None:
        call = _block_call(todo[0] - 2, *tabs.args())[1]
        load_kernel(solve_up_rank, call, "four card poker solver", enabled=progress is not False)
    with Progress(len(ranks), "four card poker: up ranks", progress) as bar:
        bar.update(len(ranks) - len(todo))
        blocks = _run_blocks(todo, tabs.args(), threads, scheduler, params)
        for r, block in blocks:
            store.save(r, block)
            tally += block["tally"]
            counts[r - 2] = block["strategy"]
            moments[r - 2] = block["moments"]
            table[r - 2] = block["decisions"]
            bar.update()
    return _solution(tally, counts, moments, tabs, ranks), table


def _solution(
    tally: I64, counts: I64, moments: I64, tabs: AntePlayTables, ranks: Sequence[int]
) -> FourCardSolution:
    dense = dense_tables(Ranking.FOUR_CARD)
    expected_total = comb(51, 5) * 4 * HIDDEN * len(ranks)
    if int(tally.sum()) != expected_total:  # pragma: no cover - a broken kernel
        raise AssertionError(f"counted {int(tally.sum())} deals of {expected_total}")
    notes = [
        "optimal play: the decision of largest expected value at every (player hand, up card), "
        "exact over the 1,370,754 hidden dealer completions; on equal value the smaller wager",
        "ties go to the player (§ 641a.11(c)(3)); the Ante Bonus (trips, SF: straight flush, "
        "quads) is paid on every played hand (§ 641a.12(b)); net and wagered per unit Ante",
    ]
    if len(ranks) < 13:
        notes.append(f"partial: up-card ranks {ranks} only")
    sheet = WagerSheet(
        wager="base",
        outcomes=merge_outcomes(_outcomes(tally, tabs)),
        paytable="ante bonus " + ", ".join(f"{k} {v} to 1" for k, v in _pays(tabs.table).items()),
        method="exact (optimal strategy)",
        notes=tuple(notes),
    )
    strategy = FourCardStrategy(
        values=dense.values, counts=counts, rules=_rules(dense.values, counts), moments=moments
    )
    return FourCardSolution(sheet=sheet, strategy=strategy)


def four_card_decisions(
    *, workers: int | None = None, progress: bool | None = None
) -> tuple[FourCardSolution, npt.NDArray[np.int8]]:
    """The full solve under the § 641a.12(b) Ante Bonus, keeping every decision (the same
    checkpointed solve as :func:`solve_four_card_poker`: after a par sheet this only reads its
    saved blocks).

    Returns the solution (as :func:`solve_four_card_poker`) and ``table``, an int8 array of
    shape (13, C(52, 5)): ``table[r, colex(hand)]`` is the action index (:data:`ACTIONS`: 0
    fold, 1 play 1x, 3 play 3x; 2x is never better) of the five-card ``hand`` (card indices,
    colex rank of the sorted set) against the up card of rank ``r + 2`` in clubs, -1 where the
    hand holds that card.  Another up suit is read after swapping its suit with clubs in the
    hand.
    """
    return _solve(ANTE_BONUS, workers, progress, True, range(2, 15), None)


def strength_strategy_value(
    actions: npt.ArrayLike, ante_bonus: PayTable = ANTE_BONUS, *, progress: bool | None = None
) -> Fraction:
    """The exact mean net per unit Ante of a fixed strategy that decides by the up card's rank
    and the player's strength alone (a typical player's rule, or a casino's basic strategy).

    ``actions[r, s]``: the action index (:data:`ACTIONS`) against an up card of rank ``r + 2``
    with the player's best four of dense strength ``s`` (``FourCardStrategy.values[s]``); one
    row (shape ``(size,)``) decides alike against every up card.  Each decision's value at
    each (up rank, strength) is the solver's own, from the same checkpointed solve as the par
    sheet (:attr:`FourCardStrategy.moments`): no game rule is restated here.
    """
    tabs = ante_play_tables(ante_bonus)
    strategy = solve_four_card_poker(ante_bonus, progress=progress).strategy
    size = strategy.values.size
    acts = np.broadcast_to(np.asarray(actions, dtype=np.int64), (13, size))
    if acts.min() < 0 or acts.max() >= len(ACTIONS):
        raise InvalidInput(f"actions must be indices of {ACTIONS}")
    n = HIDDEN
    situations = strategy.counts.sum(axis=2)
    below, at_most = strategy.moments[..., 0], strategy.moments[..., 1]
    strengths = np.arange(size)[None, :]
    value = (
        tabs.bonus[acts, strengths] * n * situations
        + tabs.stakes[acts, 0] * below
        + tabs.stakes[acts, 1] * (at_most - below)
        + tabs.stakes[acts, 2] * (n * situations - at_most)
    )
    total = sum(int(v) for v in value.sum(axis=1))  # per up rank, within int64
    return Fraction(total, DEALS * tabs.scale)


def dealer_versus(player: Sequence[Card] | str, up: Card | str) -> Versus:
    """How many of the 1,370,754 hidden dealer completions beat, tie or lose to the player's
    five cards (best four) against the up card, counted by the solver's kernel."""
    hand = _cards(player)
    up_card = _card(up)
    if len(hand) != 5:
        raise InvalidInput(f"the player holds five cards, not {len(hand)}")
    indices = [c.index for c in hand]
    if len(set(indices)) != 5 or up_card.index in indices:
        raise InvalidInput("the player's cards and the up card must all differ")
    dense = dense_tables(Ranking.FOUR_CARD)
    out = np.zeros((1, 3), dtype=np.int64)
    versus_counts(
        up_card.index, np.array([indices], dtype=np.uint8), *dense.args(), dense.size, out
    )
    _, lt, le = (int(x) for x in out[0])
    return Versus(beat=HIDDEN - le, tie=le - lt, lose=lt)
