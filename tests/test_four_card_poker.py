"""Four Card Poker, Chapter 641a (with the amended temporary Chapter 557): one test per rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from croupier.core.cards import DECK, parse_cards
from croupier.core.errors import IllegalAction, InvalidInput, RulesViolation
from croupier.games import Phase, get_game
from croupier.games.four_card_poker import FourCardPoker
from croupier.games.pov import supervisor_hands
from croupier.games.records import (
    CardDealt,
    CardDiscarded,
    DealNext,
    Fold,
    IrregularityKind,
    NoMoreBets,
    PlaceWager,
    Play,
    ReportIrregularity,
    Result,
    RoundVoided,
    WagerSettled,
)
from croupier.games.round import Round, StubCheck
from croupier.rules.progressive import MemoryMeters
from croupier.rules.submission import load_rules
from croupier.store.codec import record_from_json
from croupier.table.scenario import LIBRARY, load_scenario, run_scenario
from croupier.table.shoe import StackedShoe

SCENARIOS = LIBRARY
RULES = Path(__file__).parent / "rules"
PROGRESSIVE = {
    "progressive": {
        "paytable": "A",
        "envy": "A",
        "wager": 100,
        "reset": 500_000,
        "rate": "0.25",
        "meter": "4cp",
    }
}


def game(**rules: Any) -> FourCardPoker:
    g = get_game({"game": "four-card-poker", **rules})
    assert isinstance(g, FourCardPoker)
    return g


def new_round(g: FourCardPoker | None = None, order: str = "", **kw: Any) -> Round:
    cards = list(parse_cards(order)) if order else []
    rest = [c for c in DECK if c not in set(cards)]
    return (g or game()).new_round(shoe=StackedShoe(cards + rest), **kw)


def settled(rnd: Round, seat: int) -> dict[str, WagerSettled]:
    return {r.wager: r for r in rnd.records if isinstance(r, WagerSettled) and r.seat == seat}


def scenario(name: str) -> dict[str, Any]:
    return run_scenario(load_scenario(SCENARIOS / f"{name}.json"))


# --- § 641a.6 and § 641a.11(c)(3) ---------------------------------------------------------------


def test_641a_11_c_3_tie_goes_to_the_player() -> None:
    result = scenario("641a_11_c_3_tie_goes_to_the_player")
    wagers = result["seats"]["1"]["wagers"]
    assert wagers["ante"]["result"] == "win" and wagers["ante"]["paid"] == 500
    assert wagers["play"]["result"] == "win" and wagers["play"]["paid"] == 1000
    assert result["seats"]["1"]["net"] == 1500


def test_641a_11_c_3_i_lower_hand_loses_ante_and_play() -> None:
    rnd = new_round()
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    rnd.apply(Play(seat=1, multiple=1))
    rnd.run_dealer()
    # deck in index order: seat 1 gets 2c 2h 3c 3h 4c (threes and twos), the dealer
    # 2d 2s 3d 3s 4d 4h (fours and threes)
    wagers = settled(rnd, 1)
    assert wagers["ante"].result is Result.LOSE and wagers["play"].result is Result.LOSE
    assert rnd.settlement()["1"]["net"] == -1000


# --- § 641a.7 wagers ----------------------------------------------------------------------------


@pytest.mark.parametrize("multiple", [0, 4, -1])
def test_641a_7_d_1_play_is_one_to_three_times_the_ante(multiple: int) -> None:
    rnd = new_round()
    rnd.apply(PlaceWager(seat=2, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    before = rnd.records
    with pytest.raises(IllegalAction, match=r"§ 641a\.7\(d\)\(1\)"):
        rnd.apply(Play(seat=2, multiple=multiple))
    assert rnd.records == before and "play" not in rnd.stakes[2]


def test_641a_11_b_play_without_an_ante_is_refused() -> None:
    rnd = new_round()
    rnd.apply(PlaceWager(seat=2, wager="aces_up", amount=500))
    rnd.apply(NoMoreBets())
    rnd.apply(DealNext())
    with pytest.raises(IllegalAction, match="no Ante"):
        rnd.verify(Play(seat=2, multiple=1))
    rnd.run_dealer()  # nobody is asked: an Aces Up player makes no decision
    assert rnd.phase is Phase.OVER and set(settled(rnd, 2)) == {"aces_up"}


def test_641a_11_b_play_is_not_a_wager_placed_before_the_cards() -> None:
    rnd = new_round()
    with pytest.raises(IllegalAction, match=r"§ 641a\.11\(b\)"):
        rnd.apply(PlaceWager(seat=1, wager="play", amount=500))
    assert rnd.records == ()


def test_641a_7_c_no_wager_after_no_more_bets() -> None:
    rnd = new_round()
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    with pytest.raises(IllegalAction, match=r"§ 641a\.7\(c\)"):
        rnd.apply(PlaceWager(seat=2, wager="ante", amount=500))
    assert 2 not in rnd.stakes


@pytest.mark.parametrize("amount", [0, -500, 2.5, "500"])
def test_wager_amounts_are_positive_whole_cents(amount: Any) -> None:
    rnd = new_round()
    # a non-integer amount is refused when the action is made, a non-positive one when applied
    with pytest.raises(InvalidInput, match=r"ante wager|PlaceWager\.amount"):
        rnd.apply(PlaceWager(seat=1, wager="ante", amount=amount))
    assert rnd.records == () and rnd.stakes == {}


def test_641a_7_b_only_seated_players_wager() -> None:
    rnd = new_round(players={1: "Ann", 2: "Bob"})
    with pytest.raises(IllegalAction, match=r"§ 641a\.7\(b\)"):
        rnd.apply(PlaceWager(seat=5, wager="ante", amount=500))
    assert rnd.records == ()


def test_641a_7_e_adjacent_boxes_per_rules_submission() -> None:
    with pytest.raises(IllegalAction, match=r"§ 641a\.7\(e\)"):
        new_round(players={1: "Ann", 2: "Ann"})
    two = game(table={"adjacent_boxes": 2})
    new_round(two, players={1: "Ann", 2: "Ann"})
    with pytest.raises(IllegalAction, match="not adjacent"):
        new_round(two, players={1: "Ann", 3: "Ann"})


def test_641a_7_d_4_progressive_only_after_ante_or_aces_up() -> None:
    rnd = new_round(game(**PROGRESSIVE))
    with pytest.raises(IllegalAction, match=r"§ 641a\.7\(d\)\(4\)"):
        rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    rnd.apply(PlaceWager(seat=1, wager="aces_up", amount=500))
    rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    assert rnd.stakes[1] == {"aces_up": 500, "progressive": 100}


def test_557_7_a_4_progressive_wager_is_the_posted_amount() -> None:
    rnd = new_round(game(**PROGRESSIVE))
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    with pytest.raises(IllegalAction, match=r"§ 557\.7\(a\)\(4\)"):
        rnd.apply(PlaceWager(seat=1, wager="progressive", amount=500))


def test_progressive_not_offered_without_rules() -> None:
    rnd = new_round()
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    with pytest.raises(IllegalAction, match="not offered"):
        rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))


# --- dealing § 641a.8-641a.10 -------------------------------------------------------------------


def test_641a_8_d_one_card_at_a_time_clockwise_dealer_sixth_face_up() -> None:
    rnd = new_round()
    for seat in (2, 5):
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    dealt = [r for r in rnd.records if isinstance(r, CardDealt)]
    assert [r.to for r in dealt] == ["2", "5", "dealer"] * 5 + ["dealer"]
    assert [r.face_up for r in dealt] == [False] * 15 + [True]
    assert [r.card for r in dealt] == list(DECK[:16])


def test_641a_10_b_automated_shoe_stacks_and_bottom_card_up() -> None:
    g = game(table={"deal": "automated_shoe"})
    rnd = new_round(g)
    for seat in (1, 3):
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    dealt = [r for r in rnd.records if isinstance(r, CardDealt)]
    assert [r.to for r in dealt] == ["1"] * 5 + ["3"] * 5 + ["dealer"] * 6 + ["discard"] * 4
    assert supervisor_hands(rnd)["1"] == list(DECK[0:5])
    assert supervisor_hands(rnd)["dealer"] == [*DECK[10:15], DECK[15]]
    assert dealt[15].face_up and not dealt[14].face_up
    assert supervisor_hands(rnd)["discard"] == list(DECK[16:20])


# --- § 641a.11(b) decisions and folds -----------------------------------------------------------


def test_641a_11_b_decisions_clockwise_from_the_far_left() -> None:
    rnd = new_round()
    for seat in (6, 2, 4):
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    assert rnd.to_act().seat == 2
    with pytest.raises(IllegalAction, match="seat 2 decides now"):
        rnd.apply(Play(seat=4, multiple=1))
    rnd.apply(Fold(seat=2))
    assert rnd.to_act().seat == 4


def test_641a_11_b_fold_keeps_aces_up_and_envy_eligibility() -> None:
    result = scenario("641a_11_b_fold_keeps_aces_up_and_envy")
    seat1 = result["seats"]["1"]
    assert seat1["wagers"]["ante"]["result"] == "forfeit"
    assert seat1["wagers"]["progressive"]["result"] == "forfeit"
    assert seat1["wagers"]["aces_up"] == {
        "stake": 500,
        "result": "win",
        "paid": 500,
        "returned": 500,
        "line": "pair_of_aces",
    }
    # Envy schedule A, $5 wager: $50 for another player's four of a kind
    assert seat1["envy"] == [{"for_seat": 4, "line": "four_of_a_kind", "amount": 5_000}]
    assert seat1["net"] == -1_000 - 500 + 500 + 5_000


# --- § 641a.12 payouts ------------------------------------------------------------------------


def test_641a_12_b_ante_bonus_paid_even_when_the_dealer_wins() -> None:
    # seat 1: 5c 5d 5h 2c 3d (trips); dealer: four kings
    hands = {"1": "5c 5d 5h 2c 3d", "dealer": "Kc Kd Kh Ks 7c 8d"}
    data = {
        "game": "four-card-poker",
        "seats": {
            "1": {"wagers": {"ante": 1_000}, "decisions": ["play 1"], "hand": hands["1"].split()}
        },
        "dealer": hands["dealer"].split(),
    }
    seat = run_scenario(data)["seats"]["1"]
    assert seat["wagers"]["ante"]["result"] == "lose"
    assert seat["wagers"]["ante_bonus"]["paid"] == 2_000  # three of a kind 2 to 1
    assert seat["net"] == -2_000 + 2_000


@pytest.mark.parametrize(
    ("letter", "hand", "line", "paid"),
    [
        ("A", "Ac Ad Ah As 2c", "four_of_a_kind", 25_000),
        ("C", "5h 6h 7h 8h Kd", "straight_flush", 20_000),
        ("B", "9c 9d 9h Kd 2s", "three_of_a_kind", 3_500),
        ("A", "2d 7d 9d Jd Ks", "flush", 3_000),
        ("B", "5c 6d 7h 8s Kd", "straight", 2_500),
        ("C", "Jc Jd 4h 4s 2c", "two_pair", 1_500),
        ("F", "Ac Ad 9h 7s 2c", "pair_of_aces", 500),
    ],
)
def test_641a_12_c_aces_up_pay_table_lines(letter: str, hand: str, line: str, paid: int) -> None:
    data = {
        "game": "four-card-poker",
        "rules": {"paytables": {"aces_up": letter}},
        "seats": {"3": {"wagers": {"aces_up": 500}, "hand": hand.split()}},
        "dealer": ["Tc", "Td", "3s", "4c", "5s", "6s"],  # shares no card with any hand above
    }
    result = run_scenario(data)["seats"]["3"]["wagers"]["aces_up"]
    assert (result["line"], result["paid"]) == (line, paid)


def test_641a_12_c_pair_of_kings_loses_aces_up() -> None:
    data = {
        "game": "four-card-poker",
        "seats": {"3": {"wagers": {"aces_up": 500}, "hand": ["Kc", "Kd", "9h", "7s", "2c"]}},
        "dealer": ["2d", "2h", "2s", "3c", "3d", "3h"],
    }
    assert run_scenario(data)["seats"]["3"]["wagers"]["aces_up"]["result"] == "lose"


def test_641a_12_d_4_progressive_paid_at_the_meter_in_settlement_order() -> None:
    result = scenario("641a_12_d_4_progressive_at_the_meter_in_turn")
    two = result["seats"]["2"]
    # the meter stood at $20,000 plus 25% of two $1 wagers when seat 2's turn came
    assert two["progressive"] == [{"line": "four_aces", "amount": 2_000_050, "from_meter": True}]
    assert result["meters"]["4cp"] == {"before": 2_000_000, "after": 500_000}
    six = result["seats"]["6"]
    assert six["progressive"] == [{"line": "straight_flush", "amount": 10_000, "from_meter": False}]
    assert six["envy"] == [{"for_seat": 2, "line": "four_aces", "amount": 10_000}]
    assert two["envy"] == [{"for_seat": 6, "line": "straight_flush", "amount": 500}]
    settle_order = [r["seat"] for r in result["records"] if r["kind"] == "seat_settling"]
    assert settle_order == [6, 2]


def test_641a_11_c_5_v_no_envy_for_own_hand_or_other_box() -> None:
    data = {
        "game": "four-card-poker",
        "rules": {**PROGRESSIVE, "table": {"adjacent_boxes": 2}},
        "seats": {
            "1": {
                "player": "Ann",
                "wagers": {"ante": 500, "progressive": 100},
                "decisions": ["play"],
                "hand": ["Ac", "Ad", "Ah", "As", "2c"],
            },
            "2": {
                "player": "Ann",
                "wagers": {"ante": 500, "progressive": 100},
                "decisions": ["play"],
                "hand": ["Kc", "Kd", "Kh", "Ks", "2d"],
            },
        },
    }
    data["dealer"] = ["2h", "2s", "3c", "3d", "3h", "3s"]
    seats = run_scenario(data)["seats"]
    assert seats["1"]["envy"] == [] and seats["2"]["envy"] == []


def test_641a_8_b_progressive_chip_count_must_match() -> None:
    rnd = new_round(game(**PROGRESSIVE), meters=MemoryMeters({"4cp": 600_000}))
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    rnd.apply(NoMoreBets(progressive_chips=2))
    assert rnd.phase is Phase.VOID
    assert rnd.settlement()["1"]["net"] == 0
    assert isinstance(rnd.meters, MemoryMeters) and rnd.meters.amount("4cp") == 600_000


# --- § 641a.13 irregularities -----------------------------------------------------------------


def start_dealing(**kw: Any) -> Round:
    rnd = new_round(game(**PROGRESSIVE), meters=MemoryMeters({"4cp": 600_000}), **kw)
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    rnd.apply(NoMoreBets())
    return rnd


def test_641a_13_a_one_face_up_card_is_discarded() -> None:
    rnd = start_dealing()
    rnd.apply(DealNext())
    rnd.apply(ReportIrregularity(kind=IrregularityKind.CARD_FACE_UP_IN_DECK))
    rnd.run_dealer()
    discarded = [r.card for r in rnd.records if isinstance(r, CardDiscarded)]
    assert discarded == [DECK[1]]
    assert supervisor_hands(rnd)["dealer"][0] == DECK[2]
    assert rnd.phase is Phase.DECISIONS


def test_641a_13_a_two_face_up_cards_void_the_round() -> None:
    rnd = start_dealing()
    rnd.apply(ReportIrregularity(kind=IrregularityKind.CARD_FACE_UP_IN_DECK))
    rnd.apply(ReportIrregularity(kind=IrregularityKind.CARD_FACE_UP_IN_DECK))
    assert rnd.phase is Phase.VOID
    void = [r for r in rnd.records if isinstance(r, RoundVoided)]
    assert void[0].section == "§ 641a.13(a)"
    assert {w: (s.result, s.returned) for w, s in settled(rnd, 1).items()} == {
        "ante": (Result.VOID, 500),
        "progressive": (Result.VOID, 100),
    }
    assert isinstance(rnd.meters, MemoryMeters) and rnd.meters.exact("4cp") == 600_000


def test_641a_13_b_card_drawn_in_error_is_the_next_card() -> None:
    rnd = start_dealing()
    rnd.apply(ReportIrregularity(kind=IrregularityKind.CARD_DRAWN_IN_ERROR))
    rnd.run_dealer()
    assert supervisor_hands(rnd)["1"][0] == DECK[0]


@pytest.mark.parametrize(
    ("kind", "section"),
    [
        (IrregularityKind.WRONG_CARD_COUNT, "§ 641a.13(c)"),
        (IrregularityKind.DEALER_CARD_EXPOSED, "§ 641a.13(d)"),
    ],
)
def test_641a_13_c_d_void_returns_every_wager(kind: IrregularityKind, section: str) -> None:
    rnd = start_dealing()
    rnd.run_dealer()
    rnd.apply(ReportIrregularity(kind=kind))
    assert rnd.phase is Phase.VOID
    assert [r.section for r in rnd.records if isinstance(r, RoundVoided)] == [section]
    assert rnd.settlement()["1"]["net"] == 0


def test_641a_13_f_automated_shoe_jam_voids() -> None:
    g = game(table={"deal": "automated_shoe"}, **PROGRESSIVE)
    rnd = new_round(g)
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    rnd.apply(DealNext())
    rnd.apply(ReportIrregularity(kind=IrregularityKind.AUTOMATED_SHOE_JAM))
    assert rnd.phase is Phase.VOID
    manual = start_dealing()
    with pytest.raises(IllegalAction, match="automated dealing shoe"):
        manual.apply(ReportIrregularity(kind=IrregularityKind.AUTOMATED_SHOE_JAM))


def test_641a_8_h_wrong_stub_count_voids_and_removes_the_deck() -> None:
    rnd = start_dealing(stub_check=StubCheck.REQUIRED)
    while rnd.phase is Phase.DEALING:
        rnd.apply(DealNext())
    assert rnd.phase is Phase.STUB_COUNT
    from croupier.games.records import CountStub

    rnd.apply(CountStub(count=35))
    void = [r for r in rnd.records if isinstance(r, RoundVoided)]
    assert void and void[0].deck_removed and void[0].section == "§ 641a.8(f)"


# --- Rules Submission -----------------------------------------------------------------------


def test_rules_submission_example_is_valid() -> None:
    g = get_game(load_rules(RULES / "four-card-poker.toml"))
    assert g.paytable("aces_up") is not None and g.paytable("aces_up").letter == "B"  # type: ignore[union-attr]
    assert "Envy Bonus schedule A" in g.sign()


def test_rules_submission_reports_every_problem_with_its_section() -> None:
    with pytest.raises(RulesViolation) as info:
        get_game(load_rules(RULES / "four-card-poker-bad.toml"))
    problems = dict(info.value.problems)
    sections = set(problems.values())
    assert {
        "§ 641a.12(c)",
        "§ 641a.12(d)(5)",
        "§ 557.7(a)(4)",
        "§ 641a.12(d)(3)",
        "§ 641a.3(b)",
    } <= sections
    assert any("rate of progression" in m for m in problems)
    assert len(info.value.problems) == 6


def test_641a_12_d_3_reset_minimum_depends_on_table() -> None:
    ok = {**PROGRESSIVE["progressive"], "paytable": "B", "reset": 100_000}
    game(progressive=ok)
    with pytest.raises(RulesViolation, match=r"§ 641a\.12\(d\)\(3\)"):
        game(progressive={**ok, "paytable": "A"})


def test_scenario_records_rebuild_the_round() -> None:
    name = "641a_12_d_4_progressive_at_the_meter_in_turn"
    result = scenario(name)
    history = json.loads(json.dumps(result["records"]))  # JSON-ready, and read back
    records = [record_from_json(r) for r in history]
    rules = load_scenario(SCENARIOS / f"{name}.json")["rules"]
    rebuilt = Round.rebuild(game(**rules), records)
    assert rebuilt.phase is Phase.OVER and rebuilt.records == tuple(records)
    assert rebuilt.history() == history
    assert rebuilt.settlement() == result["seats"]
    assert isinstance(rebuilt.meters, MemoryMeters)
    assert rebuilt.meters.snapshot() == {"4cp": result["meters"]["4cp"]["after"]}
