"""Scenarios replay exactly what they say (issue 12): no card filled in from the deck, one way
to give the cards, one key per seat, one game, the table's own meters at or above their reset."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from croupier.core.errors import CroupierError, InvalidInput
from croupier.table.scenario import LIBRARY, load_scenario, run_scenario

SCENARIOS = LIBRARY


def base(name: str) -> dict[str, Any]:
    return copy.deepcopy(load_scenario(SCENARIOS / f"{name}.json"))


FOUR = "641a_11_c_3_tie_goes_to_the_player"
UTH = "569_12_f_4_royal_then_straight_flush_meter_in_turn"
BACCARAT = "627a_10_banker_6_draws_on_player_third_7"


def refused(data: dict[str, Any]) -> str:
    with pytest.raises(InvalidInput) as info:
        run_scenario(data)
    return str(info.value)


def test_dealer_left_out_is_refused_never_filled_in_from_the_deck() -> None:
    data = base(FOUR)
    del data["dealer"]
    assert "no 'dealer' but the deal gives the dealer 6 cards" in refused(data)


def test_seat_without_a_hand_is_named() -> None:
    data = base(FOUR)
    data["seats"]["5"] = {"wagers": {"ante": 500}, "decisions": ["fold"]}
    assert "seat 5 has no 'hand' but the deal gives it 5 cards" in refused(data)


def test_short_hand_names_the_seat() -> None:
    data = base(FOUR)
    seat = next(iter(data["seats"]))
    data["seats"][seat]["hand"] = data["seats"][seat]["hand"][:3]
    assert f"seat {seat} is short: the deal gives it 5 cards, the scenario lists 3" in refused(data)


def test_569_9_community_cards_left_out_are_named() -> None:
    data = base(UTH)
    data["community"] = data["community"][:3]
    assert "the community cards is short" in refused(data)


def test_627a_10_cards_too_few_names_who_gets_the_next_card() -> None:
    data = base(BACCARAT)
    data["cards"] = data["cards"][:3]
    message = refused(data)
    assert "'cards' lists 3 cards but the deal needs" in message
    assert "card 4 goes to 'banker'" in message and "never filled in" in message


def test_cards_and_hands_together_refused() -> None:
    data = base(BACCARAT)
    data["seats"]["1"]["hand"] = ["As", "Kd"]
    assert "both 'cards' and hands (seats.1.hand)" in refused(data)
    data = base(FOUR)
    data["cards"] = ["As"]
    assert "both 'cards' and hands" in refused(data)


def test_colliding_seat_keys_refused_naming_both() -> None:
    data = base(BACCARAT)
    data["seats"]["01"] = {"wagers": {"player": 1000}}
    assert "seat keys '1' and '01' both name seat 1" in refused(data)


@pytest.mark.parametrize("key", ["01", "8", "0", "\u0663", "\uff13", "one"])
def test_seat_keys_are_positions_written_1_to_7(key: str) -> None:
    data = base(BACCARAT)
    data["seats"] = {key: data["seats"]["1"]}
    assert f"seat {key!r} is not a betting position written 1-7" in refused(data)


def test_rules_game_that_disagrees_with_game_refused() -> None:
    data = base(FOUR)
    data["rules"] = {**data.get("rules", {}), "game": "three-card-poker"}
    assert "rules.game 'three-card-poker' disagrees with game 'four-card-poker'" in refused(data)
    data["rules"]["game"] = "4cp"  # an alias of the same game agrees
    assert run_scenario(data)["game"] == "four-card-poker"


def test_641a_12_d_unknown_meter_name_refused() -> None:
    data = base(UTH)
    data["meters"]["uht"] = 1_000_000
    assert "meters 'uht' is not a meter of this table (meters: 'uth')" in refused(data)
    data = base(FOUR)
    data["meters"] = {"four-card-poker": 600_000}
    assert "(meters: none)" in refused(data)


def test_569_12_f_3_meter_below_its_reset_refused() -> None:
    data = base(UTH)
    data["meters"]["uth"] = 999_999
    assert "meters 'uth' 999999 cents is below its reset of 1000000 cents" in refused(data)


@pytest.mark.parametrize("decision", ["play \u0663", "play \uff13", "play \u00b3", "pl\u0430y"])
def test_decisions_are_ascii_words_and_numbers(decision: str) -> None:
    data = base(FOUR)
    seat = next(iter(data["seats"]))
    data["seats"][seat]["decisions"] = [decision]
    assert f"seat {seat} decisions 1 {decision!r} is not a decision" in refused(data)


@pytest.mark.parametrize("decision", ["play 3.123", "play -1", "", "play 99999999999999x"])
def test_ascii_decisions_the_game_cannot_read_are_refused_by_the_game(decision: str) -> None:
    data = base(FOUR)
    seat = next(iter(data["seats"]))
    data["seats"][seat]["decisions"] = [decision]
    with pytest.raises(CroupierError):
        run_scenario(data)


def test_unknown_scenario_keys_and_every_shape_problem_at_once() -> None:
    data = base(FOUR)
    seat = next(iter(data["seats"]))
    data["colour"] = "red"
    data["seats"][seat]["wagers"]["ante"] = 5.0
    data["seats"][seat]["hand"][0] = "Zz"
    data["meters"] = {"four-card-poker": True}
    message = refused(data)
    assert "unknown key 'colour' in the file" in message
    assert f"seat {seat} wagers ante 5.0 must be a whole number of cents" in message
    assert f"seat {seat} hand card 1 'Zz' is not a card" in message
    assert "meters four-card-poker True must be a whole number of cents" in message
