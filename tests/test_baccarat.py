"""Minibaccarat and Midibaccarat (temporary Chapters 541 and 543 as amended, seed 002; permanent
Chapters 627a and 629a), EZ Baccarat, Dragon 7 Insurance and the Dragon Bonus: one test per rule.

The outside truth for the dealing rules is the published eight-deck count of Banker wins, Player
wins and Ties over every ordered six-card sequence, recomputed here exactly by card composition
through the engine's own drawing decision (:func:`next_card_to`, the one the round uses).
"""

from __future__ import annotations

import io
import json
from fractions import Fraction
from math import perm
from pathlib import Path
from typing import Any

import pytest

from croupier.cli import main
from croupier.core.cards import DECK, Card, parse_cards
from croupier.core.errors import CroupierError, IllegalAction, InvalidInput, RulesViolation
from croupier.core.money import vigorish
from croupier.games import GAMES, Phase, get_game
from croupier.games.baccarat import (
    BANKER,
    PLAYER,
    BaccaratGame,
    BaccaratRound,
    BaccaratShoe,
    CardsPickedUp,
    CollectReason,
    Coup,
    CutCardOut,
    EZBaccarat,
    HandTurned,
    MarkerCollected,
    MidiBaccarat,
    MiniBaccarat,
    ResultAnnounced,
    ShoeOpened,
    VerbalWager,
    VerbalWagerPlaced,
    VigCollected,
    VigLedger,
    VigMarked,
    check_facility,
    next_card_to,
    wager_pay,
)
from croupier.games.pov import Pov, public_cards, records_for, supervisor_hands
from croupier.games.records import (
    CardDealt,
    CardDiscarded,
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
from croupier.games.round import Round
from croupier.hands.baccarat import is_dragon_7, point_count
from croupier.rules.submission import load_rules
from croupier.table.scenario import LIBRARY, load_scenario, run_scenario
from croupier.table.shoe import SeededShuffler, StackedShoe

SCENARIOS = LIBRARY
RULES = Path(__file__).parent / "rules"

BANKER_NATURAL = "3c Kd 2h 9s"  # Player 3c 2h (5), Banker Kd 9s (natural 9)
PLAYER_NATURAL = "4c 2d 5h 3s"  # Player 4c 5h (natural 9), Banker 2d 3s (5)
TIE_7 = "Kc Jd 7c 7h"  # both 7, both stand
DRAGON = "Kc 3d 5h Ks Qh 4c"  # Player 5 draws Q (5); Banker 3 draws 4: three-card 7
NATURAL_TIE = "Kc Kd 9c 9d"  # both natural 9


def game(slug: str = "mini-baccarat", **rules: Any) -> BaccaratGame:
    g = get_game({"game": slug, **rules})
    assert isinstance(g, BaccaratGame)
    return g


def new_round(g: BaccaratGame | None = None, order: str = "", **kw: Any) -> BaccaratRound:
    cards = list(parse_cards(order)) if order else []
    rest = [c for c in DECK if c not in set(cards)]
    rnd = (g or game()).new_round(shoe=StackedShoe(cards + rest), **kw)
    assert isinstance(rnd, BaccaratRound)
    return rnd


def play(rnd: BaccaratRound, wagers: dict[int, dict[str, int]]) -> BaccaratRound:
    for seat, placed in wagers.items():
        for wager, amount in placed.items():
            rnd.apply(PlaceWager(seat=seat, wager=wager, amount=amount))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    assert rnd.phase is Phase.OVER
    return rnd


def coup(order: str, wagers: dict[int, dict[str, int]], **rules: Any) -> BaccaratRound:
    slug = rules.pop("slug", "mini-baccarat")
    return play(new_round(game(slug, **rules), order), wagers)


def settled(rnd: Round, seat: int) -> dict[str, WagerSettled]:
    return {r.wager: r for r in rnd.records if isinstance(r, WagerSettled) and r.seat == seat}


def announced(rnd: Round) -> ResultAnnounced:
    return next(r for r in rnd.records if isinstance(r, ResultAnnounced))


def snapshot(rnd: Round) -> tuple[Any, ...]:
    return (
        len(rnd.records),
        repr(rnd.stakes),
        rnd.phase,
        rnd.cards_left,
        repr(supervisor_hands(rnd)),
    )


def refused(rnd: Round, action: Any, error: type[CroupierError], section: str | None) -> None:
    before = snapshot(rnd)
    with pytest.raises(error) as info:
        rnd.apply(action)
    assert info.value.section == section
    assert snapshot(rnd) == before


# -- § 541.1 definitions ------------------------------------------------------------------------


def test_541_1_dragon_7_is_a_three_card_banker_7_over_a_player_below_7() -> None:
    rnd = coup(DRAGON, {1: {"dragon_7": 100}}, table={"ez": True})
    assert is_dragon_7(rnd.player_hand, rnd.banker_hand) and len(rnd.banker_hand) == 3
    # A two-card Banker 7 over a Player 5 is no Dragon 7: the insurance loses.
    rnd = coup("Kc 3d 5h 4s Qh", {1: {"dragon_7": 100}}, table={"ez": True})
    assert point_count(rnd.banker_hand) == 7 and len(rnd.banker_hand) == 2
    assert settled(rnd, 1)["dragon_7"].result is Result.LOSE


def test_541_1_a_natural_ends_the_deal() -> None:
    for order in (BANKER_NATURAL, PLAYER_NATURAL, NATURAL_TIE):
        rnd = coup(order, {1: {"banker": 500}})
        assert len(rnd.player_hand) == len(rnd.banker_hand) == 2


# -- § 541.2 layout -----------------------------------------------------------------------------


def test_541_2_c_6_dragon_bonus_only_where_offered_and_posted() -> None:
    rnd = new_round()
    rnd.apply(PlaceWager(seat=1, wager="player", amount=500))
    refused(
        rnd,
        PlaceWager(seat=1, wager="dragon_bonus_player", amount=100),
        IllegalAction,
        "§ 541.2(c)(6)",
    )
    g = game(paytables={"dragon_bonus_banker": "A", "dragon_bonus_player": "A"})
    assert "dragon_bonus_player" in g.offered_wagers()
    assert "Dragon Bonus (Banker), pay table A" in g.sign() and "win by 9" in g.sign()


def test_541_2_c_7_ez_sign_posts_the_dragon_7_push_and_odds() -> None:
    sign = game(table={"ez": True}).sign()
    assert "Dragon 7 ties and is returned" in sign and "40 to 1" in sign
    assert "Vigorish" not in sign


# -- § 541.8 wagers -----------------------------------------------------------------------------


def test_541_8_a_1_i_banker_wins_one_to_one_less_vig() -> None:
    rnd = coup(BANKER_NATURAL, {3: {"banker": 2000}})
    assert (settled(rnd, 3)["banker"].result, settled(rnd, 3)["banker"].paid) == (Result.WIN, 2000)
    assert rnd.settlement()["3"]["net"] == 1900


def test_541_8_a_1_ii_banker_loses_to_a_higher_player() -> None:
    rnd = coup(PLAYER_NATURAL, {3: {"banker": 2000}})
    assert settled(rnd, 3)["banker"].result is Result.LOSE
    assert rnd.settlement()["3"]["net"] == -2000


def test_541_8_a_1_iii_a_tie_returns_the_banker_wager() -> None:
    rnd = coup(TIE_7, {3: {"banker": 2000}})
    entry = settled(rnd, 3)["banker"]
    assert (entry.result, entry.returned, rnd.settlement()["3"]["net"]) == (Result.PUSH, 2000, 0)


def test_541_8_a_1_iii_b_tie_charged_25_percent_under_541_13_h() -> None:
    rnd = coup(TIE_7, {3: {"banker": 2000}}, vig={"type": "tie", "rate": "0.25"})
    assert settled(rnd, 3)["banker"].result is Result.PUSH
    vig = [r for r in rnd.records if isinstance(r, VigCollected)]
    assert [(v.seat, v.amount, v.how, v.section) for v in vig] == [(3, 500, "tie", "§ 541.13(h)")]
    assert rnd.settlement()["3"]["net"] == -500


def test_541_8_a_1_iv_ez_dragon_7_returns_the_banker_wager() -> None:
    rnd = coup(DRAGON, {1: {"banker": 1000}}, table={"ez": True})
    entry = settled(rnd, 1)["banker"]
    assert (entry.result, entry.line, entry.returned) == (Result.PUSH, "dragon_7", 1000)
    # Not an EZ table: the same cards are a Banker win.
    assert settled(coup(DRAGON, {1: {"banker": 1000}}), 1)["banker"].result is Result.WIN


def test_541_8_a_2_i_player_wins_one_to_one() -> None:
    rnd = coup(PLAYER_NATURAL, {2: {"player": 1500}})
    assert (settled(rnd, 2)["player"].result, settled(rnd, 2)["player"].paid) == (Result.WIN, 1500)
    assert "vig" not in rnd.settlement()["2"]


def test_541_8_a_2_ii_player_loses_also_on_an_ez_dragon_7() -> None:
    assert settled(coup(BANKER_NATURAL, {2: {"player": 500}}), 2)["player"].result is Result.LOSE
    rnd = coup(DRAGON, {2: {"player": 500}}, table={"ez": True})
    assert point_count(rnd.player_hand) < point_count(rnd.banker_hand)
    assert (settled(rnd, 2)["player"].result, settled(rnd, 2)["player"].line) == (
        Result.LOSE,
        "dragon_7",
    )


def test_541_8_a_2_iii_player_wager_returned_on_a_tie() -> None:
    entry = settled(coup(TIE_7, {2: {"player": 500}}), 2)["player"]
    assert (entry.result, entry.returned) == (Result.PUSH, 500)


@pytest.mark.parametrize(("letter", "paid"), [("A", 800), ("B", 900)])
def test_541_8_a_3_tie_wager_wins_on_a_tie_only(letter: str, paid: int) -> None:
    rnd = coup(TIE_7, {3: {"tie": 100}}, paytables={"tie": letter})
    assert (settled(rnd, 3)["tie"].result, settled(rnd, 3)["tie"].paid) == (Result.WIN, paid)
    rnd = coup(BANKER_NATURAL, {3: {"tie": 100}}, paytables={"tie": letter})
    assert settled(rnd, 3)["tie"].result is Result.LOSE


def test_541_8_a_5_dragon_7_insurance_only_on_an_ez_table() -> None:
    refused(
        new_round(),
        PlaceWager(seat=1, wager="dragon_7", amount=100),
        IllegalAction,
        "§ 541.8(a)(5)",
    )
    rnd = coup(BANKER_NATURAL, {1: {"dragon_7": 100}}, table={"ez": True})
    assert settled(rnd, 1)["dragon_7"].result is Result.LOSE


def test_541_13_e_dragon_7_insurance_pays_40_to_1() -> None:
    rnd = coup(DRAGON, {1: {"dragon_7": 250}}, table={"ez": True})
    assert (settled(rnd, 1)["dragon_7"].result, settled(rnd, 1)["dragon_7"].paid) == (
        Result.WIN,
        10_000,
    )


def test_541_8_b_verbal_wager_with_cash_confirmed_by_the_dealer() -> None:
    rnd = new_round(order=BANKER_NATURAL)
    short = VerbalWager(seat=2, wager="banker", amount=2500, cash=2000, confirmed_by="dealer")
    refused(rnd, short, IllegalAction, "§ 541.8(b)")
    unconfirmed = VerbalWager(seat=2, wager="banker", amount=2500, cash=3000, confirmed_by=" ")
    refused(rnd, unconfirmed, IllegalAction, "§ 541.8(b)")
    zero = VerbalWager(seat=2, wager="banker", amount=0, cash=3000, confirmed_by="dealer")
    refused(rnd, zero, InvalidInput, None)
    ok = VerbalWager(seat=2, wager="banker", amount=2500, cash=3000, confirmed_by="dealer D1")
    (rec,) = rnd.apply(ok)
    assert isinstance(rec, VerbalWagerPlaced) and (rec.cash, rec.amount) == (3000, 2500)
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    assert rnd.settlement()["2"]["net"] == 2500 - 125
    rebuilt = Round.rebuild(rnd.game, rnd.records)
    assert rebuilt.records == rnd.records


def test_541_8_c_no_wager_after_no_more_bets() -> None:
    rnd = new_round(order=BANKER_NATURAL)
    rnd.apply(PlaceWager(seat=1, wager="banker", amount=500))
    rnd.apply(NoMoreBets())
    refused(rnd, PlaceWager(seat=2, wager="player", amount=500), IllegalAction, "§ 541.8(c)")
    late = VerbalWager(seat=2, wager="player", amount=500, cash=500, confirmed_by="dealer")
    refused(rnd, late, IllegalAction, "§ 541.8(c)")


# -- dealing: § 627a.8(c) (§ 541.9) and the third-card rules (§ 541.10-541.11) -------------------


def test_627a_8_c_1_cards_1_and_3_to_the_player_2_and_4_to_the_banker_face_up() -> None:
    rnd = coup("2c 3d 4h 5s 6c 7d", {1: {"banker": 500}})
    dealt = [r for r in rnd.records if isinstance(r, CardDealt)]
    assert [(str(r.card), r.to) for r in dealt[:4]] == [
        ("2c", PLAYER),
        ("3d", BANKER),
        ("4h", PLAYER),
        ("5s", BANKER),
    ]
    assert all(r.face_up for r in dealt)


def test_627a_8_c_2_face_down_option_keeps_the_first_four_down() -> None:
    rnd = coup(PLAYER_NATURAL, {1: {"banker": 500}}, table={"face_up": False})
    dealt = [r for r in rnd.records if isinstance(r, CardDealt)]
    assert not any(r.face_up for r in dealt)
    assert "under the shoe corner" in dealt[1].note and dealt[1].to == BANKER


def test_627a_8_c_2_face_down_cards_turned_when_the_players_hand_is_called() -> None:
    # DRAGON: Player Kc 5h (5) draws, Banker 3d Ks (3) draws: the four are turned first
    rnd = coup(DRAGON, {1: {"banker": 500}}, table={"face_up": False})
    kinds = [type(r).__name__ for r in rnd.records]
    fourth = [i for i, k in enumerate(kinds) if k == "CardDealt"][3]
    turned = [r for r in rnd.records if isinstance(r, HandTurned)]
    assert [(t.hand, [str(c) for c in t.cards], t.count) for t in turned] == [
        (PLAYER, ["Kc", "5h"], 5),
        (BANKER, ["3d", "Ks"], 3),
    ]
    assert all(t.section == "§ 627a.8(c)(2)" for t in turned)
    # turned right after the fourth card, before either third card (the Player's first)
    assert kinds[fourth + 1 : fourth + 3] == ["HandTurned", "HandTurned"]
    assert kinds[fourth + 3] == "CardDealt"
    # a player's device: nothing of the four until turned, all four once turned
    before = public_cards(records_for(rnd.records[: fourth + 1], Pov.player(1)))
    after = public_cards(records_for(rnd.records[: fourth + 3], Pov.player(1)))
    assert before == []
    assert sorted(str(c) for c in after) == ["3d", "5h", "Kc", "Ks"]


def test_627a_8_c_1_face_up_deal_turns_nothing_and_shows_each_card_as_dealt() -> None:
    rnd = coup(DRAGON, {1: {"banker": 500}})
    assert not any(isinstance(r, HandTurned) for r in rnd.records)
    first_four = records_for(rnd.records, Pov.player(1))
    dealt = [r for r in first_four if isinstance(r, CardDealt)][:4]
    assert [str(r.card) for r in dealt] == ["Kc", "3d", "5h", "Ks"]


def test_629a_8_c_2_midibaccarat_face_down_cards_turned_before_the_third_card() -> None:
    rnd = coup(DRAGON, {1: {"banker": 500}}, slug="midi-baccarat", table={"face_up": False})
    turned = [r for r in rnd.records if isinstance(r, HandTurned)]
    assert [t.hand for t in turned] == [PLAYER, BANKER]
    assert all(t.section == "§ 629a.8(c)(2)" for t in turned)


@pytest.mark.parametrize("total", range(10))
def test_541_11_player_draws_on_0_to_5_and_stands_on_6_or_7(total: int) -> None:
    # Banker 0 (Kd Qs): the Player's Hand decides alone; naturals stop the deal.
    first = "Kc" if total != 0 else "5c"
    second = {0: "5h", 1: "Ah", 2: "2h", 3: "3h", 4: "4h", 5: "5h", 6: "6h", 7: "7h", 8: "8h"}
    order = f"{first} Kd {second.get(total, '9h')} Qs 2s 3s"
    rnd = coup(order, {1: {"banker": 500}})
    assert len(rnd.player_hand) == (3 if total <= 5 else 2)


TABLE_1 = {3: "DDDDDDDDSD", 4: "SSDDDDDDSS", 5: "SSSSDDDDSS", 6: "SSSSSSDDSS"}
"""Table 1 as printed (Banker count after two cards; Player's third card 0-9)."""
_VALUE = ["Tc", "Ac", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"]
_BANKER_TWO = {0: "Kd Qd", 1: "Kd Ad", 2: "Kd 2d", 3: "Kd 3d", 4: "Kd 4d", 5: "Kd 5d", 6: "Kd 6d"}


@pytest.mark.parametrize("banker", range(8))
@pytest.mark.parametrize("third", range(10))
def test_541_11_banker_draws_by_its_count_and_the_players_third_card(
    banker: int, third: int
) -> None:
    b1, b2 = _BANKER_TWO.get(banker, "Kd 7d").split()
    order = f"Jh {b1} Ah {b2} {_VALUE[third]} 9s"  # Player 1 draws
    rnd = coup(order, {1: {"banker": 500}})
    assert len(rnd.player_hand) == 3
    if banker <= 2:
        want = True
    elif banker == 7:
        want = False
    else:
        want = TABLE_1[banker][third] == "D"
    assert (len(rnd.banker_hand) == 3) is want


@pytest.mark.parametrize("banker", range(8))
def test_541_11_banker_draws_on_0_to_5_when_the_player_stands(banker: int) -> None:
    b1, b2 = _BANKER_TWO.get(banker, "Kd 7d").split()
    rnd = coup(f"Jh {b1} 6h {b2} 9s", {1: {"banker": 500}})
    assert len(rnd.player_hand) == 2 and (len(rnd.banker_hand) == 3) is (banker <= 5)


def test_541_10_11_eight_deck_coup_counts_match_the_published_totals() -> None:
    """Every ordered six-card sequence of eight decks, counted by point value (tens and pictures
    128 cards, each other value 32) through the engine's drawing decision."""
    card = {v: Card.parse(c) for v, c in enumerate(["Ks", *(f"{r}s" for r in "A23456789")])}
    counts = [128] + [32] * 9
    totals = {"banker": 0, "player": 0, "tie": 0, "dragon_7": 0}
    decisions: dict[tuple[int, ...], str | None] = {}

    def decide(p: list[int], b: list[int]) -> str | None:
        key = (*p, -1, *b)
        if key not in decisions:
            decisions[key] = next_card_to([card[v] for v in p], [card[v] for v in b])
        return decisions[key]

    def walk(p: list[int], b: list[int], weight: int) -> None:
        due = decide(p, b)
        if due is None:
            weight *= perm(416 - len(p) - len(b), 6 - len(p) - len(b))
            pc, bc = sum(p) % 10, sum(b) % 10
            totals["banker" if bc > pc else "player" if pc > bc else "tie"] += weight
            if len(b) == 3 and bc == 7 and pc < 7:
                totals["dragon_7"] += weight
            return
        for v in range(10):
            n = counts[v]
            counts[v] -= 1
            walk([*p, v] if due == PLAYER else p, [*b, v] if due == BANKER else b, weight * n)
            counts[v] += 1

    def first_four(values: list[int], weight: int) -> None:
        if len(values) == 4:
            walk([values[0], values[2]], [values[1], values[3]], weight)
            return
        for v in range(10):
            n = counts[v]
            counts[v] -= 1
            first_four([*values, v], weight * n)
            counts[v] += 1

    first_four([], 1)
    # Source: Wizard of Odds, "Baccarat" (eight decks, the combinations of each result) and
    # "EZ Baccarat" (the Dragon 7 line): published combinatorial tables.
    assert totals["banker"] == 2_292_252_566_437_888
    assert totals["player"] == 2_230_518_282_592_256
    assert totals["tie"] == 475_627_426_473_216
    assert totals["banker"] + totals["player"] + totals["tie"] == perm(416, 6)
    assert perm(416, 6) == 4_998_398_275_503_360
    assert totals["dragon_7"] == 112_633_011_329_024  # 2.2534%, the published EZ figure


def test_third_cards_dealt_by_the_round_follow_next_card_to() -> None:
    shuffler = SeededShuffler("baccarat-third-cards")
    for _ in range(200):
        order = shuffler.shuffle(DECK)
        rnd = play(new_round(order=" ".join(map(str, order[:6]))), {1: {"banker": 100}})
        p, b = list(order[0:4:2]), list(order[1:4:2])
        nxt = iter(order[4:6])
        while (due := next_card_to(p, b)) is not None:
            (p if due == PLAYER else b).append(next(nxt))
        assert (list(rnd.player_hand), list(rnd.banker_hand)) == (p, b)


# -- § 541.12 announcement, payment and collection -----------------------------------------------


def test_541_12_a_dealer_announces_the_counts_tie_hand_and_dragon_7() -> None:
    assert announced(coup(BANKER_NATURAL, {1: {"banker": 100}})).announcement == (
        "Banker wins, 9 over 5"
    )
    tie = announced(coup(TIE_7, {1: {"banker": 100}}))
    assert (tie.announcement, tie.winner, tie.section) == ("Tie Hand", "tie", "§ 541.12(a)")
    dragon = announced(coup(DRAGON, {1: {"banker": 100}}, table={"ez": True}))
    assert (dragon.announcement, dragon.dragon_7) == ("Dragon 7", True)
    plain = announced(coup(DRAGON, {1: {"banker": 100}}))
    assert (plain.announcement, plain.dragon_7) == ("Banker wins, 7 over 5", False)


def test_543_12_a_midibaccarat_announces_tie_hand() -> None:
    rnd = coup(TIE_7, {1: {"banker": 100}}, slug="midi-baccarat")
    assert (announced(rnd).announcement, announced(rnd).section) == ("tie hand", "§ 543.12(a)")


def test_541_12_b_losers_first_then_vig_and_pay_from_the_highest_seat() -> None:
    rnd = coup(
        BANKER_NATURAL,
        {1: {"banker": 700}, 4: {"player": 1000}, 6: {"banker": 500, "tie": 500}},
    )
    after = rnd.records[
        next(i for i, r in enumerate(rnd.records) if isinstance(r, ResultAnnounced)) :
    ]
    steps = [
        (type(r).__name__, r.seat, getattr(r, "wager", None))
        for r in after
        if isinstance(r, WagerSettled | VigCollected)
    ]
    assert steps == [
        ("WagerSettled", 6, "tie"),
        ("WagerSettled", 4, "player"),
        ("VigCollected", 6, None),
        ("WagerSettled", 6, "banker"),
        ("VigCollected", 1, None),
        ("WagerSettled", 1, "banker"),
    ]
    assert {s: v["net"] for s, v in rnd.settlement().items()} == {"6": -25, "4": -1000, "1": 665}


def test_541_12_b_ez_table_collects_no_vigorish() -> None:
    rnd = coup(BANKER_NATURAL, {1: {"banker": 700}}, table={"ez": True})
    assert not [r for r in rnd.records if isinstance(r, VigCollected | VigMarked)]
    assert rnd.settlement()["1"]["net"] == 700


def test_541_12_c_cards_to_the_discard_rack_in_order_and_the_round_rebuilds() -> None:
    rnd = coup(DRAGON, {1: {"banker": 500}, 2: {"dragon_7": 100}}, table={"ez": True})
    pick = rnd.records[-1]
    assert isinstance(pick, CardsPickedUp)
    assert (pick.to, pick.in_order, pick.section) == ("discard_rack", True, "§ 541.12(c)")
    assert [str(c) for c in pick.player] == ["Kc", "5h", "Qh"]
    assert [str(c) for c in pick.banker] == ["3d", "Ks", "4c"]
    rebuilt = Round.rebuild(rnd.game, rnd.records)
    assert rebuilt.records == rnd.records and rebuilt.settlement() == rnd.settlement()


def test_543_12_c_midibaccarat_cards_go_into_the_discard_bucket() -> None:
    pick = coup(BANKER_NATURAL, {1: {"banker": 500}}, slug="midi-baccarat").records[-1]
    assert isinstance(pick, CardsPickedUp)
    assert (pick.to, pick.in_order, pick.section) == ("discard_bucket", False, "§ 543.12(c)")


def test_all_losing_round_ends_at_the_reveal_with_the_cards_picked_up() -> None:
    rnd = coup(BANKER_NATURAL, {1: {"player": 500}, 2: {"tie": 500}})
    assert isinstance(rnd.records[-1], CardsPickedUp) and rnd.phase is Phase.OVER


# -- § 541.13 payout odds and vigorish ------------------------------------------------------------


def test_541_13_c_vigorish_is_4_or_5_percent_of_the_amount_won() -> None:
    for rate, owed in (("0.05", 100), ("0.04", 80)):
        rnd = coup(BANKER_NATURAL, {1: {"banker": 2000}}, vig={"rate": rate})
        (vig,) = [r for r in rnd.records if isinstance(r, VigCollected)]
        assert (vig.amount, vig.basis, vig.section) == (owed, 2000, "§ 541.13(c)")
    with pytest.raises(RulesViolation) as info:
        game(vig={"rate": "0.03"})
    assert [s for _, s in info.value.problems] == ["§ 541.13(c)"]
    with pytest.raises(RulesViolation) as info:
        game(vig={"type": "none"})
    assert [s for _, s in info.value.problems] == ["§ 541.13(c)"]


def test_543_13_c_midibaccarat_vigorish_cites_chapter_543() -> None:
    rnd = coup(BANKER_NATURAL, {1: {"banker": 1000}}, slug="midi-baccarat", vig={"rate": "0.04"})
    (vig,) = [r for r in rnd.records if isinstance(r, VigCollected)]
    assert (vig.amount, vig.section) == (40, "§ 543.13(c)")
    with pytest.raises(RulesViolation) as info:
        game("midi-baccarat", vig={"rate": "0.06"})
    assert [s for _, s in info.value.problems] == ["§ 543.13(c)"]


@pytest.mark.parametrize(
    ("won", "rate", "owed"),
    [(700, "0.05", 35), (310, "0.04", 15), (2000, "0.05", 100), (100, "0.04", 5), (110, "0.04", 5)],
)
def test_541_13_f_vigorish_rounded_up_to_5_cents(won: int, rate: str, owed: int) -> None:
    rnd = coup(BANKER_NATURAL, {1: {"banker": won}}, vig={"rate": rate})
    (vig,) = [r for r in rnd.records if isinstance(r, VigCollected)]
    assert vig.amount == owed == vigorish(won, Fraction(rate))


def test_541_13_g_deferred_vigorish_marked_then_collected_when_the_player_leaves() -> None:
    g = game(vig={"collect": "deferred"})
    ledger = VigLedger(g)
    for _ in range(2):
        rnd = coup(
            BANKER_NATURAL, {3: {"banker": 700}, 5: {"banker": 2000}}, vig={"collect": "deferred"}
        )
        assert [(r.seat, r.amount) for r in rnd.records if isinstance(r, VigMarked)] == [
            (5, 100),
            (3, 35),
        ]
        assert not [r for r in rnd.records if isinstance(r, VigCollected)]
        assert rnd.settlement()["3"]["vig"] == {"collected": 0, "marked": 35}
        ledger.record(rnd)
    assert ledger.markers() == {3: 70, 5: 200}
    rec = ledger.collect(3)
    assert (rec.seat, rec.amount, rec.reason, rec.section) == (
        3,
        70,
        "player_leaves",
        "§ 541.13(g)",
    )
    assert ledger.markers() == {5: 200}
    # Refused calls change nothing.
    for call, error in (
        (lambda: ledger.collect(3), IllegalAction),
        (lambda: ledger.collect(9), InvalidInput),
        (lambda: ledger.record(rnd), IllegalAction),
        (lambda: ledger.record(new_round(g)), IllegalAction),
        (
            lambda: ledger.record(coup(BANKER_NATURAL, {1: {"banker": 100}}, slug="midi-baccarat")),
            IllegalAction,
        ),
    ):
        with pytest.raises(error):
            call()
        assert ledger.markers() == {5: 200}
    (last,) = ledger.collect_all()
    assert (last.seat, last.amount, last.reason) == (5, 200, CollectReason.RESHUFFLE.value)
    assert ledger.markers() == {}
    assert [type(r) for r in ledger.history].count(MarkerCollected) == 2


def test_541_13_g_markers_collected_before_the_shoe_is_reshuffled() -> None:
    g = game(vig={"collect": "deferred"}, table={"decks": 8})
    table = BaccaratShoe(g, SeededShuffler("shoe"), cut_card=16)
    with pytest.raises(IllegalAction):
        table.new_round()
    (opened,) = table.reshuffle()
    assert isinstance(opened, ShoeOpened) and opened.decks == 8
    assert table.shoe is not None
    assert (
        len(table.shoe.burned)
        == 1 + (opened.burned)
        == 1 + (point_count([opened.first_card]) or 10)
    )
    cut_seen = 0
    while not table.done:
        rnd = table.new_round()
        with pytest.raises(IllegalAction):
            table.new_round()
        for action in rnd.house_wagers(2, unit=1000):
            rnd.apply(action)
        rnd.apply(NoMoreBets())
        rnd.run_dealer()
        cut_seen += sum(isinstance(r, CutCardOut) for r in table.finish(rnd))
    assert cut_seen == 1 and table.shoe.stub_count() <= 16
    assert 416 - len(table.shoe) - len(table.shoe.burned) == len(table.shoe.dealt)
    owed = table.ledger.owed(2)
    assert owed > 0
    with pytest.raises(IllegalAction):
        table.new_round()
    new = table.reshuffle()
    assert isinstance(new[0], MarkerCollected) and new[0].amount == owed
    assert isinstance(new[1], ShoeOpened) and table.ledger.markers() == {}
    assert table.leave(2) is None


def test_543_13_g_midibaccarat_markers_before_a_new_dealing_shoe() -> None:
    g = game("midi-baccarat", vig={"collect": "deferred"})
    ledger = VigLedger(g)
    ledger.record(
        coup(
            BANKER_NATURAL, {7: {"banker": 1000}}, slug="midi-baccarat", vig={"collect": "deferred"}
        )
    )
    assert ledger.collect_all()[0].section == "§ 543.13(g)"


def test_541_13_h_tie_vigorish_replaces_the_commission_and_is_never_deferred() -> None:
    rules = {"vig": {"type": "tie", "rate": "0.25"}}
    rnd = coup(BANKER_NATURAL, {1: {"banker": 1000}}, **rules)
    assert rnd.settlement()["1"]["net"] == 1000  # no commission on the win
    rnd = coup(TIE_7, {1: {"banker": 710}, 2: {"player": 500}}, **rules)
    assert rnd.settlement()["1"]["net"] == -180 and rnd.settlement()["2"]["net"] == 0
    with pytest.raises(RulesViolation) as info:
        game(vig={"type": "tie", "rate": "0.25", "collect": "deferred"})
    assert [s for _, s in info.value.problems] == ["§ 541.13(h)"]
    with pytest.raises(RulesViolation) as info:
        game(vig={"type": "tie", "rate": "0.05"})
    assert [s for _, s in info.value.problems] == ["§ 541.13(h)"]


def test_541_13_i_same_vigorish_at_every_minibaccarat_table_of_a_facility() -> None:
    five = {"game": "mini-baccarat", "vig": {"rate": "0.05"}}
    check_facility([five, {"game": "mini-baccarat"}, {"game": "ez-baccarat"}])
    check_facility([five, {"game": "midi-baccarat", "vig": {"rate": "0.04"}}])
    with pytest.raises(RulesViolation) as info:
        check_facility([five, {"game": "mini-baccarat", "vig": {"rate": "0.04"}}])
    assert info.value.section == "§ 541.13(i)" and len(info.value.problems) == 1
    with pytest.raises(RulesViolation) as info:
        check_facility([five, {"game": "mini-baccarat", "vig": {"type": "tie", "rate": "0.25"}}])
    assert info.value.section == "§ 541.13(i)"
    with pytest.raises(InvalidInput):
        check_facility([five, {"game": "four-card-poker"}])


def test_543_13_i_same_vigorish_at_every_midibaccarat_table_of_a_facility() -> None:
    with pytest.raises(RulesViolation) as info:
        check_facility(
            [{"game": "midi-baccarat"}, {"game": "midi-baccarat", "vig": {"rate": "0.04"}}]
        )
    assert info.value.section == "§ 543.13(i)"


# -- Dragon Bonus (§ 541.2(c)(6); tables of § 631b.9(f)) ------------------------------------------

DB: dict[str, Any] = {"paytables": {"dragon_bonus_banker": "A", "dragon_bonus_player": "A"}}


@pytest.mark.parametrize(
    ("order", "wager", "result", "paid", "line"),
    [
        (PLAYER_NATURAL, "dragon_bonus_player", Result.WIN, 100, "natural_win"),
        (NATURAL_TIE, "dragon_bonus_player", Result.PUSH, 0, "natural_tie"),
        (TIE_7, "dragon_bonus_banker", Result.LOSE, 0, "tie"),
        ("2c Kd 3h Qs 4d Jc", "dragon_bonus_player", Result.WIN, 3000, "win_by_9"),
        ("Kc 2d 6h Qs Kh", "dragon_bonus_player", Result.WIN, 100, "win_by_4"),
        ("Kc 3d 6h Qs Th", "dragon_bonus_player", Result.LOSE, 0, "win_by_3"),
        (DRAGON, "dragon_bonus_banker", Result.LOSE, 0, "win_by_2"),
        (BANKER_NATURAL, "dragon_bonus_player", Result.LOSE, 0, "lose"),
    ],
)
def test_631b_9_e_dragon_bonus_natural_win_natural_tie_or_margin(
    order: str, wager: str, result: Result, paid: int, line: str
) -> None:
    rnd = coup(order, {1: {"tie": 100, wager: 100}}, **DB)
    entry = settled(rnd, 1)[wager]
    assert (entry.result, entry.paid, entry.line) == (result, paid, line)


def test_631b_9_f_dragon_bonus_table_b_pays_a_natural_tie_and_one_table_per_table() -> None:
    rnd = coup(
        NATURAL_TIE,
        {1: {"tie": 100, "dragon_bonus_banker": 100}},
        paytables={"dragon_bonus_banker": "B"},
    )
    assert settled(rnd, 1)["dragon_bonus_banker"].paid == 200
    assert "dragon_bonus_player" in rnd.game.offered_wagers()  # one table serves both sides
    with pytest.raises(RulesViolation) as info:
        game(paytables={"dragon_bonus_banker": "A", "dragon_bonus_player": "C"})
    assert [s for _, s in info.value.problems] == ["§ 631b.9(f)"]


@pytest.mark.parametrize(
    ("slug", "rules"),
    [
        ("mini-baccarat", {}),
        ("mini-baccarat", {"vig": {"type": "commission", "rate": "0.04"}}),
        ("midi-baccarat", {"vig": {"type": "tie", "rate": "0.25", "collect": "at_payout"}}),
        ("ez-baccarat", {}),
    ],
)
def test_541_8_kernel_class_nets_are_wager_pay_on_every_coup(
    slug: str, rules: dict[str, Any]
) -> None:
    """The Monte Carlo kernel's nets per result class (analysis.baccarat.class_nets) equal the
    game's wager_pay on every coup of a full shoe, Banker and Player (§ 541.8(a), § 541.13)."""
    from croupier.analysis.baccarat.exact import coups
    from croupier.analysis.baccarat.sheet import CLASS_COUPS, class_nets, coup_class

    g = game(slug, **rules)
    assert [coup_class(c) for c in CLASS_COUPS] == [0, 1, 2, 3]
    every = coups(g.shoe_decks)
    assert set(CLASS_COUPS) <= set(every)  # each class's coup is one the shoe deals
    for wager in ("banker", "player"):
        nets = class_nets(g, wager)
        for c in every:
            assert wager_pay(g, wager, c).net == nets[coup_class(c)], (wager, c)


def test_541_8_wager_pay_is_what_the_round_settles() -> None:
    """The round settles each wager by wager_pay on its coup: a Dragon 7 on an EZ table."""
    rnd = coup(DRAGON, {1: {"banker": 100, "player": 100, "dragon_7": 100}}, table={"ez": True})
    assert rnd.coup == Coup(
        player=5, banker=7, player_cards=3, banker_cards=3, player_two=5, banker_two=3
    )
    for wager, entry in settled(rnd, 1).items():
        pay = wager_pay(rnd.game, wager, rnd.coup)
        assert (entry.result, entry.paid, entry.line) == (pay.result, pay.winnings(100), pay.line)
    assert wager_pay(rnd.game, "dragon_7", rnd.coup).net == 40
    assert wager_pay(rnd.game, "banker", rnd.coup).result is Result.PUSH


def test_631b_9_a_dragon_bonus_follows_a_baccarat_wager_at_the_seat() -> None:
    rnd = new_round(game(**DB))
    refused(
        rnd,
        PlaceWager(seat=1, wager="dragon_bonus_banker", amount=100),
        IllegalAction,
        "§ 631b.9(a)",
    )


# -- games, rules, errors, faces ----------------------------------------------------------------


def test_ez_baccarat_and_midi_ez_are_the_ez_option() -> None:
    ez = get_game("ez-baccarat")
    assert isinstance(ez, EZBaccarat) and isinstance(ez, MiniBaccarat) and ez.ez
    assert ez.vig.type == "none" and "dragon_7" in ez.offered_wagers()
    midi = game("midi-baccarat", table={"ez": True})
    assert isinstance(midi, MidiBaccarat) and midi.ez and "dragon_7" in midi.offered_wagers()
    assert not game().ez and "dragon_7" not in game().offered_wagers()
    assert game().shoe_decks == game().deck_count == 8 and game(table={"decks": 6}).shoe_decks == 6
    with pytest.raises(RulesViolation) as info:
        get_game({"game": "ez-baccarat", "vig": {"type": "commission", "rate": "0.05"}})
    assert [s for _, s in info.value.problems] == ["§ 541.13(c)"]


def test_rules_files_report_every_problem_with_its_section() -> None:
    for name in ("mini-baccarat", "ez-baccarat", "midi-baccarat"):
        g = get_game(load_rules(RULES / f"{name}.toml"))
        assert isinstance(g, BaccaratGame)
    with pytest.raises(RulesViolation) as info:
        get_game(load_rules(RULES / "mini-baccarat-bad.toml"))
    # a problem the texts at hand give no section for names the chapter (issue 35)
    chapter = MiniBaccarat.chapter
    assert sorted(str(s) for _, s in info.value.problems) == sorted(
        ["§ 541.13", chapter, chapter, "§ 541.13(c)", "§ 631b.9(f)", chapter]
    )
    with pytest.raises(RulesViolation) as info:
        get_game(load_rules(RULES / "midi-baccarat-bad.toml"))
    assert [s for _, s in info.value.problems] == ["§ 543.13(c)", "§ 543.13(h)"]


def test_refused_actions_change_nothing() -> None:
    rnd = new_round(game(table={"adjacent_boxes": 1}), order=BANKER_NATURAL)
    refused(rnd, PlaceWager(seat=1, wager="banker", amount=-5), InvalidInput, None)
    refused(rnd, PlaceWager(seat=1, wager="ante", amount=500), InvalidInput, None)
    refused(rnd, NoMoreBets(), IllegalAction, None)
    rnd.apply(PlaceWager(seat=1, wager="banker", amount=500))
    refused(rnd, PlaceWager(seat=1, wager="banker", amount=500), IllegalAction, None)
    refused(rnd, Play(seat=1, multiple=1), IllegalAction, None)
    refused(rnd, Fold(seat=1), IllegalAction, None)
    rnd.apply(NoMoreBets())
    refused(rnd, ReportIrregularity(kind=IrregularityKind.DEALER_CARD_EXPOSED), IllegalAction, None)
    rnd.run_dealer()
    refused(rnd, NoMoreBets(), IllegalAction, None)


def test_a_second_card_face_up_in_the_shoe_voids_and_returns_every_wager() -> None:
    rnd = new_round(order="5c 6c " + BANKER_NATURAL)
    rnd.apply(PlaceWager(seat=1, wager="banker", amount=500))
    rnd.apply(NoMoreBets())
    rnd.apply(ReportIrregularity(kind=IrregularityKind.CARD_FACE_UP_IN_DECK))
    assert isinstance(rnd.records[-1], CardDiscarded)
    rnd.apply(ReportIrregularity(kind=IrregularityKind.CARD_FACE_UP_IN_DECK))
    assert rnd.phase is Phase.VOID and any(isinstance(r, RoundVoided) for r in rnd.records)
    assert rnd.settlement()["1"]["net"] == 0


def test_conformance_example_rules_cover_every_option() -> None:
    for slug in ("mini-baccarat", "midi-baccarat", "ez-baccarat"):
        cls = GAMES[slug]
        g = get_game(dict(cls.example_rules))
        assert isinstance(g, BaccaratGame) and g.dragon_bonus_letter is not None
    assert get_game("mini-baccarat").new_round(shoe=StackedShoe(DECK)).house_wagers(1) == [
        PlaceWager(seat=1, wager="banker", amount=500)
    ]


# -- scenarios and the command line -------------------------------------------------------------

EXPECTED: dict[str, dict[str, int]] = {
    "541_12_b_losers_first_then_vig_and_pay_from_seat_7.json": {"1": 665, "4": -1000, "6": -25},
    "541_13_f_vig_rounded_up_to_5_cents_at_4_percent.json": {"2": 295},
    "541_8_a_1_iii_a_tie_hand_returns_banker_and_player.json": {"1": 0, "2": 0, "3": 1600},
    "541_13_h_tie_vig_is_25_percent_of_the_banker_wager.json": {"3": -180, "5": -250},
    "541_13_g_deferred_vig_is_marked.json": {"3": 1900},
    "541_8_a_1_iv_ez_dragon_7_banker_push_player_loses_insurance_wins.json": {
        "1": 0,
        "2": -500,
        "3": 4000,
        "4": 20000,
    },
    "541_8_a_2_i_player_natural_wins_dragon_bonus_natural.json": {"1": 1500, "2": -1500},
    "541_2_c_6_dragon_bonus_player_wins_by_9.json": {"1": 3500, "2": -600},
    "541_2_c_6_dragon_bonus_natural_tie_pushes.json": {"1": 800, "2": 0},
    "627a_10_banker_6_draws_on_player_third_7.json": {"1": 950, "7": -1000},
    "627a_8_c_2_initial_cards_face_down.json": {"4": 2500},
    "543_12_c_midi_cards_into_the_discard_bucket.json": {"1": 960, "2": -1000},
    "543_12_a_midi_tie_hand_with_tie_vig.json": {"1": -250, "2": 800},
    # events and verbal wagers (tests/test_scenario_events.py): the round settles as usual
    "541_8_b_verbal_wager_with_cash_confirmed_by_the_dealer.json": {"3": 1900, "5": -1000},
    "541_13_g_deferred_vig_collected_when_the_player_leaves.json": {"3": 1900},
    "541_13_g_deferred_vig_collected_before_the_reshuffle.json": {"2": 950, "6": 2850},
    "543_13_g_midi_deferred_vig_collected_before_a_new_shoe.json": {"4": 2375},
}
FILES = sorted(
    p.name
    for pattern in ("541_*.json", "543_*.json", "627a_*.json")
    for p in SCENARIOS.glob(pattern)
)


def test_every_baccarat_scenario_has_its_expected_settlement() -> None:
    assert sorted(EXPECTED) == FILES


@pytest.mark.parametrize("name", FILES)
def test_scenario_settles_as_the_regulation_says_and_rebuilds(name: str) -> None:
    data = load_scenario(SCENARIOS / name)
    report = run_scenario(data)
    assert report["phase"] == "over"
    assert {seat: entry["net"] for seat, entry in report["seats"].items()} == EXPECTED[name]
    dealt = [r["card"] for r in report["records"] if r["kind"] == "card_dealt"]
    assert dealt == data["cards"]
    assert report["records"][-1]["kind"] == "cards_picked_up"


def run_cli(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


def test_cli_replay_rules_and_play(monkeypatch: pytest.MonkeyPatch) -> None:
    status, text = run_cli(["replay", str(SCENARIOS / "541_13_g_deferred_vig_is_marked.json")])
    assert status == 0 and json.loads(text)["seats"]["3"]["vig"] == {"collected": 0, "marked": 100}
    status, text = run_cli(["rules", "check", str(RULES / "mini-baccarat.toml")])
    assert status == 0
    status, text = run_cli(["rules", "sign", str(RULES / "midi-baccarat.toml")])
    assert status == 0 and "25% of every Banker wager when the hands tie" in text
    assert run_cli(["rules", "check", str(RULES / "mini-baccarat-bad.toml")])[0] == 2
    monkeypatch.setattr("sys.stdin", io.StringIO("500\n\n\nn\n"))
    status, text = run_cli(["play", "mini-baccarat", "--seed", "5"])
    assert status == 0 and "You leave the table with" in text
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n\n100\nn\n"))
    status, text = run_cli(["play", "ez-baccarat", "--seed", "5"])
    assert status == 0 and "dragon_7" in text
