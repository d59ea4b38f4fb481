"""Ultimate Texas Hold 'Em's progressive and Envy Bonus on the player's two cards and the flop.

§ 569.12(f)(1) pays "the highest ranking hand formed" without saying from which cards; croupier
settles the Progressive Payout Hand and the Envy Bonus Qualifying Hand on the player's two cards
and the three-card flop (issue 35, defect 4; the sources are cited in
:mod:`croupier.games.ultimate_texas_holdem`).  The Trips wager stays on the best five of seven
(§ 569.11(h)(4)).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import pytest

from croupier.analysis import par_sheet
from croupier.games import get_game
from croupier.rules.compliance import load_notes
from croupier.table.scenario import run_scenario

SLUG = "ultimate-texas-holdem"
RESET = 1_000_000
RULES: dict[str, Any] = {
    "paytables": {"trips": "A"},
    "progressive": {
        "paytable": "A",
        "envy": "A",
        "wager": 100,
        "reset": RESET,
        "rate": "0.25",
        "meter": "uth",
    },
}


def hand(hole: str, board: str, *, dealer: str = "4s 4d") -> dict[str, Any]:
    """Seat 1 plays 4x with Ante, Blind, Trips and the $1 progressive; the meter at its reset."""
    result = run_scenario(
        {
            "game": SLUG,
            "rules": RULES,
            "meters": {"uth": RESET},
            "seats": {
                "1": {
                    "wagers": {"ante": 500, "blind": 500, "trips": 500, "progressive": 100},
                    "decisions": ["play 4"],
                    "hand": hole.split(),
                }
            },
            "dealer": dealer.split(),
            "community": board.split(),
        }
    )
    seat: dict[str, Any] = result["seats"]["1"]
    return seat


def test_569_12_f_1_royal_flush_with_the_turn_and_river_does_not_pay_the_progressive() -> None:
    seat = hand("Ah Kh", "Qh 2c 3d Jh Th")
    # the best five of seven is a royal flush: Trips pays it (§ 569.11(h)(4)) ...
    assert (seat["wagers"]["trips"]["result"], seat["wagers"]["trips"]["line"]) == (
        "win",
        "royal_flush",
    )
    # ... the two cards and the flop are ace high: the progressive loses
    progressive = seat["wagers"]["progressive"]
    assert (progressive["result"], progressive["paid"], progressive["line"]) == (
        "lose",
        0,
        "high_card",
    )
    assert "progressive" not in seat  # no award record


def test_569_12_f_1_royal_flush_on_the_two_cards_and_the_flop_pays_the_meter() -> None:
    seat = hand("Ah Kh", "Qh Jh Th 2c 3d")
    meter = RESET + 25  # the 25% contribution of the $1 wager
    assert seat["progressive"] == [{"line": "royal_flush", "amount": meter, "from_meter": True}]
    assert seat["wagers"]["progressive"]["paid"] == meter


@pytest.mark.parametrize(
    ("hole", "board", "line", "paid"),
    [
        # trips on the flop, four of a kind only with the turn: paid as three of a kind, 9 for 1
        ("9c 9d", "9h 2s 5d 9s Kh", "three_of_a_kind", 900),
        # a flush on the flop stays a flush when the river pairs the board
        ("Ac 9c", "2c 6c Jc Jd Jh", "flush", 4_000),
        # a straight made with the river: nothing on the two cards and the flop
        ("9h 8d", "7c 2s Kh 6s Th", "high_card", 0),
    ],
)
def test_569_12_f_1_progressive_line_is_the_hand_of_the_two_cards_and_the_flop(
    hole: str, board: str, line: str, paid: int
) -> None:
    progressive = hand(hole, board)["wagers"]["progressive"]
    assert (progressive["line"], progressive["paid"]) == (line, paid)


@pytest.mark.parametrize(
    ("board", "envy"),
    [
        # seat 2's straight flush is on its two cards and the flop: seat 5 gets the Envy Bonus
        ("7h 6h 5h Kc Qd", [{"for_seat": 2, "line": "straight_flush", "amount": 150_000}]),
        # the straight flush needs the turn: no Envy Bonus Qualifying Hand
        ("7h 6h Kc 5h Qd", []),
    ],
)
def test_569_12_f_2_envy_qualifying_hand_is_the_two_cards_and_the_flop(
    board: str, envy: list[dict[str, Any]]
) -> None:
    rules = {**RULES, "progressive": {**RULES["progressive"], "wager": 500}}
    seats = {
        "2": {
            "wagers": {"ante": 500, "blind": 500, "progressive": 500},
            "decisions": ["play 4"],
            "hand": ["9h", "8h"],
        },
        "5": {
            "wagers": {"ante": 500, "blind": 500, "progressive": 500},
            "decisions": ["check", "check", "fold"],
            "hand": ["2s", "3d"],
        },
    }
    result = run_scenario(
        {
            "game": SLUG,
            "rules": rules,
            "meters": {"uth": RESET},
            "seats": seats,
            "dealer": ["Ac", "Ad"],
            "community": board.split(),
        }
    )
    assert result["seats"]["5"]["envy"] == envy


# Five-card hands by category, as published (e.g. the royal flush: 4 in 2,598,960).
FIVE_CARD_HANDS = {
    "royal_flush": 4,
    "straight_flush": 36,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
}


def test_569_12_f_progressive_par_sheet_prices_the_two_cards_and_the_flop() -> None:
    game = get_game({"game": SLUG, **RULES})
    sheet = par_sheet(game, wagers=["progressive"]).wagers["progressive"]
    assert sheet.total == comb(52, 5) == 2_598_960
    counts = {o.name: o.weight for o in sheet.outcomes}
    assert {k: counts[k] for k in FIVE_CARD_HANDS} == FIVE_CARD_HANDS
    # § 569.12(f): 100% and 10% of the meter at its reset ($10,000 on a $1 wager), then 300,
    # 50, 40, 30 and 9 for 1
    units = RESET // 100
    pays = dict(zip(FIVE_CARD_HANDS, (units, units // 10, 300, 50, 40, 30, 9), strict=True))
    returned = Fraction(sum(FIVE_CARD_HANDS[h] * pays[h] for h in pays), comb(52, 5))
    assert sheet.house_edge == 1 - returned
    assert 0 < sheet.house_edge < Fraction(1, 2)  # 44.02%: beside the others' 29-56%


def test_569_12_f_1_reading_and_its_sources_in_the_compliance_matrix() -> None:
    notes = load_notes()
    hand, envy = notes["569.12(f)(1)"], notes["569.12(f)(2)"]
    assert (hand.kind, envy.kind) == ("reading", "reading")
    assert "does not say from which cards" in hand.text
    assert "hit on the flop" in hand.text and "§ 571.12(d)" in hand.text
    assert "two cards and the flop" in envy.text
