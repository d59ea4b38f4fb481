"""Custom pay tables are checked the same way in every game that takes them
(:func:`croupier.games.paytables.custom_table`): a hand the wager pays on every line, odds that
win, the lowest line one the chapter allows, and a line for every hand above the lowest, so that
a better hand never loses where a worse one is paid."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.core.errors import RulesViolation
from croupier.games import get_game

SIX_CARD_WITHOUT_ROYAL = {
    "straight_flush": "200 to 1",
    "four_of_a_kind": "50 to 1",
    "full_house": "25 to 1",
    "flush": "20 to 1",
    "straight": "10 to 1",
    "three_of_a_kind": "5 to 1",
}


def problems(slug: str, **rules: Any) -> list[tuple[str, str | None]]:
    with pytest.raises(RulesViolation) as info:
        get_game({"game": slug, **rules})
    return list(info.value.problems)


@pytest.mark.parametrize(
    ("slug", "section"),
    [("three-card-poker", "§ 649a.12"), ("let-it-ride", "§ 643a.7(j)")],
)
def test_643a_7_j_six_card_bonus_custom_table_without_a_royal_flush_line_is_refused(
    slug: str, section: str
) -> None:
    # Without the line a royal flush would lose while a straight flush is paid: refused alike.
    found = problems(
        slug,
        paytables={"six_card_bonus": "custom"},
        custom_paytables={"six_card_bonus": SIX_CARD_WITHOUT_ROYAL},
    )
    assert found == [
        (
            "custom six_card_bonus table pays three_of_a_kind or better but has no line for "
            "royal_flush",
            section,
        )
    ]


@pytest.mark.parametrize("slug", ["three-card-poker", "let-it-ride"])
def test_643a_7_j_six_card_bonus_custom_table_must_end_at_three_of_a_kind(slug: str) -> None:
    table = {"royal_flush": "1000 to 1", **SIX_CARD_WITHOUT_ROYAL, "two_pair": "1 to 1"}
    found = problems(
        slug, paytables={"six_card_bonus": "custom"}, custom_paytables={"six_card_bonus": table}
    )
    assert [m for m, _ in found] == [
        "custom six_card_bonus table ends at two_pair; its lowest paying hand must be "
        "three_of_a_kind"
    ]


@pytest.mark.parametrize("slug", ["three-card-poker", "let-it-ride"])
def test_643a_7_j_complete_custom_six_card_bonus_is_accepted(slug: str) -> None:
    g = get_game(
        {
            "game": slug,
            "paytables": {"six_card_bonus": "custom"},
            "custom_paytables": {
                "six_card_bonus": {"royal_flush": "1000 to 1", **SIX_CARD_WITHOUT_ROYAL}
            },
        }
    )
    table = g.paytable("six_card_bonus")
    assert table is not None and table.letter == "custom"
    assert table.hands()[0] == "royal_flush" and len(table.lines) == 7


def test_649a_12_d_custom_pair_plus_needs_every_hand_down_to_its_lowest() -> None:
    found = problems(
        "three-card-poker",
        paytables={"pair_plus": "custom"},
        custom_paytables={"pair_plus": {"straight_flush": "40 to 1", "pair": "1 to 1"}},
    )
    assert found == [
        (
            "custom pair_plus table pays pair or better but has no line for three_of_a_kind, "
            "straight, flush",
            "§ 649a.12(d)",
        )
    ]


def test_649a_12_d_mini_royal_line_is_optional_in_three_card_poker() -> None:
    # A mini royal is a straight flush (§ 649a.6): a table without its own line pays it as one.
    g = get_game(
        {
            "game": "three-card-poker",
            "paytables": {"pair_plus": "custom"},
            "custom_paytables": {
                "pair_plus": {
                    "straight_flush": "40 to 1",
                    "three_of_a_kind": "30 to 1",
                    "straight": "6 to 1",
                    "flush": "3 to 1",
                    "pair": "1 to 1",
                }
            },
        }
    )
    table = g.paytable("pair_plus")
    assert table is not None
    line = table.line_for({"straight_flush", "mini_royal"})
    assert line is not None and line.hand == "straight_flush"
