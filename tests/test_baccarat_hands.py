"""Baccarat point counts, naturals and third-card rules (§ 627a.1, § 631a.11, Table 1)."""

from __future__ import annotations

from itertools import product

import pytest

from croupier.core.cards import Card, Rank, Suit, parse_cards
from croupier.core.errors import InvalidInput
from croupier.hands.baccarat import (
    Outcome,
    banker_draws,
    card_value,
    is_dragon_7,
    is_natural,
    is_panda_8,
    outcome,
    player_draws,
    point_count,
)

# A card of each point value 0..9 (ten for 0, ace for 1).
BY_VALUE = {
    0: "Tc",
    1: "Ac",
    2: "2c",
    3: "3c",
    4: "4c",
    5: "5c",
    6: "6c",
    7: "7c",
    8: "8c",
    9: "9c",
}


def two(total: int) -> list[Card]:
    """Two cards counting ``total`` (never a pair of the same card)."""
    first = 0 if total != 0 else 5
    second = (total - first) % 10
    a = Card.parse(BY_VALUE[first])
    b = Card(Card.parse(BY_VALUE[second]).rank, Suit.DIAMONDS)
    return [a, b]


def test_card_values_ace_one_faces_zero() -> None:
    assert [card_value(Rank(r)) for r in range(2, 15)] == [2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 1]


def test_point_count_drops_the_tens_digit() -> None:
    assert point_count(parse_cards("9c 8d")) == 7
    assert point_count(parse_cards("Kc Qd Jh")) == 0
    assert point_count(parse_cards("5c 5d Ah")) == 1


def test_627a_1_natural_is_eight_or_nine_on_two_cards() -> None:
    assert is_natural(parse_cards("4c 4d"))
    assert is_natural(parse_cards("Kc 9d"))
    assert not is_natural(parse_cards("4c 3d Ah"))


def test_631a_11_a_a_natural_stops_all_drawing() -> None:
    for p, b in product(range(10), repeat=2):
        if p >= 8 or b >= 8:
            assert not player_draws(two(p), two(b))
            assert not banker_draws(two(p), two(b), None)


def test_631a_11_b_player_draws_on_zero_to_five() -> None:
    for p in range(8):
        assert player_draws(two(p), two(0)) is (p <= 5)


def test_631a_11_c_1_banker_draws_on_five_or_less_when_player_stands() -> None:
    for b in range(8):
        assert banker_draws(two(6), two(b), None) is (b <= 5)


# Table 1 rows 3-6, columns Player third card value 0..9 (D draw, S stay), as read in the digest.
TABLE_1 = {3: "DDDDDDDDSD", 4: "SSDDDDDDSS", 5: "SSSSDDDDSS", 6: "SSSSSSDDSS"}


def test_631a_11_c_2_table_1_banker_after_a_player_third_card() -> None:
    for b in range(8):
        for third_value in range(10):
            third = Card(Card.parse(BY_VALUE[third_value]).rank, Suit.HEARTS)
            drawn = banker_draws(two(0), two(b), third)
            if b <= 2:
                assert drawn
            elif b == 7:
                assert not drawn
            else:
                assert drawn is (TABLE_1[b][third_value] == "D"), (b, third_value)


def test_541_1_dragon_7_and_panda_8() -> None:
    player, banker = parse_cards("Tc 6d"), parse_cards("2c 2d 3h")
    assert is_dragon_7(player, banker)
    assert outcome(player, banker) is Outcome.BANKER
    assert not is_dragon_7(player, parse_cards("4c 3d"))
    assert is_panda_8(parse_cards("2c 3d 3h"), parse_cards("Tc 7d"))


def test_drawing_rules_need_two_cards() -> None:
    with pytest.raises(InvalidInput, match="first two cards"):
        player_draws(parse_cards("2c 3d 4h"), two(3))
