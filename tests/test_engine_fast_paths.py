"""The round engine's fast paths (issue 18) answer exactly as the full checks and walks do.

Each fast path is a sufficient test or a look-up in front of the full one: the shoe's composition
by card identity, record fields by exact type, ``evaluate`` by value tables built by ``classify``
(no memory of results: issue 17's soak), the strategies' per-hand tables.  These tests hold
them to the truth.
"""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement

import numpy as np
import pytest

from croupier.core.cards import DECK, Card, Rank, Suit
from croupier.core.errors import InvalidInput
from croupier.games import get_game
from croupier.games.records import CardDealt, PlaceWager, WagerPlaced
from croupier.hands import HandRank, Ranking, evaluate
from croupier.hands._core import classify
from croupier.kernels import canonical_form
from croupier.table.shoe import SeededShuffler, Shoe, shoe_cards


def _walk(hand: tuple[Card, ...], ranking: Ranking) -> HandRank:
    """The definition: every combination classified, the first of the highest value kept."""
    best = None
    for combo in combinations(hand, ranking.size):
        found = classify(combo, ranking)
        if best is None or found[0] > best[0]:
            best = found
    assert best is not None
    return HandRank(value=best[0], category=best[1], cards=best[2], ranking=ranking)


def _hands(rng: random.Random, size: int, count: int) -> list[tuple[Card, ...]]:
    """Random hands, a third of them rich in one suit (flushes with pairs and straights)."""
    out = []
    for _ in range(count):
        if rng.random() < 1 / 3:
            suit = rng.choice(list(Suit))
            suited = [c for c in DECK if c.suit is suit]
            k = rng.randint(max(1, size - 2), size)
            others = [c for c in DECK if c.suit is not suit]
            hand = rng.sample(suited, k) + rng.sample(others, size - k)
            rng.shuffle(hand)
        else:
            hand = rng.sample(DECK, size)
        out.append(tuple(hand))
    return out


@pytest.mark.parametrize("ranking", list(Ranking), ids=lambda r: r.value)
def test_evaluate_keeps_the_first_best_combination_of_the_walk(ranking: Ranking) -> None:
    rng = random.Random(18)
    for size in range(ranking.min_cards, ranking.max_cards + 1):
        for hand in _hands(rng, size, 600):
            assert evaluate(hand, ranking) == _walk(hand, ranking), hand
            assert evaluate(hand, ranking) == _walk(hand, ranking), hand  # the same again


@pytest.mark.parametrize("ranking", [Ranking.THREE_CARD, Ranking.THREE_CARD_BONUS], ids=str)
def test_evaluate_of_every_three_card_hand_in_any_order_is_classify(ranking: Ranking) -> None:
    """All 22,100 sets, in three orders each: the value tables answer as ``classify`` does
    (value, category and the cards in order of significance)."""
    for a, b, c in combinations(DECK, 3):
        for hand in ((a, b, c), (c, b, a), (b, c, a)):
            assert evaluate(hand, ranking) == HandRank(*classify(hand, ranking), ranking), hand


def test_evaluate_of_equal_card_objects_outside_the_deck_is_the_same() -> None:
    hand = tuple(Card(c.rank, c.suit) for c in (DECK[51], DECK[47], DECK[50], DECK[3], DECK[7]))
    assert all(c is not d for c, d in zip(hand, DECK[-5:], strict=False))
    expected = _walk(hand, Ranking.POKER5)
    assert evaluate(hand, Ranking.POKER5) == expected
    assert evaluate(tuple(Card.from_index(c.index) for c in hand), Ranking.POKER5) == expected


def test_evaluate_refuses_a_repeated_card_made_as_another_object() -> None:
    ace = Card(Rank.ACE, Suit.SPADES)
    with pytest.raises(InvalidInput, match="more than once"):
        evaluate([ace, Card.parse("As"), Card.parse("Kd"), Card.parse("7c"), Card.parse("2h")])


def test_shoe_of_equal_card_objects_outside_the_deck_is_full() -> None:
    cards = [Card(c.rank, c.suit) for c in shoe_cards(2)]
    assert len(Shoe(cards, decks=2)) == 104


@pytest.mark.parametrize("decks", [1, 8])
def test_shoe_missing_one_card_and_doubling_another_is_refused_by_name(decks: int) -> None:
    cards = list(shoe_cards(decks))
    cards[cards.index(Card.parse("As"))] = Card.parse("Kd")
    with pytest.raises(InvalidInput, match=r"missing As.*extra Kd"):
        Shoe(cards, decks=decks)


def test_shuffled_shoes_stay_full_decks() -> None:
    shuffler = SeededShuffler(18)
    for decks in (1, 6, 8):
        shoe = Shoe.shuffled(shuffler, decks=decks)
        dealt = shoe.deal_many(len(shoe))
        assert sorted(c.index for c in dealt) == sorted(c.index for c in shoe_cards(decks))


class _Text(str):
    """A str subclass: not the exact type, so the full check decides (and accepts it)."""


def test_fields_outside_the_fast_test_go_to_the_full_check() -> None:
    assert WagerPlaced(seat=1, wager=_Text("ante"), amount=100).wager == "ante"
    with pytest.raises(InvalidInput, match="amount = True"):
        PlaceWager(seat=1, wager="ante", amount=True)
    with pytest.raises(InvalidInput, match="seat = 8 is not a seat 1-7"):
        PlaceWager(seat=8, wager="ante", amount=100)
    with pytest.raises(InvalidInput, match=r"amount = 100\.0"):
        WagerPlaced(seat=1, wager="ante", amount=100.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="card = 'As' is not a Card"):
        CardDealt(card="As", to="1")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="face_up = 1 is not true or false"):
        CardDealt(card=DECK[0], to="1", face_up=1)  # type: ignore[arg-type]


def test_three_card_strategy_table_is_the_canonical_play_of_each_hand() -> None:
    from croupier.analysis import optimal_strategy
    from croupier.analysis.three_card_poker.solver import solve_three_card
    from croupier.games.pov import seat_cards
    from croupier.games.records import NoMoreBets, Play

    game = get_game("three-card-poker")
    decide = optimal_strategy(game)
    assert decide is not None
    played = solve_three_card(game.paytable("ante_bonus")).played
    shuffler = SeededShuffler(18)
    for _ in range(60):
        rnd = game.new_round(shoe=Shoe.shuffled(shuffler), players={1: "p"})
        rnd.apply(PlaceWager(seat=1, wager="ante", amount=100))
        rnd.apply(NoMoreBets())
        rnd.run_dealer()
        hand = [c.index for c in seat_cards(rnd, 1)]
        canon = canonical_form(np.array([hand], dtype=np.uint8))[0]
        plays = sum(1 << int(i) for i in canon) in played
        assert isinstance(decide(rnd, 1), Play) is plays, hand


@pytest.mark.parametrize("ranking", [Ranking.POKER5, Ranking.FOUR_CARD], ids=lambda r: r.value)
def test_evaluate_takes_the_earliest_cards_of_each_rank_as_the_walk_does(ranking: Ranking) -> None:
    """Hands of few ranks (three pairs, two trips, quads with a pair, a straight with a repeated
    rank): the best hand can be made of several card choices, and the walk keeps the first."""
    rng = random.Random(1818)
    for size in range(ranking.size + 1, ranking.max_cards + 1):
        for _ in range(1500):
            ranks = rng.sample(list(Rank), rng.randint(2, 4))
            pool = [c for c in DECK if c.rank in ranks or c.suit is Suit.HEARTS]
            hand = tuple(rng.sample(pool, size))
            assert evaluate(hand, ranking) == _walk(hand, ranking), hand


@pytest.mark.parametrize("decks", [1, 8])
def test_shoe_of_full_decks_of_other_card_objects_or_a_list_takes_the_full_checks(
    decks: int,
) -> None:
    """The one-pass identity check of a full shoe answers only when sure; anything else (equal
    cards that are other objects, a short or doubled shoe) goes to the full checks."""
    cards = list(shoe_cards(decks))
    assert len(Shoe(cards, decks=decks)) == 52 * decks
    assert len(Shoe([Card(c.rank, c.suit) for c in cards], decks=decks)) == 52 * decks
    doubled = [*cards[:-1], cards[0]]
    with pytest.raises(InvalidInput, match="missing As; extra 2c"):
        Shoe(doubled, decks=decks)
    with pytest.raises(InvalidInput, match="not a sequence of cards"):
        Shoe("As Kd", decks=decks)  # type: ignore[arg-type]


def test_evaluate_tables_are_whole_from_first_use_and_do_not_grow_with_play() -> None:
    """Issue 17 (the soak): a server evaluates new hands for days, so no table of ``evaluate``
    may grow with the hands it meets; each is built whole the first time its ranking is used."""
    from croupier.hands import _core

    rng = random.Random(17)
    sizes = [(rk, n) for rk in Ranking for n in range(rk.min_cards, rk.max_cards + 1)]
    for rk, n in sizes:
        evaluate(tuple(rng.sample(DECK, n)), rk)
    # 7,462 distinct five-card poker values: the published count of distinct hand ranks
    # (e.g. Cactus Kev's evaluator); the 7-card rank multisets counted here independently
    assert len(_core._SHAPES[Ranking.POKER5]) == 7_462
    multisets = sum(
        1
        for ranks in combinations_with_replacement(range(13), 7)
        if max(ranks.count(r) for r in ranks) <= 4
    )
    assert len(_core._PLAIN[(Ranking.POKER5, 7)][0]) == multisets
    before = {rk: len(t) for rk, t in _core._SHAPES.items()}
    plain = {key: len(t[0]) for key, t in _core._PLAIN.items()}
    for rk, n in sizes:
        for _ in range(2_000):
            evaluate(tuple(rng.sample(DECK, n)), rk)
    assert {rk: len(t) for rk, t in _core._SHAPES.items()} == before
    assert {key: len(t[0]) for key, t in _core._PLAIN.items()} == plain
