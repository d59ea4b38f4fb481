"""``croupier progressive``: the economics of a progressive meter, and a plan for a target hold."""

from __future__ import annotations

import random
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from croupier.cli.app import (
    GameArgument,
    JsonOption,
    PaytableOption,
    RulesOption,
    app,
    emit_json,
    game_from_options,
    stdout,
)
from croupier.core.errors import InvalidInput
from croupier.core.extras import require

if TYPE_CHECKING:
    from croupier.analysis.progressive_plan import MeterSimulation, ProgressiveModel

__all__ = ["economics", "plan_command"]

progressive_app = typer.Typer(help="Progressive meters: long-run hold, break-even, plans.")
app.add_typer(progressive_app, name="progressive")

WagerOption = Annotated[
    str | None,
    typer.Option("--wager", help="the progressive wager (Let It Ride has two); default: the first"),
]
AwardsOption = Annotated[
    int, typer.Option("--awards", help="meter awards to simulate (0: no simulation)")
]
SeedOption = Annotated[int, typer.Option("--seed", help="seed of the simulation (simulation only)")]


def _fraction(text: str, what: str) -> Fraction:
    if len(text) > 40:
        raise InvalidInput(f"{what} {text[:40]!r}... is too long")
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise InvalidInput(f"{what} {text!r} is not a decimal number (e.g. 0.05)") from None
    if not value.is_finite() or abs(value.as_tuple().exponent) > 12:  # type: ignore[arg-type]
        raise InvalidInput(f"{what} {text!r} must be a plain decimal with at most 12 places")
    return Fraction(value)


def _simulate(model: ProgressiveModel, awards: int, seed: int) -> MeterSimulation | None:
    from croupier.analysis.progressive_plan import simulate_meter

    if awards < 0:
        raise InvalidInput(f"--awards {awards} must not be negative")
    if awards > 10_000_000:
        raise InvalidInput(f"--awards {awards} is above the cap of 10,000,000")
    return simulate_meter(model, awards, random.Random(seed)) if awards else None


def _pct(value: float) -> str:
    return f"{value * 100:.4f}%"


def _cents(value: float | None) -> str:
    return "-" if value is None else f"${value / 100:,.2f}"


def _render_model(data: dict[str, Any], sim: dict[str, Any] | None) -> None:
    console = stdout()
    console.print(
        f"{data['game']} {data['wager']}: {_cents(data['stake_cents'])} wager; long-run house "
        f"edge {_pct(data['long_run_house_edge'])} (exact {data['long_run_house_edge_exact']}; "
        "the reset floor's top-ups left out)"
    )
    table = Table(title="Meters", title_justify="left")
    for col in ("meter", "reset", "rate", "break-even", "wagers between 100% hits", "p50/p90/p99"):
        table.add_column(col, justify="left" if col == "meter" else "right")
    for m in data["meters"].values():
        q = m["wagers_between_hits_quantiles"]
        table.add_row(
            m["meter"],
            _cents(m["reset_cents"]),
            str(float(Fraction(m["rate"]))),
            _cents(m["break_even_cents"]),
            "-" if m["wagers_between_hits"] is None else f"{m['wagers_between_hits']:,.0f}",
            "-" if q is None else f"{q['p50']:,} / {q['p90']:,} / {q['p99']:,}",
        )
    console.print(table)
    if sim is not None:
        console.print(
            f"simulated with the floor: house edge {_pct(-sim['net_per_unit'])} "
            f"± {_pct(sim['std_error'])} over {sim['awards']:,} awards "
            f"({sim['wagers']:,} wagers; floor top-ups {_cents(sim['floor_top_ups_cents'])})"
        )


@progressive_app.command("economics")
def economics(
    game: GameArgument,
    rules: RulesOption = None,
    paytable: PaytableOption = None,
    wager: WagerOption = None,
    awards: AwardsOption = 0,
    seed: SeedOption = 1,
    json_out: JsonOption = False,
) -> None:
    """Return by meter, break-even, long-run hold and the time between jackpots."""
    require("analysis", "progressive economics")
    from croupier.analysis.progressive_plan import progressive_model

    model = progressive_model(game_from_options(game, rules, paytable), wager)
    sim = _simulate(model, awards, seed)
    data = model.to_json()
    sim_data = sim.to_json() if sim is not None else None
    if json_out:
        emit_json({**data, "simulation": sim_data})
    else:
        _render_model(data, sim_data)


@progressive_app.command("plan")
def plan_command(
    game: GameArgument,
    target_hold: Annotated[
        str, typer.Option("--target-hold", help="long-run hold wanted, e.g. 0.05")
    ],
    reset: Annotated[
        list[int] | None,
        typer.Option("--reset", help="reset amounts to try, cents (repeatable)"),
    ] = None,
    rules: RulesOption = None,
    paytable: PaytableOption = None,
    wager: WagerOption = None,
    awards: AwardsOption = 0,
    seed: SeedOption = 1,
    json_out: JsonOption = False,
) -> None:
    """The reset and rate of progression that give a target long-run hold."""
    require("analysis", "progressive plan")
    from croupier.analysis.progressive_plan import plan, planned, simulate_meter

    target = _fraction(target_hold, "--target-hold")
    model, rows, refused = plan(
        game_from_options(game, rules, paytable), target, reset or (), wager=wager
    )
    if awards < 0 or awards > 10_000_000:
        raise InvalidInput(f"--awards {awards} must be from 0 to 10,000,000")
    out_rows = []
    for row in rows:
        item = row.to_json()
        if awards:
            sim = simulate_meter(planned(model, row), awards, random.Random(seed))
            item["simulation"] = sim.to_json()
        out_rows.append(item)
    if json_out:
        emit_json(
            {
                "game": model.game,
                "wager": model.wager,
                "target_hold": float(target),
                "rows": out_rows,
                "refused": refused,
            }
        )
        return
    console = stdout()
    table = Table(
        title=f"{model.game} {model.wager}: target hold {_pct(float(target))}",
        title_justify="left",
    )
    for col in ("reset", "rate", "long-run hold", "contributions between 100% hits"):
        table.add_column(col, justify="right")
    if awards:
        table.add_column("simulated hold (with floor)", justify="right")
    for item in out_rows:
        cells = [
            _cents(item["reset_cents"]),
            str(float(Fraction(item["rate"]))),
            _pct(item["long_run_house_edge"]),
            _cents(item["contributions_between_hits_cents"]),
        ]
        if awards:
            sim = item["simulation"]
            cells.append(f"{_pct(-sim['net_per_unit'])} ± {_pct(sim['std_error'])}")
        table.add_row(*cells)
    console.print(table)
    for reason in refused:
        console.print(f"left out: {reason}")
