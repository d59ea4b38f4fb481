"""Mississippi Stud 4th and 5th Street as readable rules, checked against the exact solver over
every deal: how often the rule's bet differs from the optimum, and what that costs."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest

from croupier.analysis import strategy_text
from croupier.analysis.mississippi_stud.strategy_rules import (
    MEASURED,
    fifth_street_bet,
    fourth_street_bet,
    measure,
)
from croupier.core.cards import parse_cards
from croupier.games import get_game


def _cards(text: str) -> npt.NDArray[np.int64]:
    return np.array([[c.index for c in parse_cards(text)]], dtype=np.int64)


@pytest.mark.parametrize(
    ("cards", "bet"),
    [
        ("6s 6d 2c 9h", 3),  # § 571.11(h)(2): a pair of sixes already pushes
        ("Js 4s 8s 2s", 3),  # four to a flush
        ("9c Td Jh Qs", 3),  # open at both ends, 4 points
        ("Ac Kd Qh Js", 1),  # four to a straight open at one end only
        ("3c 3d 8h 9s", 1),  # a low pair
        ("Kc 9d 4h 2s", 0),  # 3 points, no 3x bet before
        ("2c 3d 7h 9s", 0),
    ],
)
def test_655a_12_fifth_street_rule_reads_as_written(cards: str, bet: int) -> None:
    assert int(fifth_street_bet(_cards(cards))[0]) == bet


def test_fifth_street_rule_calls_with_3_points_after_a_3x_bet() -> None:
    assert int(fifth_street_bet(_cards("Kc 9d 4h 2s"), raised=True)[0]) == 1


@pytest.mark.parametrize(
    ("cards", "bet"),
    [("Ts Td 2c", 3), ("9h Th Jh", 3), ("2c 2d 7h", 1), ("4s 9s Ks", 1), ("2c 5d 8h", 0)],
)
def test_fourth_street_rule_reads_as_written(cards: str, bet: int) -> None:
    assert int(fourth_street_bet(_cards(cards))[0]) == bet


@pytest.mark.slow
@pytest.mark.parametrize("street", ["4th", "5th"])
def test_readable_rule_against_the_solver_over_every_deal(street: str) -> None:
    found = measure(street)
    assert found == MEASURED[street]
    assert found.deals == 52 * 51 // 2 * 50 * 49
    # the readable rule is within 3% of the optimal decisions and 0.1% of the Ante
    assert found.differ_share < Fraction(3, 100)
    assert found.cost < Fraction(1, 1000)


def test_the_strategy_table_prints_the_rules_with_their_cost() -> None:
    text = strategy_text(get_game("mississippi-stud"))
    assert "5th Street (your two cards and two community cards):" in text
    assert "differs from the optimum in 55,272 of the 2,239,300 deals" in text
