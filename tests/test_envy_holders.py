"""One Envy rule for every game: a hand forfeited and collected to the discard rack before the
reveal is no longer held and qualifies nobody for an Envy Bonus; the player who folded it keeps
the eligibility to receive Envy Bonuses for the hands of others (``Round.hand_held``)."""

from __future__ import annotations

from typing import Any

from croupier.table.scenario import LIBRARY, load_scenario, run_scenario

SCENARIOS = LIBRARY


def seats(name: str) -> dict[str, Any]:
    result = run_scenario(load_scenario(SCENARIOS / f"{name}.json"))
    out: dict[str, Any] = result["seats"]
    return out


def test_641a_11_c_forfeited_hand_qualifies_nobody_for_envy() -> None:
    # Seat 1 folds four 9s with only an Ante and a progressive: § 641a.11(c) collects the
    # forfeited wagers and their cards to the discard rack before the reveal.  Seat 3 folds a
    # straight flush (5h-8h) but its Aces Up is not forfeited (§ 641a.11(b)(1)): that hand stays
    # and qualifies the others; a $1 wager under schedule A receives $5 for it (§ 641a.12(d)(5)).
    result = seats("641a_11_c_forfeited_hand_qualifies_nobody_for_envy")
    sf = [{"for_seat": 3, "line": "straight_flush", "amount": 500}]
    assert result["2"]["envy"] == sf
    assert result["1"]["envy"] == sf  # § 641a.11(b)(2): the folder keeps its eligibility
    assert result["3"]["envy"] == []  # never for its own hand; seat 1's quads are gone
    assert result["3"]["wagers"]["aces_up"]["paid"] == 30 * 500  # table A: 30 to 1
    assert result["1"]["net"] == -500 - 100 + 500


def test_649a_11_b_forfeited_hand_qualifies_nobody_for_envy() -> None:
    # Seat 1 folds a mini royal in spades with an Ante and a progressive: collected, it qualifies
    # nobody (no $100 Envy).  Seat 4 folds a mini royal in hearts but its Six Card Bonus stays in
    # action on that hand, so the hand stays and pays the others $25 each.
    result = seats("649a_11_b_forfeited_hand_qualifies_nobody_for_envy")
    mini = [{"for_seat": 4, "line": "mini_royal", "amount": 2_500}]
    assert result["2"]["envy"] == mini and result["1"]["envy"] == mini
    assert result["4"]["envy"] == []


def test_569_11_e_2_ii_discarded_fold_qualifies_nobody_for_envy() -> None:
    # Seat 1 folds a royal flush with no Trips or progressive wager: its cards go straight to the
    # discard rack (§ 569.11(e)(2)(ii)).  Seat 5 folds a straight flush under a Trips wager: the
    # cards stay under the Trips (§ 569.11(e)(2)(i)) and qualify seat 3 for its Envy Bonus.
    result = seats("569_11_e_2_ii_discarded_fold_qualifies_nobody_for_envy")
    assert result["3"]["envy"] == [{"for_seat": 5, "line": "straight_flush", "amount": 30_000}]
    assert result["5"]["wagers"]["trips"]["paid"] == 40 * 500  # Trips A: straight flush 40 to 1


def test_571_11_a_discarded_fold_qualifies_nobody_for_envy() -> None:
    # Seat 1 folds a royal flush on 3rd Street with no progressive wager: the hand goes to the
    # discard rack (§ 571.11(a)).  Seat 5 folds a straight flush but made a progressive wager:
    # its cards stay on the table (§ 571.11(a)) and qualify seat 3 ($300 on $1, § 571.12(e)).
    result = seats("571_11_a_discarded_fold_qualifies_nobody_for_envy")
    assert result["3"]["envy"] == [{"for_seat": 5, "line": "straight_flush", "amount": 30_000}]
    # § 571.11(g): seat 5 is eligible, but the only other qualifying hand was discarded
    assert result["5"]["envy"] == []


def test_643a_11_b_pulled_bets_are_not_a_forfeit_hand_still_qualifies_envy() -> None:
    # Let It Ride has no fold: Bet 3 stays (§ 643a.7(d)), so a player who pulled Bets 1 and 2
    # still holds the hand, and that royal flush qualifies the other player for $1,000.
    result = seats("643a_11_b_pulled_bets_are_not_a_forfeit_hand_still_qualifies_envy")
    assert result["6"]["envy"] == [{"for_seat": 2, "line": "royal_flush", "amount": 100_000}]
    assert result["2"]["envy"] == []
