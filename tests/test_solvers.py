"""The Four Card Poker and Ultimate Texas Hold 'Em solvers against plain enumeration.

The truth is :func:`croupier.hands.evaluate`.  Where a plain walk with it is short enough (the
990 dealer holdings of a Hold 'Em river; the 1,128 or 47 completions behind a table row of the
Four Card Poker kernel) it is called on every hand; the 1,370,754 hidden dealer completions of a
Four Card Poker situation are walked with :func:`croupier.kernels.rank_batch` (itself proven equal
to ``evaluate`` in ``test_kernels``), a sample of them through ``evaluate`` as well.  The
Hold 'Em flop values are rebuilt from per-board counts, on flops with and without suit symmetry.
Full solves take too long here: they are partial (one up-card rank, a few flops), checked for
their totals, their decisions and the checkpoint resume; ``benchmarks/bench_solvers.py`` runs
the full solves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from croupier.analysis.block_solver import block_store, dense_tables
from croupier.analysis.four_card_poker import kernels
from croupier.analysis.four_card_poker import solver as fcp_solver
from croupier.analysis.four_card_poker.solver import (
    ACTIONS,
    HIDDEN_COMPLETIONS,
    dealer_versus,
    describe_four_card,
    solve_four_card_poker,
)
from croupier.analysis.shipped import differences, load_block
from croupier.analysis.ultimate_texas_holdem import solver as uth_solver
from croupier.analysis.ultimate_texas_holdem.kernels import PAIR_INDEX, board_counts, solve_flop
from croupier.analysis.ultimate_texas_holdem.settle import (
    NCLASS,
    NRESULT,
    TIE,
    dealer_for,
    settle_tables,
)
from croupier.analysis.ultimate_texas_holdem.solver import (
    RiverCounts,
    flop_values,
    river_counts,
    solve_ultimate_texas_holdem,
    starting_hand,
)
from croupier.core.cards import DECK, Card, parse_cards
from croupier.core.errors import InvalidInput
from croupier.games.four_card_poker import ANTE_BONUS, base_net
from croupier.games.paytables import PayLine, PayTable, to
from croupier.games.ultimate_texas_holdem import (
    blind_line,
    dealer_qualifies,
    hand_category,
    settle_base,
)
from croupier.games.ultimate_texas_holdem.paytables import BLIND, BLIND_HANDS
from croupier.hands import HandRank, Ranking, evaluate
from croupier.kernels import canonical_hands, rank_batch, subsets

P4 = Ranking.FOUR_CARD
P5 = Ranking.POKER5
PAIR_MIN = 1 << 20  # the lowest poker5 pair value: category index 1
I64 = npt.NDArray[np.int64]


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Checkpoints go to a fresh folder (the kernel tables are rebuilt there when absent)."""
    monkeypatch.setenv("CROUPIER_CACHE", str(tmp_path / "cache"))


def _idx(cards: Sequence[Card]) -> list[int]:
    return [c.index for c in cards]


# --------------------------------------------------------------------------------------------
# Four Card Poker


FCP_SITUATIONS = [
    ("Ah Ad Ac 7s 2d", "Kc"),  # three aces
    ("9h 9d 5c 5s Jd", "9c"),  # two pair, the up card removes a nine
    ("Kh Qh Jh Th 2c", "Ah"),  # straight flush against a suited up card
    ("7c 5d 4h 3s 2c", "8d"),  # seven high, a weak hand
]


@pytest.mark.parametrize(("player", "up"), FCP_SITUATIONS)
def test_fcp_counts_equal_every_completion(player: str, up: str) -> None:
    hand = parse_cards(player)
    up_card = Card.parse(up)
    dead = [*_idx(hand), up_card.index]
    hidden = subsets(5, dead=dead)
    assert hidden.shape[0] == HIDDEN_COMPLETIONS
    dealer = np.concatenate([hidden, np.full((hidden.shape[0], 1), up_card.index, np.uint8)], 1)
    values = rank_batch(P4, dealer)
    mine = evaluate(hand, P4).value
    got = dealer_versus(player, up)
    assert got.beat == int(np.count_nonzero(values > mine))
    assert got.tie == int(np.count_nonzero(values == mine))
    assert got.lose == int(np.count_nonzero(values < mine))
    # the walk's ranker agrees with evaluate on a sample of the same completions
    rng = np.random.default_rng(641)
    for row in rng.choice(hidden.shape[0], size=40, replace=False).tolist():
        cards = [DECK[c] for c in dealer[row].tolist()]
        assert evaluate(cards, P4).value == int(values[row])


def test_fcp_table_rows_equal_scalar_walks() -> None:
    """Rows of the per-up-card tables: the completions of the up card with three and with four
    other cards, ranked one by one with evaluate."""
    dense = dense_tables(P4)
    up = Card.parse("Jd").index
    others, _, _, _, cum4, list5 = kernels.build_up_tables(up, *dense.args(), dense.size)
    assert list(others) == [c for c in range(52) if c != up]
    rnd = random.Random(4)
    for _ in range(2):
        a, b, c = sorted(rnd.sample(range(51), 3))
        fixed = [int(others[p]) for p in (a, b, c)]
        rest = [x for x in range(52) if x not in (*fixed, up)]
        strengths = sorted(
            dense.strength(evaluate([DECK[x] for x in (up, *fixed, *pair)], P4).value)
            for pair in combinations(rest, 2)
        )
        row = cum4[a + b * (b - 1) // 2 + comb(c, 3)]
        for s in [*rnd.sample(range(dense.size), 60), 0, dense.size - 1]:
            assert int(row[s]) == sum(1 for v in strengths if v < s)
    a, b, c, d = 3, 17, 30, 49
    fixed = [int(others[p]) for p in (a, b, c, d)]
    rest = [x for x in range(52) if x not in (*fixed, up)]
    expected = sorted(
        dense.strength(evaluate([DECK[x] for x in (up, *fixed, z)], P4).value) for z in rest
    )
    row5 = list5[a + comb(b, 2) + comb(c, 3) + comb(d, 4)]
    assert row5.tolist() == expected


def test_fcp_partial_solve_and_resume(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CROUPIER_SHIPPED", "0")  # solved here, not read from the package
    solution = solve_four_card_poker(up_ranks=[14], checkpoint=True, progress=False)
    sheet = solution.sheet
    assert sheet.total == 4 * comb(51, 5) * HIDDEN_COMPLETIONS
    assert not any(o.name.startswith("2x") for o in sheet.outcomes)
    assert {"fold", "3x win", "3x win, quads bonus", "1x lose"} <= {o.name for o in sheet.outcomes}
    strategy = solution.strategy
    assert int(strategy.counts.sum()) == 4 * comb(51, 5)
    assert int(strategy.counts[:12].sum()) == 0
    assert int(strategy.counts[12, :, 2].sum()) == 0  # 2x is never strictly better

    # the decisions agree with the counted completions, situation by situation
    for player in ("Ah Ad Ac 7s 2d", "7c 5d 4h 3s 2c", "Qs Qh 8d 5c 3c", "Kd Js 9h 4c 2s"):
        versus = dealer_versus(player, "As")
        value = evaluate(player, P4)
        bonus = Fraction(base_net(value, value, 1, 1).bonus)  # § 641a.12(b), per unit Ante
        net = versus.lose + versus.tie - versus.beat
        evs = [Fraction(-1)] + [
            bonus + Fraction((1 + m) * net, HIDDEN_COMPLETIONS) for m in (1, 2, 3)
        ]
        best = max(range(4), key=lambda a: (evs[a], -a))
        share = strategy.action_share(14, value.value)
        if len(share) == 1:
            assert share == {ACTIONS[best]: Fraction(1)}
        else:
            assert ACTIONS[best] in share
    assert strategy.action_share(14, evaluate("Kh Kd Kc Ks 2d", P4).value) == {"3x": 1}
    assert strategy.rules[0].render().startswith("up A: 3x with")
    assert describe_four_card(evaluate("9h 9d Kc 5s 2d", P4).value) == "pair of 9s, K-5"

    # a second run reads the checkpoint instead of solving again
    def refuse(*args: object) -> None:
        raise AssertionError("the finished block was solved again")

    monkeypatch.setattr(fcp_solver, "solve_up_rank", refuse)
    again = solve_four_card_poker(up_ranks=[14], checkpoint=True, progress=False)
    assert again.sheet.outcomes == sheet.outcomes

    # the checkpoint holds every decision too (the decision tables read the same solve)
    _, table = fcp_solver._solve(ANTE_BONUS, None, False, True, [14], None)
    assert int((table[:12] != -1).sum()) == 0
    assert int((table[12] == -1).sum()) == comb(51, 4)  # the hands that hold the up card
    for player in ("Ah Ad Ac 7s 2d", "7c 5d 4h 3s 2c", "Kd Js 9h 4c 2s"):
        cards = sorted(c.index for c in parse_cards(player))
        row = sum(comb(c, i) for i, c in enumerate(cards, 1))
        share = strategy.action_share(14, evaluate(player, P4).value)
        assert ACTIONS[int(table[12, row])] in share

    # the block solved here is the one the package ships, byte for byte (tests/test_solved.py)
    spec = fcp_solver.solve_spec()
    cached = block_store(spec.solver, spec.version, spec.params, enabled=True).load(14)
    assert cached is not None
    assert differences(cached, load_block(spec.shipped, 14)) == []


def test_641a_11_c_12_b_solver_tables_are_the_games_base_net() -> None:
    """Every entry the solver's kernel reads is the game's own settlement: for every four-card
    strength, decision and dealer hand just below, equal to and just above it."""
    tabs = fcp_solver.ante_play_tables()
    assert tabs.table is ANTE_BONUS
    dense = dense_tables(P4)
    ranks = [HandRank.of_value(int(v), P4) for v in dense.values.tolist()]
    checked = 0
    for s, player in enumerate(ranks):
        for r, d in enumerate((s - 1, s, s + 1)):  # the dealer below, equal, above
            if not 0 <= d < dense.size:
                continue
            for a in range(len(ACTIONS)):
                net = base_net(player, ranks[d], tabs.scale, a * tabs.scale)
                assert tabs.net(a, s, r) == net.total, (s, r, a)
                checked += 1
        played = base_net(player, player, tabs.scale, tabs.scale)
        assert fcp_solver._BONUS_CLASSES[tabs.bclass[s]] == played.bonus_line, s
    assert checked == (3 * dense.size - 2) * len(ACTIONS)
    # § 641a.11(b): a fold loses the Ante whatever the cards (the Monte Carlo kernel relies on it)
    folds = {tabs.net(0, s, r) for s in range(dense.size) for r in range(3)}
    assert folds == {-tabs.scale}


def test_fcp_rejects_bad_input() -> None:
    with pytest.raises(InvalidInput):
        dealer_versus("Ah Ad Ac 7s", "Kc")
    with pytest.raises(InvalidInput):
        dealer_versus("Ah Ad Ac 7s 2d", "Ah")
    with pytest.raises(InvalidInput):
        solve_four_card_poker(up_ranks=[15])
    with pytest.raises(InvalidInput):
        pair_bonus = (PayLine(hand="pair", odds=to(1)),)
        table = PayTable(wager="ante_bonus", letter="x", section="-", lines=pair_bonus)
        solve_four_card_poker(table, up_ranks=[2])


# --------------------------------------------------------------------------------------------
# Ultimate Texas Hold 'Em


def _plain_river(hole: Sequence[Card], board: Sequence[Card]) -> RiverCounts:
    """Every dealer holding ranked with evaluate."""
    mine = evaluate([*hole, *board], P5).value
    seen = {c.index for c in (*hole, *board)}
    rest = [c for c in DECK if c.index not in seen]
    wq = wn = tie = lq = ln = 0
    for pair in combinations(rest, 2):
        dealer = evaluate([*pair, *board], P5).value
        qualified = dealer >= PAIR_MIN
        if dealer < mine:
            wq, wn = (wq + 1, wn) if qualified else (wq, wn + 1)
        elif dealer == mine:
            tie += 1
        else:
            lq, ln = (lq + 1, ln) if qualified else (lq, ln + 1)
    return RiverCounts(wq, wn, tie, lq, ln)


@pytest.mark.parametrize(
    ("hole", "board"),
    [
        ("As Kd", "Qh 9c 7d 4s 2h"),  # ace high: most dealers do not qualify
        ("5c 3d", "Kh Qs 9d 8c 2s"),  # a hand that loses to almost everything
        ("Th 9h", "8h 7h 6c Kd Ks"),  # straight flush draw made: a straight flush
        ("Ac Ad", "Ah As 7c 7d 2s"),  # four aces on a paired board
    ],
)
def test_uth_river_counts_equal_every_dealer_holding(hole: str, board: str) -> None:
    got = river_counts(hole, board)
    assert sum(got) == 990
    assert got == _plain_river(parse_cards(hole), parse_cards(board))


def test_uth_board_counts_cover_every_holding() -> None:
    """One board, every one of the 1,081 holdings, against a vectorised walk."""
    board = parse_cards("Jc Td 4h 4s 2c")
    dense = dense_tables(P5)
    q0 = int(np.searchsorted(dense.values, PAIR_MIN))
    out = np.zeros((1326, 6), dtype=np.int64)
    board_counts(np.array(_idx(board), np.int64), *dense.args(), q0, out)
    holdings = subsets(2, dead=_idx(board))
    values = rank_batch(P5, np.concatenate([holdings, np.tile(_idx(board), (1081, 1))], 1))
    strengths = np.searchsorted(dense.values, values)
    masks = (np.uint64(1) << holdings[:, 0].astype(np.uint64)) | (
        np.uint64(1) << holdings[:, 1].astype(np.uint64)
    )
    for i in range(1081):
        live = (masks & masks[i]) == 0
        other = values[live]
        mine = values[i]
        qual = other >= PAIR_MIN
        row = out[PAIR_INDEX[holdings[i, 0], holdings[i, 1]]]
        assert int(row[0]) == int(strengths[i])
        assert row[1:].tolist() == [
            int(np.count_nonzero((other < mine) & qual)),
            int(np.count_nonzero((other < mine) & ~qual)),
            int(np.count_nonzero(other == mine)),
            int(np.count_nonzero((other > mine) & qual)),
            int(np.count_nonzero((other > mine) & ~qual)),
        ]


def _plain_flop(
    hole: Sequence[Card], flop: Sequence[Card], blind: dict[str, Fraction]
) -> tuple[Fraction, Fraction]:
    """The 2x and check values after the flop, walking every turn and river."""
    seen = {c.index for c in (*hole, *flop)}
    rest = [c for c in DECK if c.index not in seen]
    bet = check = Fraction(0)
    for turn, river in combinations(rest, 2):
        board = [*flop, turn, river]
        wq, wn, _, lq, ln = river_counts(hole, board)
        category = evaluate([*hole, *board], P5).category.value
        pay = blind.get(category, Fraction(0))
        w, loss = wq + wn, lq + ln
        # Ante (if the dealer qualifies), Play m times, Blind: summed over the dealer holdings
        values = [(wq - lq) + m * (w - loss) + pay * w - loss for m in (1, 2)]
        bet += values[1]
        check += max(values[0], Fraction(-2 * 990))
    total = comb(47, 2) * 990
    return bet / total, check / total


@pytest.mark.parametrize(
    ("hole", "flop"),
    [
        ("Ah 7d", "Kc 9h 2s"),  # no symmetry left by the flop
        ("8s 6s", "Kc 9c 2c"),  # a monotone flop: three suits may be renamed
        ("Qd Jh", "5c 5d 3h"),  # a paired flop
    ],
)
def test_uth_flop_values_equal_the_turn_and_river_walk(hole: str, flop: str) -> None:
    got = flop_values(hole, flop)
    pays = {ln.hand: ln.odds.net for ln in BLIND["A"].lines if ln.odds is not None}
    want = _plain_flop(parse_cards(hole), parse_cards(flop), pays)
    assert (got.bet, got.check) == want
    assert got.action == ("2x" if want[0] > want[1] else "check")


def _walk_flop(flop: Sequence[int], blind: PayTable) -> tuple[I64, I64, I64]:
    """Per holding (pair index), over the 1,176 turn-and-river boards, each board counted a
    holding at a time (:func:`board_counts`): the Ante, Play-per-1x and Blind sums, the value of
    checking (the river playing or folding) and the result types (as the solver numbers them)."""
    p = settle_tables(blind)
    args = dense_tables(P5).args()
    live = [c for c in range(52) if c not in flop]
    lin = np.zeros((1326, 3), np.int64)
    checked = np.zeros(1326, np.int64)
    types = np.zeros((1326, 17), np.int64)
    pairs = np.array([(a, b) for b in range(52) for a in range(b)], np.int64)
    t1 = p.type_net.sum(axis=1)
    rows = np.arange(1326)
    for t, r in combinations(live, 2):
        board = [*flop, t, r]
        out = np.zeros((1326, 6), np.int64)
        board_counts(np.array(board, np.int64), *args, p.q0, out)
        seen = np.isin(pairs, board).any(axis=1)
        line = p.bclass[out[:, 0]]
        counts = np.zeros((1326, 17), np.int64)
        counts[rows, line] = out[:, 1]
        counts[rows, 7 + line] = out[:, 2]
        counts[:, 14:17] = out[:, 3:6]
        counts[seen] = 0
        types += counts
        lin += counts @ p.type_net[:, [0, 2, 1]]
        checked += np.where(seen, 0, np.maximum(counts @ t1, p.fold * 990))
    return lin, checked, types


@pytest.mark.parametrize(
    "flop",
    ["Kh 9h 4d", "Kc 9h 2s", "8c 6c 2c", "5c 5d 3h", "7s 7h 7d"],  # two suits, three, one,
)  # paired, trips: boards that flush in one suit, in another, or in none
def test_uth_flop_classes_credit_every_holding_as_a_walk_over_its_boards(flop: str) -> None:
    """The flop solver counts boards and holdings by class (a board class's holding classes
    swept once, the holdings that touch its boards taking back their share): every holding's
    sums, check value and flop decision, and the result types of every starting-hand class,
    equal those of every board walked a holding at a time."""
    cards = _idx(parse_cards(flop))
    blind = BLIND["A"]
    got = uth_solver._run_flop(cards, settle_tables(blind))
    lin, checked, types = _walk_flop(cards, blind)
    assert np.array_equal(got["holding_lin"], lin)
    assert np.array_equal(got["holding_checked"], checked)
    live = got["holding_bet"] >= 0
    bets = lin[:, 0] + 2 * lin[:, 1] + lin[:, 2] > checked
    assert np.array_equal(got["holding_bet"][live] == 1, bets[live])
    assert np.count_nonzero(live) == comb(49, 2)
    per_class = np.zeros((169, 17), np.int64)
    np.add.at(per_class, uth_solver.holding_classes()[0], types)
    assert np.array_equal(got["t_raise"], per_class)


def test_uth_partial_solve() -> None:
    solution = solve_ultimate_texas_holdem(flops=2, checkpoint=False, progress=False)
    sheet = solution.sheet
    # each holding that avoids a flop meets 1,081 turn-and-river pairs and 990 dealer holdings
    _, weights = canonical_hands(3)
    assert sheet.total == int(weights[:2].sum()) * 1176 * 1081 * 990
    assert len(solution.strategy.preflop) == 169
    names = {o.name for o in sheet.outcomes}
    assert any(n.startswith("4x win") for n in names)
    assert "fold" in names or any(n.startswith("1x") for n in names)


def test_uth_resumes_from_its_checkpoints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(uth_solver, "FLOPS_PER_BLOCK", 1)
    first = solve_ultimate_texas_holdem(BLIND["B"], flops=2, checkpoint=True, progress=False)

    def refuse(*args: object) -> int:
        raise AssertionError("a finished block was solved again")

    monkeypatch.setattr(uth_solver, "solve_flop", refuse)
    again = solve_ultimate_texas_holdem(BLIND["B"], flops=2, checkpoint=True, progress=False)
    assert again.sheet.outcomes == first.sheet.outcomes
    assert again.strategy == first.strategy
    with pytest.raises(AssertionError, match="solved again"):  # other parameters: other blocks
        solve_ultimate_texas_holdem(BLIND["A"], flops=2, checkpoint=True, progress=False)
    # the checkpoints hold the flop decisions too (the decision tables read the same solve)
    reps, _ = canonical_hands(3)
    _, bets = uth_solver._solve(BLIND["B"], None, False, True, 2, None)
    monkeypatch.setattr(uth_solver, "solve_flop", solve_flop)
    for k in range(2):
        flop = [DECK[int(c)] for c in reps[k]]
        for hole in ("As Ks", "7h 2d"):
            cards = parse_cards(hole)
            if {c.index for c in cards} & set(reps[k].tolist()):
                continue
            values = flop_values(hole, flop, BLIND["B"])
            at = PAIR_INDEX[cards[0].index, cards[1].index]
            assert int(bets[k, at]) == (1 if values.bet > values.check else 0)


def test_uth_starting_hands_and_bad_input() -> None:
    assert starting_hand("Ah Kh") == "AKs"
    assert starting_hand("Kd As") == "AKo"
    assert starting_hand("7c 7h") == "77"
    with pytest.raises(InvalidInput):
        starting_hand("Ah Ah")
    with pytest.raises(InvalidInput):
        river_counts("Ah Kh", "Qh Jh Th 9h")
    pair = PayTable(wager="blind", letter="X", section="§ 653a.12(b)",
                    lines=(PayLine(hand="pair", odds=to(1)),))  # fmt: skip
    with pytest.raises(InvalidInput, match="pays pair"):
        solve_ultimate_texas_holdem(pair, flops=1)
    # the player's two cards, the dealer's two, the five-card board: C(52,2) C(50,2) C(48,5)
    assert uth_solver.DEALS == comb(52, 2) * comb(50, 2) * comb(48, 5) == 2_781_381_002_400


@pytest.mark.parametrize("letter", sorted(BLIND))
def test_569_11_uth_settle_tables_equal_the_games_functions_on_every_key(letter: str) -> None:
    """Every array the solver and kernels read is the game's settlement: for every dense
    strength (7,462 hand keys), the dealer's qualification (§ 569.11(g)), the category, the
    Blind line (§ 653a.12(b)), and the net of folding and of playing 1x-4x against a dealer
    key of each result (§ 569.11(e)-(h))."""
    table = BLIND[letter]
    tabs = settle_tables(table)
    values = [int(v) for v in tabs.values]
    top = len(values) - 1
    categories = Ranking.POKER5.categories
    for s, key in enumerate(values):
        category = hand_category(key)
        assert (s >= tabs.q0) == dealer_qualifies(key)
        assert categories[int(tabs.category[s])] is category
        line = int(tabs.bclass[s])
        hands = (*BLIND_HANDS, None)
        assert hands[line] == (category.value if category.value in BLIND_HANDS else None)
        paid = blind_line(key, table)
        assert Fraction(int(tabs.blind[line]), tabs.scale) == (
            paid.odds.net if paid and paid.odds else 0
        )
        assert tabs.nets(TIE, line, 0) == settle_base(key, key, 0, table).net
        for result in range(NRESULT):
            dealer = dealer_for(s, result, tabs.q0, top)
            if dealer is None:
                continue
            for multiple in (1, 2, 3, 4):
                want = settle_base(key, values[dealer], multiple, table).net
                assert tabs.nets(result, line, multiple) == want, (key, result, multiple)
    assert tabs.net.shape == (NRESULT, NCLASS, 3)
