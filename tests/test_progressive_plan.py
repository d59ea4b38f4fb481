"""Progressive economics: the long-run hold of a meter, a plan for a target hold, simulation.

The model is read from the par sheet, so its return at the reset must be the sheet's own exact
value; the long-run identity (the meter pays out what flows in) is checked against an award-by-
award simulation; a plan's rows are re-priced on the Rules Submission they describe, and a reset
the chapter forbids is refused with its section.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.analysis import par_sheet
from croupier.analysis.progressive_plan import (
    MeterLine,
    ProgressiveModel,
    plan,
    progressive_model,
    simulate_meter,
    variant,
)
from croupier.core.errors import CroupierError
from croupier.games import Game, get_game
from croupier.rules.progressive import MeterSpec
from croupier.rules.submission import load_rules

RULES = Path(__file__).parent / "rules"


@pytest.fixture(scope="module")
def stud_a() -> Game:
    # § 571.12(c) table A: 100% of the meter for a royal flush, 10% for a straight flush
    return get_game(load_rules(RULES / "mississippi-stud-table-a.toml"))


def test_571_12_model_reproduces_the_par_sheet_at_the_reset(stud_a: Game) -> None:
    model = progressive_model(stud_a)
    sheet = par_sheet(stud_a, wagers=["progressive"]).wagers["progressive"]
    (spec,) = model.meters.values()
    assert model.return_at({spec.name: spec.reset}) == sheet.expected
    exact_b = sheet.meter["return_per_unit_exact"]["b"]
    assert model.slope(spec.name) == Fraction(exact_b)
    even = model.break_even(spec.name)
    assert even is not None
    assert float(even) == pytest.approx(sheet.meter["break_even_meter_cents"])
    # a royal flush: 4 of the 2,598,960 five-card hands
    assert model.full_hit_probability(spec.name) == Fraction(4, 2_598_960)


def test_571_12_long_run_hold_is_contributions_plus_resets(stud_a: Game) -> None:
    model = progressive_model(stud_a)
    ((name, spec),) = model.meters.items()
    q = model.full_hit_probability(name)
    assert model.long_run_net() == model.fixed_net + spec.rate + q * spec.reset / model.stake
    between = model.contributions_between_hits(name)
    assert between == spec.rate * model.stake * 649_740


def _synthetic(full: Fraction, partial: Fraction | None) -> ProgressiveModel:
    lines = [MeterLine(hand="royal_flush", share=Fraction(1), probability=full, meter="m")]
    if partial is not None:
        lines.append(
            MeterLine(hand="straight_flush", share=Fraction(1, 10), probability=partial, meter="m")
        )
    return ProgressiveModel(
        game="synthetic",
        wager="progressive",
        stake=100,
        fixed_net=Fraction(-3, 4),
        lines=tuple(lines),
        meters={"m": MeterSpec(name="m", reset=10_000, rate=Fraction(1, 5))},
    )


def test_simulation_agrees_with_the_long_run_identity_without_partial_awards() -> None:
    model = _synthetic(Fraction(1, 500), None)
    sim = simulate_meter(model, 20_000, random.Random(7))
    exact = float(model.long_run_net())  # -3/4 + 1/5 + 10000/500/100 = -0.35
    assert exact == pytest.approx(-0.35)
    assert abs(sim.net_per_unit - exact) < 4 * sim.std_error
    assert sim.top_ups == 0
    assert sim.balance() == 0


def test_partial_awards_cost_the_house_only_through_the_reset_floor() -> None:
    # a partial award with the meter just above its reset takes it below the reset: the house
    # tops it up, so the simulated return can only be above the identity without the floor
    model = _synthetic(Fraction(1, 500), Fraction(1, 50))
    sim = simulate_meter(model, 20_000, random.Random(11))
    assert sim.top_ups > 0
    assert sim.balance() == 0
    assert sim.net_per_unit > float(model.long_run_net()) - 4 * sim.std_error


def test_plan_rows_hit_the_target_and_are_priced_on_their_own_rules(stud_a: Game) -> None:
    target = Fraction(5, 100)
    model, rows, _ = plan(stud_a, target)
    assert rows
    for row in rows:
        assert abs(row.long_run_edge - target) < Fraction(1, 1000)
        priced = progressive_model(variant(stud_a, model.wager, row.reset, row.rates))
        assert -priced.long_run_net() == row.long_run_edge
        (spec,) = priced.meters.values()
        assert (spec.reset, spec.rate) == (row.reset, row.rate)


def test_571_12_f_plan_refuses_a_reset_below_ten_thousand_dollars(stud_a: Game) -> None:
    _, rows, refused = plan(stud_a, Fraction(5, 100), resets=[500_000, 1_000_000])
    assert [row.reset for row in rows] == [1_000_000]
    assert len(refused) == 1
    assert "reset 500000" in refused[0]
    assert "571.12" in refused[0]


def test_plan_refuses_a_target_outside_zero_to_one(stud_a: Game) -> None:
    with pytest.raises(CroupierError, match="target hold"):
        plan(stud_a, Fraction(3, 2))


def test_cli_progressive_economics_json(stud_a: Game) -> None:
    import json

    from typer.testing import CliRunner

    from croupier.cli import app

    path = str(RULES / "mississippi-stud-table-a.toml")
    result = CliRunner().invoke(
        app, ["progressive", "economics", "mississippi-stud", "--rules", path, "--json"]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    model = progressive_model(stud_a)
    assert data["long_run_house_edge_exact"] == (
        f"{(-model.long_run_net()).numerator}/{(-model.long_run_net()).denominator}"
    )
    # the meter's 100% line is the royal flush: 4 of the C(52,5) = 2,598,960 five-card hands
    # (tests/data/counts-poker5-5.txt), one in 649,740
    assert data["meters"]["mississippi-stud"]["wagers_between_hits"] == 649_740


def test_cli_progressive_plan_bad_target_is_one_line_exit_2() -> None:
    from typer.testing import CliRunner

    from croupier.cli import app

    path = str(RULES / "mississippi-stud-table-a.toml")
    result = CliRunner().invoke(
        app,
        ["progressive", "plan", "mississippi-stud", "--rules", path, "--target-hold", "1e-9999"],
    )
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1


def _every_progressive() -> list[tuple[str, str]]:
    from croupier.games import GAMES

    found = []
    for slug, cls in GAMES.items():
        if cls.progressive_paytables and cls.example_rules:
            for offer in get_game(dict(cls.example_rules)).progressive_offers():
                found.append((slug, offer.wager))
    return found


@pytest.mark.parametrize(("slug", "wager"), _every_progressive())
def test_every_progressive_of_every_game_has_its_economics(slug: str, wager: str) -> None:
    """Each game's example Rules Submission, each progressive it offers: the model's return at
    the resets is the par sheet's exact value, every meter has its break-even meter and the
    contributions between its 100% awards, a plan for the submission's own long-run hold
    re-prices to it on its own rules, and an award-by-award simulation agrees with the
    long-run identity (the reset floor's top-ups only lowering the hold)."""
    from croupier.games import GAMES

    game = get_game(dict(GAMES[slug].example_rules))
    model = progressive_model(game, wager)
    sheet = par_sheet(game, wagers=[wager]).wagers[wager]
    resets = {name: spec.reset for name, spec in model.meters.items()}
    assert model.return_at(resets) == sheet.expected
    for name in model.meters:
        q = model.full_hit_probability(name)
        assert q > 0 and model.slope(name) > 0
        even = model.break_even(name)
        assert even is not None and model.return_at({**resets, name: even}) == 0
        assert model.contributions_between_hits(name) == model.meters[name].rate * model.stake / q
    target = -model.long_run_net()  # the submission's own hold: its reset and rate reach it
    if 0 <= target < 1:
        planned_model, rows, notes = plan(game, target, wager=wager)
        assert rows, notes
        row = rows[0]
        assert abs(row.long_run_edge - target) < Fraction(1, 1000)
        priced = progressive_model(variant(game, planned_model.wager, row.reset, row.rates), wager)
        assert -priced.long_run_net() == row.long_run_edge
    else:  # UTH on seven cards (§ 569.1's Hand): the fixed lines alone give the player the edge
        assert model.fixed_net > 0 and any("§ 569.1" in n for n in par_sheet(game).notes)
        with pytest.raises(CroupierError, match="target hold"):
            plan(game, target, wager=wager)
    sim = simulate_meter(model, 4_000, random.Random(5))
    assert sim.balance() == 0
    assert sim.net_per_unit > float(model.long_run_net()) - 4 * sim.std_error
    if sim.top_ups == 0:
        assert abs(sim.net_per_unit - float(model.long_run_net())) < 4 * sim.std_error
