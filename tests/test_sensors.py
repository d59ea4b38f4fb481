"""The progressive table game system's sensors, lights, lock-out and count (issue 39): a
round at a table whose progressive wagers a wagering device at each position recognises."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from croupier.core.cards import DECK
from croupier.core.errors import IllegalAction
from croupier.games import get_game
from croupier.games.pov import Pov, view
from croupier.games.records import (
    MeterChanged,
    NoMoreBets,
    PlaceWager,
    RoundVoided,
    record_to_json,
)
from croupier.games.round import Phase, Round
from croupier.games.sensors import (
    CountHeld,
    CountResolved,
    Light,
    ResolveCount,
    SenseWager,
    SensorRefused,
    WagerSensed,
)
from croupier.rules.progressive import MemoryMeters
from croupier.server import demo
from croupier.store.codec import record_from_json
from croupier.table.reported import ReportedShoe
from croupier.table.shoe import StackedShoe

PROGRESSIVE: dict[str, Any] = {
    "progressive": {
        "paytable": "A",
        "envy": "A",
        "wager": 100,
        "reset": 500_000,
        "rate": "0.25",
        "meter": "4cp",
    },
}
SENSORS = {**PROGRESSIVE, "table": {"progressive_wagers": "sensors"}}


def _round(rules: dict[str, Any] = SENSORS) -> Round:
    game = get_game({"game": "four-card-poker", **rules})
    rnd = game.new_round(
        shoe=StackedShoe(list(DECK)),
        meters=MemoryMeters({"4cp": 600_000}),
        players={1: "P1", 2: "P2", 3: "P3"},
    )
    for seat in (1, 2, 3):
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
    return rnd


def test_641a_2_c_1_a_lit_sensor_places_the_progressive_wager() -> None:
    rnd = _round()
    (rec,) = rnd.apply(SenseWager(seat=2, light=Light.LIT))
    assert rec == WagerSensed(seat=2, light=Light.LIT, amount=100)
    assert rnd.stakes[2]["progressive"] == 100
    assert rnd.lights() == {1: Light.DARK, 2: Light.LIT, 3: Light.DARK}
    rnd.apply(SenseWager(seat=2, light=Light.DARK))
    assert "progressive" not in rnd.stakes[2]
    assert rnd.progressive_chip_count() == 0


def test_641a_2_c_1_a_progressive_placed_through_croupier_is_refused() -> None:
    rnd = _round()
    with pytest.raises(IllegalAction) as exc:
        rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    assert exc.value.section == "§ 641a.2(c)(1)"
    assert "progressive" not in rnd.stakes[1]


def test_641a_7_d_4_the_lights_are_in_every_view() -> None:
    rnd = _round()
    rnd.apply(SenseWager(seat=3, light=Light.LIT))
    for pov in (Pov.player(1), Pov.dealer(), Pov.supervisor(), Pov.public()):
        assert view(rnd, pov).to_json()["lights"] == {"1": "dark", "2": "dark", "3": "lit"}


def test_641a_7_d_4_no_lights_at_a_table_without_sensors() -> None:
    rnd = _round(PROGRESSIVE)
    rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    assert rnd.lights() == {}
    assert "lights" not in view(rnd, Pov.public()).to_json()


def test_641a_2_c_1_a_sensor_refuses_a_chip_without_a_base_wager() -> None:
    game = get_game({"game": "four-card-poker", **SENSORS})
    rnd = game.new_round(shoe=StackedShoe(list(DECK)), players={1: "P1"})
    with pytest.raises(IllegalAction):
        rnd.apply(SenseWager(seat=1, light=Light.LIT))
    assert rnd.records == ()


def test_641a_2_c_2_sensor_event_after_the_lock_out_is_refused_and_recorded() -> None:
    rnd = _round()
    rnd.apply(SenseWager(seat=1, light=Light.LIT))
    rnd.apply(NoMoreBets(progressive_chips=1))
    for light in (Light.LIT, Light.DARK):
        seat = 2 if light is Light.LIT else 1
        (rec,) = rnd.apply(SenseWager(seat=seat, light=light))
        assert rec == SensorRefused(
            seat=seat, light=light, phase="dealing", section="§ 641a.2(c)(2)"
        )
    assert rnd.lights() == {1: Light.LIT, 2: Light.DARK, 3: Light.DARK}
    assert rnd.progressive_chip_count() == 1
    assert rnd.stakes[1]["progressive"] == 100 and "progressive" not in rnd.stakes[2]


def test_641a_2_c_2_sensor_after_the_round_is_over_is_refused() -> None:
    rnd = _round()
    rnd.apply(NoMoreBets())
    rnd.run_dealer()
    while not rnd.is_over:
        seat = rnd.to_act().seat
        assert seat is not None
        rnd.apply(next(iter(rnd.decision_candidates(seat))))
        rnd.run_dealer()
    with pytest.raises(IllegalAction):
        rnd.apply(SenseWager(seat=1, light=Light.LIT))


def test_641a_8_b_count_mismatch_at_a_sensor_table_is_held_for_a_supervisor() -> None:
    rnd = _round()
    rnd.apply(SenseWager(seat=1, light=Light.LIT))
    rnd.apply(SenseWager(seat=3, light=Light.LIT))
    new = rnd.apply(NoMoreBets(progressive_chips=3))
    assert new[-1] == CountHeld(counted=3, accepted=2, section="§ 641a.8(b)")
    assert rnd.phase.value == "count_held"
    assert rnd.run_dealer() == ()  # nothing dealt while held
    assert not any(isinstance(r, MeterChanged) for r in rnd.records)  # nothing contributed
    with pytest.raises(IllegalAction):
        rnd.apply(PlaceWager(seat=2, wager="aces_up", amount=500))  # bets stay closed
    (refused,) = rnd.apply(SenseWager(seat=2, light=Light.LIT))
    assert isinstance(refused, SensorRefused) and refused.phase == "count_held"
    new = rnd.apply(ResolveCount(count=2, by="sue"))
    assert new[0] == CountResolved(count=2, accepted=2, by="sue")
    assert any(isinstance(r, MeterChanged) for r in new)
    assert rnd.phase is Phase.DEALING


def test_641a_8_b_a_recount_that_still_differs_voids_the_round() -> None:
    rnd = _round()
    rnd.apply(SenseWager(seat=1, light=Light.LIT))
    rnd.apply(NoMoreBets(progressive_chips=0))
    new = rnd.apply(ResolveCount(count=0, by="sue"))
    assert any(isinstance(r, RoundVoided) for r in new)
    assert rnd.phase is Phase.VOID
    assert rnd.settlement()["1"]["net"] == 0
    assert isinstance(rnd.meters, MemoryMeters) and rnd.meters.amount("4cp") == 600_000


def test_641a_8_b_no_recount_unless_a_count_is_held() -> None:
    rnd = _round()
    with pytest.raises(IllegalAction):
        rnd.apply(ResolveCount(count=0, by="sue"))


def test_641a_8_b_without_sensors_a_mismatch_still_voids() -> None:
    rnd = _round(PROGRESSIVE)
    rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    rnd.apply(NoMoreBets(progressive_chips=2))
    assert rnd.phase is Phase.VOID


def test_641a_2_c_2_the_audit_rebuilds_a_sensor_round() -> None:
    """Sensor events, a refused one, a count held and resolved: the rebuild replays them all,
    also from the stored JSON of the records (cards reported, as at a reader table)."""
    game = get_game(
        {
            "game": "four-card-poker",
            **SENSORS,
            "table": {"progressive_wagers": "sensors", "cards": "reader"},
        }
    )
    rnd = game.new_round(
        shoe=ReportedShoe(decks=1),
        meters=MemoryMeters({"4cp": 600_000}),
        players={1: "P1", 2: "P2"},
    )
    for seat in (1, 2):
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
        rnd.apply(SenseWager(seat=seat, light=Light.LIT))
    rnd.apply(SenseWager(seat=2, light=Light.DARK))
    rnd.apply(NoMoreBets(progressive_chips=2))
    rnd.apply(SenseWager(seat=2, light=Light.LIT))
    rnd.apply(ResolveCount(count=1, by="sue"))
    stored = [record_from_json(record_to_json(r)) for r in rnd.records]
    assert stored == list(rnd.records)
    rebuilt = Round.rebuild(game, stored, players=rnd.players)
    assert rebuilt.records == rnd.records
    assert rebuilt.phase is Phase.DEALING and rebuilt.lights() == {1: Light.LIT, 2: Light.DARK}


def _demo_round(slug: str) -> Round:
    """A round of the demo floor's ``slug`` table with sensors, the required wagers placed at
    seat 1 (Ultimate Texas Hold 'Em's Blind equal to the Ante)."""
    path = Path(demo.__file__).with_name(f"{slug}.toml")
    rules = tomllib.loads(path.read_text(encoding="utf-8"))
    rules["table"] = {**rules.get("table", {}), "progressive_wagers": "sensors"}
    game = get_game(rules)
    rnd = game.new_round(shoe=StackedShoe(list(DECK)), meters=MemoryMeters(), players={1: "P1"})
    for wager in game.required_wagers:
        rnd.apply(PlaceWager(seat=1, wager=wager, amount=500))
    return rnd


def _locked_out(slug: str) -> SensorRefused:
    rnd = _round_with_light(slug)
    (refused,) = rnd.apply(SenseWager(seat=1, light=Light.DARK))
    assert isinstance(refused, SensorRefused)
    assert rnd.lights() == {1: Light.LIT} and rnd.progressive_chip_count() == 1
    return refused


def _round_with_light(slug: str) -> Round:
    rnd = _demo_round(slug)
    rnd.apply(SenseWager(seat=1, light=Light.LIT))
    with pytest.raises(IllegalAction) as placed:
        rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    assert placed.value.section == rnd.sections["progressive_sensors"]
    rnd.apply(NoMoreBets(progressive_chips=1))
    return rnd


def test_569_2_f_2_ultimate_texas_holdem_lock_out_refuses_and_records() -> None:
    assert _locked_out("ultimate-texas-holdem").section == "§ 569.2(f)(2)"


def test_569_2_f_1_ultimate_texas_holdem_sensor_places_the_progressive() -> None:
    rnd = _demo_round("ultimate-texas-holdem")
    assert rnd.apply(SenseWager(seat=1, light=Light.LIT))[0].kind == "wager_sensed"
    assert rnd.stakes[1]["progressive"] == 100


def test_571_2_f_2_mississippi_stud_lock_out_refuses_and_records() -> None:
    assert _locked_out("mississippi-stud").section == "§ 571.2(f)(2)"


def test_571_2_f_1_mississippi_stud_sensor_places_the_progressive() -> None:
    rnd = _demo_round("mississippi-stud")
    assert rnd.apply(SenseWager(seat=1, light=Light.LIT))[0].kind == "wager_sensed"
    assert rnd.stakes[1]["progressive"] == 100
