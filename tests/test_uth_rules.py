"""Ultimate Texas Hold 'Em flop and river as readable rules, checked against the exact solver.

The situations are drawn (a seeded generator, injected) from those the optimal strategy
reaches; each is valued here by walking the cards left with a peer's evaluator (eval7) and
the game's settlement in Fractions, its hand feature is read from the cards, and the rule's
decision is looked up in the rule as printed.  So each situation's optimum is checked against
the solver's, and the share of situations where the rule differs and the cost per round are
checked against the solver's figures within the sample's error.
"""

from __future__ import annotations

import importlib
import json
import random
import warnings
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from math import comb, sqrt
from typing import Any

import pytest

from croupier.analysis import strategy_text
from croupier.analysis.strategy_table import MEASURE_ACTION, strategy_table
from croupier.analysis.ultimate_texas_holdem.decisions import UthTables, uth_tables
from croupier.analysis.ultimate_texas_holdem.settle import settle_tables
from croupier.analysis.ultimate_texas_holdem.solver import _run_flop, flop_values
from croupier.analysis.ultimate_texas_holdem.strategy_rules import StreetRule, uth_street_rules
from croupier.core.cards import DECK, parse_cards
from croupier.games import get_game
from croupier.games.ultimate_texas_holdem.paytables import BLIND

with warnings.catch_warnings():
    # eval7's hand-range parser, loaded with it, calls pyparsing names now deprecated; only
    # its evaluator is used here
    warnings.simplefilter("ignore", DeprecationWarning)
    E7: Any = importlib.import_module("eval7")
CARDS = [E7.Card(str(c)) for c in DECK]
"""eval7's cards by croupier card index."""
ROYAL = E7.evaluate([E7.Card(c) for c in ("As", "Ks", "Qs", "Js", "Ts")])
LOWEST_PAIR = E7.evaluate([E7.Card(c) for c in ("2c", "2d", "3h", "4s", "5c")])
CATEGORIES = (
    "high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
    "four of a kind", "straight flush", "royal flush",
)  # fmt: skip
_EVAL7_NAMES = dict(zip(
    ("High Card", "Pair", "Two Pair", "Trips", "Straight", "Flush", "Full House", "Quads",
     "Straight Flush"), CATEGORIES, strict=False,
))  # fmt: skip
BLIND_A = {
    "royal flush": Fraction(500),
    "straight flush": Fraction(50),
    "four of a kind": Fraction(10),
    "full house": Fraction(3),
    "flush": Fraction(3, 2),
    "straight": Fraction(1),
}
"""§ 653a.12(b) Blind table A; a winning hand below a straight pushes the Blind."""
FOLD = Fraction(-2)
"""A fold loses the Ante and the Blind, whatever the dealer holds."""
DEALER = comb(45, 2)
TURN_RIVER = comb(47, 2)
FLOP_SITUATIONS = comb(52, 2) * comb(50, 3)
RIVER_SITUATIONS = FLOP_SITUATIONS * TURN_RIVER


@pytest.fixture(scope="module")
def uth() -> UthTables:
    return uth_tables(BLIND["A"], progress=False)


@pytest.fixture(scope="module")
def rules() -> tuple[StreetRule, StreetRule]:
    return uth_street_rules(get_game("ultimate-texas-holdem"))


def _category(value: int) -> str:
    return "royal flush" if value == ROYAL else _EVAL7_NAMES[E7.handtype(value)]


def _river_walk(hole: Sequence[int], board: Sequence[int]) -> tuple[tuple[int, ...], Fraction]:
    """(Wq, Wn, T, Lq, Ln) over the 990 dealer holdings of the cards left, and the mean net
    of playing 1x (Ante, Blind and Play, units of the Ante)."""
    seen = {*hole, *board}
    b = [CARDS[c] for c in board]
    mine = E7.evaluate([CARDS[c] for c in hole] + b)
    rest = [CARDS[c] for c in range(52) if c not in seen]
    theirs = [E7.evaluate([*b, i, j]) for i, j in combinations(rest, 2)]
    # § 569.11(g): the dealer qualifies with a pair or better
    wq = sum(1 for v in theirs if LOWEST_PAIR <= v < mine)
    wn = sum(1 for v in theirs if v < mine and v < LOWEST_PAIR)
    tie = theirs.count(mine)
    ln = sum(1 for v in theirs if mine < v < LOWEST_PAIR)
    lq = len(theirs) - wq - wn - tie - ln
    blind = BLIND_A.get(_category(mine), Fraction(0))
    total = wq * (2 + blind) + wn * (1 + blind) - 3 * lq - 2 * ln
    return (wq, wn, tie, lq, ln), Fraction(total, DEALER)


def _river_feature(hole: Sequence[int], board: Sequence[int]) -> str:
    b = [CARDS[c] for c in board]
    mine = E7.evaluate([CARDS[c] for c in hole] + b)
    beats = mine > E7.evaluate(b)
    return _category(mine) + (", hole cards beat the board" if beats else ", board plays")


def _flop_feature(hole: Sequence[int], flop: Sequence[int]) -> str:
    five = [*hole, *flop]
    cat = _category(E7.evaluate([CARDS[c] for c in five]))
    ranks = sorted(c >> 2 for c in flop)
    alone = (
        "three of a kind" if ranks[0] == ranks[2]
        else "pair" if ranks[0] == ranks[1] or ranks[1] == ranks[2]
        else "high card"
    )  # fmt: skip
    text = cat
    if cat in ("pair", "three of a kind"):
        hidden = CATEGORIES.index(cat) > CATEGORIES.index(alone)
        text += ", using a hole card" if hidden else ", on the flop alone"
    if max(sum(1 for c in five if c & 3 == s) for s in range(4)) >= 4:
        text += ", four to a flush"
    return text


def _flop_walk(hole: Sequence[int], flop: Sequence[int]) -> tuple[Fraction, Fraction]:
    """The mean nets of betting 2x and of checking (then the better of 1x and a fold), over
    every turn and river and every dealer holding."""
    bet = check = Fraction(0)
    rest = [c for c in range(52) if c not in {*hole, *flop}]
    for turn, river in combinations(rest, 2):
        (wq, wn, _, lq, ln), play = _river_walk(hole, [*flop, turn, river])
        board = [CARDS[c] for c in (*flop, turn, river)]
        mine = E7.evaluate([CARDS[c] for c in hole] + board)
        blind = BLIND_A.get(_category(mine), Fraction(0))
        bet += Fraction(wq * (3 + blind) + wn * (2 + blind) - 4 * lq - 3 * ln, DEALER)
        check += max(play, FOLD)
    return bet / TURN_RIVER, check / TURN_RIVER


def _within(found: float, expected: float, error: float) -> bool:
    return abs(found - expected) <= 4 * error


def _check_sample(
    rule: StreetRule, situations: int, differ: Sequence[float], loss: Sequence[float]
) -> None:
    """The sample's share of differing decisions and its mean loss per situation reached
    against the rule's figures: within 4 standard errors, each error small enough that a figure
    off by a half would show."""
    n = len(differ)
    share = float(rule.differ_share)
    mean_loss = float(rule.cost) * situations / rule.reached
    share_error = sqrt(share * (1 - share) / n)
    found = sum(loss) / n
    loss_error = sqrt(sum((x - found) ** 2 for x in loss) / (n - 1) / n)
    assert _within(sum(differ) / n, share, share_error), (sum(differ) / n, share, share_error)
    assert _within(found, mean_loss, loss_error), (found, mean_loss, loss_error)
    assert 4 * share_error < share / 2 and 4 * loss_error < mean_loss / 2


def test_569_11_e_river_optimum_and_rule_against_a_walk_over_the_dealer_holdings(
    uth: UthTables, rules: tuple[StreetRule, StreetRule]
) -> None:
    rng = random.Random(56911)
    river = rules[1]
    differ: list[float] = []
    loss: list[float] = []
    while len(differ) < 700:
        cards = rng.sample(range(52), 7)
        hole, flop, board = cards[:2], cards[2:5], cards[2:]
        if uth.preflop_multiple(hole) or uth.flop_bet(hole, flop):
            continue  # not reached: the optimum bet before the river
        counts, play = _river_walk(hole, board)
        assert counts == uth.river_counts(hole, board), (hole, board)
        optimum = play > FOLD  # on equal value the smaller wager: the fold
        assert uth.river_play(hole, board) == optimum, (hole, board)
        plays = river.action(_river_feature(hole, board)) == "play 1x"
        differ.append(1.0 if plays != optimum else 0.0)
        loss.append(float(abs(play - FOLD)) if plays != optimum else 0.0)
    _check_sample(river, RIVER_SITUATIONS, differ, loss)


def test_569_11_flop_rule_against_the_solved_values_of_sampled_flops(
    uth: UthTables, rules: tuple[StreetRule, StreetRule]
) -> None:
    # every holding the optimum checks with before the flop, on flops drawn at random: the
    # flops are the sample's units (its holdings share their flop), each flop solved afresh
    rng = random.Random(5691)
    flop_rule = rules[0]
    p = settle_tables(BLIND["A"])
    per = TURN_RIVER * DEALER * p.scale
    units: list[tuple[int, int, Fraction]] = []
    for _ in range(100):
        flop = sorted(rng.sample(range(52), 3))
        out = _run_flop(flop, p)
        lin, checked = out["holding_lin"], out["holding_checked"]
        n = differ = 0
        lost = Fraction(0)
        for hole in combinations([c for c in range(52) if c not in flop], 2):
            if uth.preflop_multiple(hole):
                continue
            h = hole[0] + hole[1] * (hole[1] - 1) // 2
            gain = int(lin[h, 0]) + 2 * int(lin[h, 1]) + int(lin[h, 2]) - int(checked[h])
            optimum = gain > 0
            assert uth.flop_bet(hole, flop) == optimum, (hole, flop)
            bets = flop_rule.action(_flop_feature(hole, flop)) == "bet 2x"
            n += 1
            if bets != optimum:
                differ += 1
                lost += Fraction(abs(gain), per)
        units.append((n, differ, lost))
    _check_clusters(flop_rule, units)


def _check_clusters(rule: StreetRule, units: Sequence[tuple[int, int, Fraction]]) -> None:
    """As :func:`_check_sample` for a sample of clusters (ratio estimates, their errors from
    the spread between clusters)."""
    m = len(units)
    size = sum(u[0] for u in units) / m
    share = float(rule.differ_share)
    mean_loss = float(rule.cost) * FLOP_SITUATIONS / rule.reached
    found_share = sum(u[1] for u in units) / (m * size)
    found_loss = float(sum(u[2] for u in units)) / (m * size)
    share_error = sqrt(sum((u[1] - found_share * u[0]) ** 2 for u in units) / (m - 1) / m) / size
    loss_error = sqrt(
        sum((float(u[2]) - found_loss * u[0]) ** 2 for u in units) / (m - 1) / m
    ) / size  # fmt: skip
    assert _within(found_share, share, share_error), (found_share, share, share_error)
    assert _within(found_loss, mean_loss, loss_error), (found_loss, mean_loss, loss_error)
    assert 4 * share_error < share / 2 and 4 * loss_error < mean_loss / 2


@pytest.mark.parametrize(
    ("hole", "flop"),
    [
        ("Ah 5h", "Kh 9h 4d"),  # high card, four to a flush: the optimum bets in 35%
        ("Qc 7d", "Qs 8h 3c"),  # a pair using a hole card
    ],
)
def test_569_11_flop_values_equal_a_walk_over_every_turn_river_and_dealer_holding(
    uth: UthTables, hole: str, flop: str
) -> None:
    h = [c.index for c in parse_cards(hole)]
    f = [c.index for c in parse_cards(flop)]
    bet, check = _flop_walk(h, f)
    values = flop_values(hole, flop, BLIND["A"])
    assert (values.bet, values.check) == (bet, check)
    assert uth.flop_bet(h, f) == (bet > check)


def test_uth_rule_cost_is_the_sum_of_its_feature_parts(
    rules: tuple[StreetRule, StreetRule],
) -> None:
    game = get_game("ultimate-texas-holdem")
    table = strategy_table(game)
    data = table.to_json()
    for rule in rules:
        rows = [r for r in table.rows if r.decision == rule.street]
        measure, features = rows[0], rows[1:]
        assert measure.action == MEASURE_ACTION and measure.cost == rule.cost
        assert measure.cost == sum((r.cost or Fraction(0) for r in features), Fraction(0))
        assert [r.situation for r in features] == [f.feature for f in rule.features]
        assert all(f.cost >= 0 and f.differ <= f.situations - f.differ for f in rule.features)
        assert f"costing {float(rule.cost):.5%} of the Ante per round" in measure.situation
        row = next(d for d in data if d["decision"] == rule.street)
        assert Fraction(row["cost_exact"]) == rule.cost
    assert "(its cost is not measured)" not in json.dumps(data)
    # the figures (Blind table A): the flop rule gives up about 0.2% of the Ante a round, the
    # river rule about 4% (its features leave out how many dealer hands beat the player's)
    assert (rules[0].differ, rules[0].reached) == (530_552, 16_189_600)
    assert rules[0].cost == Fraction(2303660783, 1158908751000)
    assert (rules[1].differ, rules[1].reached) == (2_850_839_256, 11_521_094_772)
    assert rules[1].cost == Fraction(2954189687, 73972899000)
    text = strategy_text(game)
    for rule in rules:
        assert f"  {rule.street} rule: {rule.render()}" in text
