"""The fast Monte Carlo and its decision tables.

* The numba settle kernels equal the round engine: seeded random deals (and a few built to
  reach the rare branches) are played both through the kernel and through the real
  :class:`~croupier.games.Round` with a stacked shoe holding the same cards, the engine's seat
  deciding by the Strategy functions of :mod:`croupier.analysis.decisions`; nets and decisions
  must be identical.
* The decision tables agree with the solvers' own exact values on sampled situations
  (:func:`dealer_versus` and its kernel, the per-flop solve behind :func:`flop_values`,
  :func:`river_counts`), with the solvers' tie rule, and the Hold 'Em preflop table with the
  published optimal strategy.
* 10^6 rounds of each game lie within 4 standard errors of the exact value; runs are
  reproducible whatever the threads, and the Dask path gives the same result.

The tables come from the cache folder (a first run builds them: about a minute on two cores).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np
import pytest

from croupier.analysis import montecarlo
from croupier.analysis.block_solver import dense_tables
from croupier.analysis.four_card_poker import mc_kernels as fcp_kernels
from croupier.analysis.four_card_poker.decisions import (
    FourCardTables,
    four_card_poker_strategy,
    four_card_tables,
)
from croupier.analysis.four_card_poker.kernels import HIDDEN, versus_counts
from croupier.analysis.four_card_poker.solver import dealer_versus
from croupier.analysis.ultimate_texas_holdem import mc_kernels as uth_kernels
from croupier.analysis.ultimate_texas_holdem.decisions import UthTables, uth_strategy, uth_tables
from croupier.analysis.ultimate_texas_holdem.kernels import PAIR_INDEX
from croupier.analysis.ultimate_texas_holdem.settle import settle_tables
from croupier.analysis.ultimate_texas_holdem.solver import (
    _run_flop,
    flop_values,
    river_counts,
    starting_hand,
)
from croupier.core.cards import DECK, Card, parse_cards
from croupier.core.errors import InvalidInput
from croupier.games import ActorKind, Game, get_game
from croupier.games.four_card_poker import base_net
from croupier.games.records import Action, PlaceWager, Play, WagerSettled
from croupier.games.ultimate_texas_holdem.paytables import BLIND
from croupier.hands import HandRank, Ranking, evaluate
from croupier.kernels import subsets
from croupier.rules.progressive import MemoryMeters
from croupier.table.shoe import StackedShoe

FCP_EXACT = Fraction(-8840827253, 317119576410)
UTH_EXACT = Fraction(-50643648973, 2317817502000)
ENGINE_DEALS = 300
UNIT = 100


@pytest.fixture(scope="module")
def fcp() -> FourCardTables:
    return four_card_tables(progress=False)


@pytest.fixture(scope="module")
def uth() -> UthTables:
    return uth_tables(progress=False)


def _cards(text: str) -> list[int]:
    return [c.index for c in parse_cards(text)]


def _complete(fixed: Sequence[int], n: int, rng: np.random.Generator) -> list[int]:
    """``fixed`` followed by random other cards up to ``n`` cards."""
    rest = [c for c in range(52) if c not in fixed]
    return [*fixed, *(int(c) for c in rng.permutation(rest)[: n - len(fixed)])]


# --------------------------------------------------------------------------------------------
# The kernels against the round engine


def _play_engine(
    game: Game, order: Sequence[int], wagers: Sequence[str], decide: Callable[..., Action]
) -> tuple[int, list[Action]]:
    """Seat 1 alone, ``wagers`` at one unit each, dealt ``order`` (top first) then the rest of
    the deck; the seat's net in cents and its decisions."""
    stack = [DECK[c] for c in order] + [c for c in DECK if c.index not in order]
    rnd = game.new_round(shoe=StackedShoe(stack), meters=MemoryMeters(), players={1: "p1"})
    for wager in wagers:
        rnd.apply(PlaceWager(seat=1, wager=wager, amount=UNIT))
    rnd.apply(rnd.dealer_no_more_bets())
    actions: list[Action] = []
    while not rnd.is_over:
        rnd.run_dealer()
        actor = rnd.to_act()
        if actor.kind is ActorKind.SEAT and actor.seat is not None:
            action = decide(rnd, actor.seat)
            actions.append(action)
            rnd.apply(action)
    net = sum(r.net for r in rnd.records if isinstance(r, WagerSettled) and r.seat == 1)
    return net, actions


def _fcp_deals(rng: np.random.Generator) -> np.ndarray:
    """Kernel order: player five, dealer's hidden five, the up card."""
    built = [
        _complete(_cards("As Ah Ks Kh 2c") + _cards("Ad Ac Kd Kc 3c"), 11, rng),  # a tie
        _complete(_cards("9s 9h 9d 4c 2c"), 11, rng),  # trips: Ante Bonus
        _complete(_cards("8h 7h 6h 5h Kd"), 11, rng),  # straight flush
        _complete(_cards("Qs Qh Qd Qc 2h"), 11, rng),  # quads
        _complete(_cards("7c 5d 4h 3s 2c") + _cards("Ac Ad Ah As Kc Kd"), 11, rng),  # 5432 < AAAA
    ]
    random = [rng.permutation(52)[:11].tolist() for _ in range(ENGINE_DEALS)]
    return np.array(built + random, dtype=np.int64)


def test_fcp_kernel_settles_as_the_round_engine(fcp: FourCardTables) -> None:
    deals = _fcp_deals(np.random.default_rng(641))
    nets = np.zeros(len(deals), dtype=np.int64)
    actions = np.zeros(len(deals), dtype=np.int64)
    fcp_kernels.fcp_settle_many(deals, (fcp.ev, fcp.kernel_args), nets, actions)
    scale = fcp.scale
    game = get_game("four-card-poker")
    decide = four_card_poker_strategy(game)
    seen = set()
    for deal, net, action in zip(deals.tolist(), nets.tolist(), actions.tolist(), strict=True):
        # manual shoe, one seat: one card each to the seat and the dealer five times, then
        # the dealer's sixth card face up
        order = [c for pair in zip(deal[:5], deal[5:10], strict=True) for c in pair] + [deal[10]]
        cents, taken = _play_engine(game, order, ["ante"], decide)
        assert len(taken) == 1
        multiple = taken[0].multiple if isinstance(taken[0], Play) else 0
        assert (multiple, cents * scale) == (action, net * UNIT), deal
        seen.add((action, net // scale))
    assert {0, 1, 3} <= {a for a, _ in seen}
    assert len(seen) >= 8  # folds, wins, losses, bonuses at 1x and 3x


def _uth_deals(rng: np.random.Generator) -> np.ndarray:
    """Kernel order: player two, dealer two, flop, turn, river."""
    built = [
        _complete(_cards("2c 7d 3h 8s Ts Js Qs Ks As"), 9, rng),  # royal on the board: a tie
        _complete(_cards("Ah Kh 2c 7d Qh Jh 3h 9c 4s"), 9, rng),  # a flush wins: Blind 3 to 2
        _complete(_cards("2c 3d 9s Th 5s 6d Kc 4h Jd"), 9, rng),  # a straight on the river
        _complete(_cards("9c 8d 2h 3s Kc Jd 6h 5s Ts"), 9, rng),  # nobody qualifies
        _complete(_cards("Ac Ad Kc Kd As Ah 2c 2d 7h"), 9, rng),  # quads against a full house
    ]
    random = [rng.permutation(52)[:9].tolist() for _ in range(ENGINE_DEALS)]
    return np.array(built + random, dtype=np.int64)


def test_uth_kernel_settles_as_the_round_engine(uth: UthTables) -> None:
    deals = _uth_deals(np.random.default_rng(653))
    nets = np.zeros(len(deals), dtype=np.int64)
    actions = np.zeros(len(deals), dtype=np.int64)
    uth_kernels.uth_settle_many(deals, (uth.ev, uth.kernel_args), nets, actions)
    scale = uth.kernel_args[3]
    game = get_game("ultimate-texas-holdem")
    decide = uth_strategy(game)
    seen = set()
    for deal, net, action in zip(deals.tolist(), nets.tolist(), actions.tolist(), strict=True):
        # manual shoe, one seat: seat, dealer, seat, dealer; a burn and the flop; a burn,
        # the turn and the river
        spare = [c for c in range(52) if c not in deal][:2]
        order = [deal[0], deal[2], deal[1], deal[3], spare[0], *deal[4:7], spare[1], *deal[7:]]
        cents, taken = _play_engine(game, order, ["ante", "blind"], decide)
        played = [a.multiple for a in taken if isinstance(a, Play)]
        assert (played[0] if played else 0, cents * scale) == (action, net * UNIT), deal
        seen.add((action, net))
    assert {0, 1, 2, 4} <= {a for a, _ in seen}
    nets_seen = {n for _, n in seen}
    assert 0 in nets_seen and -2 * scale in nets_seen
    assert any(n % scale for n in nets_seen)  # a 3 to 2 Blind


# --------------------------------------------------------------------------------------------
# The tables against the solvers


def _fcp_best(bonus: Fraction, beat: int, tie: int, lose: int) -> int:
    """The solver's choice: the largest value, on equal value the smaller wager."""
    values = [Fraction(-1)] + [
        bonus + Fraction((1 + m) * (tie + lose - beat), HIDDEN) for m in (1, 2, 3)
    ]
    return max(range(4), key=lambda a: (values[a], -a))


def _ante_bonus_of(value: int) -> int:
    rank = HandRank.of_value(value, Ranking.FOUR_CARD)
    return base_net(rank, rank, 1, 1).bonus  # § 641a.12(b), per unit Ante


def _ante_bonus(cards: Sequence[int]) -> Fraction:
    rank = evaluate([DECK[c] for c in cards], Ranking.FOUR_CARD)
    return Fraction(base_net(rank, rank, 1, 1).bonus)  # § 641a.12(b), per unit Ante


def test_fcp_table_agrees_with_exact_dealer_counts(fcp: FourCardTables) -> None:
    """Every hand against the 6h (2,349,060, counted by the kernel behind dealer_versus), a
    sample against the Kc, and one situation through dealer_versus against the As."""
    dense = dense_tables(Ranking.FOUR_CARD)
    up = Card.parse("6h").index
    hands = subsets(5, dead=[up])
    out = np.zeros((len(hands), 3), dtype=np.int64)
    versus_counts(up, hands, *dense.args(), dense.size, out)
    strength, le = out[:, 0], out[:, 2]
    pays = [_ante_bonus_of(int(v)) for v in dense.values.tolist()]  # by dense strength
    bonus = np.array(pays, dtype=np.int64)[strength]
    net = le - (HIDDEN - le)  # dealer completions the hand beats or ties, less those above it
    values = np.stack(
        [np.full(len(hands), -HIDDEN)] + [bonus * HIDDEN + (1 + m) * net for m in (1, 2, 3)], 1
    )
    best = values.argmax(axis=1)  # the first of equal values: the smaller wager
    # the table, read independently: swap hearts and clubs, colex rank of the sorted cards
    cards = hands.astype(np.int64)
    suit = cards & 3
    cards = np.sort(np.where(suit == 2, cards - 2, np.where(suit == 0, cards + 2, cards)), axis=1)
    binom = np.array([[comb(c, i + 1) for i in range(5)] for c in range(52)])
    rows = sum(binom[cards[:, i], i] for i in range(5))
    assert np.array_equal(fcp.table[up >> 2, rows], best)
    rng = np.random.default_rng(4)
    up = Card.parse("Kc").index
    others = [c for c in range(52) if c != up]
    sample = np.array([sorted(rng.choice(others, 5, replace=False)) for _ in range(300)])
    out = np.zeros((len(sample), 3), dtype=np.int64)
    versus_counts(up, sample.astype(np.uint8), *dense.args(), dense.size, out)
    for row, (_, below, at_most) in zip(sample.tolist(), out.tolist(), strict=True):
        expected = _fcp_best(_ante_bonus(row), HIDDEN - at_most, at_most - below, below)
        assert fcp.action(row, up) == expected, (row, up)
    text, up_card = "Qd Qs 8c 5h 2d", Card.parse("As")
    versus = dealer_versus(text, up_card)
    best_one = _fcp_best(Fraction(0), versus.beat, versus.tie, versus.lose)
    assert fcp.action(parse_cards(text), up_card) == best_one


def test_fcp_table_covers_every_situation_and_gives_the_exact_action_shares(
    fcp: FourCardTables,
) -> None:
    counts = np.bincount(fcp.table.ravel().astype(np.int64) + 1, minlength=5)
    assert counts[0] == 13 * comb(51, 4)  # the hands that hold the up card
    assert counts[3] == 0  # 2x is never chosen
    assert fcp.expected == FCP_EXACT
    assert fcp.action(parse_cards("Ah Ad Ac As 2d"), Card.parse("Kc")) == 3
    assert fcp.action(parse_cards("Jc 8d 6h 3s 2c"), Card.parse("Ad")) == 0
    with pytest.raises(InvalidInput):
        fcp.action(parse_cards("Ah Ad Ac As 2d"), Card.parse("Ah"))


def test_uth_preflop_table_is_the_published_strategy(uth: UthTables) -> None:
    """4x with any pair of threes or better, any ace, any suited king, K5o+, Q6s+, Q8o+,
    J8s+ and JTo; check the rest (3x is never better)."""

    def published(name: str) -> int:
        hi, lo, kind = name[0], name[1], name[2:]
        order = "23456789TJQKA"
        if hi == lo:
            return 4 if hi != "2" else 0
        low = order.index(lo)
        rules = {"A": (0, 0), "K": (0, 3), "Q": (4, 6), "J": (6, 8)}  # (suited, offsuit) from
        if hi not in rules:
            return 0
        suited, offsuit = rules[hi]
        return 4 if low >= (suited if kind == "s" else offsuit) else 0

    for b in range(52):
        for a in range(b):
            hole = [DECK[a], DECK[b]]
            assert uth.preflop_multiple(hole) == published(starting_hand(hole)), hole
    assert sorted(set(uth.preflop.tolist())) == [0, 4]
    assert uth.expected == UTH_EXACT


def test_uth_flop_table_agrees_with_the_flop_solve(uth: UthTables) -> None:
    rng = np.random.default_rng(12)
    p = settle_tables(BLIND["A"])
    for flop in (
        [Card.parse(c).index for c in ("Kd", "9d", "4h")],
        *(sorted(rng.choice(52, 3, replace=False).tolist()) for _ in range(2)),
    ):
        bets = _run_flop(flop, p)["holding_bet"]
        for b in range(52):
            for a in range(b):
                if a in flop or b in flop:
                    continue
                assert uth.flop_bet([a, b], flop) == (bets[PAIR_INDEX[a, b]] == 1), (a, b, flop)
    values = flop_values("Ah 5h", "Kd 9d 4h")
    assert uth.flop_bet(parse_cards("Ah 5h"), parse_cards("Kd 9d 4h")) == (values.action == "2x")


def test_uth_river_decision_agrees_with_river_counts(uth: UthTables) -> None:
    rng = np.random.default_rng(569)
    scale = 2
    pays = {ln.hand: ln.odds.net for ln in BLIND["A"].lines if ln.odds is not None}
    lines = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight")
    for _ in range(300):
        cards = rng.choice(52, 7, replace=False).tolist()
        hole, board = [DECK[c] for c in cards[:2]], [DECK[c] for c in cards[2:]]
        counts = river_counts(hole, board)
        category = evaluate([*hole, *board], Ranking.POKER5).category.value
        blind = pays[category] if category in lines else Fraction(0)
        wins = counts.win_qualified + counts.win_not_qualified
        losses = counts.lose_qualified + counts.lose_not_qualified
        play = (
            2 * (counts.win_qualified - counts.lose_qualified)
            + counts.win_not_qualified
            - counts.lose_not_qualified
            + blind * wins
            - losses
        )
        assert uth.river_play(hole, board) == (play > -2 * 990), (hole, board)
        assert uth.river_counts(hole, board) == tuple(counts)
    assert scale == uth.kernel_args[3]


# --------------------------------------------------------------------------------------------
# Runs


@pytest.mark.parametrize(("game", "exact"), [("4cp", FCP_EXACT), ("uth", UTH_EXACT)])
def test_a_million_rounds_agree_with_the_exact_value(game: str, exact: Fraction) -> None:
    result = montecarlo.run(game, 10**6, 20250, progress=False)
    assert result.exact == exact
    assert result.rounds == 10**6 == sum(result.actions.values())
    assert result.won + result.pushed + result.lost == result.rounds
    assert abs(result.z) < 4, result.render()
    assert abs(float(result.mean - exact)) < 4 * result.std_error


def test_action_shares_agree_with_the_tables(fcp: FourCardTables, uth: UthTables) -> None:
    """Folds in Four Card Poker and 4x raises in Hold 'Em: simulated against exact shares."""
    n = 400_000
    counts = np.bincount(fcp.table.ravel().astype(np.int64) + 1, minlength=5)
    p_fold = counts[1] / counts[1:].sum()
    weights = np.zeros(169)
    hclass = uth.kernel_args[5]
    np.add.at(weights, hclass, 1)
    p_raise = float(weights[uth.preflop == 4].sum() / 1326)
    for game, action, p in (("four-card-poker", "fold", p_fold), ("uth", "4x", p_raise)):
        result = montecarlo.run(game, n, 7, progress=False)
        share = result.actions[action] / n
        assert abs(share - p) < 4 * (p * (1 - p) / n) ** 0.5, (game, share, p)


def test_runs_are_reproducible_whatever_the_threads() -> None:
    one = montecarlo.run("uth", 300_000, 99, workers=1, block_rounds=50_000, progress=False)
    two = montecarlo.run("uth", 300_000, 99, workers=2, block_rounds=50_000, progress=False)
    injected = montecarlo.run(
        "uth", 300_000, np.random.default_rng(99), block_rounds=50_000, progress=False
    )
    other = montecarlo.run("uth", 300_000, 100, block_rounds=50_000, progress=False)
    assert (one.total, one.total_sq, one.actions) == (two.total, two.total_sq, two.actions)
    assert (injected.total, injected.total_sq) == (one.total, one.total_sq)
    assert other.total != one.total
    assert one.blocks == 6 and one.workers == 1 and two.workers == 2
    data = one.to_json()
    # the exact mean is the exact solve's (derived by enumeration: uth_solver, as in
    # `croupier par ultimate-texas-holdem --json`; its parts are proven in test_solvers.py)
    assert data["rounds"] == 300_000 and data["exact_mean_exact"] == "-50643648973/2317817502000"
    assert "Monte Carlo: ultimate-texas-holdem" in one.render()


def test_block_plan_and_bad_input() -> None:
    plan = montecarlo.block_plan(10, 5, 4)
    assert [n for _, n in plan] == [4, 4, 2]
    assert all(0 <= s < 2**32 for s, _ in plan)
    assert plan == montecarlo.block_plan(10, np.random.default_rng(5), 4)
    bad_runs: list[Callable[[], object]] = [
        lambda: montecarlo.run("baccarat", 10, 1),
        lambda: montecarlo.run("uth", 0, 1),
        lambda: montecarlo.run("uth", 10, 1, blind="C"),
        lambda: montecarlo.run("4cp", 10, 1, blind="B"),
        lambda: montecarlo.run("4cp", 10, "seed"),  # type: ignore[arg-type]
        lambda: montecarlo.run("4cp", 10, 1, block_rounds=0),
        # more rounds than the bound: refused before a plan of blocks is built
        lambda: montecarlo.run("4cp", montecarlo.MAX_ROUNDS + 1, 1),
        lambda: montecarlo.block_plan(10**20, 1),
    ]
    for bad in bad_runs:
        with pytest.raises(InvalidInput):
            bad()


def test_dask_runs_the_same_blocks() -> None:
    distributed: Any = importlib.import_module("dask.distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0"
    ) as cluster:
        result = montecarlo.run(
            "4cp", 200_000, 3, block_rounds=50_000, scheduler=cluster.scheduler_address,
            progress=False,
        )  # fmt: skip
    local = montecarlo.run("4cp", 200_000, 3, block_rounds=50_000, progress=False)
    assert (result.total, result.total_sq) == (local.total, local.total_sq)
    assert result.where.startswith("dask ") and result.workers == 2
