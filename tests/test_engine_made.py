"""The round engine's shortcuts of issue 18 (session 9) do what the long way does.

Records made from values already checked (:mod:`croupier.games._made`) are the constructors'
records; a dealing stage dealt at once (:func:`croupier.games.dealer.deal_due`) leaves the round
as its cards dealt one by one, a short shoe included; dealing procedures made once
(:func:`croupier.games.states.known_plan`) and seatings checked once
(:func:`croupier.games.states.verify_seating`) refuse what they refused.
"""

from __future__ import annotations

import pickle

import pytest

from croupier.cards import DECK, parse_cards
from croupier.errors import IllegalAction, InvalidInput
from croupier.games import get_game
from croupier.games._made import card_dealt, seat_settling, wager_placed
from croupier.games.records import (
    CardDealt,
    DealNext,
    NoMoreBets,
    PlaceWager,
    Record,
    SeatSettling,
    WagerPlaced,
    record_to_json,
)
from croupier.games.round import Round
from croupier.games.states import DealStep, Phase, known_plan, verify_seating
from croupier.games.three_card_poker import deal_plan as tcp_plan
from croupier.progressive import MemoryMeters
from croupier.rules import DealMethod
from croupier.shoe import SeededShuffler, Shoe, StackedShoe

GAMES = (
    "let-it-ride",
    "three-card-poker",
    "ultimate-texas-holdem",
    "four-card-poker",
    "mississippi-stud",
)


def _same(made: Record, built: Record) -> None:
    assert made == built
    assert type(made) is type(built)
    assert list(vars(made).items()) == list(vars(built).items())  # the same fields, in order
    assert repr(made) == repr(built)
    assert record_to_json(made) == record_to_json(built)
    assert pickle.dumps(made) == pickle.dumps(built)
    assert hash(made) == hash(built)


def test_made_records_are_the_constructors_records() -> None:
    step = DealStep(to="dealer", face_up=True, note="sixth card")
    _same(
        card_dealt(DECK[7], step),
        CardDealt(card=DECK[7], to="dealer", face_up=True, note="sixth card"),
    )
    _same(card_dealt(DECK[0], DealStep(to="3")), CardDealt(card=DECK[0], to="3"))
    action = PlaceWager(seat=4, wager="ante", amount=500)
    _same(wager_placed(action), WagerPlaced(seat=4, wager="ante", amount=500))
    _same(seat_settling(7), SeatSettling(seat=7))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"to": 3}, "to = 3 is not text"),
        ({"to": "1", "face_up": "yes"}, "face_up = 'yes' is not true or false"),
        ({"to": "1", "note": None}, "note = None is not text"),
        ({"to": "1", "note": "x" * 10_001}, "is not text of at most 10000 characters"),
    ],
)
def test_a_deal_step_refuses_what_its_card_record_would(
    fields: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidInput, match=message):
        DealStep(**fields)  # type: ignore[arg-type]


def test_known_plans_are_made_once_and_are_the_procedure() -> None:
    first = known_plan(tcp_plan, DealMethod.MANUAL_SHOE, (1, 3))
    assert first == tuple(tcp_plan(DealMethod.MANUAL_SHOE, (1, 3)))
    assert known_plan(tcp_plan, DealMethod.MANUAL_SHOE, (1, 3)) is first
    assert known_plan(tcp_plan, DealMethod.AUTOMATED_SHOE, (1, 3)) != first
    assert [s.to for s in first] == ["1", "3", "dealer"] * 3


def _opened(slug: str, shoe: Shoe) -> Round:
    game = get_game(slug)
    rnd = game.new_round(shoe=shoe, meters=MemoryMeters(), players={1: "a", 2: "b"})
    for wager in game.required_wagers:
        rnd.apply(PlaceWager(seat=1, wager=wager, amount=100))
    rnd.apply(NoMoreBets())
    return rnd


@pytest.mark.parametrize("slug", GAMES)
def test_a_stage_dealt_at_once_is_its_cards_dealt_one_by_one(slug: str) -> None:
    shuffler = SeededShuffler(f"made-{slug}")
    for _ in range(20):
        order = shuffler.shuffle(DECK)
        fast = _opened(slug, Shoe(order))
        slow = _opened(slug, Shoe(order))
        fast.run_dealer()
        while slow.phase is Phase.DEALING:
            slow.apply(DealNext())
        assert fast.records == slow.records
        assert fast.phase is slow.phase
        assert fast.cards_left == slow.cards_left


@pytest.mark.parametrize("slug", GAMES)
def test_a_short_shoe_is_refused_at_the_card_it_lacks(slug: str) -> None:
    cards = parse_cards("As Kd 7c")  # fewer than any first stage needs
    fast = _opened(slug, StackedShoe(cards))
    slow = _opened(slug, StackedShoe(cards))
    with pytest.raises(IllegalAction, match="the shoe is empty") as fast_error:
        fast.run_dealer()
    with pytest.raises(IllegalAction, match="the shoe is empty") as slow_error:
        while True:
            slow.apply(DealNext())
    assert str(fast_error.value) == str(slow_error.value)
    assert fast.records == slow.records
    assert len([r for r in fast.records if isinstance(r, CardDealt)]) == 3
    assert fast.phase is slow.phase is Phase.DEALING


def test_a_seating_allowed_once_is_allowed_again_and_others_still_refused() -> None:
    verify_seating({1: "a", 2: "b"}, 1, None)
    verify_seating({1: "a", 2: "b"}, 1, None)
    with pytest.raises(InvalidInput, match="seat True"):
        verify_seating({True: "a", 2: "b"}, 1, None)  # equal to 1, not a betting position
    with pytest.raises(IllegalAction, match="1 adjacent box"):
        verify_seating({1: "a", 2: "a"}, 1, None)
    verify_seating({1: "a", 2: "a"}, 2, None)
    with pytest.raises(IllegalAction, match="not adjacent"):
        verify_seating({1: "a", 3: "a"}, 2, None)
