"""Ultimate Texas Hold 'Em Poker, temporary Chapter 569 (seed 002) with the § 653a.12 tables:
one test per rule."""

from __future__ import annotations

import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from croupier.cli import main
from croupier.core.cards import DECK, parse_cards
from croupier.core.errors import IllegalAction, InvalidInput, RulesViolation
from croupier.games import Phase, get_game
from croupier.games.records import (
    CardDealt,
    Check,
    DealerRevealed,
    EnvyPaid,
    Fold,
    NoMoreBets,
    PlaceWager,
    Play,
    Result,
    SeatSettling,
    StubCounted,
    WagerSettled,
)
from croupier.games.round import Round, StubCheck
from croupier.games.ultimate_texas_holdem import (
    Street,
    UltimateTexasHoldem,
    UltimateTexasHoldemRound,
)
from croupier.games.ultimate_texas_holdem.paytables import (
    BAD_BEAT_C,
    BLIND,
    ENVY,
    PROGRESSIVE,
    TRIPS,
)
from croupier.rules.progressive import MemoryMeters
from croupier.rules.submission import load_rules
from croupier.table.scenario import LIBRARY, load_scenario, run_scenario
from croupier.table.shoe import StackedShoe

SCENARIOS = LIBRARY
RULES = Path(__file__).parent / "rules"
SLUG = "ultimate-texas-holdem"


def progressive(wager: int = 100) -> dict[str, Any]:
    return {
        "progressive": {
            "paytable": "A",
            "envy": "A",
            "wager": wager,
            "reset": 1_000_000,
            "rate": "0.25",
            "meter": "uth",
        }
    }


def game(**rules: Any) -> UltimateTexasHoldem:
    g = get_game({"game": SLUG, **rules})
    assert isinstance(g, UltimateTexasHoldem)
    return g


def new_round(
    g: UltimateTexasHoldem | None = None, order: str = "", **kw: Any
) -> UltimateTexasHoldemRound:
    cards = list(parse_cards(order)) if order else []
    rest = [c for c in DECK if c not in set(cards)]
    rnd = (g or game()).new_round(shoe=StackedShoe(cards + rest), **kw)
    assert isinstance(rnd, UltimateTexasHoldemRound)
    return rnd


def seated(rnd: Round, *seats: int, unit: int = 500) -> None:
    for seat in seats:
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=unit))
        rnd.apply(PlaceWager(seat=seat, wager="blind", amount=unit))


def settled(rnd: Round, seat: int) -> dict[str, WagerSettled]:
    return {r.wager: r for r in rnd.records if isinstance(r, WagerSettled) and r.seat == seat}


def scenario(name: str) -> dict[str, Any]:
    return run_scenario(load_scenario(SCENARIOS / f"{name}.json"))


def one_hand(
    hole: str,
    dealer: str,
    board: str,
    *,
    wagers: dict[str, int] | None = None,
    decisions: tuple[str, ...] = ("play 4",),
    rules: dict[str, Any] | None = None,
    meters: dict[str, int] | None = None,
) -> dict[str, Any]:
    """One player at seat 1 against the dealer, by the scenario format."""
    data: dict[str, Any] = {
        "game": SLUG,
        "rules": rules or {},
        "seats": {
            "1": {
                "wagers": wagers or {"ante": 1000, "blind": 1000},
                "decisions": list(decisions),
                "hand": hole.split(),
            }
        },
        "dealer": dealer.split(),
        "community": board.split(),
    }
    if meters:
        data["meters"] = meters
    return run_scenario(data)


# Hands for every pay line: (category, player's two cards, dealer's two cards, board).  In each
# the dealer qualifies (a pair or better) and the player's hand is the higher.
HANDS = [
    ("royal_flush", "Ah Kh", "4s 4d", "Qh Jh Th 2c 3d"),
    ("straight_flush", "9h 8h", "2s Ks", "7h 6h 5h 2c Kd"),
    ("four_of_a_kind", "9c 9d", "Ks 3d", "9h 9s 2c 5d Kh"),
    ("full_house", "8c 8d", "Kd 3s", "8h 5s 5d 2c Kh"),
    ("flush", "Ac 9c", "Kh 3s", "2c 6c Jc Kd 4h"),
    ("straight", "9h 8d", "Kh 3s", "7c 6s Th 2d Kc"),
    ("three_of_a_kind", "5c 5d", "Kd 3s", "5h Kc 9s 2d Jh"),
    ("two_pair", "Jc 9d", "Kd 3s", "Jh 9s 2c 5d Kh"),
    ("pair", "Ac Ad", "Kd Ks", "2c 7d 9s Jh 4c"),
]


# --- § 569.1 hands: best five of seven ----------------------------------------------------------


def test_569_1_hand_is_best_five_of_the_two_cards_and_five_community_cards() -> None:
    result = one_hand("9h 8d", "Kh 3s", "7c 6s Th 2d Kc")
    assert result["dealer"]["category"] == "pair"
    assert sorted(result["dealer"]["best"]) == sorted(["Kh", "Kc", "Th", "7c", "6s"])
    assert result["seats"]["1"]["wagers"]["play"]["line"] == "straight"


# --- § 569.7 wagers -------------------------------------------------------------------------------


def test_569_2_b_2_ante_and_blind_are_equal() -> None:
    rnd = new_round()
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    before = rnd.records
    with pytest.raises(IllegalAction, match=r"equal.*§ 569\.2\(b\)\(2\)"):
        rnd.apply(PlaceWager(seat=1, wager="blind", amount=1000))
    assert rnd.records == before and rnd.stakes == {1: {"ante": 500}}
    rnd.apply(PlaceWager(seat=2, wager="blind", amount=300))
    with pytest.raises(IllegalAction, match="equal"):
        rnd.apply(PlaceWager(seat=2, wager="ante", amount=500))
    assert rnd.stakes[2] == {"blind": 300}


def test_569_1_ante_without_blind_is_refused_at_no_more_bets() -> None:
    rnd = new_round()
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    before = rnd.records
    with pytest.raises(IllegalAction, match=r"seat 1 has no blind.*§ 569\.1"):
        rnd.apply(NoMoreBets())
    assert rnd.records == before and rnd.phase is Phase.BETTING and rnd.cards_left == 52


def test_569_1_trips_alone_is_not_dealt_a_hand() -> None:
    rnd = new_round()
    seated(rnd, 1)
    rnd.apply(PlaceWager(seat=3, wager="trips", amount=500))
    with pytest.raises(IllegalAction, match="seat 3 has no ante or blind"):
        rnd.apply(NoMoreBets())
    assert rnd.phase is Phase.BETTING


def test_569_1_play_is_not_a_wager_placed_before_the_cards() -> None:
    rnd = new_round()
    with pytest.raises(IllegalAction, match=r"§ 569\.1"):
        rnd.apply(PlaceWager(seat=1, wager="play", amount=500))
    assert rnd.records == ()


def test_569_7_b_no_wager_after_no_more_bets() -> None:
    rnd = new_round()
    seated(rnd, 1)
    rnd.apply(NoMoreBets())
    with pytest.raises(IllegalAction, match=r"§ 569\.7\(b\)"):
        rnd.apply(PlaceWager(seat=1, wager="trips", amount=500))
    assert "trips" not in rnd.stakes[1]


def test_569_7_f_progressive_only_after_ante_and_blind() -> None:
    rnd = new_round(game(**progressive()))
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    with pytest.raises(IllegalAction, match=r"§ 569\.7\(f\)"):
        rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    rnd.apply(PlaceWager(seat=1, wager="blind", amount=500))
    with pytest.raises(IllegalAction, match=r"§ 569\.7\(f\)"):
        rnd.apply(PlaceWager(seat=1, wager="progressive", amount=500))
    rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    assert rnd.stakes[1] == {"ante": 500, "blind": 500, "progressive": 100}


@pytest.mark.parametrize("wager", [100, 500])
def test_569_7_f_progressive_is_one_or_five_dollars(wager: int) -> None:
    assert game(**progressive(wager)).rules.progressive is not None
    with pytest.raises(RulesViolation, match=r"§ 569\.7\(f\)"):
        game(**progressive(200))


def test_569_7_g_only_seated_players_wager() -> None:
    rnd = new_round(players={1: "Ann", 2: "Bob"})
    with pytest.raises(IllegalAction, match=r"§ 569\.7\(g\)"):
        rnd.apply(PlaceWager(seat=5, wager="ante", amount=500))
    assert rnd.records == ()


def test_569_7_h_one_position_per_player() -> None:
    with pytest.raises(IllegalAction, match=r"§ 569\.7\(h\)"):
        new_round(players={1: "Ann", 2: "Ann"})
    with pytest.raises(RulesViolation, match=r"§ 569\.7\(h\)"):
        game(table={"adjacent_boxes": 2})


def test_653b_3_bad_beat_is_not_offered() -> None:
    rnd = new_round()
    with pytest.raises(InvalidInput, match="bad_beat"):
        rnd.apply(PlaceWager(seat=1, wager="bad_beat", amount=500))
    assert BAD_BEAT_C.line_for({"straight_flush"}) is not None  # the table is kept as data


# --- dealing ------------------------------------------------------------------------------------


def test_569_8_two_cards_each_one_at_a_time_then_burn_flop_burn_final_two() -> None:
    rnd = new_round()
    seated(rnd, 2, 5)
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    hole = [r for r in rnd.records if isinstance(r, CardDealt)]
    assert [r.to for r in hole] == ["2", "5", "dealer"] * 2
    assert not any(r.face_up for r in hole)
    for seat in (2, 5):
        rnd.apply(Check(seat=seat))
    rnd.run_dealer()
    for seat in (2, 5):
        rnd.apply(Check(seat=seat))
    rnd.run_dealer()
    dealt = [r for r in rnd.records if isinstance(r, CardDealt)]
    flop, final = ["burn", "board", "board", "board"], ["burn", "board", "board"]
    assert [r.to for r in dealt[6:]] == [*flop, *final]
    assert [r.face_up for r in dealt[6:]] == [False, True, True, True, False, True, True]
    assert [r.card for r in dealt] == list(DECK[:13])
    assert rnd.phase is Phase.DECISIONS and rnd.street.name is Street.RIVER


def test_569_10_automated_shoe_deals_stacks_of_two() -> None:
    rnd = new_round(game(table={"deal": "automated_shoe"}))
    seated(rnd, 1, 3)
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    dealt = [r.to for r in rnd.records if isinstance(r, CardDealt)]
    assert dealt == ["1", "1", "3", "3", "dealer", "dealer"]


def deal_out(rnd: Round) -> list[Phase]:
    """Run chance and the stub count; the phases passed through."""
    seen: list[Phase] = []
    while rnd.phase in (Phase.DEALING, Phase.STUB_COUNT):
        seen.append(rnd.phase)
        rnd.apply(rnd.dealer_step())
    return seen


def test_stub_is_counted_after_the_last_community_cards() -> None:
    rnd = new_round(stub_check=StubCheck.REQUIRED)
    seated(rnd, 1)
    rnd.apply(NoMoreBets())
    assert Phase.STUB_COUNT not in deal_out(rnd)  # cards are still to come
    rnd.apply(Check(seat=1))
    assert Phase.STUB_COUNT not in deal_out(rnd)
    rnd.apply(Check(seat=1))
    seen = deal_out(rnd)
    assert seen[-1] is Phase.STUB_COUNT and seen.count(Phase.STUB_COUNT) == 1
    assert rnd.phase is Phase.DECISIONS and rnd.to_act().seat == 1
    assert next(r for r in rnd.records if isinstance(r, StubCounted)).count == 52 - 11


# --- § 569.11 decisions ---------------------------------------------------------------------------


@pytest.mark.parametrize("multiple", [1, 2, 5])
def test_569_11_before_the_flop_play_is_three_or_four_times_the_ante(multiple: int) -> None:
    rnd = new_round()
    seated(rnd, 1)
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    before = rnd.records
    with pytest.raises(IllegalAction, match=r"3x or 4x.*§ 569\.11"):
        rnd.apply(Play(seat=1, multiple=multiple))
    assert rnd.records == before and "play" not in rnd.stakes[1]
    rnd.apply(Play(seat=1, multiple=3))
    assert rnd.stakes[1]["play"] == 1500


def test_569_11_after_the_flop_a_3x_play_is_refused() -> None:
    rnd = new_round()
    seated(rnd, 1)
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    rnd.apply(Check(seat=1))
    rnd.run_dealer()
    before = (rnd.records, rnd.cards_left)
    with pytest.raises(IllegalAction, match=r"Play wager on the flop .*2x"):
        rnd.apply(Play(seat=1, multiple=3))
    assert (rnd.records, rnd.cards_left) == before and "play" not in rnd.stakes[1]
    rnd.apply(Play(seat=1, multiple=2))
    assert rnd.stakes[1]["play"] == 1000


def test_569_11_one_play_wager_a_round() -> None:
    rnd = new_round()
    seated(rnd, 1, 2)
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    rnd.apply(Play(seat=1, multiple=4))
    rnd.apply(Check(seat=2))
    rnd.run_dealer()
    assert rnd.to_act().seat == 2  # seat 1 is not asked again
    before = rnd.records
    with pytest.raises(IllegalAction, match="already has a Play wager of 2000"):
        rnd.apply(Play(seat=1, multiple=2))
    with pytest.raises(IllegalAction, match="already has a Play wager"):
        rnd.apply(Check(seat=1))
    assert rnd.records == before and rnd.stakes[1]["play"] == 2000


def test_569_11_e_after_the_river_play_once_the_ante_or_fold() -> None:
    rnd = new_round()
    seated(rnd, 1)
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    with pytest.raises(IllegalAction, match="folding comes after"):
        rnd.apply(Fold(seat=1))
    rnd.apply(Check(seat=1))
    rnd.run_dealer()
    rnd.apply(Check(seat=1))
    rnd.run_dealer()
    before = rnd.records
    with pytest.raises(IllegalAction, match=r"plays 1x the Ante or folds.*§ 569\.11\(e\)"):
        rnd.apply(Check(seat=1))
    with pytest.raises(IllegalAction, match=r"on the river .*equals the Ante.*§ 569\.11\(e\)"):
        rnd.apply(Play(seat=1, multiple=2))
    assert rnd.records == before
    rnd.apply(Play(seat=1, multiple=1))
    assert rnd.stakes[1]["play"] == 500


def test_569_11_e_decisions_clockwise_from_the_dealers_left() -> None:
    rnd = new_round()
    seated(rnd, 2, 5)
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    with pytest.raises(IllegalAction, match=r"seat 2 decides now.*§ 569\.11\(e\)"):
        rnd.apply(Play(seat=5, multiple=4))
    assert rnd.to_act().seat == 2


def test_569_11_e_2_a_fold_collects_ante_and_blind_at_once() -> None:
    rnd = new_round()
    seated(rnd, 1, 2)
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    rnd.apply(Check(seat=1))
    rnd.apply(Check(seat=2))
    rnd.run_dealer()
    rnd.apply(Check(seat=1))
    rnd.apply(Check(seat=2))
    rnd.run_dealer()
    rnd.apply(Fold(seat=1))
    wagers = settled(rnd, 1)
    assert {w: r.result for w, r in wagers.items()} == {
        "ante": Result.FORFEIT,
        "blind": Result.FORFEIT,
    }
    assert rnd.phase is Phase.DECISIONS and rnd.to_act().seat == 2


def test_569_11_e_2_trips_and_progressive_paid_after_a_fold() -> None:
    result = scenario("569_11_e_2_trips_and_progressive_paid_after_a_fold")
    seat = result["seats"]["4"]
    assert seat["wagers"]["ante"]["result"] == "forfeit"
    assert seat["wagers"]["blind"]["result"] == "forfeit"
    assert seat["wagers"]["trips"] == {
        "stake": 500,
        "result": "win",
        "paid": 1500,
        "returned": 500,
        "line": "three_of_a_kind",
    }
    assert seat["wagers"]["progressive"]["paid"] == 900  # 9 for 1
    assert seat["net"] == -1000 + 1500 + 800


# --- § 569.11(f)-(h) reveal and settlement --------------------------------------------------------


def test_569_11_h_1_a_4x_play_loses_to_a_qualifying_dealer() -> None:
    result = scenario("569_11_h_1_play_4x_loses_to_qualifying_dealer")
    wagers = result["seats"]["3"]["wagers"]
    assert result["dealer"]["category"] == "pair"
    assert {w: (v["stake"], v["result"]) for w, v in wagers.items()} == {
        "ante": (500, "lose"),
        "blind": (500, "lose"),
        "play": (2000, "lose"),
    }
    assert result["seats"]["3"]["net"] == -3000


def test_569_11_g_dealer_below_a_pair_returns_the_ante_and_pays_the_blind() -> None:
    result = scenario("569_11_g_dealer_does_not_qualify_ante_returned_blind_paid")
    wagers = result["seats"]["1"]["wagers"]
    assert result["dealer"]["category"] == "high_card"
    assert wagers["ante"] == {
        "stake": 1000,
        "result": "push",
        "paid": 0,
        "returned": 1000,
        "line": "straight",
    }
    assert wagers["blind"]["result"] == "win" and wagers["blind"]["paid"] == 1000
    assert wagers["play"]["result"] == "win" and wagers["play"]["paid"] == 2000
    assert wagers["trips"]["paid"] == 2000  # straight 4 to 1, table A
    assert result["seats"]["1"]["net"] == 5000


def test_569_11_g_a_lower_hand_still_loses_blind_and_play_to_a_dealer_below_a_pair() -> None:
    result = one_hand("Jc 8d", "Ac 4h", "7c 6s Th 2d Kc", decisions=("check", "check", "play"))
    wagers = result["seats"]["1"]["wagers"]
    assert [wagers[w]["result"] for w in ("ante", "blind", "play")] == ["push", "lose", "lose"]
    assert result["seats"]["1"]["net"] == -2000


def test_569_11_h_2_the_blind_pushes_on_a_win_below_a_straight() -> None:
    result = one_hand("Jc 9d", "Kd 3s", "Jh 9s 2c 5d Kh")
    wagers = result["seats"]["1"]["wagers"]
    assert wagers["ante"]["result"] == "win" and wagers["play"]["paid"] == 4000
    assert wagers["blind"]["result"] == "push" and wagers["blind"]["returned"] == 1000
    assert result["seats"]["1"]["net"] == 1000 + 4000


def test_569_11_h_3_a_tie_pushes_ante_blind_and_play() -> None:
    result = one_hand("2c 3d", "2h 3h", "As Ks Kd 9c 9h")
    wagers = result["seats"]["1"]["wagers"]
    assert {wagers[w]["result"] for w in ("ante", "blind", "play")} == {"push"}
    assert result["seats"]["1"]["net"] == 0


def test_569_11_h_settle_from_the_dealers_right_folded_hands_last() -> None:
    g = game(**progressive())
    rnd = new_round(g)
    for seat in (1, 3, 6):
        seated(rnd, seat)
    rnd.apply(PlaceWager(seat=1, wager="trips", amount=500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    for _ in range(2):
        for seat in (1, 3, 6):
            rnd.apply(Check(seat=seat))
        rnd.run_dealer()
    rnd.apply(Fold(seat=1))
    rnd.apply(Play(seat=3, multiple=1))
    rnd.apply(Fold(seat=6))
    rnd.run_dealer()
    order = [r.seat for r in rnd.records if isinstance(r, SeatSettling)]
    assert order == [3, 1]  # seat 6 folded with nothing left; seat 1's Trips waits
    assert rnd.phase is Phase.OVER
    assert any(isinstance(r, DealerRevealed) for r in rnd.records)


# --- § 653a.12 pay tables -------------------------------------------------------------------------


@pytest.mark.parametrize("letter", ["A", "B"])
@pytest.mark.parametrize(("category", "hole", "dealer", "board"), HANDS)
def test_653a_12_b_blind_table_lines(
    letter: str, category: str, hole: str, dealer: str, board: str
) -> None:
    result = one_hand(hole, dealer, board, rules={"paytables": {"blind": letter}})
    blind = result["seats"]["1"]["wagers"]["blind"]
    line = BLIND[letter].line_for({category})
    if line is None:
        assert (blind["result"], blind["paid"], blind["returned"]) == ("push", 0, 1000)
    else:
        assert line.odds is not None
        assert (blind["result"], blind["line"]) == ("win", category)
        assert blind["paid"] == line.odds.winnings(1000)
    assert result["seats"]["1"]["wagers"]["ante"]["result"] == "win"


def test_653a_12_b_exact_blind_odds() -> None:
    paid = {ln.hand: ln.odds.winnings(1000) for ln in BLIND["A"].lines if ln.odds is not None}
    assert paid == {
        "royal_flush": 500_000,
        "straight_flush": 50_000,
        "four_of_a_kind": 10_000,
        "full_house": 3_000,
        "flush": 1_500,
        "straight": 1_000,
    }
    assert BLIND["B"].hands() == BLIND["A"].hands()[:-1]


@pytest.mark.parametrize("letter", ["A", "B", "C", "D"])
@pytest.mark.parametrize(("category", "hole", "dealer", "board"), HANDS)
def test_653a_12_c_trips_table_lines(
    letter: str, category: str, hole: str, dealer: str, board: str
) -> None:
    result = one_hand(
        hole,
        dealer,
        board,
        wagers={"ante": 1000, "blind": 1000, "trips": 1000},
        rules={"paytables": {"trips": letter}},
    )
    trips = result["seats"]["1"]["wagers"]["trips"]
    line = TRIPS[letter].line_for({category})
    if line is None:
        assert (trips["result"], trips["paid"], trips["returned"]) == ("lose", 0, 0)
    else:
        assert line.odds is not None
        assert (trips["result"], trips["paid"]) == ("win", line.odds.winnings(1000))


def test_653a_12_c_exact_trips_odds() -> None:
    def odds(letter: str) -> list[int]:
        return [ln.odds.numerator for ln in TRIPS[letter].lines if ln.odds is not None]

    assert odds("A") == [50, 40, 30, 9, 7, 4, 3]
    assert odds("B") == [50, 40, 30, 8, 6, 5, 3]
    assert odds("C") == [50, 40, 30, 8, 7, 4, 3]
    assert odds("D") == [50, 40, 20, 7, 6, 5, 3]


# --- § 569.12(f) progressive and Envy Bonus -------------------------------------------------------


@pytest.mark.parametrize(("category", "hole", "dealer", "board"), HANDS)
def test_569_12_f_progressive_lines(category: str, hole: str, dealer: str, board: str) -> None:
    result = one_hand(
        hole,
        dealer,
        board,
        wagers={"ante": 1000, "blind": 1000, "progressive": 100},
        rules=progressive(),
        meters={"uth": 3_000_000},
    )
    wager = result["seats"]["1"]["wagers"]["progressive"]
    meter = 3_000_000 + 25  # the 25% contribution of the $1 wager
    expected = {
        "royal_flush": meter,
        "straight_flush": meter // 10,
        "four_of_a_kind": 30_000,
        "full_house": 5_000,
        "flush": 4_000,
        "straight": 3_000,
        "three_of_a_kind": 900,
    }
    if category in expected:
        assert (wager["result"], wager["paid"], wager["returned"]) == (
            "win",
            expected[category],
            0,
        )
    else:
        assert (wager["result"], wager["paid"]) == ("lose", 0)
    after = result["meters"]["uth"]["after"]
    if category == "royal_flush":
        assert after == 1_000_000  # § 569.12(f)(3): back to the reset amount
    elif category == "straight_flush":
        assert after == meter - meter // 10
    else:
        assert after == meter


def test_569_12_f_progressive_table_is_the_regulation() -> None:
    lines = PROGRESSIVE["A"].lines
    assert [(ln.hand, ln.meter_share) for ln in lines[:2]] == [
        ("royal_flush", Fraction(1)),
        ("straight_flush", Fraction(1, 10)),
    ]
    assert [str(ln.odds) for ln in lines[2:]] == [
        "300 for 1",
        "50 for 1",
        "40 for 1",
        "30 for 1",
        "9 for 1",
    ]


def test_569_12_f_2_envy_bonus_amounts_by_own_wager() -> None:
    assert [(ln.hand, ln.amount) for ln in ENVY["A"].by_wager[100]] == [
        ("royal_flush", 100_000),
        ("straight_flush", 30_000),
    ]
    assert [(ln.hand, ln.amount) for ln in ENVY["A"].by_wager[500]] == [
        ("royal_flush", 500_000),
        ("straight_flush", 150_000),
    ]


def test_569_12_f_2_envy_for_another_players_straight_flush_not_own_or_dealers() -> None:
    data = {
        "game": SLUG,
        "rules": progressive(500),
        "meters": {"uth": 2_000_000},
        "seats": {
            "2": {
                "wagers": {"ante": 500, "blind": 500, "progressive": 500},
                "decisions": ["play 4"],
                "hand": ["9h", "8h"],
            },
            "5": {
                "wagers": {"ante": 500, "blind": 500, "progressive": 500},
                "decisions": ["check", "check", "fold"],
                "hand": ["2s", "3d"],
            },
        },
        "dealer": ["4h", "3h"],
        "community": ["7h", "6h", "5h", "Kc", "Qd"],
    }
    result = run_scenario(data)
    # The dealer holds a straight flush too (7-high): no Envy Bonus for the dealer's hand.
    assert result["dealer"]["category"] == "straight_flush"
    assert result["seats"]["5"]["envy"] == [
        {"for_seat": 2, "line": "straight_flush", "amount": 150_000}
    ]
    assert result["seats"]["2"]["envy"] == []
    assert result["seats"]["2"]["wagers"]["play"]["result"] == "win"


def test_569_12_f_3_reset_is_at_least_ten_thousand_dollars() -> None:
    rules = progressive()
    rules["progressive"]["reset"] = 999_999
    with pytest.raises(RulesViolation, match=r"§ 569\.12\(f\)\(3\)"):
        game(**rules)


def test_569_12_f_4_royal_then_straight_flush_paid_at_the_meter_in_settlement_order() -> None:
    # Two royal flushes cannot meet in one round: each is made of the player's two cards and
    # the flop (§ 569.12(f)(1) as read in the game module), so a royal flush and a straight
    # flush on the same flop show (f)(4): each paid at the meter when it is that player's turn.
    result = scenario("569_12_f_4_royal_then_straight_flush_meter_in_turn")
    first, second = result["seats"]["6"], result["seats"]["2"]
    assert list(result["seats"]) == ["6", "2"]  # seat 6 is settled first
    assert first["progressive"] == [
        {"line": "royal_flush", "amount": 2_000_050, "from_meter": True}
    ]
    # 10% of the meter as reset by seat 6's award; the meter stays at its reset (f)(3)
    assert second["progressive"] == [
        {"line": "straight_flush", "amount": 100_000, "from_meter": False}
    ]
    assert first["envy"] == [{"for_seat": 2, "line": "straight_flush", "amount": 30_000}]
    assert second["envy"] == [{"for_seat": 6, "line": "royal_flush", "amount": 100_000}]
    assert first["wagers"]["trips"]["paid"] == 25_000  # 50 to 1
    assert result["meters"]["uth"] == {"before": 2_000_000, "after": 1_000_000}


# --- the table's Rules Submission, the simple strategy, the command line --------------------------


def test_rules_submission_files() -> None:
    assert load_rules(RULES / "ultimate-texas-holdem.toml").game == SLUG
    get_game(load_rules(RULES / "ultimate-texas-holdem.toml"))
    with pytest.raises(RulesViolation) as info:
        get_game(load_rules(RULES / "ultimate-texas-holdem-bad.toml"))
    sections = {s for _, s in info.value.problems}
    assert {
        "§ 653a.12(b)",
        "§ 653a.12(c)",
        "§ 569.7(f)",
        "§ 569.12(f)(3)",
        "§ 569.7(h)",
    } <= sections
    assert len(info.value.problems) == 6


def test_sign_shows_every_table() -> None:
    sign = get_game(load_rules(RULES / "ultimate-texas-holdem.toml")).sign()
    assert "Blind, pay table A" in sign and "Trips, pay table B" in sign
    assert "10% of meter" in sign and "$1 progressive wager: royal flush $1,000" in sign


def test_simple_strategy_raises_4x_with_an_ace_and_folds_nothing() -> None:
    # deck order after the stacked cards: seat 1 As 2c, dealer Kd Ks
    rnd = new_round(order="As Kd 2c Ks 3h 4d 7h 9c 5h Jd Qc")
    seated(rnd, 1)
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    assert rnd.simple_strategy(1) == Play(seat=1, multiple=4)
    rnd2 = new_round(order="7s Kd 2c Ks 3h 4d 8h 9c 5h Jd Qc")
    seated(rnd2, 1)
    rnd2.apply(NoMoreBets())
    rnd2.run_dealer()
    assert rnd2.simple_strategy(1) == Check(seat=1)
    rnd2.apply(Check(seat=1))
    rnd2.run_dealer()
    assert rnd2.simple_strategy(1) == Check(seat=1)  # 4d 8h 9c: no two pair
    rnd2.apply(Check(seat=1))
    rnd2.run_dealer()
    assert rnd2.simple_strategy(1) == Fold(seat=1)  # 7s 2c + 4d 8h 9c Jd Qc: nothing


def test_rebuild_replays_the_round() -> None:
    rnd = new_round(game(**progressive()))
    seated(rnd, 1, 4)
    rnd.apply(PlaceWager(seat=4, wager="progressive", amount=100))
    rnd.apply(NoMoreBets())
    while not rnd.is_over:
        rnd.run_dealer()
        actor = rnd.to_act()
        if actor.seat is not None:
            rnd.apply(rnd.simple_strategy(actor.seat))
    rebuilt = Round.rebuild(rnd.game, rnd.records, players=rnd.players)
    assert rebuilt.records == rnd.records and rebuilt.settlement() == rnd.settlement()
    assert not [r for r in rnd.records if isinstance(r, EnvyPaid)]


def test_cli_replay_and_play(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    name = "569_11_h_1_play_4x_loses_to_qualifying_dealer.json"
    assert main(["replay", str(SCENARIOS / name)], out=out) == 0
    assert json.loads(out.getvalue())["seats"]["3"]["net"] == -3000
    monkeypatch.setattr("sys.stdin", io.StringIO("500\n500\n\n1\nn\n"))
    out = io.StringIO()
    assert main(["play", SLUG, "--seed", "3"], out=out) == 0
    assert "Dealer:" in out.getvalue() and "You leave the table with" in out.getvalue()


def test_meters_default_to_the_reset() -> None:
    meters = MemoryMeters()
    new_round(game(**progressive()), meters=meters)
    assert meters.snapshot() == {"uth": 1_000_000}
