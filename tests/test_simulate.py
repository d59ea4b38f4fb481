"""Monte Carlo through the round engine: it agrees with the exact par sheets, is reproducible,
and refuses bad input."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from functools import cache

import pytest

from croupier.analysis import ParSheet, optimal_strategy, par_sheet
from croupier.analysis.simulate import MAX_ROUNDS, Estimate, SimulationResult, simulate
from croupier.cli import main
from croupier.core.errors import InvalidInput
from croupier.games import GAMES, Game, Round, game_class, get_game
from croupier.games.records import Action, Fold

ROUNDS = 2_000
"""Rounds per game in ``make test``'s agreement test (about a second a game on one core).  At
4 standard errors it catches a settlement off by a few tenths of a unit on a common outcome; the
per-round standard deviation is 1-5 units by game, so the standard error of the mean net is
0.02-0.11 units at 2,000 rounds and 0.01-0.05 units at :data:`LONG_ROUNDS`."""

LONG_ROUNDS = 10_000
"""Rounds per game in the same agreement test run by ``make bench`` (``-m long``)."""

SIZES = [ROUNDS, pytest.param(LONG_ROUNDS, marks=pytest.mark.long, id="long")]


def _example(slug: str) -> Game:
    """The game under its full example Rules Submission (every optional wager offered)."""
    return get_game(game_class(slug).example_rules or slug)


@cache
def _sheet(slug: str) -> ParSheet:
    return par_sheet(_example(slug))


def _assert_agrees(result: SimulationResult) -> int:
    """Every estimate with an exact value lies within 4 standard errors of it; returns how
    many were compared."""
    compared = 0
    for est in result.estimates:
        if est.exact is None:
            continue
        z = est.z
        assert z is not None
        assert abs(z) < 4, f"{result.game} {est.wager}: simulated {est.house_edge} vs exact"
        # and by the sample's own standard error, where the sample saw enough variation
        if est.std_error > 0:
            gap = abs(float(est.mean - est.exact.expected))
            assert gap < 4 * max(est.std_error, est.exact.std_dev / est.rounds**0.5)
        compared += 1
    return compared


def _empty(slug: str) -> ParSheet:
    """A par sheet with nothing in it: runs that compare with nothing skip the exact analysis."""
    return ParSheet(game=slug, method="exact", base=None, wagers={})


def _free(result: SimulationResult) -> list[Estimate]:
    """The optional wagers no decision can touch: at their own seat, or in a game without
    required wagers (baccarat)."""
    return [e for e in result.wagers.values() if result.base is None or e.seat != 1]


@cache
def _agreement(slug: str, rounds: int = ROUNDS) -> tuple[ParSheet, SimulationResult]:
    """The agreement run of ``slug`` over ``rounds`` rounds: under the optimal strategy where
    one is registered (every wager and the base compared); otherwise only the wagers no decision
    touches are (every game without an optimal strategy, baccarat, has such wagers)."""
    game = _example(slug)
    optimal = optimal_strategy(game) is not None
    if not optimal:
        assert _free(simulate(game, rounds=1, seed=0, sheet=_empty(slug))), slug
    sheet = _sheet(slug)
    result = simulate(game, rounds=rounds, seed=f"agree-{slug}", sheet=sheet)
    assert result.strategy in (("optimal", "none") if optimal else ("simple", "none"))
    if not optimal:
        assert result.base is None or result.base.exact is None  # not the optimal strategy
        result = replace(result, base=None, wagers={e.wager: e for e in _free(result)})
    return sheet, result


@pytest.mark.parametrize("rounds", SIZES)
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_exact_and_simulated_agree_within_4_standard_errors(slug: str, rounds: int) -> None:
    sheet, result = _agreement(slug, rounds)
    assert result.rounds == rounds
    zs = ", ".join(f"{e.wager} z={e.z:+.2f}" for e in result.estimates if e.z is not None)
    print(f"{slug}, {rounds} rounds: {zs}")  # make bench (bench_proofs.py) shows these
    if result.strategy == "optimal":
        assert set(sheet.wagers) <= set(result.wagers), result.skipped
        if sheet.base is not None:
            assert result.base is not None and result.base.exact is sheet.base
        assert _assert_agrees(result) == len(sheet.wagers) + (sheet.base is not None)
    else:
        assert _assert_agrees(result) == sum(w in sheet.wagers for w in result.wagers) > 0


def test_four_card_poker_aces_up_is_checked_against_the_exact_sheet() -> None:
    sheet, result = _agreement("four-card-poker")
    aces = result.wagers["aces_up"]
    assert aces.exact is sheet.wagers["aces_up"]
    assert aces.seat == 2  # alone at its own seat: no fold touches it
    assert aces.stake == 100 and aces.rounds == ROUNDS
    assert result.wagers["progressive"].stake == 100  # the table's fixed amount
    z = aces.z
    assert z is not None and abs(z) < 4
    assert abs(float(aces.mean - aces.exact.expected)) < 4 * aces.std_error
    # the hit frequency agrees too (binomial standard error)
    p = float(sheet.wagers["aces_up"].hit_frequency)
    assert abs(float(aces.hit_frequency) - p) < 4 * (p * (1 - p) / aces.rounds) ** 0.5


def test_a_seeded_run_is_reproducible() -> None:
    game = _example("four-card-poker")
    sheet = _empty(game.slug)
    first = simulate(game, rounds=300, seed=7, sheet=sheet)
    again = simulate(game, rounds=300, seed=7, sheet=sheet)
    other = simulate(game, rounds=300, seed=8, sheet=sheet)
    assert first.to_json() == again.to_json()
    assert first.render() == again.render()
    assert first.to_json()["wagers"] != other.to_json()["wagers"]


def test_a_given_strategy_decides_and_progress_is_reported() -> None:
    def always_fold(rnd: Round, seat: int) -> Action:
        return Fold(seat=seat)

    calls: list[tuple[int, int]] = []
    game = _example("four-card-poker")
    result = simulate(
        game,
        rounds=250,
        seed="fold",
        strategy=always_fold,
        progress=lambda done, total: calls.append((done, total)),
        sheet=_sheet("four-card-poker"),
    )
    assert result.strategy == "given"
    base = result.base
    assert base is not None and base.placed == ("ante", "play")
    assert base.house_edge == 1 and base.std_dev == 0  # every Ante forfeited
    assert base.exact is None  # the exact base assumes the optimal strategy
    assert calls[-1] == (250, 250)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    data = json.loads(json.dumps(result.to_json()))
    assert data["method"] == "simulate" and data["rounds"] == 250
    assert data["wagers"]["aces_up"]["exact"]["house_edge_exact"] == "1826/54145"


def test_baccarat_places_every_wager_at_one_seat_and_charges_the_vigorish() -> None:
    result = simulate(_example("mini-baccarat"), rounds=400, seed=11)
    assert result.base is None
    assert {"banker", "player", "tie"} <= set(result.wagers)
    assert {est.seat for est in result.wagers.values()} == {1}
    banker = result.wagers["banker"]
    assert banker.hits % 20  # (so that the check below can tell the vigorish was taken)
    # a won Banker wager nets 95 cents of 100 (5% commission), a lost one -100, a push 0
    assert (banker.total - 95 * banker.hits) % 100 == 0
    assert result.decks == 8


@pytest.mark.parametrize("rounds", [0, -5, True, 2.5, MAX_ROUNDS + 1, 10**20])
def test_bad_rounds_are_refused(rounds: object) -> None:
    with pytest.raises(InvalidInput, match="rounds"):
        simulate(_example("four-card-poker"), rounds=rounds, seed=1)  # type: ignore[arg-type]


def test_bad_unit_is_refused() -> None:
    with pytest.raises(InvalidInput, match="unit"):
        simulate(_example("four-card-poker"), rounds=1, seed=1, unit=0)


def _cli(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


def test_cli_simulate_prints_json() -> None:
    status, text = _cli(
        ["simulate", "four-card-poker", "--rounds", "60", "--seed", "5", "--json", "--quiet"]
    )
    assert status == 0
    data = json.loads(text)
    assert data["game"] == "four-card-poker" and data["seed"] == 5
    assert data["rounds"] == 60 and "aces_up" in data["wagers"]


def test_cli_simulate_text() -> None:
    status, text = _cli(
        [
            "simulate",
            "four-card-poker",
            "--rounds",
            "40",
            "--seed",
            "five",
            "--rules",
            "tests/rules/four-card-poker.toml",
            "--paytable",
            "aces_up=A",
        ]
    )
    assert status == 0
    assert text.startswith("Simulation: four-card-poker, 40 rounds, seed 'five'")
    assert "aces_up" in text


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["simulate", "four-card-poker", "--rounds", "0", "--seed", "1", "--quiet"], "rounds 0"),
        (["simulate", "no-such-game", "--rounds", "10", "--seed", "1"], "no-such-game"),
        # a count no run finishes is refused, not started (the loop stays bounded)
        (
            ["simulate", "three-card-poker", "--rounds", "9" * 20, "--seed", "1", "--quiet"],
            "from 1 to 1,000,000,000",
        ),
        (
            ["simulate", "3cp", "--kernel", "--rounds", "9" * 20, "--seed", "1", "--quiet"],
            "from 1 to 100,000,000,000",
        ),
    ],
)
def test_cli_simulate_bad_input_exits_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, text = _cli(argv)
    assert status == 2
    assert text == ""
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert needle in err
