"""Irregularities and table events in scenarios (scenario_events.py), replayed from the files in
the package's scenario library (src/croupier/scenarios) written from the text with the cards
stacked, one test each, named after the section; and the same events in every game whose
chapter has the counterpart."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.table.scenario import LIBRARY, load_scenario, run_scenario
from croupier.table.scenario_events import parse_events

SCENARIOS = LIBRARY


def replay(name: str) -> dict[str, Any]:
    return run_scenario(load_scenario(SCENARIOS / f"{name}.json"))


def kinds(report: dict[str, Any]) -> list[str]:
    return [r["kind"] for r in report["records"]]


def results(report: dict[str, Any], seat: str) -> dict[str, str]:
    return {w: s["result"] for w, s in report["seats"][seat]["wagers"].items()}


def irregularities(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [
        (r["irregularity"], r["section"], r["consequence"])
        for r in report["records"]
        if r["kind"] == "irregularity"
    ]


# --- § 641a.13 ------------------------------------------------------------------------------


def test_641a_13_a_card_found_face_up_is_discarded() -> None:
    report = replay("641a_13_a_card_found_face_up_is_discarded")
    (discarded,) = [r for r in report["records"] if r["kind"] == "card_discarded"]
    assert discarded["card"] == "7s" and discarded["section"] == "§ 641a.13(a)"
    # the deal goes on with the next card: the 7s is in no hand
    assert report["hands"]["1"] == ["As", "Ad", "Ac", "Ah", "2c"]
    assert report["dealer"]["cards"] == ["Kh", "Kd", "8c", "6s", "2d", "3h"]
    # four aces: Ante, Play, Aces Up and the Ante bonus (four-of-a-kind 25 to 1, § 641a.12(b))
    assert results(report, "1") == {
        "ante": "win",
        "aces_up": "win",
        "play": "win",
        "ante_bonus": "win",
    }
    assert report["seats"]["1"]["wagers"]["ante_bonus"]["paid"] == 25 * 500


def test_641a_13_a_second_card_face_up_voids_the_round() -> None:
    report = replay("641a_13_a_second_card_face_up_voids_the_round")
    assert report["phase"] == "void"
    assert irregularities(report)[-1] == (
        "card_face_up_in_deck",
        "§ 641a.13(a)",
        "round void",
    )
    for seat in ("1", "4"):
        assert set(results(report, seat).values()) == {"void"}
        assert report["seats"][seat]["net"] == 0


def test_641a_13_b_card_drawn_in_error_is_the_next_card() -> None:
    report = replay("641a_13_b_card_drawn_in_error_is_the_next_card")
    assert irregularities(report) == [
        ("card_drawn_in_error", "§ 641a.13(b)", "used as the next card")
    ]
    assert report["hands"]["1"] == ["Kc", "Kd", "9h", "7s", "2c"]  # nothing skipped
    assert report["phase"] == "over"


def test_641a_13_c_wrong_number_of_cards_voids_the_round() -> None:
    report = replay("641a_13_c_wrong_number_of_cards_voids_the_round")
    assert irregularities(report) == [("wrong_card_count", "§ 641a.13(c)", "round void")]
    assert set(results(report, "2").values()) == {"void"}


def test_641a_13_d_dealer_card_exposed_voids_the_round() -> None:
    report = replay("641a_13_d_dealer_card_exposed_voids_the_round")
    assert irregularities(report) == [("dealer_card_exposed", "§ 641a.13(d)", "round void")]
    # seat 1 had played 2x: its Play goes back too
    assert report["seats"]["1"]["wagers"]["play"]["result"] == "void"
    assert report["seats"]["3"]["net"] == 0 and report["seats"]["1"]["net"] == 0


def test_641a_13_f_automated_shoe_jam_voids_the_round() -> None:
    report = replay("641a_13_f_automated_shoe_jam_voids_the_round")
    assert irregularities(report) == [("automated_shoe_jam", "§ 641a.13(f)", "round void")]
    assert kinds(report).count("card_dealt") == 7


def test_641a_8_h_short_stub_count_voids_and_removes_the_deck() -> None:
    report = replay("641a_8_h_short_stub_count_voids_and_removes_the_deck")
    (counted,) = [r for r in report["records"] if r["kind"] == "stub_counted"]
    assert counted["count"] == 40  # 52 - 11 dealt = 41 expected
    (voided,) = [r for r in report["records"] if r["kind"] == "round_voided"]
    assert voided["deck_removed"] is True
    assert set(results(report, "1").values()) == {"void"}


def test_641a_7_b_player_leaving_mid_round_abandons_the_wagers() -> None:
    report = replay("641a_7_b_player_leaving_mid_round_abandons_the_wagers")
    assert results(report, "2") == {"ante": "lose", "aces_up": "lose"}
    assert report["seats"]["2"]["net"] == -1500
    # seat 1 plays on: kings beat the dealer's queens
    assert results(report, "1") == {"ante": "win", "play": "win"}
    (left,) = [r for r in report["records"] if r["kind"] == "wagers_abandoned"]
    assert (left["seat"], left["section"]) == (2, "§ 641a.7(b)")


def test_641a_5_e_recut_required_by_the_floorperson() -> None:
    report = replay("641a_5_e_recut_required_by_the_floorperson")
    assert [(r["kind"], r["cut_at"], r["section"]) for r in report["table"]] == [
        ("cut", 10, "§ 641a.5(d)"),
        ("recut", 30, "§ 641a.5(e)"),
    ]
    assert report["table"][1]["by"] == "floorperson Ruiz"
    # cut at 10 then at 30: the first card dealt is the 41st of the stack as shuffled (3s)
    dealt = [r["card"] for r in report["records"] if r["kind"] == "card_dealt"]
    assert dealt[:3] == ["3s", "4s", "5s"]
    assert report["hands"]["1"] == ["3s", "5s", "7s", "9s", "Js"]


def test_641a_5_c_1_no_cut_after_an_automated_shuffle_in_a_scenario() -> None:
    data = load_scenario(SCENARIOS / "641a_5_e_recut_required_by_the_floorperson.json")
    with pytest.raises(IllegalAction, match="without a cut") as exc:
        run_scenario({**data, "rules": {}})
    assert exc.value.section == "§ 641a.5(c)(1)"
    hands = {**data, "cards": None, "seats": {"1": {"wagers": {"ante": 500}}}}
    del hands["cards"]
    with pytest.raises(InvalidInput, match="needs 'cards'"):
        run_scenario(hands)


def test_641a_13_g_shoe_out_of_order_before_dealing_from_the_manual_shoe() -> None:
    report = replay("641a_13_g_shoe_out_of_order_before_dealing_from_the_manual_shoe")
    assert [(e["kind"], e["section"]) for e in report["table"]] == [
        ("device_out_of_order", "§ 641a.13(g)"),
        ("method_changed", "§ 641a.13(g)"),
    ]
    # dealt one card at a time (§ 641a.8(d)), not in stacks of five (§ 641a.10(b))
    assert report["hands"]["1"] == ["As", "Ad", "Ac", "Ah", "2c"]
    data = load_scenario(
        SCENARIOS / "641a_13_g_shoe_out_of_order_before_dealing_from_the_manual_shoe.json"
    )
    skipped = {**data, "events": data["events"][1:]}  # the shoe never covered
    with pytest.raises(IllegalAction, match="covered or signed out of order") as exc:
        run_scenario(skipped)
    assert exc.value.section == "§ 641a.13(g)"


def test_641a_5_b_counting_shuffler_wrong_count_new_deck_dealt() -> None:
    report = replay("641a_5_b_counting_shuffler_wrong_count_new_deck_dealt")
    assert [(e["kind"], e["section"]) for e in report["table"][:2]] == [
        ("shuffler_counted", "§ 641a.5(b)"),
        ("deck_removed", "§ 641a.5(b)"),
    ]
    assert report["table"][1]["deck"] == 1 and report["table"][2]["kind"] == "received"
    assert report["phase"] == "over"  # the round is dealt from the new deck


def test_a_void_ordered_by_a_supervisor_returns_the_open_wagers() -> None:
    data = load_scenario(SCENARIOS / "641a_7_b_player_leaving_mid_round_abandons_the_wagers.json")
    data = {
        **data,
        "seats": {"1": {"wagers": {"ante": 500}, "hand": data["seats"]["1"]["hand"]}},
        "events": [
            {
                "kind": "void",
                "by": "shift manager Ortiz",
                "reason": "system failure",
                "after_cards": 11,
            }
        ],
    }
    report = run_scenario(data)
    (voided,) = [r for r in report["records"] if r["kind"] == "round_voided"]
    assert (voided["by"], voided["reason"]) == ("shift manager Ortiz", "system failure")
    assert report["seats"]["1"]["net"] == 0


# --- counterparts ---------------------------------------------------------------------------


def test_643a_13_a_card_found_face_up_is_discarded() -> None:
    report = replay("643a_13_a_card_found_face_up_is_discarded")
    (discarded,) = [r for r in report["records"] if r["kind"] == "card_discarded"]
    assert (discarded["card"], discarded["section"]) == ("4d", "§ 643a.13(a)")
    assert "4d" not in report["hands"]["1"] + report["community"]


EVERY_GAME = [
    ("four-card-poker", {"ante": 500}, ["play"]),
    ("let-it-ride", {"bet1": 500, "bet2": 500, "bet3": 500}, ["ride", "ride"]),
    ("three-card-poker", {"ante": 500}, ["play"]),
    ("ultimate-texas-holdem", {"ante": 500, "blind": 500}, ["check", "check", "play"]),
    ("mississippi-stud", {"ante": 500}, ["bet 1", "bet 1", "bet 1"]),
    ("mini-baccarat", {"banker": 500}, []),
]


@pytest.mark.parametrize(
    ("game", "wagers", "decisions"), EVERY_GAME, ids=[g[0] for g in EVERY_GAME]
)
def test_641a_13_a_two_cards_face_up_void_the_round_in_every_game(
    game: str, wagers: dict[str, int], decisions: list[str]
) -> None:
    data = {
        "game": game,
        "seats": {"1": {"wagers": wagers, "decisions": decisions}},
        "cards": ["2c", "3d", "4h", "5s", "6c", "7d", "8h", "9s"],
        "events": [
            {"kind": "card_face_up_in_deck", "after_cards": 1},
            {"kind": "card_face_up_in_deck", "after_cards": 3},
        ],
    }
    report = run_scenario(data)
    assert report["phase"] == "void"
    assert set(results(report, "1").values()) == {"void"}


@pytest.mark.parametrize(
    ("game", "wagers", "decisions"), EVERY_GAME[:5], ids=[g[0] for g in EVERY_GAME[:5]]
)
def test_641a_8_h_short_stub_count_voids_in_every_game(
    game: str, wagers: dict[str, int], decisions: list[str]
) -> None:
    data = {
        "game": game,
        "seats": {"1": {"wagers": wagers, "decisions": decisions}},
        "cards": [
            "2c",
            "3d",
            "4h",
            "5s",
            "6c",
            "7d",
            "8h",
            "9s",
            "Tc",
            "Jd",
            "Qh",
            "Ks",
            "Ac",
        ],
        "events": [{"kind": "stub_count", "count": 1}],
    }
    report = run_scenario(data)
    (voided,) = [r for r in report["records"] if r["kind"] == "round_voided"]
    assert voided["deck_removed"] is True


# --- baccarat: verbal wagers, deferred vigorish ---------------------------------------------


def test_541_8_b_verbal_wager_with_cash_confirmed_by_the_dealer() -> None:
    report = replay("541_8_b_verbal_wager_with_cash_confirmed_by_the_dealer")
    (verbal,) = [r for r in report["records"] if r["kind"] == "verbal_wager_placed"]
    assert (verbal["seat"], verbal["amount"], verbal["cash"]) == (3, 2000, 2500)
    assert verbal["confirmed_by"] == "dealer calling the game"
    assert results(report, "3") == {"banker": "win"}  # Banker's natural 9 beats 5


def test_541_8_b_verbal_wager_refused_without_confirmation_or_cash() -> None:
    base = load_scenario(SCENARIOS / "541_8_b_verbal_wager_with_cash_confirmed_by_the_dealer.json")
    short = {
        **base,
        "seats": {
            "3": {"verbal": {"banker": {"amount": 2000, "cash": 1000, "confirmed_by": "dealer"}}}
        },
    }
    with pytest.raises(Exception, match="do not cover it") as exc:
        run_scenario(short)
    assert "541.8(b)" in str(getattr(exc.value, "section", "")) or "541.8(b)" in str(exc.value)


@pytest.mark.parametrize(
    ("game", "section"),
    [
        ("four-card-poker", "§ 641a.7(a)"),
        ("let-it-ride", "§ 643a.7(a)"),
        ("ultimate-texas-holdem", "§ 569.7(a)"),
        ("mississippi-stud", "§ 571.7(a)"),
    ],
)
def test_641a_7_a_verbal_wager_with_cash_refused_at_the_poker_games(
    game: str, section: str
) -> None:
    verbal = {"ante": {"amount": 500, "cash": 500, "confirmed_by": "dealer"}}
    data = {"game": game, "seats": {"1": {"verbal": verbal}}, "cards": ["2c", "3d"]}
    with pytest.raises(IllegalAction, match="may not be accepted") as exc:
        run_scenario(data)
    assert exc.value.section == section


def test_541_13_g_deferred_vig_collected_when_the_player_leaves() -> None:
    report = replay("541_13_g_deferred_vig_collected_when_the_player_leaves")
    (marked,) = [r for r in report["records"] if r["kind"] == "vig_marked"]
    assert marked["amount"] == 100  # 5% of 2000
    (collected,) = report["table"]
    assert (collected["seat"], collected["amount"], collected["reason"]) == (
        3,
        100,
        "player_leaves",
    )
    assert collected["section"] == "§ 541.13(g)"


def test_541_13_g_deferred_vig_collected_before_the_reshuffle() -> None:
    report = replay("541_13_g_deferred_vig_collected_before_the_reshuffle")
    assert [(r["seat"], r["amount"], r["reason"]) for r in report["table"]] == [
        (6, 150, "reshuffle"),
        (2, 50, "reshuffle"),
    ]


def test_543_13_g_midi_deferred_vig_collected_before_a_new_shoe() -> None:
    report = replay("543_13_g_midi_deferred_vig_collected_before_a_new_shoe")
    (collected,) = report["table"]
    assert (collected["amount"], collected["section"]) == (125, "§ 543.13(g)")


# --- the events' shape -----------------------------------------------------------------------


def test_events_are_checked_each_with_its_position() -> None:
    with pytest.raises(InvalidInput) as exc:
        parse_events(
            [
                {"kind": "stub_count"},
                {"kind": "leave", "seat": 9},
                {"kind": "collect_vig", "reason": "player_leaves"},
                {"kind": "card_face_up_in_deck", "count": 3},
                {"kind": "shuffle"},
            ]
        )
    text = str(exc.value)
    for part in (
        "events[1]",
        "needs count",
        "events[2].seat",
        "events[3]",
        "events[4]",
        "takes no count",
        "events[5].kind",
    ):
        assert part in text


def test_an_event_the_round_never_allows_is_refused() -> None:
    data = load_scenario(SCENARIOS / "641a_13_a_card_found_face_up_is_discarded.json")
    late = {**data, "events": [{"kind": "card_face_up_in_deck", "after_cards": 40}]}
    with pytest.raises(InvalidInput, match="never happened"):
        run_scenario(late)
    exposed = {**data, "events": [{"kind": "automated_shoe_jam"}]}  # a manual shoe
    with pytest.raises(InvalidInput, match="without an automated dealing shoe"):
        run_scenario(exposed)


def test_collect_vig_only_at_a_baccarat_table() -> None:
    data = load_scenario(SCENARIOS / "641a_13_a_card_found_face_up_is_discarded.json")
    data = {**data, "events": [{"kind": "collect_vig", "reason": "reshuffle"}]}
    with pytest.raises(InvalidInput, match="collects no vigorish"):
        run_scenario(data)
