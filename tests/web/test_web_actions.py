"""What the pages offer (``croupier.web.actions``): only what the engine's one legality rule
allows now, for the caller's own seats, each decision in the words the decision endpoint reads."""

from __future__ import annotations

from croupier.games import get_game
from croupier.games.records import PlaceWager
from croupier.games.round import Round
from croupier.rules.progressive import MemoryMeters
from croupier.rules.submission import load_rules
from croupier.server.demo import demo_rules
from croupier.table.shoe import SecureShuffler, Shoe
from croupier.web.actions import dealer_actions, seat_actions


def _round(slug: str) -> Round:
    game = get_game(slug)
    shoe = Shoe.shuffled(SecureShuffler(), decks=game.deck_count)
    return game.new_round(shoe=shoe, meters=MemoryMeters(), players={1: "P1", 4: "P2"})


def test_569_2_b_2_blind_offered_only_at_the_ante_amount() -> None:
    rnd = _round("ultimate-texas-holdem")
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    offered = {w["wager"]: w["amounts"] for w in seat_actions(rnd, frozenset({1}))["wagers"]}
    assert offered["blind"] == [500]
    assert "ante" not in offered  # a wager is placed once
    assert "play" not in offered  # made by a decision after the cards
    every = {w["wager"] for w in seat_actions(rnd, frozenset({4}))["wagers"]}
    assert {"ante", "blind"} <= every


def test_wagers_and_decisions_only_for_the_callers_seats() -> None:
    rnd = _round("three-card-poker")
    assert all(w["seat"] == 4 for w in seat_actions(rnd, frozenset({4}))["wagers"])
    assert seat_actions(rnd, frozenset())["wagers"] == []
    for seat in (1, 4):
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
    rnd.apply(rnd.dealer_no_more_bets())
    rnd.run_dealer()
    assert rnd.to_act().seat == 1
    mine = seat_actions(rnd, frozenset({1}))["decisions"]
    assert [d["decision"] for d in mine] == ["play 1", "fold"]
    assert seat_actions(rnd, frozenset({4}))["decisions"] == []
    assert seat_actions(rnd, frozenset({1}))["wagers"] == []  # "no more bets" was called


def test_every_offered_decision_is_read_back_as_the_same_action() -> None:
    for slug in ("let-it-ride", "mississippi-stud", "ultimate-texas-holdem", "four-card-poker"):
        rnd = _round(slug)
        for action in rnd.house_wagers(1) + rnd.house_wagers(4):
            rnd.apply(action)
        rnd.apply(rnd.dealer_no_more_bets())
        rnd.run_dealer()
        seat = rnd.to_act().seat
        assert seat is not None
        offered = seat_actions(rnd, frozenset({seat}))["decisions"]
        legal = [a for a in rnd.legal_actions() if getattr(a, "seat", None) == seat]
        assert len(offered) == len(legal), slug
        for d in offered:
            assert rnd.parse_decision(seat, d["decision"]) in legal


def test_dealer_steps_follow_the_round() -> None:
    rnd = _round("mini-baccarat")
    assert dealer_actions(rnd)["steps"] == []  # nobody has wagered: no "no more bets"
    rnd.apply(PlaceWager(seat=1, wager="banker", amount=500))
    assert dealer_actions(rnd)["steps"] == ["no_more_bets"]
    rnd.apply(rnd.dealer_no_more_bets())
    assert dealer_actions(rnd)["steps"] == ["deal"]


def test_569_2_b_2_the_amounts_offered_hold_the_posted_limits_and_a_blind_for_any_ante() -> None:
    # issue 35: the page offered Blinds up to $1,000 while the table took a $5,000 Ante
    game = get_game(load_rules(demo_rules()["ultimate-texas-holdem"]))
    shoe = Shoe.shuffled(SecureShuffler(), decks=game.deck_count)
    rnd = game.new_round(shoe=shoe, meters=MemoryMeters(), players={1: "P1"})
    offered = {w["wager"]: w["amounts"] for w in seat_actions(rnd, frozenset({1}))["wagers"]}
    assert offered["ante"][0] == 500 and offered["ante"][-1] == 100_000  # the posted ends
    assert offered["ante"] == offered["blind"]
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=75_000))  # between two chips
    offered = {w["wager"]: w["amounts"] for w in seat_actions(rnd, frozenset({1}))["wagers"]}
    assert offered["blind"] == [75_000]
