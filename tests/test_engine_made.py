"""The round engine's shortcuts of issue 18 (session 9) do what the long way does.

Records made from values already checked (:mod:`croupier.games._made`) are the constructors'
records; a dealing stage dealt at once (:meth:`croupier.games.round.Round._deal_due`) leaves the
round as its cards dealt one by one, a short shoe included; dealing procedures made once
(:func:`croupier.games.states.known_plan`) and seatings checked once
(:func:`croupier.games.states.verify_seating`) refuse what they refused.
"""

from __future__ import annotations

import pickle

import pytest

from croupier.core.cards import DECK, parse_cards
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games import get_game
from croupier.games._made import (
    card_dealt,
    cards_dealt,
    checked,
    checked_record,
    dealer_revealed,
    folded,
    hand_shown,
    no_more_bets_called,
    play_wagered,
    seat_settling,
    wager_placed,
    wager_settled,
)
from croupier.games.records import (
    CardDealt,
    Checked,
    DealerRevealed,
    DealNext,
    Folded,
    HandShown,
    NoMoreBets,
    NoMoreBetsCalled,
    PlaceWager,
    PlayWagered,
    Record,
    Result,
    SeatSettling,
    WagerPlaced,
    WagerSettled,
    record_to_json,
)
from croupier.games.round import Round
from croupier.games.states import DealStep, Phase, known_plan, verify_seating
from croupier.games.three_card_poker import deal_plan as tcp_plan
from croupier.hands import Ranking, evaluate
from croupier.rules.progressive import MemoryMeters
from croupier.rules.submission import DealMethod
from croupier.table.shoe import SeededShuffler, Shoe, StackedShoe

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
    for made, built in zip(
        cards_dealt(DECK[:2], (step, DealStep(to="3"))),
        (card_dealt(DECK[0], step), CardDealt(card=DECK[1], to="3")),
        strict=True,
    ):
        _same(made, built)
    action = PlaceWager(seat=4, wager="ante", amount=500)
    _same(wager_placed(action), WagerPlaced(seat=4, wager="ante", amount=500))
    _same(seat_settling(7), SeatSettling(seat=7))
    _same(folded(2), Folded(seat=2))
    _same(checked(3), Checked(seat=3))
    _same(no_more_bets_called(None), NoMoreBetsCalled())
    _same(no_more_bets_called(2), NoMoreBetsCalled(progressive_chips=2))
    cards = parse_cards("Kh Kd 8c 6s 2d")
    rank = evaluate(cards, Ranking.POKER5)
    _same(
        hand_shown(5, cards, rank),
        HandShown(seat=5, cards=cards, category="pair", best=rank.cards),
    )
    _same(
        dealer_revealed(cards, rank), DealerRevealed(cards=cards, category="pair", best=rank.cards)
    )
    _same(
        play_wagered(1, "play", 300, 3),
        PlayWagered(seat=1, wager="play", amount=300, multiple=3),
    )
    _same(
        play_wagered(1, "play", 150, None),
        PlayWagered(seat=1, wager="play", amount=150, multiple=None),
    )
    _same(
        wager_settled(6, "ante", 500, Result.WIN, 500, 500, "pair"),
        WagerSettled(
            seat=6, wager="ante", stake=500, result=Result.WIN, paid=500, returned=500, line="pair"
        ),
    )


@pytest.mark.parametrize(
    "bad",
    [
        {"paid": 2.5},
        {"paid": True},
        {"paid": 2**53},
        {"returned": -(2**53)},
        {"line": 7},
        {"line": "x" * 10_001},
        {"result": "win"},
    ],
)
def test_a_settlement_the_round_computed_wrongly_is_refused_as_the_record_refuses_it(
    bad: dict[str, object],
) -> None:
    fields: dict[str, object] = {
        "seat": 1, "wager": "ante", "stake": 100, "result": Result.WIN, "paid": 100,
        "returned": 100, "line": "",
    } | bad  # fmt: skip
    with pytest.raises(InvalidInput) as built:
        WagerSettled(**fields)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput) as made:
        wager_settled(**fields)  # type: ignore[arg-type]
    assert str(made.value) == str(built.value)


@pytest.mark.parametrize("bad", [{"amount": 1.5}, {"amount": 2**60}, {"multiple": "2"}])
def test_a_play_the_round_computed_wrongly_is_refused_as_the_record_refuses_it(
    bad: dict[str, object],
) -> None:
    fields: dict[str, object] = {"seat": 1, "wager": "play", "amount": 200, "multiple": 2} | bad
    with pytest.raises(InvalidInput) as built:
        PlayWagered(**fields)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput) as made:
        play_wagered(**fields)  # type: ignore[arg-type]
    assert str(made.value) == str(built.value)


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


ALL_GAMES = (*GAMES, "mini-baccarat", "midi-baccarat", "ez-baccarat")


@pytest.mark.parametrize("slug", ALL_GAMES)
def test_every_record_of_played_rounds_is_its_constructors_record(slug: str) -> None:
    # the records made by made_record and checked_record (a Let It Ride pull or ride, a turned
    # community card, a baccarat result, vigorish and pick-up) among all the others
    from croupier.analysis import simulate as sim
    from croupier.games.play import play_out

    game = get_game(slug)
    _, decide = sim._strategy(game, None)
    layout = sim._layout(game, game.shoe_decks, 100)
    shuffler = SeededShuffler(f"records-{slug}")
    kinds: set[type[Record]] = set()
    for _ in range(40):
        shoe = Shoe.shuffled(shuffler, decks=game.shoe_decks)
        rnd = game.new_round(shoe=shoe, meters=MemoryMeters(), players=sim._PLAYERS)
        for action in layout.wagers:
            rnd.apply(action)
        rnd.apply(rnd.dealer_no_more_bets())
        play_out(rnd, decide)
        for record in rnd.records:
            _same(record, type(record)(**vars(record)))
            kinds.add(type(record))
    assert len(kinds) >= 7


def test_a_checked_record_refuses_what_its_constructor_refuses() -> None:
    from croupier.games.baccarat.paytables import CardsPickedUp

    good: dict[str, object] = {
        "player": tuple(DECK[:2]), "banker": tuple(DECK[2:5]), "to": "discard_rack",
        "in_order": True, "section": "",
    }  # fmt: skip
    _same(checked_record(CardsPickedUp, dict(good)), CardsPickedUp(**good))  # type: ignore[arg-type]
    for bad in ({"player": (DECK[0], "Kh")}, {"banker": [DECK[0]]}, {"in_order": 1}):
        fields = good | bad
        with pytest.raises(InvalidInput) as built:
            CardsPickedUp(**fields)  # type: ignore[arg-type]
        with pytest.raises(InvalidInput) as made:
            checked_record(CardsPickedUp, fields)
        assert str(made.value) == str(built.value)


@pytest.mark.parametrize("slug", ALL_GAMES)
def test_settling_a_seat_leaves_the_rest_of_the_settlement_order(slug: str) -> None:
    # Round._do_settle ends the round after the last seat of the order it found before settling
    # (a seat's settlement moves no other seat's standing): the order found again after each
    # seat is the rest of it, folds, progressives and Envy Bonuses among five seats included.
    from croupier.games import game_class

    cls = game_class(slug)
    game = get_game(dict(cls.example_rules)) if cls.example_rules else get_game(slug)
    players = {seat: f"p{seat}" for seat in (1, 2, 3, 5, 6)}
    shuffler = SeededShuffler(f"order-{slug}")
    settled = 0
    for _ in range(30):
        shoe = Shoe.shuffled(shuffler, decks=game.shoe_decks)
        rnd = game.new_round(shoe=shoe, meters=MemoryMeters(), players=players)
        for seat in players:
            for action in rnd.house_wagers(seat, unit=500):
                if rnd.can(action):
                    rnd.apply(action)
        rnd.apply(rnd.dealer_no_more_bets())
        while not rnd.is_over:
            actor = rnd.to_act()
            if actor.seat is not None:
                rnd.apply(rnd.simple_strategy(actor.seat))
                continue
            step = rnd.dealer_step()
            before = rnd._settlement_order() if rnd.phase is Phase.SETTLEMENT else None
            rnd.apply(step)
            if before is not None:
                settled += 1
                after = rnd._settlement_order()
                assert after == before[1:]
                assert (rnd.phase is Phase.OVER) == (not after)
    assert settled >= 30
