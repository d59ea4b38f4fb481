"""Cards and card text (DESIGN.md: ``Card.parse``, ``parse_cards``)."""

from __future__ import annotations

import pytest

from croupier.core.cards import DECK, Card, Rank, Suit, parse_cards
from croupier.core.errors import CroupierError, InvalidInput


def test_every_card_round_trips_through_text_and_index() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    for i, card in enumerate(DECK):
        assert card.index == i
        assert Card.from_index(i) is card
        assert Card.parse(str(card)) == card


@pytest.mark.parametrize(
    ("text", "expected"), [("Th", "Th"), ("10h", "Th"), ("as", "As"), ("2C", "2c")]
)
def test_ten_is_read_as_t_or_10(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


def test_card_index_order_is_deuces_first_suits_cdhs() -> None:
    assert Card.from_index(0) == Card(Rank.TWO, Suit.CLUBS)
    assert Card.from_index(51) == Card(Rank.ACE, Suit.SPADES)
    assert Card.parse("3d").index == 5


@pytest.mark.parametrize("text", ["Zz", "1h", "Ax", "", "100h", "A"])
def test_bad_card_text_is_invalid_input_naming_it(text: str) -> None:
    with pytest.raises(InvalidInput) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)


def test_invalid_input_is_a_value_error() -> None:
    assert issubclass(InvalidInput, CroupierError)
    assert issubclass(CroupierError, ValueError)


def test_parse_cards_reports_every_bad_card_at_once() -> None:
    with pytest.raises(InvalidInput) as info:
        parse_cards("As Zz Kd Q9")
    assert "'Zz'" in str(info.value) and "'Q9'" in str(info.value)


def test_a_card_twice_in_one_hand_is_refused_and_named() -> None:
    with pytest.raises(InvalidInput, match="As"):
        parse_cards("As Kd As")
    assert len(parse_cards("As Kd As", distinct=False)) == 3


def test_parse_cards_accepts_commas_and_lists() -> None:
    assert parse_cards("As,Kd, 7c") == parse_cards(["As", "Kd", "7c"])
