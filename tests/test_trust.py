"""Strict types, typed refusals only, a read-only round and real play's shoe (issue 13)."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

from croupier.core.cards import DECK
from croupier.core.errors import CroupierError, IllegalAction, InvalidInput
from croupier.core.modes import PlayMode
from croupier.games import GAMES, Round, get_game
from croupier.games.records import (
    Action,
    CardDealt,
    CountStub,
    Fold,
    NoMoreBets,
    PlaceWager,
    Play,
    ReportIrregularity,
    RoundVoided,
    VoidRound,
    WagerSettled,
)
from croupier.table.shoe import SecureShuffler, SeededShuffler, Shoe, StackedShoe
from croupier.table.table import Table


def bad(value: object) -> Any:
    """A value of the wrong type, passed on purpose."""
    return value


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: PlaceWager(seat=bad(True), wager="ante", amount=500), "seat"),
        (lambda: PlaceWager(seat=bad(0), wager="ante", amount=500), "seat"),
        (lambda: PlaceWager(seat=bad(8), wager="ante", amount=500), "seat"),
        (lambda: PlaceWager(seat=bad("1"), wager="ante", amount=500), "seat"),
        (lambda: PlaceWager(seat=1, wager="ante", amount=bad(5.0)), "amount"),
        (lambda: PlaceWager(seat=1, wager="ante", amount=bad(Fraction(1, 2))), "amount"),
        (lambda: PlaceWager(seat=1, wager="ante", amount=bad("500")), "amount"),
        (lambda: PlaceWager(seat=1, wager="ante", amount=bad(True)), "amount"),
        (lambda: PlaceWager(seat=1, wager="ante", amount=10**4000), "amount"),
        (lambda: Play(seat=1, multiple=10**20), "multiple"),
        (lambda: PlaceWager(seat=1, wager=bad(3), amount=500), "wager"),
        (lambda: Play(seat=1, multiple=bad(2.0)), "multiple"),
        (lambda: Play(seat=1, amount=bad(750.0)), "amount"),
        (lambda: NoMoreBets(progressive_chips=bad("1")), "progressive_chips"),
        (lambda: CountStub(count=bad(1.0)), "count"),
        (lambda: ReportIrregularity(kind=bad("wrong_card_count")), "kind"),
        (lambda: VoidRound(by=bad(None), reason="x"), "by"),
        (lambda: CardDealt(card=bad("As"), to="1"), "card"),
        (lambda: RoundVoided(reason="x", section="", deck_removed=bad(1)), "deck_removed"),
        (
            lambda: WagerSettled(
                seat=1, wager="ante", stake=500, result=bad("win"), paid=500, returned=500
            ),
            "result",
        ),
    ],
)
def test_actions_and_records_validate_at_construction(make: Any, field: str) -> None:
    with pytest.raises(InvalidInput, match=rf"\.{field} = "):
        make()


def bad_inputs() -> list[Any]:
    tampered = PlaceWager(seat=1, wager="ante", amount=500)
    object.__setattr__(tampered, "amount", 2.5)
    deep = PlaceWager(seat=1, wager="ante", amount=500)
    object.__setattr__(deep, "wager", ["x"] * 3)
    huge = PlaceWager(seat=1, wager="ante", amount=500)
    object.__setattr__(huge, "amount", 10**4000)
    seat_bool = Fold(seat=1)
    object.__setattr__(seat_bool, "seat", True)

    class Strange(Action):
        name = "place_wager"

    class Unknown(Action):
        name = "teleport"

    return [None, "fold", 7, object(), [], {}, PlaceWager, tampered, deep, huge, seat_bool,
            Strange(), Unknown(), Play(seat=1, amount=-1),
            Play(seat=1, multiple=2, amount=1000), CountStub(count=-1)]  # fmt: skip


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_nothing_but_croupier_errors_escape_apply_verify_and_can(slug: str) -> None:
    game = get_game(slug)
    rng = SeededShuffler(f"bad-{slug}")
    rnd = game.new_round(shoe=Shoe.shuffled(rng, decks=game.deck_count))
    stages = 0
    while not rnd.is_over and stages < 40:
        for probe in bad_inputs():
            before = rnd.records
            with pytest.raises(CroupierError):
                rnd.apply(probe)
            with pytest.raises(CroupierError):
                rnd.verify(probe)
            assert rnd.can(probe) is False and rnd.records == before
        if rnd.phase.value == "betting":
            for action in rnd.house_wagers(1) + rnd.house_wagers(4):
                rnd.apply(action)
            rnd.apply(rnd.dealer_no_more_bets())
        elif rnd.to_act().seat is not None:
            rnd.apply(rnd.simple_strategy(bad(rnd.to_act().seat)))
        else:
            rnd.apply(rnd.dealer_step())
        stages += 1
    with pytest.raises(InvalidInput):
        Round.rebuild(game, bad(["not a record"]))
    with pytest.raises(InvalidInput):
        game.new_round(shoe=bad("As Kd"))
    with pytest.raises(InvalidInput):
        game.new_round(shoe=Shoe.shuffled(rng, decks=game.deck_count), players={True: "x"})
    with pytest.raises(InvalidInput):
        game.new_round(shoe=Shoe.shuffled(rng, decks=game.deck_count), meters=bad("m"))


def test_round_public_surface_is_read_only() -> None:
    game = get_game("ultimate-texas-holdem")
    rnd = game.new_round(shoe=Shoe.shuffled(SeededShuffler(5)))
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(PlaceWager(seat=1, wager="blind", amount=500))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    before = (rnd.records, dict(rnd.stakes), rnd.phase)
    r: Any = rnd
    attempts: list[Any] = [
        lambda: setattr(r, "phase", "over"),
        lambda: setattr(r, "game", get_game("four-card-poker")),
        lambda: setattr(r, "records", ()),
        lambda: setattr(r, "stakes", {}),
        lambda: setattr(r, "hands", {}),
        lambda: setattr(r, "street", "river"),
        lambda: delattr(r, "phase"),
        lambda: r.records.append(None),
        lambda: r.stakes.__setitem__(1, {}),
        lambda: r.stakes[1].__setitem__("ante", 1),
        lambda: r.stakes[1].pop("ante"),
        lambda: r.players.__setitem__(2, "P2"),
        lambda: r.folded.add(1),
        lambda: r.settled.append(1),
        lambda: r.contributions.clear(),  # noqa: PLW0108
        lambda: r.hands,
        lambda: r.shoe,
        lambda: r.view.__setattr__("x", 1),
    ]
    for attempt in attempts:
        with pytest.raises((AttributeError, TypeError)):
            attempt()
    assert (rnd.records, dict(rnd.stakes), rnd.phase) == before
    assert copy.deepcopy(rnd.stakes) == rnd.stakes


def test_game_rules_are_deeply_immutable() -> None:
    cls = GAMES["ultimate-texas-holdem"]
    game = get_game(dict(cls.example_rules))
    g: Any = game
    attempts: list[Any] = [
        lambda: setattr(g, "rules", None),
        lambda: delattr(g, "rules"),
        lambda: g.rules.paytables.__setitem__("trips", "A"),
        lambda: setattr(g.rules, "payout_limit", 1),
        lambda: setattr(g.rules.progressive, "rate", Fraction(1)),
        lambda: g.rules.raw.__setitem__("game", "x"),
        lambda: g.rules.raw["progressive"].__setitem__("rate", "1"),
        lambda: type(g).paytables.__setitem__("trips", {}),
        lambda: type(g).paytables["trips"].__setitem__("A", None),
    ]
    for attempt in attempts:
        with pytest.raises((AttributeError, TypeError)):
            attempt()
    assert game.rules.paytables["trips"] == "B"


def test_real_play_refuses_seeded_shufflers_and_stacked_shoes() -> None:
    game = get_game("four-card-poker")
    with pytest.raises(IllegalAction, match="real play refuses the shuffler"):
        Table(game, shuffler=SeededShuffler(1))
    with pytest.raises(IllegalAction, match="real play refuses a stacked shoe"):
        game.new_round(shoe=StackedShoe(list(DECK)), mode=PlayMode.REAL)
    with pytest.raises(InvalidInput):
        Table(game, shuffler=SecureShuffler(), mode=bad("real"))
    real = Table(game, shuffler=SecureShuffler())
    real.sit(1, "P1")
    assert real.mode is PlayMode.REAL and real.new_round().mode is PlayMode.REAL
    sim = Table(game, shuffler=SeededShuffler(1), mode=PlayMode.SIMULATION)
    sim.sit(1, "P1")
    rnd = sim.new_round()
    assert rnd.mode is PlayMode.SIMULATION
    assert sim.history[-1].to_json()["mode"] == "simulation"
    assert game.new_round(shoe=StackedShoe(list(DECK))).mode is PlayMode.SIMULATION
