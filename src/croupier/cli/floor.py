"""``croupier floor simulate FLOOR.toml``: a casino floor forecast on the fast kernels."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from croupier.cli.app import JsonOption, app, emit_json, stdout
from croupier.core.extras import require

__all__ = ["simulate"]

floor_app = typer.Typer(help="A casino floor: hold, meters and jackpots over many hours.")
app.add_typer(floor_app, name="floor")


def _money(cents: float) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) / 100:,.2f}"


@floor_app.command("simulate")
def simulate(
    floor: Annotated[str, typer.Argument(help="floor file (TOML)", show_default=False)],
    hours: Annotated[int, typer.Option("--hours", help="hours of play")],
    seed: Annotated[int, typer.Option("--seed", help="seed (simulation only)")],
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", metavar="ADDR", help="a Dask scheduler address")
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", help="threads (default: every core)")
    ] = None,
    report: Annotated[
        str | None, typer.Option("--report", metavar="FILE", help="write an HTML report")
    ] = None,
    json_out: JsonOption = False,
) -> None:
    """Hold per table and game with 95% bands, meter paths and jackpots, theoretical win."""
    require("analysis", "floor simulate")
    from croupier.analysis.floor_forecast import load_floor, simulate_floor
    from croupier.core.errors import InvalidInput

    if workers is not None and not 1 <= workers <= 256:
        raise InvalidInput(f"--workers {workers} must be from 1 to 256")
    result = simulate_floor(load_floor(floor), hours, seed, scheduler=scheduler, workers=workers)
    if report:
        from croupier.analysis.floor_report import floor_html
        from croupier.core.reading import save_file

        save_file(report, floor_html(result).encode("utf-8"))
    data = result.to_json()
    if json_out:
        emit_json(data)
        return
    console = stdout()
    table = Table(
        title=f"{data['floor']}: {len(data['tables'])} tables, {data['hours']} h, "
        f"{data['rounds']:,} seat-rounds ({data['wall_s']} s)",
        title_justify="left",
    )
    for col in ("game", "tables", "handle", "theoretical win", "win", "95% band", "hold"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for game, g in data["games"].items():
        low, high = g["win_band_95_cents"]
        table.add_row(
            game,
            str(g["tables"]),
            _money(g["handle_cents"]),
            _money(g["theoretical_win_cents"]),
            _money(g["win_cents"]),
            f"{_money(low)} to {_money(high)}",
            f"{g['hold']:.3%}",
        )
    console.print(table)
    for m in data["meters"]:
        console.print(
            f"meter {m['meter']}: {m['progressive_wagers']:,} wagers, contributions "
            f"{_money(m['contributions_cents'])}, paid {_money(m['paid_cents'])}, "
            f"now {_money(m['hourly_cents'][-1])}"
        )
    console.print(f"jackpots: {len(data['jackpots'])}")
