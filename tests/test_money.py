"""Integer cents, exact odds, vigorish rounding (§ 541.13(f))."""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.core.errors import InvalidInput
from croupier.core.money import Odds, OddsKind, format_cents, parse_cents, verify_amount, vigorish


def test_to_odds_return_the_stake_plus_winnings() -> None:
    odds = Odds.parse("25 to 1")
    assert odds.winnings(500) == 12_500
    assert odds.returned(500) == 13_000
    assert odds.net == 25


def test_for_odds_include_the_stake() -> None:
    odds = Odds.parse("100 for 1")
    assert odds.kind is OddsKind.FOR
    assert odds.returned(100) == 10_000
    assert odds.winnings(100) == 9_900
    assert odds.net == 99


def test_fractional_odds_are_exact_and_round_down_to_the_cent() -> None:
    odds = Odds.parse("3 to 2")
    assert odds.net == Fraction(3, 2)
    assert odds.winnings(1_000) == 1_500
    assert odds.winnings(3) == 4


@pytest.mark.parametrize("text", ["25-1", "to 1", "1 for 2", "x"])
def test_bad_odds_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidInput):
        Odds.parse(text)


def test_541_13_f_vig_on_seven_dollars_at_five_percent_is_35_cents() -> None:
    assert vigorish(700, Fraction(5, 100)) == 35


def test_541_13_f_vig_rounds_up_to_the_next_five_cents() -> None:
    # $3.10 at 4% is 12.4 cents, collected as 15
    assert vigorish(310, Fraction(4, 100)) == 15
    assert vigorish(100, Fraction(4, 100)) == 5
    assert vigorish(2_000, Fraction(5, 100)) == 100


@pytest.mark.parametrize("amount", [0, -5, 2.5, 5.0, True, "500", None])
def test_amounts_must_be_positive_whole_cents(amount: object) -> None:
    with pytest.raises(InvalidInput, match="amount"):
        verify_amount(amount)
    assert verify_amount(500) == 500


def test_cents_text_round_trip() -> None:
    assert parse_cents("$5") == 500
    assert parse_cents("$1,234.56") == 123_456
    assert parse_cents("250") == 250
    assert format_cents(123_456) == "$1,234.56"
    assert format_cents(500) == "$5"
    with pytest.raises(InvalidInput):
        parse_cents("five")
    assert parse_cents("9" * 18) == 10**18 - 1
    assert parse_cents("$" + "9" * 16 + ".99") == 10**18 - 1


@pytest.mark.parametrize("text", ["9" * 19, "$" + "9" * 17, "9" * 100_000, "x" * 100_000])
def test_cents_text_of_no_table_is_refused_in_a_short_line(text: str) -> None:
    """A line of thousands of digits is refused before any conversion (Python's int() of it
    would raise its own ValueError), and quoted cut short."""
    with pytest.raises(InvalidInput, match="at most 18 digits") as refused:
        parse_cents(text)
    assert len(str(refused.value)) < 200
