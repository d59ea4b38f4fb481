"""Hidden information is a security boundary (issue 13): over random rounds of every game, at
every step, no card reaches a point of view that may not see it.

The check is against the round's own truth (every card on the layout, from the privileged
``supervisor_hands``), computed here independently of :mod:`croupier.games.pov`: a player may
see its own cards and cards turned face up (dealt face up, or shown by a record that is not a
deal); the dealer and the public only the latter; nobody but the supervisor a face-down card of
the dealer before a record shows it, and nobody at all a card still in the shoe.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from croupier.core.cards import DECK
from croupier.core.errors import InvalidInput
from croupier.games import GAMES, Game, Round, get_game
from croupier.games.pov import CardHidden, Pov, supervisor_hands
from croupier.games.records import (
    DEALER,
    CardDealt,
    CardDiscarded,
    NoMoreBets,
    PlaceWager,
    Record,
    ReportIrregularity,
    record_to_json,
)
from croupier.games.round import ActorKind
from croupier.rules.progressive import MemoryMeters
from croupier.table.shoe import SeededShuffler, Shoe

ROUNDS = 4
CARD_NAMES = {str(c) for c in DECK}


def rule_sets(cls: type[Game]) -> list[dict[str, Any]]:
    return (
        [{"game": cls.slug}, dict(cls.example_rules)] if cls.example_rules else [{"game": cls.slug}]
    )


CASES = [(slug, i) for slug, cls in GAMES.items() for i in range(len(rule_sets(cls)))]


def cards_in(data: Any) -> set[str]:
    """Every JSON string value that names a card."""
    if isinstance(data, str):
        return {data} & CARD_NAMES
    if isinstance(data, dict):
        return set().union(*(cards_in(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(cards_in(v) for v in data)) if data else set()
    return set()


def shown_publicly(records: tuple[Record, ...]) -> set[str]:
    out: set[str] = set()
    for r in records:
        if isinstance(r, CardDealt):
            if r.face_up:
                out.add(str(r.card))
        elif not isinstance(r, CardDiscarded):
            out |= cards_in(record_to_json(r))
    return out


def allowed(rnd: Round, pov: Pov) -> set[str]:
    truth = supervisor_hands(rnd)
    public = shown_publicly(rnd.records)
    if pov == Pov.supervisor():
        discarded = {str(r.card) for r in rnd.records if isinstance(r, CardDiscarded)}
        return {str(c) for cards in truth.values() for c in cards} | discarded | public
    own = {str(c) for s in pov.seats for c in truth.get(str(s), [])}
    return own | public


def povs(rnd: Round) -> list[Pov]:
    return [
        *(Pov.player(s) for s in (*rnd.active_seats[:3], 7)),
        Pov.dealer(),
        Pov.public(),
        Pov.supervisor(),
    ]


def check(rnd: Round, streams: dict[Pov, tuple[dict[str, Any], ...]], single_deck: bool) -> None:
    truth = supervisor_hands(rnd)
    dealt = {str(c) for cards in truth.values() for c in cards}
    dealt |= {str(r.card) for r in rnd.records if isinstance(r, CardDiscarded)}
    in_shoe = CARD_NAMES - dealt
    revealed = shown_publicly(rnd.records)
    dealer_down = {
        str(r.card)
        for r in rnd.records
        if isinstance(r, CardDealt) and r.to == DEALER and not r.face_up
    }
    for pov in povs(rnd):
        data = rnd.view(pov).to_json()
        json.dumps(data)
        stream = tuple(record_to_json(r) for r in rnd.records_for(pov))
        # the stream is append-only: what was sent is never rewritten
        previous = streams.get(pov, ())
        assert stream[: len(previous)] == previous, pov
        streams[pov] = stream
        seen = cards_in(data) | cards_in(list(stream))
        assert seen <= allowed(rnd, pov), (pov, seen - allowed(rnd, pov))
        if single_deck:
            assert not seen & in_shoe, (pov, seen & in_shoe)
        if pov != Pov.supervisor():
            assert not seen & (dealer_down - revealed), (pov, seen & dealer_down)
        hidden = sum(1 for r in rnd.records_for(pov) if isinstance(r, CardHidden))
        face_down = sum(v.count(None) for v in data["cards"].values())
        assert face_down <= hidden


def play(game: Game, rng: SeededShuffler, single_deck: bool) -> Round:
    rnd = game.new_round(shoe=Shoe.shuffled(rng), meters=MemoryMeters())
    streams: dict[Pov, tuple[dict[str, Any], ...]] = {}
    for seat in [s for s in rnd.players if rng.randbelow(2)] or [4]:
        for action in rnd.house_wagers(seat, unit=100 * (1 + rng.randbelow(10))):
            rnd.apply(action)
    check(rnd, streams, single_deck)
    rnd.apply(rnd.dealer_no_more_bets())
    while not rnd.is_over:
        check(rnd, streams, single_deck)
        if rnd.to_act().kind is ActorKind.SEAT:
            choices = [a for a in rnd.legal_actions() if not isinstance(a, ReportIrregularity)]
            rnd.apply(choices[rng.randbelow(len(choices))])
        elif rng.randbelow(60) == 0 and (
            irr := [a for a in rnd.legal_actions() if isinstance(a, ReportIrregularity)]
        ):
            rnd.apply(irr[rng.randbelow(len(irr))])
        else:
            rnd.apply(rnd.dealer_step())
    check(rnd, streams, single_deck)
    return rnd


@pytest.mark.parametrize(("slug", "rules_index"), CASES)
def test_no_card_reaches_a_view_that_may_not_see_it(slug: str, rules_index: int) -> None:
    game = get_game(rule_sets(GAMES[slug])[rules_index])
    rng = SeededShuffler(f"pov-{slug}-{rules_index}")
    for _ in range(ROUNDS):
        play(game, rng, single_deck=game.deck_count <= 1)


def test_a_player_sees_its_own_cards_and_never_another_players() -> None:
    game = get_game("three-card-poker")
    rnd = game.new_round(shoe=Shoe.shuffled(SeededShuffler(11)))
    for seat in (2, 5):
        rnd.apply(rnd.house_wagers(seat)[0])
    rnd.apply(rnd.dealer_no_more_bets())
    rnd.run_dealer()
    truth = supervisor_hands(rnd)
    mine = rnd.view(Pov.player(2)).to_json()["cards"]
    assert mine["2"] == [str(c) for c in truth["2"]]
    assert mine["5"] == [None, None, None] and mine[DEALER] == [None, None, None]
    assert rnd.view(Pov.supervisor()).to_json()["cards"]["5"] == [str(c) for c in truth["5"]]
    hidden = [r for r in rnd.records_for(Pov.player(2)) if isinstance(r, CardHidden)]
    assert [r.to for r in hidden] == ["5", DEALER, "5", DEALER, "5", DEALER]
    assert "order" not in json.dumps(rnd.view(Pov.supervisor()).to_json())
    assert rnd.view(Pov.public()).to_json()["cards_left"] == 52 - 9


def test_pov_is_parsed_strictly() -> None:
    assert Pov.parse("player:3") == Pov.player(3)
    assert Pov.parse("dealer") == Pov.dealer()
    assert str(Pov.player(4, 3)) == "player:3,4"
    for bad in ("player:8", "player:", "player:٣", "seat:1", "dealer:1", "x" * 100):
        with pytest.raises(InvalidInput):
            Pov.parse(bad)
    with pytest.raises(InvalidInput):
        Pov.player(True)


def test_round_view_is_frozen() -> None:
    rnd = get_game("four-card-poker").new_round(shoe=Shoe.shuffled(SeededShuffler(1)))
    view = rnd.view(Pov.public())
    with pytest.raises(AttributeError):
        view.phase = "over"  # type: ignore[misc]
    with pytest.raises(TypeError):
        view.stakes[1] = {}  # type: ignore[index]
    assert isinstance(view.cards, type(view.meters))


def test_a_hidden_form_is_one_object_for_every_viewer_who_may_not_see_it() -> None:
    # a table keeps each of its people's sight of the round: the face-down cards another
    # viewer may not see are one frozen record shared by all of them, not one each
    game = get_game("three-card-poker")
    rnd = game.new_round(shoe=Shoe.shuffled(SeededShuffler(7)))
    for seat in (1, 2, 3):
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    records = rnd.records_for(Pov.supervisor())
    hidden = [
        [r for r in rnd.records_for(pov) if isinstance(r, CardHidden)]
        for pov in (Pov.public(), Pov.player(2), Pov.player(3))
    ]
    assert hidden[0], "the public sees no card face down"
    by_value: dict[CardHidden, CardHidden] = {}
    for forms in hidden:
        for form in forms:
            assert by_value.setdefault(form, form) is form
    # and the raw records are the supervisor's, untouched
    assert not any(isinstance(r, CardHidden) for r in records)
