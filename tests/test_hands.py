"""Scalar hand rankings: § 641a.6, § 643a.6, § 649a.6, § 653a.6, § 643a.6(c)."""

from __future__ import annotations

from itertools import combinations

import pytest

from croupier.core.cards import DECK, parse_cards
from croupier.core.errors import InvalidInput
from croupier.hands import Category, Ranking, evaluate


def value(cards: str, ranking: str = "poker5") -> int:
    return evaluate(cards, ranking).value


def cat(cards: str, ranking: str = "poker5") -> Category:
    return evaluate(cards, ranking).category


# --- poker5 -----------------------------------------------------------------------------------


def test_643a_6_b_1_royal_flush_is_its_own_category() -> None:
    assert cat("As Ks Qs Js Ts") is Category.ROYAL_FLUSH
    assert cat("Ks Qs Js Ts 9s") is Category.STRAIGHT_FLUSH
    assert value("As Ks Qs Js Ts") > value("Ks Qs Js Ts 9s")


def test_643a_6_a_wheel_is_the_lowest_straight_and_no_wrap_around() -> None:
    assert cat("Ah 2c 3d 4s 5h") is Category.STRAIGHT
    assert value("Ah 2c 3d 4s 5h") < value("2h 3c 4d 5s 6h")
    assert cat("Qh Kc Ad 2s 3h") is Category.HIGH_CARD
    assert cat("Ah 2h 3h 4h 5h") is Category.STRAIGHT_FLUSH
    assert value("Ah 2h 3h 4h 5h") < value("2c 3c 4c 5c 6c")


def test_643a_6_b_category_order() -> None:
    hands = [
        "As Ks Qs Js Ts",  # royal
        "9h 8h 7h 6h 5h",  # straight flush
        "7c 7d 7h 7s 2c",  # four of a kind
        "3c 3d 3h 2s 2c",  # full house
        "Ac Jc 9c 5c 3c",  # flush
        "Tc 9d 8h 7s 6c",  # straight
        "4c 4d 4h As Kc",  # three of a kind
        "Ac Ad Kh Ks Qc",  # two pair
        "Ac Ad Kh Qs Jc",  # pair
        "Ac Kd Qh Js 9c",  # high card
    ]
    values = [value(h) for h in hands]
    assert values == sorted(values, reverse=True)
    assert [cat(h).value for h in hands] == list(
        reversed([c.value for c in Ranking.POKER5.categories])
    )


def test_643a_6_kickers_break_ties_and_suits_never_do() -> None:
    assert value("Ac Ad Kh Qs Jc") > value("Ac Ad Kh Qs Tc")
    assert value("Ac Ad Kh Qs Jc") == value("Ah As Kc Qd Jd")
    assert value("Ac Ad 3h 3s Kc") > value("Kc Kd Qh Qs Ac")
    assert value("9c 9d 9h 2s 2c") > value("8c 8d 8h As Ac")


def test_653a_6_best_five_of_seven() -> None:
    rank = evaluate("As Ks 2d 7c Qs Js Ts", "poker5")
    assert rank.category is Category.ROYAL_FLUSH
    assert sorted(str(c) for c in rank.cards) == sorted(["As", "Ks", "Qs", "Js", "Ts"])
    assert cat("2c 2d 2h 3s 3c 3d 9h") is Category.FULL_HOUSE
    assert value("2c 2d 2h 3s 3c 3d 9h") == value("3s 3c 3d 2c 2d")


def test_poker5_every_five_card_hand_counts_by_brute_force_on_one_suit_pattern() -> None:
    # every 5-card hand drawn from 20 cards: straight flushes and flushes need the same suit
    small = [c for c in DECK if c.rank.value >= 10]
    counts: dict[Category, int] = {}
    for hand in combinations(small, 5):
        c = evaluate(hand).category
        counts[c] = counts.get(c, 0) + 1
    assert counts[Category.ROYAL_FLUSH] == 4
    assert counts[Category.FOUR_OF_A_KIND] == 5 * 16
    assert sum(counts.values()) == 15_504


# --- four-card (§ 641a.6) ---------------------------------------------------------------------


def test_641a_6_b_four_of_a_kind_beats_straight_flush_and_trips_beat_flush() -> None:
    assert value("2c 2d 2h 2s", "four-card") > value("Ah Kh Qh Jh", "four-card")
    assert value("2c 2d 2h 9s", "four-card") > value("Ah Kh Qh 9h", "four-card")
    assert value("Ah Kh Qh 9h", "four-card") > value("Ac Kd Qh Js", "four-card")
    assert value("Ac Kd Qh Js", "four-card") > value("Ac Ad Kh Ks", "four-card")


def test_641a_6_a_ace_low_four_card_straight_and_no_wrap() -> None:
    assert cat("Ah 2c 3d 4s", "four-card") is Category.STRAIGHT
    assert value("Ah 2c 3d 4s", "four-card") < value("2h 3c 4d 5s", "four-card")
    assert cat("Kh Ac 2d 3s", "four-card") is Category.HIGH_CARD
    assert cat("Ah 2h 3h 4h", "four-card") is Category.STRAIGHT_FLUSH


def test_641a_6_c_highest_card_not_held_by_the_other_hand_breaks_ties() -> None:
    assert value("Ac Kd 9h 3s", "four-card") > value("Ad Kc 8h 7s", "four-card")
    assert value("Ac Kd 9h 3s", "four-card") == value("Ad Kc 9s 3h", "four-card")
    assert value("9c 9d Ah 3s", "four-card") > value("9h 9s Kh Qs", "four-card")


def test_641a_6_best_four_of_five_and_of_six() -> None:
    player = evaluate("Ac Ad Ah 7s 2c", "four-card")
    assert player.category is Category.THREE_OF_A_KIND
    assert {str(c) for c in player.cards} == {"Ac", "Ad", "Ah", "7s"}
    dealer = evaluate("5h 6h 7h 8h Kc Kd", "four-card")
    assert dealer.category is Category.STRAIGHT_FLUSH
    assert len(dealer.cards) == 4


# --- three-card (§ 649a.6) and three-card bonus (§ 643a.6(c)) ----------------------------------


def test_649a_6_straight_beats_flush_and_aces_play_both_ends() -> None:
    assert value("4c 5d 6h", "three-card") > value("Ah Kh 9h", "three-card")
    assert value("Ac Kd Qh", "three-card") > value("Kc Qd Jh", "three-card")
    assert cat("Ac 2d 3h", "three-card") is Category.STRAIGHT
    assert value("Ac 2d 3h", "three-card") < value("2c 3d 4h", "three-card")
    assert cat("Kc Ad 2h", "three-card") is Category.HIGH_CARD


def test_649a_6_category_order() -> None:
    order = ["5s 6s 7s", "2c 2d 2h", "9c Td Jh", "2h 7h 9h", "Qc Qd 3h", "Ac Kd Jh"]
    values = [value(h, "three-card") for h in order]
    assert values == sorted(values, reverse=True)


def test_643a_6_c_mini_royal_above_straight_flush_in_the_bonus_ranking_only() -> None:
    assert cat("As Ks Qs", "three-card-bonus") is Category.MINI_ROYAL
    assert cat("As Ks Qs", "three-card") is Category.STRAIGHT_FLUSH
    assert value("As Ks Qs", "three-card-bonus") > value("Ks Qs Js", "three-card-bonus")


def test_three_card_counts_over_every_hand() -> None:
    counts: dict[Category, int] = {}
    for hand in combinations(DECK, 3):
        c = evaluate(hand, Ranking.THREE_CARD_BONUS).category
        counts[c] = counts.get(c, 0) + 1
    # Wizard of Odds three-card frequencies, with the 4 mini royals split out
    assert counts == {
        Category.MINI_ROYAL: 4,
        Category.STRAIGHT_FLUSH: 44,
        Category.THREE_OF_A_KIND: 52,
        Category.STRAIGHT: 720,
        Category.FLUSH: 1_096,
        Category.PAIR: 3_744,
        Category.HIGH_CARD: 16_440,
    }


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "ranking", "needle"),
    [
        ("As As Kd Qc Jh", "poker5", "more than once"),
        ("As Kd", "poker5", "5 to 7"),
        ("As Kd Qh Jc Th 9s 8s 7s", "poker5", "5 to 7"),
        ("As Kd Qh Jc", "three-card", "3"),
        ("As Kd Qh", "four-card", "4 to 6"),
    ],
)
def test_wrong_hands_are_refused_with_a_named_problem(
    cards: str, ranking: str, needle: str
) -> None:
    with pytest.raises(InvalidInput, match=needle):
        evaluate(cards, ranking)


def test_unknown_ranking_is_refused() -> None:
    with pytest.raises(InvalidInput, match="'poker6'"):
        evaluate(parse_cards("As Ks Qs Js Ts"), "poker6")
