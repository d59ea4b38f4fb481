"""What a replay and ``croupier hand`` report: baccarat's Player's and Banker's Hands with their
totals (§ 541.12(a), § 543.12(a): the dealer announces each hand's final Point Count), a card
given twice refused naming the seat or hand, and the cards given apart from those that play."""

from __future__ import annotations

import io
import json

import pytest

from croupier.cli import main
from croupier.core.errors import InvalidInput
from croupier.hands import hand_report
from croupier.table.scenario import LIBRARY, load_scenario, run_scenario

SCENARIOS = LIBRARY


def test_541_12_a_replay_shows_the_player_and_banker_hands_and_totals() -> None:
    result = run_scenario(
        load_scenario(SCENARIOS / "541_8_a_2_i_player_natural_wins_dragon_bonus_natural.json")
    )
    # cards 4c 2d 5h 3s: the Player's Hand takes the first and third, the Banker's the others
    assert result["player"] == {"cards": ["4c", "5h"], "total": 9}
    assert result["banker"] == {"cards": ["2d", "3s"], "total": 5}
    assert result["winner"] == "player" and "dragon_7" not in result


def test_541_8_a_1_iv_replay_of_an_ez_table_says_dragon_7() -> None:
    result = run_scenario(
        load_scenario(
            SCENARIOS / "541_8_a_1_iv_ez_dragon_7_banker_push_player_loses_insurance_wins.json"
        )
    )
    assert result["banker"] == {"cards": ["3d", "Ks", "4c"], "total": 7}
    assert result["player"]["total"] == 5
    assert result["winner"] == "banker" and result["dragon_7"] is True


def test_543_12_a_midi_replay_shows_a_tie_hand() -> None:
    result = run_scenario(load_scenario(SCENARIOS / "543_12_a_midi_tie_hand_with_tie_vig.json"))
    assert result["winner"] == "tie"
    assert result["player"]["total"] == result["banker"]["total"]


def test_poker_replays_show_no_baccarat_hands() -> None:
    result = run_scenario(load_scenario(SCENARIOS / "641a_11_c_3_tie_goes_to_the_player.json"))
    assert "player" not in result and "banker" not in result


def test_scenario_card_given_to_two_hands_names_both() -> None:
    data = load_scenario(SCENARIOS / "641a_11_b_fold_keeps_aces_up_and_envy.json")
    data["dealer"][0] = "9c"  # seat 4 holds the 9c
    with pytest.raises(InvalidInput, match=r"9c \(seat 4 hand and dealer\)"):
        run_scenario(data)


def test_scenario_card_given_twice_in_one_hand_names_the_hand() -> None:
    data = load_scenario(SCENARIOS / "641a_11_b_fold_keeps_aces_up_and_envy.json")
    data["seats"]["1"]["hand"][1] = "Ac"
    with pytest.raises(InvalidInput, match=r"seat 1 hand .* holds Ac more than once"):
        run_scenario(data)


def test_541_10_scenario_card_given_more_often_than_the_shoe_holds_it_names_the_hands() -> None:
    # an eight-deck shoe holds each card eight times: a ninth 4c is refused, each copy named
    data = load_scenario(SCENARIOS / "541_8_a_2_i_player_natural_wins_dragon_bonus_natural.json")
    data["cards"] = ["4c"] * 9
    with pytest.raises(
        InvalidInput,
        match=r"more often than the 8-deck shoe holds it in 'cards': 4c 9 times \(card 1, to "
        r"the Player's Hand and card 2, to the Banker's Hand and .* and card 9\)",
    ):
        run_scenario(data)


def test_hand_reports_the_input_and_the_cards_that_play() -> None:
    report = hand_report("2c Ac Ad 3c Ah As", "four-card")
    assert report["input"] == ["2c", "Ac", "Ad", "3c", "Ah", "As"]
    assert report["cards"] == ["As", "Ah", "Ad", "Ac"]
    assert report["unused"] == ["2c", "3c"]
    assert report["category"] == "four_of_a_kind"


def test_cli_hand_reports_input_separately() -> None:
    out = io.StringIO()
    assert main(["hand", "7d", "As", "Ks", "Qs", "Js", "Ts", "2c"], out=out) == 0
    data = json.loads(out.getvalue())
    assert data["input"] == ["7d", "As", "Ks", "Qs", "Js", "Ts", "2c"]
    assert sorted(data["cards"]) == sorted(["As", "Ks", "Qs", "Js", "Ts"])
    assert data["unused"] == ["7d", "2c"]
