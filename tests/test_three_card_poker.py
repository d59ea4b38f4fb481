"""Three Card Poker, Chapter 649a: one test per rule.

No Chapter 649a text was available; the rules tested here follow the sources named in the module
docstring of :mod:`croupier.games.three_card_poker` (a secondary source quoting Chapter 649a, the
parallel Four Card Poker chapter and widely published tables, all marked unverified).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from croupier.cli import main
from croupier.core.cards import DECK, parse_cards
from croupier.core.errors import IllegalAction, InvalidInput, RulesViolation
from croupier.games import Phase, get_game
from croupier.games.pov import supervisor_hands
from croupier.games.records import (
    CardDealt,
    CardDiscarded,
    CountStub,
    DealNext,
    Fold,
    IrregularityKind,
    NoMoreBets,
    PlaceWager,
    Play,
    ReportIrregularity,
    Result,
    RoundVoided,
    SeatSettling,
    WagerSettled,
)
from croupier.games.round import Round, StubCheck
from croupier.games.three_card_poker import (
    PAIR_PLUS,
    SIX_CARD_BONUS,
    ThreeCardPoker,
    ThreeCardPokerRound,
    dealer_qualifies,
    hand_keys,
    plays_by_q64,
)
from croupier.hands import Ranking, evaluate
from croupier.rules.progressive import MemoryMeters
from croupier.rules.submission import load_rules
from croupier.store.codec import record_from_json
from croupier.table.scenario import LIBRARY, load_scenario, run_scenario
from croupier.table.shoe import StackedShoe

SCENARIOS = LIBRARY
RULES = Path(__file__).parent / "rules"
PROGRESSIVE = {
    "progressive": {
        "paytable": "jackpot-500-100-50",
        "envy": "100-25",
        "wager": 100,
        "reset": 500_000,
        "rate": "0.25",
        "meter": "3cp",
    }
}


def game(**rules: Any) -> ThreeCardPoker:
    g = get_game({"game": "three-card-poker", **rules})
    assert isinstance(g, ThreeCardPoker)
    return g


def new_round(g: ThreeCardPoker | None = None, order: str = "", **kw: Any) -> ThreeCardPokerRound:
    cards = list(parse_cards(order)) if order else []
    rest = [c for c in DECK if c not in set(cards)]
    rnd = (g or game()).new_round(shoe=StackedShoe(cards + rest), **kw)
    assert isinstance(rnd, ThreeCardPokerRound)
    return rnd


def settled(rnd: Round, seat: int) -> dict[str, WagerSettled]:
    return {r.wager: r for r in rnd.records if isinstance(r, WagerSettled) and r.seat == seat}


def scenario(name: str) -> dict[str, Any]:
    return run_scenario(load_scenario(SCENARIOS / f"{name}.json"))


def one_seat(hand: str, dealer: str, wagers: dict[str, int], **rules: Any) -> dict[str, Any]:
    """Settle one seat 1 holding ``hand`` (played if it has an Ante) against ``dealer``."""
    data = {
        "game": "three-card-poker",
        "rules": rules,
        "seats": {
            "1": {
                "wagers": wagers,
                "decisions": ["play"] if "ante" in wagers else [],
                "hand": hand.split(),
            }
        },
        "dealer": dealer.split(),
    }
    seat: dict[str, Any] = run_scenario(data)["seats"]["1"]
    return seat


def dealt_round(*seats: int, g: ThreeCardPoker | None = None, **kw: Any) -> ThreeCardPokerRound:
    rnd = new_round(g, **kw)
    for seat in seats:
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    return rnd


# --- § 649a.6 rankings ------------------------------------------------------------------------


def test_649a_6_straight_beats_flush_and_k_a_2_is_no_straight() -> None:
    straight = evaluate("5c 6d 7h", Ranking.THREE_CARD)
    flush = evaluate("Ac Jc 9c", Ranking.THREE_CARD)
    assert straight.value > flush.value
    assert evaluate("Kc Ad 2h", Ranking.THREE_CARD).category.value == "high_card"
    assert evaluate("Ac 2d 3h", Ranking.THREE_CARD).value < evaluate("2c 3d 4h", "three-card").value


def test_649a_6_mini_royal_keys() -> None:
    assert hand_keys(evaluate("As Ks Qs", Ranking.THREE_CARD)) == {
        "straight_flush",
        "mini_royal",
        "mini_royal_spades",
    }
    assert hand_keys(evaluate("Ah Kh Qh", Ranking.THREE_CARD)) == {"straight_flush", "mini_royal"}
    assert hand_keys(evaluate("Ah 2h 3h", Ranking.THREE_CARD)) == {"straight_flush"}


def test_649a_6_c_tie_pushes_ante_and_play() -> None:
    result = scenario("649a_6_c_tie_pushes_ante_and_play")
    wagers = result["seats"]["1"]["wagers"]
    assert wagers["ante"] == {
        "stake": 500,
        "result": "push",
        "paid": 0,
        "returned": 500,
        "line": "high_card",
    }
    assert wagers["play"]["result"] == "push"
    assert result["seats"]["1"]["net"] == 0


# --- § 649a.7 wagers ----------------------------------------------------------------------------


def test_649a_7_pair_plus_may_be_played_alone() -> None:
    result = scenario("649a_7_pair_plus_alone")
    # nobody is asked to decide; Pair Plus table D: straight flush 40 to 1
    assert not [r for r in result["records"] if r["kind"] in ("play_wagered", "folded")]
    assert result["seats"]["2"]["wagers"]["pair_plus"]["paid"] == 40_000
    assert result["seats"]["5"]["wagers"]["pair_plus"]["result"] == "lose"
    assert [r["seat"] for r in result["records"] if r["kind"] == "seat_settling"] == [5, 2]


def test_649a_7_no_wager_after_no_more_bets() -> None:
    rnd = new_round()
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    before = rnd.records
    with pytest.raises(IllegalAction, match=r"§ 649a\.7"):
        rnd.apply(PlaceWager(seat=1, wager="pair_plus", amount=500))
    assert rnd.records == before and rnd.stakes == {1: {"ante": 500}}


@pytest.mark.parametrize("wager", ["six_card_bonus", "progressive"])
def test_649a_7_six_card_bonus_and_progressive_follow_an_ante_or_pair_plus(wager: str) -> None:
    rnd = new_round(game(**PROGRESSIVE))
    amount = 100 if wager == "progressive" else 500
    with pytest.raises(IllegalAction, match="follows an Ante or Pair Plus"):
        rnd.apply(PlaceWager(seat=1, wager=wager, amount=amount))
    assert rnd.records == () and rnd.stakes == {}
    rnd.apply(PlaceWager(seat=1, wager="pair_plus", amount=500))
    rnd.apply(PlaceWager(seat=1, wager=wager, amount=amount))
    assert rnd.stakes[1] == {"pair_plus": 500, wager: amount}


def test_649a_7_progressive_wager_is_one_dollar_and_only_where_offered() -> None:
    rnd = new_round(game(**PROGRESSIVE))
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    with pytest.raises(IllegalAction, match=r"must be 100 cents \(§ 649a\.7\)"):
        rnd.apply(PlaceWager(seat=1, wager="progressive", amount=500))
    plain = new_round()
    plain.apply(PlaceWager(seat=1, wager="ante", amount=500))
    with pytest.raises(IllegalAction, match="not offered"):
        plain.apply(PlaceWager(seat=1, wager="progressive", amount=100))


@pytest.mark.parametrize("amount", [0, -500, 2.5, "500"])
def test_wager_amounts_are_positive_whole_cents(amount: Any) -> None:
    rnd = new_round()
    # a non-integer amount is refused when the action is made, a non-positive one when applied
    with pytest.raises(InvalidInput, match=r"pair_plus wager|PlaceWager\.amount"):
        rnd.apply(PlaceWager(seat=1, wager="pair_plus", amount=amount))
    assert rnd.records == () and rnd.stakes == {}


def test_649a_7_only_seated_players_and_adjacent_boxes() -> None:
    rnd = new_round(players={1: "Ann"})
    with pytest.raises(IllegalAction, match=r"§ 649a\.7"):
        rnd.apply(PlaceWager(seat=4, wager="ante", amount=500))
    assert rnd.records == ()
    with pytest.raises(IllegalAction, match=r"§ 649a\.7"):
        new_round(players={1: "Ann", 2: "Ann"})
    new_round(game(table={"adjacent_boxes": 2}), players={1: "Ann", 2: "Ann"})


# --- dealing § 649a.8-649a.10 ------------------------------------------------------------------


def test_649a_8_one_card_at_a_time_clockwise_to_each_wagering_seat_and_the_dealer() -> None:
    rnd = new_round()
    rnd.apply(PlaceWager(seat=5, wager="ante", amount=500))
    rnd.apply(PlaceWager(seat=2, wager="pair_plus", amount=500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    dealt = [r for r in rnd.records if isinstance(r, CardDealt)]
    assert [r.to for r in dealt] == ["2", "5", "dealer"] * 3
    assert not any(r.face_up for r in dealt)
    assert [r.card for r in dealt] == list(DECK[:9])
    assert {k: len(v) for k, v in supervisor_hands(rnd).items()} == {"2": 3, "5": 3, "dealer": 3}


def test_649a_10_automated_shoe_deals_stacks_of_three() -> None:
    rnd = new_round(game(table={"deal": "automated_shoe"}))
    for seat in (1, 3):
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    dealt = [r for r in rnd.records if isinstance(r, CardDealt)]
    assert [r.to for r in dealt] == ["1"] * 3 + ["3"] * 3 + ["dealer"] * 3
    assert supervisor_hands(rnd)["1"] == list(DECK[0:3]) and supervisor_hands(rnd)[
        "dealer"
    ] == list(DECK[6:9])


def test_649a_8_wrong_stub_count_voids() -> None:
    rnd = new_round(stub_check=StubCheck.REQUIRED)
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    while rnd.phase is Phase.DEALING:
        rnd.apply(DealNext())
    assert rnd.phase is Phase.STUB_COUNT
    rnd.apply(CountStub(count=40))
    void = [r for r in rnd.records if isinstance(r, RoundVoided)]
    assert void and void[0].deck_removed and void[0].section == "§ 649a.8"


# --- § 649a.11(b) decisions ------------------------------------------------------------------


def test_649a_11_b_decisions_clockwise_from_the_far_left() -> None:
    rnd = dealt_round(6, 2)
    assert rnd.to_act().seat == 2
    with pytest.raises(IllegalAction, match="seat 2 decides now"):
        rnd.apply(Play(seat=6))
    rnd.apply(Fold(seat=2))
    assert rnd.to_act().seat == 6


@pytest.mark.parametrize("multiple", [2, 3, 0, -1])
def test_649a_11_b_play_equals_the_ante(multiple: int) -> None:
    rnd = dealt_round(3)
    before = rnd.records
    with pytest.raises(IllegalAction, match=r"equals the Ante of 500 cents \(§ 649a\.11\(b\)\)"):
        rnd.apply(Play(seat=3, multiple=multiple))
    assert rnd.records == before and "play" not in rnd.stakes[3]
    rnd.apply(Play(seat=3))
    assert rnd.stakes[3]["play"] == 500


def test_649a_11_b_play_without_an_ante_is_refused() -> None:
    rnd = new_round()
    rnd.apply(PlaceWager(seat=2, wager="pair_plus", amount=500))
    rnd.apply(NoMoreBets())
    rnd.apply(DealNext())
    before = rnd.records
    with pytest.raises(IllegalAction, match=r"no Ante wager \(§ 649a\.11\(b\)\)"):
        rnd.apply(Play(seat=2))
    with pytest.raises(IllegalAction, match="no Ante wager to forfeit"):
        rnd.apply(Fold(seat=2))
    assert rnd.records == before
    rnd.run_dealer()
    assert rnd.phase is Phase.OVER and set(settled(rnd, 2)) == {"pair_plus"}


def test_649a_11_b_play_is_not_a_wager_placed_before_the_cards() -> None:
    rnd = new_round()
    with pytest.raises(IllegalAction, match=r"§ 649a\.11\(b\)"):
        rnd.apply(PlaceWager(seat=1, wager="play", amount=500))
    assert rnd.records == ()


def test_649a_11_b_scenario_decision_play_2_is_a_typed_error() -> None:
    data = load_scenario(SCENARIOS / "649a_6_c_tie_pushes_ante_and_play.json")
    data["seats"]["1"]["decisions"] = ["play 2"]
    with pytest.raises(IllegalAction, match="equals the Ante"):
        run_scenario(data)


def test_649a_11_b_1_fold_forfeits_ante_and_pair_plus() -> None:
    result = scenario("649a_11_b_1_fold_forfeits_ante_and_pair_plus")
    seat = result["seats"]["1"]
    assert seat["wagers"]["ante"]["result"] == "forfeit"
    # a pair of nines would have won the Pair Plus: the fold forfeits it
    assert seat["wagers"]["pair_plus"] == {
        "stake": 500,
        "result": "forfeit",
        "paid": 0,
        "returned": 0,
    }
    assert "ante_bonus" not in seat["wagers"] and "play" not in seat["wagers"]
    # the Six Card Bonus stays in action: 9s 9h 9c 4c 4d, a full house, 25 to 1
    assert seat["wagers"]["six_card_bonus"]["paid"] == 12_500
    assert seat["net"] == -500 - 500 + 12_500
    kinds = [r["kind"] for r in result["records"]]
    # forfeits are collected before the dealer's cards are revealed
    assert kinds.index("wager_settled") < kinds.index("dealer_revealed")


def test_simple_strategy_plays_q64_or_better() -> None:
    def plays(cards: str) -> bool:
        return plays_by_q64(evaluate(cards, Ranking.THREE_CARD))

    assert plays("Qc 6d 4h") and plays("Qc 7d 2h") and plays("2c 2d 3h") and plays("Ac 3d 2h")
    assert not plays("Qc 6d 3h") and not plays("Jc Td 8h") and not plays("Qc 5d 4h")
    rnd = dealt_round(1)  # seat 1 holds 2c 3c 4c: a straight flush
    assert rnd.simple_strategy(1) == Play(seat=1, multiple=1)


# --- § 649a.11(c) settlement ------------------------------------------------------------------


def test_649a_11_c_dealer_queen_high_qualifies() -> None:
    assert dealer_qualifies(evaluate("Qc 3d 2h", Ranking.THREE_CARD).value)
    assert dealer_qualifies(evaluate("2c 2d 3h", Ranking.THREE_CARD).value)
    assert not dealer_qualifies(evaluate("Jc 9d 7h", Ranking.THREE_CARD).value)


def test_649a_11_c_dealer_not_qualifying_pays_the_ante_and_pushes_the_play() -> None:
    result = scenario("649a_11_c_dealer_not_qualifying_pays_ante_pushes_play")
    assert result["dealer"]["category"] == "high_card"
    one, three = result["seats"]["1"], result["seats"]["3"]
    assert (one["wagers"]["ante"]["result"], one["wagers"]["ante"]["paid"]) == ("win", 500)
    assert one["wagers"]["play"] == {
        "stake": 500,
        "result": "push",
        "paid": 0,
        "returned": 500,
        "line": "pair",
    }
    assert one["wagers"]["pair_plus"]["paid"] == 500  # table A: pair 1 to 1
    assert three["wagers"]["ante"]["paid"] == 1_000 and three["wagers"]["play"]["result"] == "push"
    assert (one["net"], three["net"]) == (1_000, 1_000)


@pytest.mark.parametrize(
    ("hand", "dealer", "result", "net"),
    [
        ("Kc Kd 2h", "Qs Qh 9c", "win", 1_000),  # higher pair wins Ante and Play 1 to 1
        ("Qc Jd 9h", "Qs Jh Tc", "lose", -1_000),  # § 649a.6(c): the next card decides
        ("Ac 8c 3c", "Kd Kh 5c", "win", 1_000),  # a flush beats a pair
    ],
)
def test_649a_11_c_higher_hand_wins_ante_and_play(
    hand: str, dealer: str, result: str, net: int
) -> None:
    seat = one_seat(hand, dealer, {"ante": 500})
    assert seat["wagers"]["ante"]["result"] == seat["wagers"]["play"]["result"] == result
    assert seat["net"] == net


def test_649a_11_c_settlement_from_the_dealers_right_each_player_completely() -> None:
    result = scenario("649a_12_six_card_bonus_progressive_and_envy")
    records = result["records"]
    order = [r["seat"] for r in records if r["kind"] == "seat_settling"]
    assert order == [6, 2]
    start = next(
        i for i, r in enumerate(records) if r["kind"] == "seat_settling" and r["seat"] == 2
    )
    seat2 = [r.get("wager") for r in records[start + 1 :] if r["kind"] == "wager_settled"]
    assert seat2 == ["ante", "play", "ante_bonus", "six_card_bonus", "progressive"]


# --- § 649a.12 payout odds --------------------------------------------------------------------


def test_649a_12_b_ante_bonus_paid_while_losing_to_the_dealer() -> None:
    result = scenario("649a_12_b_ante_bonus_paid_while_losing")
    seat = result["seats"]["4"]
    assert seat["wagers"]["ante"]["result"] == seat["wagers"]["play"]["result"] == "lose"
    assert seat["wagers"]["ante_bonus"] == {
        "stake": 0,
        "result": "win",
        "paid": 1_000,
        "returned": 0,
        "line": "straight",
    }
    assert seat["net"] == -2_000 + 1_000


@pytest.mark.parametrize(
    ("hand", "paid"),
    [("As Ks Qs", 2_500), ("9c 9d 9h", 2_000), ("4c 5d 6h", 500), ("Ac Jc 9c", 0)],
)
def test_649a_12_b_ante_bonus_table_a(hand: str, paid: int) -> None:
    seat = one_seat(hand, "2d 2h 7s", {"ante": 500})
    assert seat["wagers"].get("ante_bonus", {"paid": 0})["paid"] == paid


@pytest.mark.parametrize(
    ("letter", "line", "paid"),
    [
        (letter, line.hand, line.odds.winnings(100) if line.odds else -1)
        for letter, table in PAIR_PLUS.items()
        for line in table.lines
    ],
)
def test_649a_12_d_pair_plus_every_table_line(letter: str, line: str, paid: int) -> None:
    hands = {
        "straight_flush": "7h 8h 9h",
        "three_of_a_kind": "5c 5d 5h",
        "straight": "Tc Jd Qh",
        "flush": "2s 8s Ks",
        "pair": "Ac Ad 3h",
    }
    seat = one_seat(hands[line], "4d 6c 9s", {"pair_plus": 100}, paytables={"pair_plus": letter})
    wager = seat["wagers"]["pair_plus"]
    assert (wager["result"], wager["line"], wager["paid"], wager["returned"]) == (
        "win",
        line,
        paid,
        100,
    )


def test_649a_12_d_pair_plus_tables_as_the_secondary_source_gives_them() -> None:
    pays = {
        letter: tuple(ln.odds.numerator for ln in table.lines if ln.odds)
        for letter, table in PAIR_PLUS.items()
    }
    assert pays == {
        "A": (35, 25, 6, 4, 1),
        "B": (40, 30, 5, 4, 1),
        "C": (40, 30, 6, 3, 1),
        "D": (40, 30, 6, 4, 1),
        "E": (40, 25, 6, 4, 1),
    }
    assert not any(t.verified for t in PAIR_PLUS.values())


def test_649a_12_d_pair_plus_high_card_loses() -> None:
    seat = one_seat("Ac Jd 4s", "4d 6c 9s", {"pair_plus": 500})
    assert seat["wagers"]["pair_plus"]["result"] == "lose" and seat["net"] == -500


@pytest.mark.parametrize(
    ("name", "hand", "dealer", "line"),
    [
        (name, hand, dealer, line)
        for name in SIX_CARD_BONUS
        for hand, dealer, line in [
            ("Ah Kh Qh", "Jh Th 2c", "royal_flush"),
            ("5d 6d 7d", "8d 9d 2c", "straight_flush"),
            ("9c 9d 9h", "9s 2c 3d", "four_of_a_kind"),
            ("9c 9d 4h", "9s 4c 2d", "full_house"),
            ("2s 7s 9s", "Js Ks 3d", "flush"),
            ("5c 6d 7h", "8s 9c 2d", "straight"),
            ("Qc Qd 2h", "Qs 7c 4d", "three_of_a_kind"),
        ]
    ],
)
def test_649a_12_six_card_bonus_every_table_line(
    name: str, hand: str, dealer: str, line: str
) -> None:
    seat = one_seat(
        hand,
        dealer,
        {"pair_plus": 100, "six_card_bonus": 100},
        paytables={"six_card_bonus": name},
    )
    wager = seat["wagers"]["six_card_bonus"]
    odds = SIX_CARD_BONUS[name].line_for({line})
    assert odds is not None and odds.odds is not None
    assert (wager["line"], wager["paid"]) == (line, odds.odds.winnings(100))


def test_649a_12_six_card_bonus_two_pair_loses() -> None:
    seat = one_seat("9c 9d 4h", "Ks 4c 2d", {"ante": 500, "six_card_bonus": 500})
    assert seat["wagers"]["six_card_bonus"]["result"] == "lose"


def test_649a_12_six_card_bonus_uses_the_dealers_three_cards() -> None:
    result = scenario("649a_12_six_card_bonus_progressive_and_envy")
    two, six = result["seats"]["2"], result["seats"]["6"]
    # Ah Kh Qh with the dealer's Jh Th: a royal flush, 1000 to 1
    assert two["wagers"]["six_card_bonus"]["paid"] == 500_000
    # Jd Js 2d with the dealer's Jh 2c: a full house, 25 to 1
    assert six["wagers"]["six_card_bonus"]["paid"] == 12_500


def test_649a_12_progressive_mini_royal_and_envy() -> None:
    result = scenario("649a_12_six_card_bonus_progressive_and_envy")
    two, six = result["seats"]["2"], result["seats"]["6"]
    assert two["progressive"] == [{"line": "mini_royal", "amount": 50_000, "from_meter": False}]
    assert two["wagers"]["progressive"]["returned"] == 0  # "for 1": the stake is included
    assert six["envy"] == [{"for_seat": 2, "line": "mini_royal", "amount": 2_500}]
    assert two["envy"] == []
    assert result["meters"]["3cp"] == {"before": 1_000_000, "after": 1_000_050}


def test_649a_12_progressive_spade_mini_royal_takes_the_meter() -> None:
    data = {
        "game": "three-card-poker",
        "rules": PROGRESSIVE,
        "meters": {"3cp": 2_000_000},
        "seats": {
            "3": {
                "wagers": {"pair_plus": 500, "progressive": 100},
                "hand": ["As", "Ks", "Qs"],
            },
            "4": {
                "wagers": {"ante": 500, "progressive": 100},
                "decisions": ["fold"],
                "hand": ["7c", "4d", "2h"],
            },
        },
    }
    data["dealer"] = ["2c", "2d", "2s"]
    result = run_scenario(data)
    three, four = result["seats"]["3"], result["seats"]["4"]
    assert three["progressive"] == [
        {"line": "mini_royal_spades", "amount": 2_000_050, "from_meter": True}
    ]
    assert result["meters"]["3cp"] == {"before": 2_000_000, "after": 500_000}
    # the folded seat forfeits its progressive wager but keeps its Envy Bonus
    assert four["wagers"]["progressive"]["result"] == "forfeit"
    assert four["envy"] == [{"for_seat": 3, "line": "mini_royal_spades", "amount": 10_000}]


def test_649a_8_progressive_chip_count_must_match() -> None:
    rnd = new_round(game(**PROGRESSIVE), meters=MemoryMeters({"3cp": 600_000}))
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    rnd.apply(NoMoreBets(progressive_chips=0))
    assert rnd.phase is Phase.VOID and rnd.settlement()["1"]["net"] == 0


# --- § 649a.13 irregularities -----------------------------------------------------------------


def start_dealing() -> ThreeCardPokerRound:
    rnd = new_round(game(**PROGRESSIVE), meters=MemoryMeters({"3cp": 600_000}))
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    rnd.apply(NoMoreBets())
    return rnd


def test_649a_13_one_face_up_card_is_discarded_two_void() -> None:
    rnd = start_dealing()
    rnd.apply(DealNext())
    rnd.apply(ReportIrregularity(kind=IrregularityKind.CARD_FACE_UP_IN_DECK))
    assert [r.card for r in rnd.records if isinstance(r, CardDiscarded)] == [DECK[1]]
    rnd.apply(ReportIrregularity(kind=IrregularityKind.CARD_FACE_UP_IN_DECK))
    assert rnd.phase is Phase.VOID
    assert [r.section for r in rnd.records if isinstance(r, RoundVoided)] == ["§ 649a.13"]
    assert {w: s.result for w, s in settled(rnd, 1).items()} == {
        "ante": Result.VOID,
        "progressive": Result.VOID,
    }
    assert isinstance(rnd.meters, MemoryMeters) and rnd.meters.exact("3cp") == 600_000


@pytest.mark.parametrize(
    "kind", [IrregularityKind.WRONG_CARD_COUNT, IrregularityKind.DEALER_CARD_EXPOSED]
)
def test_649a_13_void_returns_every_wager(kind: IrregularityKind) -> None:
    rnd = start_dealing()
    rnd.run_dealer()
    rnd.apply(ReportIrregularity(kind=kind))
    assert rnd.phase is Phase.VOID and rnd.settlement()["1"]["net"] == 0


def test_649a_13_automated_shoe_jam_voids() -> None:
    rnd = new_round(game(table={"deal": "automated_shoe"}))
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    rnd.apply(DealNext())
    rnd.apply(ReportIrregularity(kind=IrregularityKind.AUTOMATED_SHOE_JAM))
    assert rnd.phase is Phase.VOID
    with pytest.raises(IllegalAction, match="automated dealing shoe"):
        start_dealing().apply(ReportIrregularity(kind=IrregularityKind.AUTOMATED_SHOE_JAM))


# --- Rules Submission -------------------------------------------------------------------------


def test_rules_submission_example_is_valid_and_signed_unverified() -> None:
    g = get_game(load_rules(RULES / "three-card-poker.toml"))
    assert isinstance(g, ThreeCardPoker)
    assert g.paytable("pair_plus") is PAIR_PLUS["D"]
    sign = g.sign()
    assert "Pair Plus, pay table D (§ 649a.12(d))  (not verified against the PA text)" in sign
    assert "Ante Bonus, pay table A" in sign and "mini royal spades      100% of meter" in sign


def test_rules_submission_reports_every_problem_with_its_section() -> None:
    with pytest.raises(RulesViolation) as info:
        get_game(load_rules(RULES / "three-card-poker-bad.toml"))
    problems = info.value.problems
    sections = {s for _, s in problems}
    assert {"§ 649a.12(d)", "§ 649a.7", "§ 649a.3", "§ 649a.12"} <= sections
    messages = " | ".join(m for m, _ in problems)
    for needle in ("'F'", "high_card", "0 to 1", "ten to one", "'play'", "also defines"):
        assert needle in messages
    assert any("Envy Bonus" in m and s == "§ 649a.12" for m, s in problems)
    # the Six Card Bonus table ends at a pair: its lowest line must be three of a kind
    assert "ends at pair" in messages
    assert len(problems) == 11


def test_custom_paytables_define_a_wagers_table() -> None:
    g = get_game(load_rules(RULES / "three-card-poker-custom.toml"))
    table = g.paytable("pair_plus")
    assert table is not None and table.letter == "custom" and not table.verified
    assert table.hands()[0] == "mini_royal"
    seat = one_seat(
        "Ac Kc Qc",
        "2d 2h 7s",
        {"ante": 100, "pair_plus": 100, "six_card_bonus": 100},
        paytables={"pair_plus": "custom"},
        custom_paytables={
            "pair_plus": {
                "mini_royal": "100 to 1",
                "straight_flush": "40 to 1",
                "three_of_a_kind": "30 to 1",
                "straight": "6 to 1",
                "flush": "3 to 1",
                "pair": "1 to 1",
            },
            "ante_bonus": {
                "straight_flush": "4 to 1",
                "three_of_a_kind": "3 to 1",
                "straight": "1 to 1",
            },
        },
    )
    assert seat["wagers"]["pair_plus"]["paid"] == 10_000
    assert seat["wagers"]["ante_bonus"]["paid"] == 400


@pytest.mark.parametrize(
    ("custom", "needle"),
    [
        ({"pair_plus": {"four_of_a_kind": "50 to 1"}}, "not one of"),
        ({"pair_plus": {"pair": "1 for 1"}}, "pay nothing"),
        ({"pair_plus": {}}, "must map hands"),
        ({"progressive": {"pair": "1 to 1"}}, "takes them for"),
        ({"six_card_bonus": {"pair": 5}}, "not written like"),
    ],
)
def test_custom_paytables_are_checked_line_by_line(custom: dict[str, Any], needle: str) -> None:
    with pytest.raises(RulesViolation, match=needle):
        game(custom_paytables=custom)


def test_custom_letter_needs_a_table() -> None:
    with pytest.raises(RulesViolation, match=r"needs a \[custom_paytables.pair_plus\]"):
        game(paytables={"pair_plus": "custom"})


def test_649a_3_decks_and_dealing_from_the_hand() -> None:
    game(table={"decks": 2, "shuffle": "automated"})
    with pytest.raises(RulesViolation, match=r"§ 649a\.3"):
        game(table={"decks": 2, "shuffle": "manual"})
    with pytest.raises(RulesViolation, match=r"§ 649a\.9"):
        game(table={"deal": "hand", "shuffle": "manual"})


# --- faces ------------------------------------------------------------------------------------


def run_cli(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


def test_cli_replay_rules_and_play(monkeypatch: pytest.MonkeyPatch) -> None:
    status, text = run_cli(["replay", str(SCENARIOS / "649a_6_c_tie_pushes_ante_and_play.json")])
    assert status == 0 and json.loads(text)["seats"]["1"]["net"] == 0
    assert run_cli(["rules", "check", str(RULES / "three-card-poker.toml")])[0] == 0
    status, text = run_cli(["rules", "sign", str(RULES / "three-card-poker-custom.toml")])
    assert status == 0 and "Pair Plus, pay table custom" in text
    monkeypatch.setattr("sys.stdin", io.StringIO("500\n500\n\n1\nn\n"))
    status, text = run_cli(["play", "three-card-poker", "--seed", "3"])
    assert status == 0
    assert "Dealer:" in text and "play (a Play wager equal to the Ante)" in text


def test_scenario_records_rebuild_the_round() -> None:
    name = "649a_12_six_card_bonus_progressive_and_envy"
    result = scenario(name)
    history = json.loads(json.dumps(result["records"]))  # JSON-ready, and read back
    records = [record_from_json(r) for r in history]
    replayed = Round.rebuild(game(**load_scenario(SCENARIOS / f"{name}.json")["rules"]), records)
    assert replayed.phase is Phase.OVER and replayed.records == tuple(records)
    assert replayed.history() == history and replayed.settlement() == result["seats"]
    g = game(**PROGRESSIVE)
    rnd = dealt_round(1, 4, g=g)
    while not rnd.is_over:
        actor = rnd.to_act()
        if actor.seat is not None:
            rnd.apply(rnd.simple_strategy(actor.seat))
        else:
            rnd.run_dealer()
    rebuilt = Round.rebuild(g, rnd.records)
    assert rebuilt.records == rnd.records and rebuilt.settlement() == rnd.settlement()
    # both pairs play and lose to the dealer's 2h 3d 4c straight, settled from seat 4
    assert [r.seat for r in rnd.records if isinstance(r, SeatSettling)] == [4, 1]
    assert rnd.settlement()["1"]["net"] == rnd.settlement()["4"]["net"] == -1_000
