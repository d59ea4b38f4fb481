"""Wager sizes in each chapter's own words: one test per rule, named after its section.

Four Card Poker's Play is "an amount from one to three times" the Ante (any whole cent in the
range); Mississippi Stud's street wagers are "equal to one, two or three times" it (exactly those);
Ultimate Texas Hold 'Em's Play is an exact multiple on each street; Three Card Poker's equals the
Ante.  Both forms of a Play's size are tested: a multiple and an amount in cents.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from croupier.core.cards import DECK, parse_cards
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games import get_game
from croupier.games.records import (
    Check,
    NoMoreBets,
    PlaceWager,
    Play,
    PlayWagered,
    record_to_json,
)
from croupier.games.round import Round
from croupier.store.codec import record_from_json
from croupier.table.scenario import LIBRARY, load_scenario, run_scenario
from croupier.table.shoe import StackedShoe

SCENARIOS = LIBRARY


def dealt(slug: str, wagers: dict[str, int], order: str = "", **rules: Any) -> Round:
    """A round of ``slug`` with one player at seat 1, dealt, waiting for the first decision."""
    cards = list(parse_cards(order)) if order else []
    rest = [c for c in DECK if c not in set(cards)]
    rnd = get_game({"game": slug, **rules}).new_round(shoe=StackedShoe(cards + rest))
    for wager, amount in wagers.items():
        rnd.apply(PlaceWager(seat=1, wager=wager, amount=amount))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    return rnd


def refused(rnd: Round, action: Any, error: type[Exception], pattern: str) -> None:
    before = rnd.records
    stakes = json.dumps(rnd.stakes, sort_keys=True)
    with pytest.raises(error, match=pattern):
        rnd.apply(action)
    assert rnd.records == before and json.dumps(rnd.stakes, sort_keys=True) == stakes


# --- Four Card Poker: "an amount from one to three times" the Ante ----------------------------


@pytest.mark.parametrize("amount", [500, 501, 750, 1234, 1499, 1500])
def test_641a_7_d_1_play_is_any_whole_cent_from_one_to_three_times_the_ante(amount: int) -> None:
    rnd = dealt("four-card-poker", {"ante": 500})
    rnd.apply(Play(seat=1, amount=amount))
    assert rnd.stakes[1]["play"] == amount
    played = [r for r in rnd.records if isinstance(r, PlayWagered)]
    whole = amount // 500 if amount % 500 == 0 else None
    assert played == [PlayWagered(seat=1, wager="play", amount=amount, multiple=whole)]


@pytest.mark.parametrize("amount", [499, 1501, 1, 0, -750])
def test_641a_7_d_1_play_outside_one_to_three_times_is_refused(amount: int) -> None:
    rnd = dealt("four-card-poker", {"ante": 500})
    refused(
        rnd, Play(seat=1, amount=amount), IllegalAction, r"from one to three.*§ 641a\.7\(d\)\(1\)"
    )


@pytest.mark.parametrize("amount", [750.0, "750", True, 750.5])
def test_641a_7_d_1_play_amount_must_be_whole_cents(amount: Any) -> None:
    # a Play of a non-integer amount is refused when it is made (issue 13: strict types)
    with pytest.raises(InvalidInput, match=r"Play\.amount = .* is not a whole number"):
        Play(seat=1, amount=amount)


def test_641a_7_d_1_play_gives_a_multiple_or_an_amount_not_both() -> None:
    rnd = dealt("four-card-poker", {"ante": 500})
    refused(rnd, Play(seat=1, multiple=2, amount=1000), InvalidInput, "give one")


def test_641a_11_b_scenario_plays_one_and_a_half_times_dollars_and_cents() -> None:
    result = run_scenario(
        load_scenario(
            SCENARIOS / "641a_7_d_1_play_any_amount_from_one_to_three_times_the_ante.json"
        )
    )
    seats = result["seats"]
    # Every player's pair beats the dealer's jack high: Ante and Play each paid 1 to 1.
    assert seats["1"]["wagers"]["play"] == {
        "stake": 750,
        "result": "win",
        "paid": 750,
        "returned": 750,
        "line": "pair",
    }
    assert seats["1"]["net"] == 500 + 750
    assert seats["2"]["wagers"]["play"]["stake"] == 1250 and seats["2"]["net"] == 1000 + 1250
    assert seats["3"]["wagers"]["play"]["stake"] == 899 and seats["3"]["net"] == 300 + 899
    plays = [r for r in result["records"] if r["kind"] == "play_wagered"]
    assert [(p["amount"], p["multiple"]) for p in plays] == [(750, None), (1250, None), (899, None)]


@pytest.mark.parametrize(
    ("decision", "error", "pattern"),
    [
        ("play 1.5", IllegalAction, r"not a whole number of cents \(§ 641a\.7\(d\)\(1\)\)"),
        ("play 1.505", InvalidInput, "not understood"),
        ("play 3.01", IllegalAction, r"§ 641a\.7\(d\)\(1\)"),
        ("play 0.99", IllegalAction, r"§ 641a\.7\(d\)\(1\)"),
        ("play $1.5", InvalidInput, "not understood"),
        ("play 7.5c", InvalidInput, "not understood"),
    ],
)
def test_641a_7_d_1_scenario_play_sizes_refused(
    decision: str, error: type[Exception], pattern: str
) -> None:
    data = load_scenario(
        SCENARIOS / "641a_7_d_1_play_any_amount_from_one_to_three_times_the_ante.json"
    )
    data["seats"]["1"]["wagers"]["ante"] = 333  # 1.5 x 333 = 499.5 cents
    data["seats"]["1"]["decisions"] = [decision]
    with pytest.raises(error, match=pattern):
        run_scenario(data)


def test_641a_7_d_1_fractional_play_rebuilds_and_round_trips() -> None:
    rnd = dealt("four-card-poker", {"ante": 500})
    rnd.apply(Play(seat=1, amount=875))
    rnd.run_dealer()
    again = Round.rebuild(rnd.game, rnd.records)
    assert again.records == rnd.records and again.settlement() == rnd.settlement()
    for record in rnd.records:
        assert record_from_json(record_to_json(record)) == record


# --- Mississippi Stud: "equal to one, two or three times" the Ante -----------------------------


def test_571_11_c_street_wagers_are_exactly_one_two_or_three_times_the_ante() -> None:
    result = run_scenario(
        load_scenario(
            SCENARIOS / "571_11_c_street_wagers_are_exactly_one_two_or_three_times_the_ante.json"
        )
    )
    wagers = result["seats"]["1"]["wagers"]
    stakes = {w: wagers[w]["stake"] for w in ("third_street", "fourth_street", "fifth_street")}
    assert stakes == {"third_street": 500, "fourth_street": 1000, "fifth_street": 1500}
    # A pair of jacks pays 1 to 1 on the Ante and every street (§ 571.12(a)).
    assert result["seats"]["1"]["net"] == 500 + 500 + 1000 + 1500


@pytest.mark.parametrize("amount", [750, 501, 1499, 2000])
def test_571_11_a_street_wager_between_the_multiples_is_refused(amount: int) -> None:
    rnd = dealt("mississippi-stud", {"ante": 500})
    refused(rnd, Play(seat=1, amount=amount), IllegalAction, r"one, two or three.*§ 571\.11\(a\)")
    rnd.apply(Play(seat=1, amount=1000))
    assert rnd.stakes[1]["third_street"] == 1000


def test_571_11_e_scenario_bet_one_and_a_half_is_refused_with_the_street() -> None:
    data = load_scenario(
        SCENARIOS / "571_11_c_street_wagers_are_exactly_one_two_or_three_times_the_ante.json"
    )
    data["seats"]["1"]["decisions"] = ["bet 1", "bet 2", "bet 1.5"]
    with pytest.raises(IllegalAction, match=r"5th Street wager of 750 cents.*§ 571\.11\(e\)"):
        run_scenario(data)


# --- Ultimate Texas Hold 'Em: exact multiples on each street ----------------------------------


def test_569_11_play_amounts_are_exact_multiples_on_each_street() -> None:
    rnd = dealt("ultimate-texas-holdem", {"ante": 500, "blind": 500})
    refused(rnd, Play(seat=1, amount=1750), IllegalAction, r"3x or 4x.*§ 569\.11\)")
    rnd.apply(Check(seat=1))
    rnd.run_dealer()
    refused(rnd, Play(seat=1, amount=1500), IllegalAction, r"2x.*§ 569\.11\)")
    rnd.apply(Check(seat=1))
    rnd.run_dealer()
    refused(rnd, Play(seat=1, amount=501), IllegalAction, r"equals the Ante.*§ 569\.11\(e\)")
    rnd.apply(Play(seat=1, amount=500))
    assert rnd.stakes[1]["play"] == 500


def test_569_11_preflop_play_of_four_times_as_cents() -> None:
    rnd = dealt("ultimate-texas-holdem", {"ante": 500, "blind": 500})
    rnd.apply(Play(seat=1, amount=2000))
    assert [r for r in rnd.records if isinstance(r, PlayWagered)] == [
        PlayWagered(seat=1, wager="play", amount=2000, multiple=4)
    ]


# --- Three Card Poker: the Play equals the Ante ------------------------------------------------


def test_649a_11_b_play_amount_equals_the_ante() -> None:
    rnd = dealt("three-card-poker", {"ante": 500})
    refused(rnd, Play(seat=1, amount=501), IllegalAction, r"equals the Ante.*§ 649a\.11\(b\)")
    rnd.apply(Play(seat=1, amount=500))
    assert rnd.stakes[1]["play"] == 500
