"""Let It Ride Poker, Chapter 643a (seeds 000, 003), § 559.14(e) (seed 002): one test per rule."""

from __future__ import annotations

import io
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from croupier.cli import main
from croupier.core.cards import DECK, parse_cards
from croupier.core.errors import CroupierError, IllegalAction, InvalidInput, RulesViolation
from croupier.games import Phase, get_game
from croupier.games.let_it_ride import (
    BetRidden,
    BetWithdrawn,
    CommunityCardTurned,
    LetItRide,
    LetItRideRound,
    PayoutLimited,
    Ride,
    Withdraw,
)
from croupier.games.let_it_ride.paytables import FIVE_CARD_HANDS, THREE_CARD_HANDS
from croupier.games.pov import supervisor_hands
from croupier.games.records import (
    CardDealt,
    CardDiscarded,
    DealNext,
    IrregularityKind,
    NoMoreBets,
    PlaceWager,
    ReportIrregularity,
    Result,
    Reveal,
    RoundVoided,
    WagerSettled,
)
from croupier.games.round import Round, StubCheck
from croupier.rules.progressive import MemoryMeters
from croupier.rules.submission import load_rules
from croupier.table.scenario import LIBRARY, load_scenario, run_scenario
from croupier.table.shoe import StackedShoe

SCENARIOS = LIBRARY
RULES = Path(__file__).parent / "rules"
BETS = ("bet1", "bet2", "bet3")
EXAMPLE: dict[str, Any] = dict(LetItRide.example_rules)
# The Five Card Hand Bonus and the Three-Card Progressive have no published table, so the example
# offers neither (issue 35); these tests play them under the test tables of
# tests/rules/let-it-ride.toml, which are no casino's.
TEST_TABLES: dict[str, Any] = tomllib.loads((RULES / "let-it-ride.toml").read_text("utf-8"))[
    "custom_paytables"
]
THREE_CARD_PROGRESSIVE = {**TEST_TABLES["three_card_progressive"], "meter": "lir-3"}
FIVE_CARD_PROGRESSIVE = {**EXAMPLE["progressive"], "meter": "lir-5"}
HAND_BONUS = {h: f"{n} to 1" for h, n in zip(FIVE_CARD_HANDS, (500, 100, 40, 10, 7), strict=False)}


def game(**rules: Any) -> LetItRide:
    g = get_game({"game": "let-it-ride", **rules})
    assert isinstance(g, LetItRide)
    return g


def full_game() -> LetItRide:
    """Every optional wager offered: the example and the test tables."""
    example = {k: v for k, v in EXAMPLE.items() if k != "game"}
    return game(**example, custom_paytables=TEST_TABLES)


def new_round(g: LetItRide | None = None, order: str = "", **kw: Any) -> LetItRideRound:
    cards = list(parse_cards(order)) if order else []
    rest = [c for c in DECK if c not in set(cards)]
    rnd = (g or game()).new_round(shoe=StackedShoe(cards + rest), **kw)
    assert isinstance(rnd, LetItRideRound)
    return rnd


def bets(rnd: Round, seat: int, amount: int = 500) -> None:
    for wager in BETS:
        rnd.apply(place(seat, wager, amount))


def dealt_round(
    seats: tuple[int, ...] = (1,), g: LetItRide | None = None, **kw: Any
) -> LetItRideRound:
    rnd = new_round(g, **kw)
    for seat in seats:
        bets(rnd, seat)
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    return rnd


def phase(rnd: Round) -> Phase:
    """The phase now (read through a call, so a type checker does not keep an earlier one)."""
    return rnd.phase


def settled(rnd: Round, seat: int) -> dict[str, WagerSettled]:
    return {r.wager: r for r in rnd.records if isinstance(r, WagerSettled) and r.seat == seat}


def scenario(name: str) -> dict[str, Any]:
    return run_scenario(load_scenario(SCENARIOS / f"{name}.json"))


def one_hand(
    hand: str, community: str, wagers: dict[str, int], meters: Any = None, **rules: Any
) -> dict[str, Any]:
    """Seat 1's wagers settled after it lets both bets ride, from a scenario."""
    seat = {"wagers": wagers, "decisions": ["ride", "ride"], "hand": hand.split()}
    data = {"game": "let-it-ride", "rules": rules, "seats": {"1": seat}, "meters": meters or {}}
    return dict(run_scenario({**data, "community": community.split()})["seats"]["1"]["wagers"])


def bonus(hand: str, community: str, wager: str, stake: int, **rules: Any) -> tuple[Any, int]:
    """One optional wager of ``stake`` beside three $5 bets that ride: (line, paid)."""
    won = one_hand(hand, community, {**dict.fromkeys(BETS, 500), wager: stake}, **rules)[wager]
    return won.get("line"), int(won["paid"])


def outcome(settled: dict[str, Any]) -> tuple[Any, ...]:
    """A settled wager of a scenario as (result, line, paid, returned)."""
    return settled["result"], settled.get("line"), settled["paid"], settled["returned"]


def refused(rnd: Round, action: Any, text: str, error: type[CroupierError] = IllegalAction) -> None:
    """``action`` is refused with ``error`` quoting ``text``, and nothing changes."""
    before = (rnd.records, repr(rnd.stakes), rnd.phase, rnd.cards_left)
    with pytest.raises(error, match=re.escape(text)):
        rnd.apply(action)
    assert (rnd.records, repr(rnd.stakes), rnd.phase, rnd.cards_left) == before


def place(seat: int, wager: str, amount: int) -> PlaceWager:
    return PlaceWager(seat=seat, wager=wager, amount=amount)


# --- § 643a.7 wagers ----------------------------------------------------------------------------


def test_643a_7_d_three_equal_bets() -> None:
    rnd = new_round()
    rnd.apply(place(2, "bet1", 500))
    rnd.apply(place(2, "bet3", 500))
    refused(rnd, place(2, "bet2", 1000), "§ 643a.7(d)")
    rnd.apply(place(2, "bet2", 500))
    assert rnd.stakes[2] == {"bet1": 500, "bet3": 500, "bet2": 500}


def test_643a_7_d_no_more_bets_refused_until_all_three_bets_are_placed() -> None:
    rnd = new_round()
    rnd.apply(place(1, "bet1", 500))
    rnd.apply(place(1, "bet2", 500))
    refused(rnd, NoMoreBets(), "643a.7(d)")


@pytest.mark.parametrize(
    ("wager", "amount", "section"),
    [
        ("five_card_bonus", 100, "§ 643a.7(e)"),
        ("three_card_bonus", 500, "§ 643a.7(f)"),
        ("three_card_progressive", 100, "§ 643a.7(g)"),
        ("five_card_progressive", 100, "§ 643a.7(h)"),
        ("five_card_hand_bonus", 500, "§ 643a.7(i)"),
        ("six_card_bonus", 500, "§ 643a.7(j)"),
    ],
)
def test_643a_7_e_to_j_optional_wagers_follow_the_three_bets(
    wager: str, amount: int, section: str
) -> None:
    rnd = new_round(full_game())
    rnd.apply(place(3, "bet1", 500))
    rnd.apply(place(3, "bet2", 500))
    refused(rnd, place(3, wager, amount), section)
    rnd.apply(place(3, "bet3", 500))
    rnd.apply(place(3, wager, amount))
    assert rnd.stakes[3][wager] == amount


def test_643a_7_e_to_j_optional_wagers_only_where_the_rules_submission_offers_them() -> None:
    assert game().offered_wagers() == BETS
    assert full_game().offered_wagers() == LetItRide.wagers
    rnd = new_round()
    bets(rnd, 1)
    refused(rnd, place(1, "three_card_bonus", 500), "not offered")


@pytest.mark.parametrize("wager", ["three_card_progressive", "five_card_progressive"])
def test_643a_7_g_h_progressive_wager_is_the_posted_amount(wager: str) -> None:
    rnd = new_round(full_game())
    bets(rnd, 1)
    refused(rnd, place(1, wager, 500), "must be 100")


def test_643a_7_c_no_wager_after_no_more_bets() -> None:
    rnd = dealt_round(g=full_game())
    refused(rnd, place(2, "bet1", 500), "§ 643a.7(c)")
    refused(rnd, place(1, "three_card_bonus", 500), "643a.7(c)")


def test_643a_7_c_only_bets_one_and_two_may_be_taken_back() -> None:
    rnd = new_round(full_game())
    bets(rnd, 1)
    rnd.apply(place(1, "three_card_bonus", 500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    refused(rnd, Withdraw(seat=1, wager="three_card_bonus"), "§ 643a.7(c)")


def test_643a_7_b_only_seated_players_wager() -> None:
    rnd = new_round(players={1: "Ann", 2: "Bob"})
    refused(rnd, place(5, "bet1", 500), "§ 643a.7(b)")


def test_643a_7_l_adjacent_boxes_per_rules_submission() -> None:
    with pytest.raises(IllegalAction, match=r"§ 643a\.7\(l\)"):
        new_round(players={1: "Ann", 2: "Ann"})
    new_round(game(table={"adjacent_boxes": 2}), players={1: "Ann", 2: "Ann"})


@pytest.mark.parametrize("amount", [0, -500, 2.5, "500"])
def test_wager_amounts_are_positive_whole_cents(amount: Any) -> None:
    rnd = new_round()
    if isinstance(amount, int):
        refused(rnd, place(1, "bet1", amount), "bet1", error=InvalidInput)
    else:  # refused when the action is made: no wager of a non-integer amount exists
        with pytest.raises(InvalidInput, match=r"PlaceWager\.amount"):
            place(1, "bet1", amount)


# --- dealing § 643a.8-643a.10 -------------------------------------------------------------------


@pytest.mark.parametrize("deal", ["manual_shoe", "hand"])
def test_643a_8_643a_9_one_card_at_a_time_community_area_last(deal: str) -> None:
    rnd = dealt_round((2, 5), game(table={"deal": deal}))
    dealt = [r for r in rnd.records if isinstance(r, CardDealt)]
    assert [r.to for r in dealt] == ["2", "5", "board", "2", "5", "board", "2", "5", "burn"]
    assert [r.card for r in dealt] == list(DECK[:9])
    assert not any(r.face_up for r in dealt)
    assert supervisor_hands(rnd)["board"] == [DECK[2], DECK[5]] and supervisor_hands(rnd)["2"] == [
        DECK[0],
        DECK[3],
        DECK[6],
    ]


def test_643a_10_automated_shoe_stacks_of_three() -> None:
    rnd = dealt_round((1, 3), game(table={"deal": "automated_shoe"}))
    dealt = [r for r in rnd.records if isinstance(r, CardDealt)]
    assert [r.to for r in dealt] == ["1"] * 3 + ["3"] * 3 + ["board", "board", "burn"]
    assert supervisor_hands(rnd)["1"] == list(DECK[0:3]) and supervisor_hands(rnd)["board"] == list(
        DECK[6:8]
    )


@pytest.mark.parametrize("deal", ["manual_shoe", "automated_shoe"])
def test_643a_7_j_six_card_bonus_cards_dealt_last_only_when_wagered(deal: str) -> None:
    g = game(paytables={"six_card_bonus": "1000-200-50-25-20-10-5"}, table={"deal": deal})
    rnd = new_round(g)
    bets(rnd, 4)
    bets(rnd, 6)
    rnd.apply(place(6, "six_card_bonus", 500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    dealt = [r for r in rnd.records if isinstance(r, CardDealt)]
    assert [r.to for r in dealt][-3:] == ["six_card_bonus"] * 3
    assert supervisor_hands(rnd)["six_card_bonus"] == list(DECK[9:12])
    plain = dealt_round((4, 6), g)
    assert "six_card_bonus" not in supervisor_hands(plain)


def test_643a_7_j_six_card_bonus_cards_dealt_and_settled() -> None:
    result = scenario("643a_7_j_six_card_bonus_cards_dealt_and_settled")
    two, five = result["seats"]["2"]["wagers"], result["seats"]["5"]["wagers"]
    # seat 2: 7h 7d 2c with 7s 7c Kd is four sevens: 50 to 1
    assert outcome(two["six_card_bonus"]) == ("win", "four_of_a_kind", 25_000, 500)
    # seat 5: Ac Ad 4s with the same three cards is two pair: below three of a kind
    assert five["six_card_bonus"]["result"] == "lose"
    # the bonus cards play no part in the five-card hand: aces pay bets 2 and 3
    assert five["bet2"]["line"] == "pair_of_tens_or_better" and five["bet3"]["paid"] == 500
    turned = [r for r in result["records"] if r["kind"] == "six_card_bonus_cards_turned"]
    assert turned == [{"kind": "six_card_bonus_cards_turned", "cards": ["7s", "7c", "Kd"]}]


# --- § 643a.11 taking bets back ----------------------------------------------------------------


def test_643a_11_b_bet_one_may_be_taken_back() -> None:
    rnd = dealt_round()
    assert rnd.phase is Phase.DECISIONS and rnd.deciding == "bet1"
    new = rnd.apply(Withdraw(seat=1, wager="bet1"))
    assert isinstance(new[0], BetWithdrawn) and new[0].amount == 500
    back = settled(rnd, 1)["bet1"]
    assert (back.result, back.paid, back.returned, back.line) == (Result.PUSH, 0, 500, "withdrawn")
    assert "bet1" not in rnd.stakes[1] and phase(rnd) is Phase.REVEAL


def test_643a_11_b_decisions_clockwise_from_the_far_left() -> None:
    rnd = dealt_round((6, 2, 4))
    assert rnd.to_act().seat == 2
    refused(rnd, Ride(seat=4, wager="bet1"), "643a.11(b)")
    rnd.apply(Ride(seat=2, wager="bet1"))
    assert rnd.to_act().seat == 4


def test_643a_11_c_first_community_card_turned_after_every_bet_one_decision() -> None:
    rnd = dealt_round((1, 2))
    rnd.apply(Ride(seat=1, wager="bet1"))
    assert rnd.phase is Phase.DECISIONS and rnd.visible_cards() == {}
    rnd.apply(Withdraw(seat=2, wager="bet1"))
    (turned,) = rnd.run_dealer()
    assert isinstance(turned, CommunityCardTurned) and turned.position == 1
    assert turned.card == supervisor_hands(rnd)["board"][0]
    assert rnd.visible_cards() == {"board": [supervisor_hands(rnd)["board"][0]]}
    assert rnd.phase is Phase.DECISIONS and rnd.deciding == "bet2" and rnd.to_act().seat == 1


def test_643a_11_d_bet_two_may_be_taken_back_after_the_first_card() -> None:
    rnd = dealt_round()
    refused(rnd, Withdraw(seat=1, wager="bet2"), "§ 643a.11(d)")
    rnd.apply(Ride(seat=1, wager="bet1"))
    rnd.run_dealer()
    rnd.apply(Withdraw(seat=1, wager="bet2"))
    assert settled(rnd, 1)["bet2"].returned == 500
    rnd.run_dealer()
    assert rnd.phase is Phase.OVER
    assert set(settled(rnd, 1)) == {"bet1", "bet2", "bet3"}


def test_643a_11_b_bet_one_cannot_be_taken_back_once_the_card_is_turned() -> None:
    rnd = dealt_round()
    rnd.apply(Ride(seat=1, wager="bet1"))
    rnd.run_dealer()
    refused(rnd, Withdraw(seat=1, wager="bet1"), "643a.11(b)")
    rnd.apply(Ride(seat=1, wager="bet2"))
    rnd.apply(Reveal())
    refused(rnd, Withdraw(seat=1, wager="bet2"), "643a.11(d)")


def test_643a_7_d_bet_three_is_never_taken_back() -> None:
    rnd = dealt_round()
    refused(rnd, Withdraw(seat=1, wager="bet3"), "643a.7(d)")
    refused(rnd, Ride(seat=1, wager="bet3"), "643a.7(d)")
    rnd.apply(Withdraw(seat=1, wager="bet1"))
    rnd.run_dealer()
    rnd.apply(Withdraw(seat=1, wager="bet2"))
    refused(rnd, Withdraw(seat=1, wager="bet3"), "643a.7(d)")


def test_643a_11_b_taking_back_is_refused_before_no_more_bets() -> None:
    rnd = new_round()
    bets(rnd, 1)
    refused(rnd, Withdraw(seat=1, wager="bet1"), "phase is betting")


def test_643a_11_d_bets_one_and_two_pulled_royal_on_bet_three() -> None:
    result = scenario("643a_11_d_bets_one_and_two_pulled_royal_on_bet_three")
    one = result["seats"]["1"]
    for bet in ("bet1", "bet2"):
        assert outcome(one["wagers"][bet]) == ("push", "withdrawn", 0, 500)
    assert outcome(one["wagers"]["bet3"]) == ("win", "royal_flush", 500_000, 500)
    # the Three Card Bonus is independent of the pulls (§ 643a.7(k)): Ts Js Qs straight flush
    assert one["wagers"]["three_card_bonus"]["paid"] == 20_000
    assert one["net"] == 500_000 + 20_000
    # seat 4 let everything ride on a pair of nines: below tens, every bet loses
    assert result["seats"]["4"]["net"] == -3_000
    kinds = [r["kind"] for r in result["records"]]
    assert kinds.count("bet_withdrawn") == 2 and kinds.count("let_it_ride") == 2


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("pull", Withdraw(seat=1, wager="bet1")),
        ("Let It Ride", Ride(seat=1, wager="bet1")),
        ("take back", Withdraw(seat=1, wager="bet1")),
        ("pull 2", Withdraw(seat=1, wager="bet2")),
        ("ride bet 3", Ride(seat=1, wager="bet3")),
    ],
)
def test_scenario_decisions_pull_and_ride(text: str, action: Any) -> None:
    assert dealt_round().parse_decision(1, text) == action


def test_scenario_decision_not_understood() -> None:
    with pytest.raises(InvalidInput, match="pull, ride"):
        dealt_round().parse_decision(1, "fold")


# --- § 643a.12 payouts ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "community", "line", "paid"),
    [
        ("As Ks Qs", "Js Ts", "royal_flush", 1_000 * 500),
        ("9h Th Jh", "Qh Kh", "straight_flush", 200 * 500),
        ("8c 8d 8h", "8s 2d", "four_of_a_kind", 50 * 500),
        ("8c 8d 8h", "2s 2d", "full_house", 11 * 500),
        ("2d 7d 9d", "Jd Kd", "flush", 8 * 500),
        ("Ac 2d 3h", "4s 5c", "straight", 5 * 500),
        ("4c 4d 4h", "9s Kd", "three_of_a_kind", 3 * 500),
        ("4c 4d 9h", "9s Kd", "two_pair", 2 * 500),
        ("Tc Td 3h", "7s Kd", "pair_of_tens_or_better", 500),
    ],
)
def test_643a_12_base_table_lines(hand: str, community: str, line: str, paid: int) -> None:
    wagers = one_hand(hand, community, dict.fromkeys(BETS, 500))
    assert {(w["result"], w["line"], w["paid"]) for w in wagers.values()} == {("win", line, paid)}


def test_643a_12_less_than_a_pair_of_tens_loses() -> None:
    wagers = one_hand("9c 9d 3h", "7s Kd", dict.fromkeys(BETS, 500))
    assert {w["result"] for w in wagers.values()} == {"lose"}


def test_643a_12_d_payout_limit_caps_what_one_hand_is_paid() -> None:
    result = scenario("643a_12_d_payout_limit_reached")
    seat = result["seats"]["3"]
    paid = {w: v["paid"] for w, v in seat["wagers"].items()}
    # a royal on three $10 bets is $30,000 and the Five Card Bonus $20,000: the limit is $25,000
    assert paid == {"bet1": 1_000_000, "bet2": 1_000_000, "bet3": 500_000, "five_card_bonus": 0}
    assert seat["wagers"]["five_card_bonus"]["result"] == "push"
    assert seat["net"] == 2_500_000
    limited = [r for r in result["records"] if r["kind"] == "payout_limited"]
    assert [(r["wager"], r["due"], r["paid"]) for r in limited] == [
        ("bet3", 1_000_000, 500_000),
        ("five_card_bonus", 2_000_000, 0),
    ]


def test_643a_12_d_payout_limit_on_the_sign() -> None:
    assert "Payout limit per hand: $25,000" in game(payout_limit=2_500_000).sign()
    assert "Payout limit" not in game().sign()


def test_643a_12_d_limit_leaves_progressives_uncapped() -> None:
    stakes = {**dict.fromkeys(BETS, 500), "five_card_progressive": 100}
    rules = {"payout_limit": 10_000, "progressive": FIVE_CARD_PROGRESSIVE}
    wagers = one_hand("As Ks Qs", "Js Ts", stakes, {"lir-5": 5_000_000}, **rules)
    assert sum(wagers[b]["paid"] for b in BETS) == 10_000
    assert wagers["five_card_progressive"]["paid"] == 5_000_020


# --- optional wagers: each table's lines -------------------------------------------------------


@pytest.mark.parametrize(
    ("letter", "hand", "line", "odds"),
    [
        ("A", "As Ks Qs", "mini_royal", 40),
        ("D", "As Ks Qs", "mini_royal", 50),
        ("B", "5h 6h 7h", "straight_flush", 40),
        ("E", "9c 9d 9h", "three_of_a_kind", 30),
        ("A", "5c 6d 7h", "straight", 6),
        ("B", "5c 6d 7h", "straight", 5),
        ("D", "2d 7d Kd", "flush", 4),
        ("C", "2d 7d Kd", "flush", 3),
        ("F", "Qc Qd 4h", "pair", 1),
    ],
)
def test_559_14_e_three_card_bonus_tables(letter: str, hand: str, line: str, odds: int) -> None:
    community = "2s 3c" if "2d" not in hand else "3s 4c"
    rules = {"paytables": {"three_card_bonus": letter}}
    assert bonus(hand, community, "three_card_bonus", 200, **rules) == (line, 200 * odds)


def test_643a_7_f_three_card_bonus_high_card_loses() -> None:
    rules = {"paytables": {"three_card_bonus": "A"}}
    assert bonus("2c 7d Kh", "Ks Kd", "three_card_bonus", 200, **rules) == (None, 0)


@pytest.mark.parametrize(
    ("name", "hand", "community", "line", "odds"),
    [
        ("20000-2000-400-200-50-25-5", "As Ks Qs", "Js Ts", "royal_flush", 20_000),
        ("20000-2000-400-200-50-25-5", "4c 4d 4h", "9s Kd", "three_of_a_kind", 5),
        ("20000-2000-400-200-50-25-5", "4c 4d 9h", "9s Kd", None, 0),
        ("5000-2000-100-75-50-25-8-4", "8c 8d 8h", "2s 2d", "full_house", 75),
        ("5000-2000-100-75-50-25-8-4", "4c 4d 9h", "9s Kd", "two_pair", 4),
        ("5000-2000-100-75-50-25-8-4", "Ac Ad 9h", "3s Kd", None, 0),
    ],
)
def test_643a_7_e_five_card_bonus_tables_and_levels(
    name: str, hand: str, community: str, line: str | None, odds: int
) -> None:
    rules = {"paytables": {"five_card_bonus": name}}
    assert bonus(hand, community, "five_card_bonus", 100, **rules) == (line, 100 * odds)


def test_643a_7_e_pair_of_tens_level_by_a_custom_table() -> None:
    odds = (10_000, 1_000, 100, 30, 20, 10, 3, 2, 1)
    table = {hand: f"{n} to 1" for hand, n in zip(FIVE_CARD_HANDS, odds, strict=True)}
    rules = {"custom_paytables": {"five_card_bonus": table}}
    tens = bonus("Tc Td 3h", "7s Kd", "five_card_bonus", 100, **rules)
    assert tens == ("pair_of_tens_or_better", 100)
    assert bonus("9c 9d 3h", "7s Kd", "five_card_bonus", 100, **rules) == (None, 0)


@pytest.mark.parametrize(
    ("hand", "community", "line", "odds"),
    [
        ("9h Th Jh", "Qh Kh", "straight_flush", 100),
        ("8c 8d 8h", "2s 2d", "full_house", 10),
        ("2d 7d 9d", "Jd Kd", "flush", 7),
        ("Ac 2d 3h", "4s 5c", None, 0),
    ],
)
def test_643a_7_i_five_card_hand_bonus_flush_or_better(
    hand: str, community: str, line: str | None, odds: int
) -> None:
    rules = {"custom_paytables": {"five_card_hand_bonus": HAND_BONUS}}
    assert bonus(hand, community, "five_card_hand_bonus", 200, **rules) == (line, 200 * odds)


@pytest.mark.parametrize(
    ("hand", "six", "line", "odds"),
    [
        ("As Ks Qs", "Js Ts 2d", "royal_flush", 1000),
        ("8c 8d 8h", "2s 2d 4c", "full_house", 25),
        ("2d 7d 9d", "Jd Kd 3c", "flush", 20),
        ("4c 4d 4h", "9s Kd 2c", "three_of_a_kind", 5),
        ("4c 4d 9h", "9s Kd 2c", None, 0),
    ],
)
def test_643a_7_j_six_card_bonus_best_five_of_six(
    hand: str, six: str, line: str | None, odds: int
) -> None:
    g = game(paytables={"six_card_bonus": "1000-200-50-25-20-10-5"})
    order = [
        *hand.split()[:1],
        "5h",
        *hand.split()[1:2],
        "6h",
        *hand.split()[2:],
        "7c",
        *six.split(),
    ]
    rnd = new_round(g, " ".join(order))
    bets(rnd, 1)
    rnd.apply(place(1, "six_card_bonus", 200))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    assert supervisor_hands(rnd)["six_card_bonus"] == list(parse_cards(six))
    rnd.apply(Ride(seat=1, wager="bet1"))
    rnd.run_dealer()
    rnd.apply(Ride(seat=1, wager="bet2"))
    rnd.run_dealer()
    bonus = settled(rnd, 1)["six_card_bonus"]
    assert (bonus.line or None, bonus.paid) == (line, 200 * odds)


# --- progressives and Envy Bonuses (§ 643a.1, § 643a.7(g), (h)) ---------------------------------


def test_643a_7_g_h_progressives_at_the_meter_and_envy() -> None:
    result = scenario("643a_7_g_h_progressives_and_envy")
    two, six = result["seats"]["2"], result["seats"]["6"]
    # meters: $20,000 + 20% of two $1 wagers; $3,000 + 15% of two $1 wagers
    assert two["progressive"] == [
        {"line": "mini_royal", "amount": 300_030, "from_meter": True},
        {"line": "royal_flush", "amount": 2_000_040, "from_meter": True},
    ]
    assert result["meters"] == {
        "lir-3": {"before": 300_000, "after": 100_000},
        "lir-5": {"before": 2_000_000, "after": 1_000_000},
    }
    assert six["envy"] == [
        {"for_seat": 2, "line": "mini_royal", "amount": 5_000},
        {"for_seat": 2, "line": "royal_flush", "amount": 100_000},
    ]
    assert two["envy"] == []
    assert [r["seat"] for r in result["records"] if r["kind"] == "seat_settling"] == [6, 2]


@pytest.mark.parametrize(
    ("hand", "community", "line", "amount"),
    [
        ("9h Th Jh", "Qh Kh", "straight_flush", 200_002),  # 10% of $20,000.20
        ("8c 8d 8h", "8s 2d", "four_of_a_kind", 30_000),
        ("8c 8d 8h", "2s 2d", "full_house", 5_000),
        ("2d 7d 9d", "Jd Kd", "flush", 4_000),
        ("Ac 2d 3h", "4s 5c", "straight", 3_000),
        ("4c 4d 4h", "9s Kd", "three_of_a_kind", 900),
    ],
)
def test_643a_7_h_five_card_progressive_lines(
    hand: str, community: str, line: str, amount: int
) -> None:
    stakes = {**dict.fromkeys(BETS, 500), "five_card_progressive": 100}
    meters = {"lir-5": 2_000_000}
    wagers = one_hand(hand, community, stakes, meters, progressive=FIVE_CARD_PROGRESSIVE)
    prog = wagers["five_card_progressive"]
    assert (prog["line"], prog["paid"], prog["returned"]) == (line, amount, 0)


def test_643a_7_g_three_card_progressive_lines_and_loss() -> None:
    rules = {"custom_paytables": {"three_card_progressive": THREE_CARD_PROGRESSIVE}}
    assert bonus("5h 6h 7h", "2s 3c", "three_card_progressive", 100, **rules) == (
        "straight_flush",
        20_000,
    )
    assert bonus("9c 9d 9h", "2s 3c", "three_card_progressive", 100, **rules)[1] == 5_000
    assert bonus("5c 6d 7h", "2s 3c", "three_card_progressive", 100, **rules) == (None, 0)


def test_643a_1_no_envy_for_the_players_own_hand_or_other_box() -> None:
    data = {
        "game": "let-it-ride",
        "rules": {"progressive": FIVE_CARD_PROGRESSIVE, "table": {"adjacent_boxes": 2}},
        "seats": {
            s: {
                "player": "Ann",
                "wagers": {**dict.fromkeys(BETS, 500), "five_card_progressive": 100},
                "decisions": ["ride", "ride"],
                "hand": hand,
            }
            for s, hand in (("1", ["As", "Ks", "Qs"]), ("2", ["9s", "8s", "7s"]))
        },
        "community": ["Js", "Ts"],
    }
    seats = run_scenario(data)["seats"]
    assert seats["1"]["envy"] == [] and seats["2"]["envy"] == []


def test_643a_8_progressive_chip_count_must_match() -> None:
    g = full_game()
    rnd = new_round(g, meters=MemoryMeters({"let-it-ride-five-card": 2_000_000}))
    bets(rnd, 1)
    rnd.apply(place(1, "five_card_progressive", 100))
    rnd.apply(place(1, "three_card_progressive", 100))
    assert rnd.dealer_no_more_bets() == NoMoreBets(progressive_chips=2)
    rnd.apply(NoMoreBets(progressive_chips=1))
    assert rnd.phase is Phase.VOID and rnd.settlement()["1"]["net"] == 0
    assert isinstance(rnd.meters, MemoryMeters)
    assert rnd.meters.exact("let-it-ride-five-card") == 2_000_000
    assert rnd.meters.exact("let-it-ride-three-card") == 100_000


# --- § 643a.13 irregularities -----------------------------------------------------------------


def dealing(**kw: Any) -> LetItRideRound:
    rnd = new_round(full_game(), **kw)
    bets(rnd, 1)
    rnd.apply(place(1, "five_card_progressive", 100))
    rnd.apply(NoMoreBets())
    return rnd


def test_643a_13_a_one_face_up_card_is_discarded() -> None:
    rnd = dealing()
    rnd.apply(DealNext())
    rnd.apply(ReportIrregularity(kind=IrregularityKind.CARD_FACE_UP_IN_DECK))
    rnd.run_dealer()
    assert [r.card for r in rnd.records if isinstance(r, CardDiscarded)] == [DECK[1]]
    assert (
        supervisor_hands(rnd)["1"] == [DECK[0], DECK[3], DECK[5]]
        and supervisor_hands(rnd)["board"][0] == DECK[2]
    )


def test_643a_13_a_two_face_up_cards_void_the_round() -> None:
    rnd = dealing()
    rnd.apply(ReportIrregularity(kind=IrregularityKind.CARD_FACE_UP_IN_DECK))
    rnd.apply(ReportIrregularity(kind=IrregularityKind.CARD_FACE_UP_IN_DECK))
    assert rnd.phase is Phase.VOID
    assert [r.section for r in rnd.records if isinstance(r, RoundVoided)] == ["§ 643a.13(a)"]
    assert {w: s.result for w, s in settled(rnd, 1).items()} == dict.fromkeys(
        [*BETS, "five_card_progressive"], Result.VOID
    )


def test_643a_13_b_card_drawn_in_error_is_the_next_card() -> None:
    rnd = dealing()
    rnd.apply(ReportIrregularity(kind=IrregularityKind.CARD_DRAWN_IN_ERROR))
    rnd.run_dealer()
    assert supervisor_hands(rnd)["1"][0] == DECK[0]


@pytest.mark.parametrize(
    ("kind", "section"),
    [
        (IrregularityKind.WRONG_CARD_COUNT, "§ 643a.13(c)"),
        (IrregularityKind.DEALER_CARD_EXPOSED, "§ 643a.13(d)"),
    ],
)
def test_643a_13_c_d_void_returns_every_wager_left(kind: IrregularityKind, section: str) -> None:
    rnd = dealing()
    rnd.run_dealer()
    rnd.apply(Withdraw(seat=1, wager="bet1"))
    rnd.run_dealer()  # the first community card is turned; the second is exposed early
    rnd.apply(ReportIrregularity(kind=kind))
    assert rnd.phase is Phase.VOID
    assert [r.section for r in rnd.records if isinstance(r, RoundVoided)] == [section]
    assert rnd.settlement()["1"]["net"] == 0
    assert len([r for r in rnd.records if isinstance(r, WagerSettled)]) == 4


def test_643a_13_f_automated_shoe_jam_voids() -> None:
    g = game(table={"deal": "automated_shoe"})
    rnd = new_round(g)
    bets(rnd, 1)
    rnd.apply(NoMoreBets())
    rnd.apply(DealNext())
    rnd.apply(ReportIrregularity(kind=IrregularityKind.AUTOMATED_SHOE_JAM))
    assert rnd.phase is Phase.VOID
    assert [r.section for r in rnd.records if isinstance(r, RoundVoided)] == ["§ 643a.13(f)"]


def test_643a_8_wrong_stub_count_voids() -> None:
    rnd = dealing(stub_check=StubCheck.REQUIRED)
    while rnd.phase is Phase.DEALING:
        rnd.apply(DealNext())
    from croupier.games.records import CountStub

    rnd.apply(CountStub(count=44))  # 52 - 3 - 3 community cards = 46
    assert rnd.phase is Phase.VOID


# --- Rules Submission ---------------------------------------------------------------------------


def test_rules_submission_example_file_is_valid() -> None:
    g = get_game(load_rules(RULES / "let-it-ride.toml"))
    assert isinstance(g, LetItRide) and g.offered_wagers() == LetItRide.wagers
    sign = g.sign()
    assert "Three Card Bonus, pay table D (§ 559.14(e))\n" in sign
    assert "not verified against the PA text" in sign and "Envy Bonus schedule custom" in sign


def test_rules_submission_reports_every_problem_with_its_section() -> None:
    with pytest.raises(RulesViolation) as info:
        get_game(load_rules(RULES / "let-it-ride-bad.toml"))
    problems = info.value.problems
    sections = {s for _, s in problems}
    assert {
        "§ 559.14(e)",
        "§ 643a.7(e)",
        "§ 643a.7(i)",
        "§ 643a.7(j)",
        "§ 643a.1",
        "§ 643a.3(b)",
        "§ 643a.7(g), (h)",
        "§ 569.12(f)(2), § 571.12(e)",
    } <= sections
    assert any("pay nothing" in m for m, _ in problems)
    assert len(problems) == 11


def test_559_14_e_custom_three_card_bonus_must_pay_at_least_one_table() -> None:
    odds = (100, 40, 30, 6, 3, 1)  # table C with a richer mini royal
    better = {hand: f"{n} to 1" for hand, n in zip(THREE_CARD_HANDS, odds, strict=True)}
    g = game(custom_paytables={"three_card_bonus": better})
    assert g.paytable("three_card_bonus") is not None
    with pytest.raises(RulesViolation, match=r"§ 559\.14\(e\)"):
        game(custom_paytables={"three_card_bonus": {**better, "straight": "4 to 1"}})


@pytest.mark.parametrize(
    ("wager", "table", "match"),
    [
        ("bet1", {"pair": "1 to 1"}, "Let It Ride takes them"),
        ("five_card_hand_bonus", {**HAND_BONUS, "flush": "seven"}, "not written"),
        ("three_card_progressive", {**THREE_CARD_PROGRESSIVE, "rate": "2"}, "outside"),
        ("five_card_progressive", {"lines": {"royal_flush": "100% of meter"}}, "needs"),
    ],
)
def test_rules_submission_custom_table_problems(wager: str, table: Any, match: str) -> None:
    with pytest.raises(RulesViolation, match=match):
        game(custom_paytables={wager: table})


@pytest.mark.parametrize(
    ("rules", "match"),
    [
        ({"paytables": {"five_card_hand_bonus": "A"}}, "no pay table choice"),
        ({"paytables": {"three_card_bonus": "custom"}}, "needs a"),
        ({"progressive": {**FIVE_CARD_PROGRESSIVE, "paytable": "custom"}}, "needs"),
        ({"table": {"deal": "hand", "shuffle": "manual"}}, "§ 643a.9"),
        ({"table": {"decks": 3}}, "§ 643a.3(a)"),
    ],
)
def test_rules_submission_problems(rules: dict[str, Any], match: str) -> None:
    with pytest.raises(RulesViolation, match=re.escape(match)):
        game(**rules)


def test_custom_five_card_progressive_with_its_own_envy() -> None:
    pays = (
        "100% of meter",
        "500 for 1",
        "100 for 1",
        "40 for 1",
        "30 for 1",
        "20 for 1",
        "5 for 1",
    )
    custom = {
        "lines": dict(zip(FIVE_CARD_HANDS, pays, strict=False)),
        "envy": {"royal_flush": 50_000, "straight_flush": 10_000},
    }
    g = game(
        progressive={**FIVE_CARD_PROGRESSIVE, "paytable": "custom", "envy": "custom"},
        custom_paytables={"five_card_progressive": custom},
    )
    table, envy, spec = g.progressive("five_card_progressive")
    assert table.letter == "custom" and envy is not None and spec.name == "lir-5"
    assert envy.line_for(100, {"straight_flush"}) is not None


# --- house players, replay, rebuild and the command line --------------------------------------


@pytest.mark.parametrize(
    ("hand", "turned", "wager"),
    [
        ("Tc Td 3h", 0, "ride"),
        ("9c 9d 3h", 0, "pull"),
        ("2h 7h 9h", 1, "ride"),
        ("2h 7c 9h", 1, "pull"),
    ],
)
def test_simple_strategy_rides_a_paying_hand(hand: str, turned: int, wager: str) -> None:
    first, second, third = hand.split()
    rnd = new_round(order=f"{first} Jh {second} 4c {third} 5d")
    bets(rnd, 1)
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    if turned:
        rnd.apply(Withdraw(seat=1, wager="bet1"))
        rnd.run_dealer()
    action = rnd.simple_strategy(1)
    assert isinstance(action, Ride if wager == "ride" else Withdraw)
    assert "not the optimal strategy" in (LetItRideRound.simple_strategy.__doc__ or "")


def test_records_rebuild_the_round() -> None:
    rnd = dealt_round((2, 5), full_game())
    rnd.apply(Withdraw(seat=2, wager="bet1"))
    rnd.apply(Ride(seat=5, wager="bet1"))
    rnd.run_dealer()
    rnd.apply(Ride(seat=2, wager="bet2"))
    rnd.apply(Withdraw(seat=5, wager="bet2"))
    rnd.run_dealer()
    assert rnd.phase is Phase.OVER
    assert any(isinstance(r, BetRidden) for r in rnd.records)
    rebuilt = Round.rebuild(rnd.game, rnd.records, players=rnd.players)
    assert rebuilt.records == rnd.records and rebuilt.settlement() == rnd.settlement()
    assert not [r for r in rnd.records if isinstance(r, PayoutLimited)]


def test_cli_replay_rules_and_play(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    path = SCENARIOS / "643a_12_d_payout_limit_reached.json"
    assert main(["replay", str(path)], out=out) == 0
    assert json.loads(out.getvalue())["seats"]["3"]["net"] == 2_500_000
    out = io.StringIO()
    assert main(["rules", "sign", str(RULES / "let-it-ride.toml")], out=out) == 0
    assert "Payout limit per hand: $25,000" in out.getvalue()
    monkeypatch.setattr("sys.stdin", io.StringIO("500\n500\n500\n1\n2\nn\n"))
    out = io.StringIO()
    assert main(["play", "let-it-ride", "--seed", "7"], out=out) == 0
    text = out.getvalue()
    assert "pull: take back Bet 1" in text and "You leave the table with" in text
