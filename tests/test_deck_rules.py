"""The deck checks written once (``deck_problems``), driven by each game's data (issue 14)."""

from __future__ import annotations

import pytest

from croupier.errors import RulesViolation
from croupier.games import GAMES, get_game
from croupier.games._table_regs import FOUR_CARD_POKER_REGS, deck_problems
from croupier.rules import DealMethod, ShuffleMethod, TableRules


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_game_refuses_three_decks_through_its_deck_rules(slug: str) -> None:
    cls = GAMES[slug]
    deck = cls.deck_rules or (cls.table_regs.deck_rules if cls.table_regs else None)
    assert deck is not None and 3 not in deck.counts
    with pytest.raises(RulesViolation) as err:
        get_game({"game": slug, "table": {"decks": 3}})
    assert (f"3 decks: {deck.counts_problem}", deck.counts_section) in err.value.problems


def test_641a_3_b_and_641a_9_a_1_two_decks_and_the_hand_need_an_automated_shuffler() -> None:
    table = TableRules(decks=2, shuffle=ShuffleMethod.MANUAL, deal=DealMethod.HAND)
    assert deck_problems(table, FOUR_CARD_POKER_REGS.deck_rules) == [
        ("two decks are allowed only with an automated card shuffling device", "§ 641a.3(b)"),
        ("dealing from the hand requires an automated shuffling device", "§ 641a.9(a)(1)"),
    ]
    # The table asks only for the decks (§ 641a.3(a)-(b)); the dealing method is the game's.
    assert deck_problems(table, FOUR_CARD_POKER_REGS.table_decks) == [
        ("two decks are allowed only with an automated card shuffling device", "§ 641a.3(b)"),
    ]
