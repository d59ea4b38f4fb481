"""Mississippi Stud, Chapter 655a (with the amended temporary Chapter 571): one test per rule."""

from __future__ import annotations

import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from croupier.cli import main
from croupier.core.cards import DECK, parse_cards
from croupier.core.errors import CroupierError, IllegalAction, InvalidInput, RulesViolation
from croupier.games import Phase, get_game
from croupier.games.mississippi_stud import (
    BASE_PAYS,
    BOARD,
    PAY_TABLE,
    PUSH_HAND,
    CommunityCardTurned,
    ForfeitForCollusion,
    MississippiStud,
    MississippiStudRound,
    PayoutLimited,
    TurnCommunityCard,
    base_pay,
    hand_keys,
    jackpot_meters,
)
from croupier.games.records import (
    CardDealt,
    EnvyPaid,
    Fold,
    IrregularityKind,
    NoMoreBets,
    PlaceWager,
    Play,
    ReportIrregularity,
    Result,
    SeatSettling,
    WagerSettled,
)
from croupier.games.round import ActorKind, Round
from croupier.hands import evaluate
from croupier.rules.progressive import MemoryMeters
from croupier.rules.submission import load_rules
from croupier.table.scenario import LIBRARY, load_scenario, run_scenario
from croupier.table.shoe import StackedShoe

SCENARIOS = LIBRARY
RULES = Path(__file__).parent / "rules"
TABLE_A = {
    "progressive": {
        "paytable": "A",
        "wager": 500,
        "reset": 1_000_000,
        "rate": "0.25",
        "meter": "ms",
    }
}
JACKPOT_METERS = {
    "mega": {"meter": "stud-mega", "reset": 2_500_000, "rate": "0.10"},
    "major": {"meter": "stud-major", "reset": 500_000, "rate": "0.05"},
    "minor": {"meter": "stud-minor", "reset": 50_000, "rate": "0.03"},
}
HOLD = ["bet 1", "bet 1", "bet 1"]


def game(**rules: Any) -> MississippiStud:
    g = get_game({"game": "mississippi-stud", **rules})
    assert isinstance(g, MississippiStud)
    return g


def jackpot_game(letter: str, wager: int = 100) -> MississippiStud:
    meters = {k: v for k, v in JACKPOT_METERS.items() if letter != "B" or k != "minor"}
    prog = {"paytable": letter, "wager": wager, "reset": 1_000_000, "rate": "0.10"}
    return game(progressive={**prog, "meters": meters})


def new_round(
    g: MississippiStud,
    hands: dict[int, str],
    board: str,
    wagers: dict[int, dict[str, int]],
    meters: MemoryMeters | None = None,
) -> MississippiStudRound:
    """A round dealt by the manual procedure with the given hands and community cards."""
    seats = sorted(hands)
    split = {s: parse_cards(hands[s]) for s in seats}
    order = [split[s][i] for i in (0, 1) for s in seats] + list(parse_cards(board))
    rest = [c for c in DECK if c not in set(order)]
    rnd = g.new_round(shoe=StackedShoe(order + rest), meters=meters or MemoryMeters())
    assert isinstance(rnd, MississippiStudRound)
    for seat, placed in wagers.items():
        for wager, amount in placed.items():
            rnd.apply(PlaceWager(seat=seat, wager=wager, amount=amount))
    rnd.apply(rnd.dealer_no_more_bets())
    rnd.run_dealer()
    return rnd


def play(rnd: Round, decisions: dict[int, list[str]]) -> None:
    queues = {s: list(d) for s, d in decisions.items()}
    while not rnd.is_over:
        rnd.run_dealer()
        actor = rnd.to_act()
        if actor.kind is ActorKind.SEAT and actor.seat is not None:
            rnd.apply(rnd.parse_decision(actor.seat, queues[actor.seat].pop(0)))


def settled(rnd: Round, seat: int) -> dict[str, WagerSettled]:
    return {r.wager: r for r in rnd.records if isinstance(r, WagerSettled) and r.seat == seat}


def scenario(name: str) -> dict[str, Any]:
    return run_scenario(load_scenario(SCENARIOS / f"{name}.json"))


def snapshot(rnd: MississippiStudRound) -> tuple[Any, ...]:
    meters = rnd.meters.snapshot() if isinstance(rnd.meters, MemoryMeters) else None
    return (len(rnd.records), repr(rnd.stakes), rnd.phase, rnd.turned, repr(rnd.decided), meters)


def refused(rnd: MississippiStudRound, action: Any, error: type[CroupierError], text: str) -> None:
    before = snapshot(rnd)
    with pytest.raises(error, match=text):
        rnd.apply(action)
    assert snapshot(rnd) == before
    assert not rnd.can(action)


# --- § 571.7: wagers ------------------------------------------------------------------------------


def test_571_7_d_progressive_follows_an_ante_and_is_the_tables_amount() -> None:
    rnd = game(**TABLE_A).new_round(shoe=StackedShoe(DECK))
    assert isinstance(rnd, MississippiStudRound)
    refused(
        rnd, PlaceWager(seat=1, wager="progressive", amount=500), IllegalAction, "after an Ante"
    )
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    refused(rnd, PlaceWager(seat=1, wager="progressive", amount=100), IllegalAction, "500 cents")
    rnd.apply(PlaceWager(seat=1, wager="progressive", amount=500))
    with pytest.raises(RulesViolation, match="100 cents or 500 cents"):
        game(progressive={**TABLE_A["progressive"], "wager": 200})


def test_571_7_f_one_position_per_player() -> None:
    with pytest.raises(RulesViolation, match="one position") as err:
        game(table={"adjacent_boxes": 2})
    assert ("adjacent_boxes 2: a player wagers on one position only", "§ 571.7(f)") in (
        err.value.problems
    )
    with pytest.raises(IllegalAction, match="adjacent box"):
        game().new_round(shoe=StackedShoe(DECK), players={1: "Ann", 2: "Ann"})


def test_571_8_b_progressive_chips_must_match_the_system() -> None:
    g = jackpot_game("C")
    meters = MemoryMeters()
    rnd = g.new_round(shoe=StackedShoe(DECK), meters=meters)
    for seat in (1, 2):
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
        rnd.apply(PlaceWager(seat=seat, wager="progressive", amount=100))
    before = meters.snapshot()
    rnd.apply(NoMoreBets(progressive_chips=1))
    assert rnd.phase is Phase.VOID
    assert meters.snapshot() == before
    assert all(v["net"] == 0 for v in rnd.settlement().values())


# --- § 571.1, §§ 571.8-571.10: the deal -----------------------------------------------------------


def test_571_8_two_cards_each_from_the_far_left_then_three_community_cards_face_down() -> None:
    rnd = new_round(
        game(), {1: "As Kd", 4: "2c 3c"}, "9h 8h 7h", {1: {"ante": 500}, 4: {"ante": 500}}
    )
    dealt = [(str(r.card), r.to, r.face_up) for r in rnd.records if isinstance(r, CardDealt)]
    assert dealt == [
        ("As", "1", False),
        ("2c", "4", False),
        ("Kd", "1", False),
        ("3c", "4", False),
        ("9h", BOARD, False),
        ("8h", BOARD, False),
        ("7h", BOARD, False),
    ]
    assert rnd.phase is Phase.DECISIONS and rnd.to_act().seat == 1
    assert BOARD not in rnd.visible_cards()


def test_571_10_automated_shoe_deals_stacks_of_two_then_three() -> None:
    g = game(table={"deal": "automated_shoe"})
    rnd = g.new_round(shoe=StackedShoe(DECK))
    for seat in (2, 5):
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    to = [r.to for r in rnd.records if isinstance(r, CardDealt)]
    assert to == ["2", "2", "5", "5", BOARD, BOARD, BOARD]


# --- § 571.11(a)-(f): streets -------------------------------------------------------------------


def test_571_11_a_third_street_is_one_to_three_times_the_ante() -> None:
    rnd = new_round(
        game(), {1: "As Kd", 2: "2c 3c"}, "9h 8h 7h", {1: {"ante": 500}, 2: {"ante": 300}}
    )
    refused(rnd, Play(seat=1, multiple=4), IllegalAction, "one, two or three times")
    refused(rnd, Play(seat=1, multiple=0), IllegalAction, "one, two or three times")
    refused(rnd, Play(seat=2, multiple=1), IllegalAction, "seat 1 decides now")
    rnd.apply(Play(seat=1, multiple=3))
    rnd.apply(Play(seat=2, multiple=2))
    assert rnd.stakes[1]["third_street"] == 1500 and rnd.stakes[2]["third_street"] == 600


def test_571_11_a_fold_collects_the_ante_at_once() -> None:
    rnd = new_round(
        game(), {1: "2d 7s", 2: "Ac Kc"}, "9h 8h 7h", {1: {"ante": 500}, 2: {"ante": 500}}
    )
    new = rnd.apply(Fold(seat=1))
    forfeits = [r for r in new if isinstance(r, WagerSettled)]
    assert [(r.wager, r.result) for r in forfeits] == [("ante", Result.FORFEIT)]
    refused(rnd, Play(seat=1, multiple=1), IllegalAction, "folded")
    play(rnd, {2: HOLD})
    assert [r.seat for r in rnd.records if isinstance(r, SeatSettling)] == [2]


def test_571_11_b_d_f_community_cards_turned_one_at_a_time_after_every_decision() -> None:
    rnd = new_round(
        game(), {1: "As Kd", 3: "2c 3c"}, "9h 8h 7h", {1: {"ante": 500}, 3: {"ante": 500}}
    )
    refused(rnd, TurnCommunityCard(), IllegalAction, "seat 1 has not")
    rnd.apply(Play(seat=1, multiple=1))
    refused(rnd, TurnCommunityCard(), IllegalAction, "seat 3 has not")
    rnd.apply(Play(seat=3, multiple=1))
    assert rnd.to_act().kind is ActorKind.DEALER
    assert TurnCommunityCard() in rnd.legal_actions()
    rnd.apply(rnd.dealer_step())
    assert rnd.visible_cards()[BOARD] == list(parse_cards("9h"))
    rnd.apply(Play(seat=1, multiple=2))
    rnd.apply(Fold(seat=3))
    (turned,) = rnd.apply(TurnCommunityCard())
    assert isinstance(turned, CommunityCardTurned) and turned.number == 2
    assert turned.section == "§ 571.11(d)"
    rnd.apply(Play(seat=1, multiple=3))
    rnd.apply(TurnCommunityCard())
    assert rnd.phase is Phase.SETTLEMENT
    assert [rnd.stakes[1][w] for w in ("third_street", "fourth_street", "fifth_street")] == [
        500,
        1000,
        1500,
    ]


def test_571_11_c_fold_on_fourth_street_forfeits_ante_and_third_street() -> None:
    rnd = new_round(game(), {1: "2d 7s"}, "9h 8h 4c", {1: {"ante": 500}})
    play(rnd, {1: ["bet 2", "fold"]})
    got = {w: (r.stake, r.result) for w, r in settled(rnd, 1).items()}
    assert got == {"ante": (500, Result.FORFEIT), "third_street": (1000, Result.FORFEIT)}
    assert rnd.phase is Phase.OVER and rnd.turned == 1


def test_571_11_e_fold_on_fifth_street_forfeits_ante_third_and_fourth() -> None:
    rnd = new_round(game(), {1: "2d 7s"}, "9h 8h 4c", {1: {"ante": 500}})
    play(rnd, {1: ["bet 1", "bet 3", "fold"]})
    got = {w: (r.stake, r.result) for w, r in settled(rnd, 1).items()}
    assert got == {
        "ante": (500, Result.FORFEIT),
        "third_street": (500, Result.FORFEIT),
        "fourth_street": (1500, Result.FORFEIT),
    }
    assert rnd.settlement()["1"]["net"] == -2500


def test_typed_errors_change_nothing() -> None:
    g = game(**TABLE_A)
    betting = g.new_round(shoe=StackedShoe(DECK))
    assert isinstance(betting, MississippiStudRound)
    betting.apply(PlaceWager(seat=1, wager="ante", amount=500))
    # a street wager before its card: at the betting stage, and before the deal
    refused(betting, PlaceWager(seat=1, wager="fourth_street", amount=500), IllegalAction, "turned")
    refused(betting, PlaceWager(seat=1, wager="third_street", amount=500), IllegalAction, "dealt")
    refused(betting, Play(seat=1, multiple=1), IllegalAction, "phase betting")
    refused(betting, TurnCommunityCard(), IllegalAction, "no community card is due")
    refused(betting, ForfeitForCollusion(seat=1), IllegalAction, "571.11")
    rnd = new_round(g, {1: "As Kd", 2: "2c 3c"}, "9h 8h 7h", {1: {"ante": 500}, 2: {"ante": 500}})
    refused(rnd, Play(seat=1, multiple=4), IllegalAction, "3rd Street wager of 4 times")
    with pytest.raises(InvalidInput):
        rnd.apply(Play(seat=1, multiple=True))
    rnd.apply(Play(seat=1, multiple=1))
    # a second decision on the same street, and the next street's wager before its card
    refused(rnd, Play(seat=1, multiple=1), IllegalAction, "already decided on 3rd Street")
    refused(rnd, Fold(seat=1), IllegalAction, "4th Street decision follows community card 1")
    rnd.apply(Fold(seat=2))
    refused(rnd, Play(seat=1, multiple=2), IllegalAction, "already decided")
    refused(rnd, Play(seat=7, multiple=1), IllegalAction, "no Ante")
    refused(
        rnd, ReportIrregularity(kind=IrregularityKind.DEALER_CARD_EXPOSED), IllegalAction, "dealer"
    )
    with pytest.raises(InvalidInput, match="not understood"):
        rnd.parse_decision(1, "raise")


# --- § 571.11(g): a fold keeps Envy eligibility ---------------------------------------------------


def test_571_11_g_folded_player_collects_envy() -> None:
    result = scenario("571_11_g_folded_player_collects_envy")
    folded = result["seats"]["1"]
    assert folded["wagers"]["ante"]["result"] == "forfeit"
    assert folded["wagers"]["progressive"]["result"] == "forfeit"
    assert folded["envy"] == [{"for_seat": 3, "line": "straight_flush", "amount": 150_000}]
    assert folded["net"] == 150_000 - 1000
    sf = result["seats"]["3"]
    assert sf["progressive"] == [{"line": "straight_flush", "amount": 200_025, "from_meter": False}]
    assert sf["envy"] == [] and sf["net"] == 4 * 50_000 + 200_025 - 500
    assert result["meters"]["ms"] == {"before": 2_000_000, "after": 1_800_225}


def test_571_11_g_a_discarded_folded_hand_qualifies_nobody_for_envy() -> None:
    # § 571.11(a): without a progressive wager the folded cards go to the discard rack at once.
    g = game(**TABLE_A)
    wagers = {1: {"ante": 500, "progressive": 500}, 2: {"ante": 500}}
    rnd = new_round(g, {1: "2c 3d", 2: "Ah Kh"}, "Qh Jh Th", wagers)
    play(rnd, {1: HOLD, 2: ["fold"]})
    assert not [r for r in rnd.records if isinstance(r, EnvyPaid)]


# --- § 571.11(h): settlement ----------------------------------------------------------------------


def test_571_11_h_settles_from_the_dealers_right_progressive_last() -> None:
    g = game(**TABLE_A)
    wagers = {s: {"ante": 500, "progressive": 500} for s in (2, 5, 6)}
    rnd = new_round(g, {2: "2c 3d", 5: "Qs Qd", 6: "4c 4d"}, "Qh Jh Th", wagers)
    play(rnd, {2: ["fold"], 5: HOLD, 6: HOLD})
    assert [r.seat for r in rnd.records if isinstance(r, SeatSettling)] == [6, 5, 2]
    five = [r.wager for r in rnd.records if isinstance(r, WagerSettled) and r.seat == 5]
    assert five[-1] == "progressive"
    assert settled(rnd, 5)["progressive"].paid == 9 * 500  # three of a kind, 9 for 1
    assert settled(rnd, 6)["ante"].result is Result.LOSE  # pair of fours


def test_571_11_h_2_pair_of_sixes_to_tens_pushes() -> None:
    seats = scenario("571_11_h_2_pair_of_sixes_to_tens_pushes")["seats"]
    results = {s: {w["result"] for w in e["wagers"].values()} for s, e in seats.items()}
    assert results == {
        "1": {"win"},
        "2": {"push"},
        "3": {"push"},
        "4": {"lose"},
        "5": {"lose"},
        "6": {"push"},
    }
    assert [seats[s]["net"] for s in "123456"] == [2000, 0, 0, -2000, -2000, 0]
    assert seats["6"]["wagers"]["fifth_street"] == {
        "stake": 1500,
        "result": "push",
        "paid": 0,
        "returned": 1500,
        "line": "pair_of_sixes_to_tens",
    }


# --- § 655a.12(a): the pay table ------------------------------------------------------------------

LINES = [
    ("Ah Kh", "Qh Jh Th", "royal_flush", 500),
    ("9h 8h", "Qh Jh Th", "straight_flush", 100),
    ("8h 8s", "8c 8d 6s", "four_of_a_kind", 40),
    ("6h 6d", "8c 8d 6s", "full_house", 10),
    ("2h 3h", "Qh Jh Th", "flush", 6),
    ("Ks 9c", "Qh Jh Th", "straight", 4),
    ("Qs Qd", "Qh Jh Th", "three_of_a_kind", 3),
    ("Kh Kd", "8c 8d 6s", "two_pair", 2),
    ("Ac Jc", "Jh 5d 2s", "pair_of_jacks_or_better", 1),
]


@pytest.mark.parametrize(("hand", "board", "line", "odds"), LINES)
def test_655a_12_a_every_wager_paid_at_the_tables_odds(
    hand: str, board: str, line: str, odds: int
) -> None:
    rnd = new_round(game(), {3: hand}, board, {3: {"ante": 200}})
    play(rnd, {3: ["bet 3", "bet 2", "bet 1"]})
    got = {w: (r.result, r.paid, r.line) for w, r in settled(rnd, 3).items()}
    stakes = {"ante": 200, "third_street": 600, "fourth_street": 400, "fifth_street": 200}
    assert got == {w: (Result.WIN, odds * s, line) for w, s in stakes.items()}
    assert rnd.settlement()["3"]["net"] == odds * 1400


BELOW = [("Tc 3d", "push"), ("6c 3d", "push"), ("5c 3d", "lose"), ("Ac 3d", "lose")]


@pytest.mark.parametrize(("hand", "result"), BELOW)
def test_655a_12_a_below_jacks_pushes_or_loses(hand: str, result: str) -> None:
    rnd = new_round(game(), {1: hand}, "Th 6h 5s", {1: {"ante": 500}})
    play(rnd, {1: HOLD})
    assert {r.result.value for r in settled(rnd, 1).values()} == {result}


def test_655a_12_a_pay_table_scenarios() -> None:
    high = scenario("655a_12_a_pay_table_royal_flush_to_jacks")["seats"]
    assert [high[str(s)]["net"] for s in range(1, 8)] == [
        2_500_000,
        200_000,
        7500,
        12_000,
        8000,
        4000,
        2000,
    ]
    rest = scenario("655a_12_a_pay_table_four_of_a_kind_full_house_two_pair")["seats"]
    assert [rest[str(s)]["net"] for s in range(1, 5)] == [80_000, 20_000, 4000, 0]
    lines = {s: e["wagers"]["ante"].get("line") for s, e in rest.items()}
    assert lines == {
        "1": "four_of_a_kind",
        "2": "full_house",
        "3": "two_pair",
        "4": "pair_of_sixes_to_tens",
    }


def test_655a_12_a_base_pay_settles_every_line_at_its_odds_the_push_and_the_rest() -> None:
    # § 655a.12(a) odds; § 571.11(h)(2) sixes to tens push; (h)(1) everything else loses.
    royal = base_pay(hand_keys(evaluate("Ah Kh Qh Jh Th")))
    assert (royal.line, royal.result, royal.net, royal.winnings(300)) == (
        "royal_flush",
        Result.WIN,
        Fraction(500),
        150_000,
    )
    sixes = base_pay(hand_keys(evaluate("6s 6d 2c 5h 9s")))
    assert (sixes.line, sixes.result, sixes.net, sixes.winnings(300)) == (
        PUSH_HAND,
        Result.PUSH,
        Fraction(0),
        0,
    )
    fives = base_pay(hand_keys(evaluate("5s 5d 2c Ah 9s")))
    assert (fives.line, fives.result, fives.net) == ("lose", Result.LOSE, Fraction(-1))
    assert [p.line for p in BASE_PAYS[:-2]] == [ln.hand for ln in PAY_TABLE.lines]


def test_655a_12_a_solver_tabulation_is_base_pay_on_every_five_card_hand() -> None:
    """The exact solver's and the kernel's line table (analysis.mississippi_stud.base_lines)
    equals the game's base_pay on every five-card hand value, and on dealt cards."""
    from croupier.analysis.mississippi_stud.sheet import base_lines
    from croupier.analysis.stud_counts import five_card_values, rank_set
    from croupier.hands import HandRank, Ranking

    lines = base_lines()
    assert lines.names == [p.line for p in BASE_PAYS]
    assert lines.nets == [p.net for p in BASE_PAYS]
    unique, inverse = np.unique(five_card_values(), return_inverse=True)
    expected = np.array(
        [
            BASE_PAYS.index(base_pay(hand_keys(HandRank.of_value(v, Ranking.POKER5))))
            for v in unique.tolist()
        ]
    )
    assert len(unique) == 7462  # the distinct five-card poker hands
    assert np.array_equal(lines.line_of, expected[inverse])
    rng = np.random.default_rng(655)
    for _ in range(2000):
        cards = [DECK[i] for i in rng.choice(52, 5, replace=False)]
        line = BASE_PAYS.index(base_pay(hand_keys(evaluate(cards))))
        assert int(lines.line_of[rank_set([c.index for c in cards])]) == line, cards


def test_hand_keys_name_the_paying_pair_and_the_push() -> None:
    assert "pair_of_jacks_or_better" in hand_keys(evaluate("Js Jd 2c 5h 9s"))
    assert "pair_of_sixes_to_tens" in hand_keys(evaluate("6s 6d 2c 5h 9s"))
    assert hand_keys(evaluate("5s 5d 2c Ah 9s")) == frozenset({"pair"})


# --- § 655a.12(b): the aggregate payout limit -----------------------------------------------------


def test_655a_12_b_aggregate_payout_limit() -> None:
    result = scenario("655a_12_b_aggregate_payout_limit")
    wagers = result["seats"]["1"]["wagers"]
    assert {w: v["paid"] for w, v in wagers.items()} == {
        "ante": 500_000,
        "third_street": 1_500_000,
        "fourth_street": 1_500_000,
        "fifth_street": 1_500_000,
    }
    assert result["seats"]["1"]["net"] == 5_000_000
    (limited,) = [r for r in result["records"] if r["kind"] == "aggregate_payout_limited"]
    assert limited["won"] == 50_000_000 and limited["section"] == "§ 655a.12(b)"


def test_655a_12_b_a_higher_posted_limit_and_no_limit_below_50000() -> None:
    g = game(payout_limit=10_000_000, limits={"ante": {"min": 500}})
    rnd = new_round(g, {1: "Ah Kh"}, "Qh Jh Th", {1: {"ante": 2001}})
    play(rnd, {1: ["bet 3", "bet 3", "bet 3"]})
    paid = [r.paid for r in settled(rnd, 1).values()]
    assert sum(paid) == 10_000_000 and all(p > 0 for p in paid)
    assert any(isinstance(r, PayoutLimited) for r in rnd.records)
    with pytest.raises(RulesViolation, match=r"655a\.12\(b\)"):
        game(payout_limit=4_999_999)


# --- § 571.11(k): exchanging information ----------------------------------------------------------


def test_571_11_k_exchanging_information_forfeits_every_wager() -> None:
    result = scenario("571_11_k_exchanging_information_forfeits_every_wager")
    two = result["seats"]["2"]
    assert {w: v["result"] for w, v in two["wagers"].items()} == {
        "ante": "forfeit",
        "progressive": "forfeit",
        "third_street": "forfeit",
    }
    assert two["net"] == -1600 and "progressive" not in two
    assert result["seats"]["5"]["envy"] == []  # the forfeited royal flush qualifies nobody
    shown = [
        r.get("number", r["kind"])
        for r in result["records"]
        if r["kind"] in ("street_card_turned", "forfeited_for_collusion")
    ]
    assert shown == [1, "forfeited_for_collusion", 2, 3]


def test_571_11_k_ruling_refused_once_every_community_card_is_shown() -> None:
    g = game(**TABLE_A)
    wagers = {1: {"ante": 500, "progressive": 500}, 2: {"ante": 500, "progressive": 500}}
    rnd = new_round(g, {1: "2c 3d", 2: "9h 8h"}, "Qh Jh Th", wagers)
    rnd.apply(Fold(seat=1))
    rnd.apply(ForfeitForCollusion(seat=1))  # the folded player loses the Envy eligibility
    refused(rnd, ForfeitForCollusion(seat=1), IllegalAction, "already forfeited")
    refused(rnd, ForfeitForCollusion(seat=6), IllegalAction, "no wager")
    assert ForfeitForCollusion(seat=2) not in rnd.legal_actions()
    for _ in range(3):
        rnd.apply(Play(seat=2, multiple=1))
        rnd.apply(TurnCommunityCard())
    refused(rnd, ForfeitForCollusion(seat=2), IllegalAction, "every community card")
    rnd.run_dealer()
    assert not [r for r in rnd.records if isinstance(r, EnvyPaid)]
    rebuilt = Round.rebuild(g, rnd.records)
    assert rebuilt.records == rnd.records


# --- § 571.12 and § 655a.12(c): the progressive ---------------------------------------------------


def test_571_12_c_table_a_royal_flush_takes_the_meter_and_resets_it() -> None:
    meters = MemoryMeters({"ms": 3_000_000})
    wagers = {4: {"ante": 500, "progressive": 500}}
    rnd = new_round(game(**TABLE_A), {4: "Ah Kh"}, "Qh Jh Th", wagers, meters)
    play(rnd, {4: HOLD})
    assert settled(rnd, 4)["progressive"].paid == 3_000_125
    assert meters.snapshot()["ms"] == 1_000_000


def test_571_12_f_meter_reset_at_least_10000() -> None:
    with pytest.raises(RulesViolation, match=r"571\.12\(f\)"):
        game(progressive={**TABLE_A["progressive"], "reset": 999_999})


def test_571_12_g_each_winner_paid_the_meter_as_it_stands_at_the_players_turn() -> None:
    meters = MemoryMeters({"ms": 2_000_000})
    wagers = {s: {"ante": 500, "progressive": 500} for s in (3, 7)}
    rnd = new_round(game(**TABLE_A), {3: "Kh Qh", 7: "8h 7h"}, "Jh Th 9h", wagers, meters)
    play(rnd, {3: HOLD, 7: HOLD})
    # seat 7 first: 10% of 2,000,250; then seat 3: 10% of what is left
    assert settled(rnd, 7)["progressive"].paid == 200_025
    assert settled(rnd, 3)["progressive"].paid == 180_022
    envy = [(r.seat, r.for_seat, r.amount) for r in rnd.records if isinstance(r, EnvyPaid)]
    assert envy == [(7, 3, 150_000), (3, 7, 150_000)]  # § 571.12(e): never for one's own hand


def test_655a_12_c_table_c_pays_mega_major_and_minor_jackpots() -> None:
    result = scenario("655a_12_c_table_c_pays_mega_major_and_minor_jackpots")
    seats = result["seats"]
    assert seats["2"]["progressive"] == [
        {"line": "royal_flush", "amount": 3_000_030, "from_meter": True}
    ]
    assert seats["6"]["progressive"] == [
        {"line": "straight_flush", "amount": 700_015, "from_meter": True}
    ]
    assert seats["4"]["wagers"]["progressive"]["paid"] == 1000  # 10 for 1 on table C
    assert [e["amount"] for e in seats["4"]["envy"]] == [100_000, 30_000]
    assert result["meters"] == {
        "stud-mega": {"before": 3_000_000, "after": 2_500_000},
        "stud-major": {"before": 700_000, "after": 500_000},
        "stud-minor": {"before": 80_000, "after": 80_009},
    }


def test_655a_12_c_table_d_four_of_a_kind_pays_the_minor_jackpot() -> None:
    result = scenario("655a_12_c_table_d_four_of_a_kind_pays_the_minor_jackpot")
    assert result["seats"]["1"]["wagers"]["progressive"]["paid"] == 75_020
    assert result["seats"]["2"]["wagers"]["progressive"]["paid"] == 25_000  # 50 for 1
    assert result["meters"]["stud-minor"] == {"before": 75_000, "after": 50_000}


@pytest.mark.parametrize("letter", ["B", "C", "D"])
def test_655a_12_c_jackpot_meters_each_take_their_own_rate(letter: str) -> None:
    g = jackpot_game(letter, wager=500)
    meters = MemoryMeters()
    wagers = {s: {"ante": 500, "progressive": 500} for s in (1, 2)}
    rnd = new_round(g, {1: "2c 3d", 2: "4c 5d"}, "Qh Jh Th", wagers, meters)
    expected = {"stud-mega": 2_500_100, "stud-major": 500_050, "stud-minor": 50_030}
    if letter == "B":
        del expected["stud-minor"]
    assert meters.snapshot() == expected
    assert rnd.game.meter_spec is None and set(rnd.game.jackpots) == {
        "mega",
        "major",
        *(["minor"] if letter != "B" else []),
    }


def test_655a_12_c_linked_meters_are_shared_with_another_table() -> None:
    # Two tables whose Rules Submissions name the same mega meter share it: contributions from
    # both add to it, and a royal flush at one resets what the other sees.
    meters = MemoryMeters({"stud-mega": 3_000_000})
    other = jackpot_game("B")
    wagers = {1: {"ante": 500, "progressive": 100}}
    first = new_round(jackpot_game("C"), {1: "Ah Kh"}, "Qh Jh Th", wagers, meters)
    second = new_round(other, {1: "2c 3d"}, "Qh Jh Th", wagers, meters)
    assert meters.snapshot()["stud-mega"] == 3_000_020
    play(first, {1: HOLD})
    assert settled(first, 1)["progressive"].paid == 3_000_020
    play(second, {1: HOLD})
    assert meters.snapshot()["stud-mega"] == 2_500_000


def test_655a_12_c_rules_meters_every_problem() -> None:
    with pytest.raises(RulesViolation) as err:
        get_game(load_rules(RULES / "mississippi-stud-bad.toml"))
    problems = err.value.problems
    assert len(problems) == 8
    assert ("[progressive.meters.minor] is missing: table C pays the minor jackpot",
            "§ 655a.12(c)(1)") in problems  # fmt: skip
    assert any("both use meter 'stud-jackpot'" in m for m, _ in problems)
    assert any("add up to 11/10" in m for m, _ in problems)
    table_a = load_rules({**TABLE_A, "game": "mississippi-stud"})
    assert jackpot_meters(table_a)[1] == []

    def meter_problems(**prog: Any) -> list[tuple[str, str | None]]:
        rules = {"game": "mississippi-stud", "progressive": {**TABLE_A["progressive"], **prog}}
        return jackpot_meters(load_rules(rules))[1]

    assert meter_problems(meters={})[0][1] == "§ 571.12(c)"
    assert "give each its meter" in meter_problems(paytable="B")[0][0]
    bad_entry = {**JACKPOT_METERS, "mega": {"rate": 0.1, "reset": -5, "color": "red"}}
    with pytest.raises(RulesViolation) as bad:
        get_game(
            {
                "game": "mississippi-stud",
                "progressive": {**TABLE_A["progressive"], "paytable": "C", "meters": bad_entry},
            }
        )
    messages = [m for m, _ in bad.value.problems]
    assert len(messages) == 3
    assert "unknown key 'color' in [progressive.meters.mega]" in messages
    assert "[progressive.meters.mega] reset -5 must be more than 0 cents" in messages
    assert any("rate" in m and "binary float" in m for m in messages)


# --- faces: rules check and sign, replay, play, rebuild -------------------------------------------


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


def test_rules_check_and_sign() -> None:
    for name in ("mississippi-stud", "mississippi-stud-table-a"):
        assert run(["rules", "check", str(RULES / f"{name}.toml")])[0] == 0
    status, text = run(["rules", "sign", str(RULES / "mississippi-stud.toml")])
    assert status == 0
    assert "100% of mega jackpot (resets to $25,000)" in text
    assert "pair of sixes to tens" in text and "$50,000" in text
    assert run(["rules", "check", str(RULES / "mississippi-stud-bad.toml")])[0] == 2


def test_replay_prints_the_settlement() -> None:
    status, text = run(["replay", str(SCENARIOS / "655a_12_b_aggregate_payout_limit.json")])
    assert status == 0 and json.loads(text)["seats"]["1"]["net"] == 5_000_000


def test_play_in_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("500\n" + "1\n" * 3 + "n\n"))
    status, text = run(["play", "mississippi-stud", "--seed", "5"])
    assert status == 0 and "You leave the table with" in text


def test_simple_strategy_sees_only_the_turned_cards() -> None:
    hands, wagers = {1: "2c 3d", 2: "Jc Jd", 3: "Ks 7d"}, {s: {"ante": 500} for s in (1, 2, 3)}
    rnd = new_round(game(), hands, "Ah Kh Qh", wagers)
    assert rnd.simple_strategy(1) == Fold(seat=1)  # the royal board is still face down
    rnd.apply(Fold(seat=1))
    assert rnd.simple_strategy(2) == Play(seat=2, multiple=3)
    rnd.apply(Play(seat=2, multiple=3))
    assert rnd.simple_strategy(3) == Play(seat=3, multiple=1)


def test_rounds_rebuild_from_their_records() -> None:
    g = jackpot_game("C")
    wagers = {s: {"ante": 300, "progressive": 100} for s in (1, 3, 5, 7)}
    hands = {1: "Ah Kh", 3: "9h 8h", 5: "2c 3d", 7: "Qs Qd"}
    rnd = new_round(g, hands, "Qh Jh Th", wagers, MemoryMeters({"stud-mega": 4_000_000}))
    rnd.apply(Play(seat=1, multiple=3))
    rnd.apply(Play(seat=3, multiple=2))
    rnd.apply(Fold(seat=5))
    rnd.apply(ForfeitForCollusion(seat=7))
    play(rnd, {1: ["bet 3", "bet 3"], 3: ["bet 1", "bet 2"]})
    rebuilt = Round.rebuild(g, rnd.records, players=rnd.players)
    assert rebuilt.records == rnd.records
    assert rebuilt.settlement() == rnd.settlement()
    assert [e["for_seat"] for e in rnd.settlement()["5"]["envy"]] == [1, 3]
