"""The progressive table game system for every game of the registry with a progressive wager
(issue 39): each of the game's progressive wagers sensed at each betting position, the lights in
every view, the lock-out refusing and recording a late chip, the count held, the audit's rebuild.

The games come from the registry (:data:`croupier.games.GAMES`) and their Rules Submissions
from ``tests/rules/<slug>.toml`` (Let It Ride's offers both its progressives); no game is named.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from croupier.core.cards import DECK
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games import GAMES, get_game
from croupier.games.base import Game
from croupier.games.pov import Pov, view
from croupier.games.records import NoMoreBets, PlaceWager, record_to_json
from croupier.games.round import Phase, Round
from croupier.games.sensors import CountHeld, Light, SenseWager, SensorRefused, WagerSensed
from croupier.rules.progressive import MemoryMeters
from croupier.store.codec import record_from_json
from croupier.table.shoe import StackedShoe

RULES = Path(__file__).with_name("rules")
SEATS = (1, 2)


def _sensor_game(slug: str) -> Game:
    rules: dict[str, Any] = tomllib.loads((RULES / f"{slug}.toml").read_text(encoding="utf-8"))
    rules["table"] = {**rules.get("table", {}), "progressive_wagers": "sensors"}
    return get_game(rules)


def _progressive_slugs() -> list[str]:
    """Every registered game whose test Rules Submission offers a progressive wager."""
    return [s for s in sorted(GAMES) if _sensor_game(s).progressive_offers()]


PROGRESSIVE_SLUGS = _progressive_slugs()


def _round(slug: str) -> Round:
    """Seats 1 and 2, each with the game's required wagers (equal, as some games require)."""
    game = _sensor_game(slug)
    rnd = game.new_round(
        shoe=StackedShoe(list(DECK)), meters=MemoryMeters(), players={1: "P1", 2: "P2"}
    )
    for seat in SEATS:
        for wager in game.required_wagers:
            rnd.apply(PlaceWager(seat=seat, wager=wager, amount=500))
    return rnd


def _light_everything(rnd: Round) -> int:
    """Every sensed wager lit at every seat; the number of wagers the sensors accepted."""
    for seat in SEATS:
        for wager in rnd.sensed_wagers():
            (rec,) = rnd.apply(SenseWager(seat=seat, light=Light.LIT, wager=wager))
            assert isinstance(rec, WagerSensed) and rec.wager == wager
    return len(SEATS) * len(rnd.sensed_wagers())


def test_every_game_with_a_progressive_wager_is_covered() -> None:
    """Each registered game offering a wager named for a progressive is sensed here."""
    named = {s for s, cls in GAMES.items() if any("progressive" in w for w in cls.wagers)}
    assert named and named <= set(PROGRESSIVE_SLUGS)
    lir = [s for s in PROGRESSIVE_SLUGS if len(_round(s).sensed_wagers()) > 1]
    assert lir, "a game with more than one progressive wager (Let It Ride) is sensed"


@pytest.mark.parametrize("slug", PROGRESSIVE_SLUGS)
def test_641a_2_c_1_every_game_senses_each_of_its_progressive_wagers(slug: str) -> None:
    rnd = _round(slug)
    sensed = rnd.sensed_wagers()
    offers = {o.wager: o.stake for o in rnd.game.progressive_offers()}
    assert sensed and set(sensed) == set(offers)
    assert rnd.lights() == {1: Light.DARK, 2: Light.DARK}
    accepted = _light_everything(rnd)
    for seat in SEATS:
        assert {w: rnd.stakes[seat][w] for w in sensed} == {w: offers[w] for w in sensed}
    assert rnd.progressive_chip_count() == accepted
    first = sensed[0]
    rnd.apply(SenseWager(seat=2, light=Light.DARK, wager=first))
    assert first not in rnd.stakes[2]
    assert rnd.wager_lights()[2][first] is Light.DARK
    assert rnd.progressive_chip_count() == accepted - 1


@pytest.mark.parametrize("slug", PROGRESSIVE_SLUGS)
def test_641a_2_c_1_every_game_refuses_a_progressive_placed_through_croupier(slug: str) -> None:
    rnd = _round(slug)
    section = rnd.sections["progressive_sensors"]
    assert section.startswith("§ ")
    for wager in rnd.sensed_wagers():
        stake = next(o.stake for o in rnd.game.progressive_offers() if o.wager == wager)
        with pytest.raises(IllegalAction) as exc:
            rnd.apply(PlaceWager(seat=1, wager=wager, amount=stake))
        assert exc.value.section == section
        assert wager not in rnd.stakes[1]
    with pytest.raises(InvalidInput):
        rnd.apply(SenseWager(seat=1, light=Light.LIT, wager="ante_of_nothing"))


@pytest.mark.parametrize("slug", PROGRESSIVE_SLUGS)
def test_641a_7_d_4_every_game_shows_the_lights_in_every_view(slug: str) -> None:
    rnd = _round(slug)
    last = rnd.sensed_wagers()[-1]
    rnd.apply(SenseWager(seat=2, light=Light.LIT, wager=last))
    several = len(rnd.sensed_wagers()) > 1
    for pov in (Pov.player(1), Pov.player(2), Pov.dealer(), Pov.supervisor(), Pov.public()):
        shown = view(rnd, pov).to_json()
        assert shown["lights"] == {"1": "dark", "2": "lit"}
        if several:  # each progressive's own light where a position has several devices
            assert shown["wager_lights"]["2"][last] == "lit"
            assert set(shown["wager_lights"]["2"].values()) == {"lit", "dark"}
        else:
            assert "wager_lights" not in shown


@pytest.mark.parametrize("slug", PROGRESSIVE_SLUGS)
def test_641a_2_c_2_every_game_lock_out_refuses_and_records(slug: str) -> None:
    rnd = _round(slug)
    accepted = _light_everything(rnd)
    rnd.apply(SenseWager(seat=2, light=Light.DARK, wager=rnd.sensed_wagers()[0]))
    accepted -= 1
    lights, stakes = rnd.wager_lights(), rnd.stakes
    rnd.apply(NoMoreBets(progressive_chips=accepted))
    assert rnd.phase is not Phase.COUNT_HELD and rnd.phase is not Phase.VOID
    section = rnd.sections["progressive_lock_out"]
    assert section.startswith("§ ")
    for wager in rnd.sensed_wagers():
        for seat, light in ((1, Light.DARK), (2, Light.LIT)):
            (rec,) = rnd.apply(SenseWager(seat=seat, light=light, wager=wager))
            assert rec == SensorRefused(
                seat=seat, light=light, phase=rnd.phase.value, section=section, wager=wager
            )
            assert rec in rnd.records
    assert rnd.wager_lights() == lights and rnd.stakes == stakes
    assert rnd.progressive_chip_count() == accepted


@pytest.mark.parametrize("slug", PROGRESSIVE_SLUGS)
def test_641a_8_b_every_game_holds_a_count_that_differs(slug: str) -> None:
    rnd = _round(slug)
    accepted = _light_everything(rnd)
    new = rnd.apply(NoMoreBets(progressive_chips=accepted + 1))
    section = rnd.sections["progressive_count"]
    assert new[-1] == CountHeld(counted=accepted + 1, accepted=accepted, section=section)
    assert rnd.phase is Phase.COUNT_HELD and rnd.run_dealer() == ()
    (refused,) = rnd.apply(SenseWager(seat=1, light=Light.DARK, wager=rnd.sensed_wagers()[0]))
    assert isinstance(refused, SensorRefused) and refused.phase == "count_held"


@pytest.mark.parametrize("slug", PROGRESSIVE_SLUGS)
def test_641a_2_c_2_every_game_sensor_round_rebuilt_by_the_audit(slug: str) -> None:
    rnd = _round(slug)
    accepted = _light_everything(rnd)
    rnd.apply(SenseWager(seat=1, light=Light.DARK, wager=rnd.sensed_wagers()[-1]))
    rnd.apply(NoMoreBets(progressive_chips=accepted - 1))
    rnd.apply(SenseWager(seat=1, light=Light.LIT, wager=rnd.sensed_wagers()[-1]))
    stored = [record_from_json(record_to_json(r)) for r in rnd.records]
    assert stored == list(rnd.records)
    rebuilt = Round.rebuild(rnd.game, stored, players=rnd.players)
    assert rebuilt.records == rnd.records
    assert rebuilt.wager_lights() == rnd.wager_lights() and rebuilt.phase is rnd.phase
