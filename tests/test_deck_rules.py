"""The deck checks written once (``deck_problems``), driven by each game's data (issue 14)."""

from __future__ import annotations

import pytest

from croupier.core.errors import RulesViolation
from croupier.games import GAMES, get_game
from croupier.games.four_card_poker.regs import FOUR_CARD_POKER_REGS
from croupier.games.table_regs import deck_problems
from croupier.rules.submission import DealMethod, ShuffleMethod, TableRules


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_game_refuses_three_decks_through_its_deck_rules(slug: str) -> None:
    cls = GAMES[slug]
    deck = cls.deck_rules or (cls.table_regs.deck_rules if cls.table_regs else None)
    assert deck is not None and 3 not in deck.counts
    with pytest.raises(RulesViolation) as err:
        get_game({"game": slug, "table": {"decks": 3}})
    # where the texts at hand give the deck count no section, the refusal names the chapter
    cited = deck.counts_section or cls.chapter
    assert (f"3 decks: {deck.counts_problem}", cited) in err.value.problems


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


def test_641a_8_f_stub_count_is_the_deck_less_the_cards_dealt_and_burned() -> None:
    from croupier.core.cards import DECK
    from croupier.core.errors import Irregularity
    from croupier.table.shoe import Shoe

    shoe = Shoe(DECK)
    shoe.burn()
    for _ in range(5):
        shoe.deal()
    assert shoe.stub_expected() == 52 - 5 - 1 == len(DECK) - 6
    assert shoe.verify_count(counted_stub=46) == 52
    with pytest.raises(Irregularity, match="1 missing"):
        shoe.verify_count(counted_stub=45)
