"""Rich rendering of the library's results: aligned tables, no Python structures on screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.table import Table

from croupier.cli.app import stdout

if TYPE_CHECKING:
    from croupier.analysis.counts import CountTable
    from croupier.analysis.par import ParSheet, WagerSheet
    from croupier.analysis.strategy_table import StrategyTable

__all__ = ["count_table", "par_sheet", "strategy_table", "summary", "wager_table"]


def count_table(table: CountTable) -> None:
    """``croupier count``: category, hands, probability."""
    from croupier.hands import Ranking

    best = {Ranking.POKER5: "best five", Ranking.FOUR_CARD: "best four"}.get(
        table.ranking, "the hand"
    )
    total = table.total
    console = stdout()
    console.print(f"{table.ranking.value}: every {table.cards}-card hand ({best}), {total:,} hands")
    out = Table(box=box.SIMPLE_HEAD)
    out.add_column("category")
    out.add_column("hands", justify="right")
    out.add_column("probability", justify="right")
    for category, n in table.counts:
        out.add_row(category.value, f"{n:,}", f"{n / total:.8f}")
    out.add_section()
    out.add_row("total", f"{total:,}", "1.00000000")
    console.print(out)


def _label(sheet: WagerSheet) -> str:
    name = "base game" if sheet.wager == "base" else sheet.wager
    return name + (f", pay table {sheet.paytable}" if sheet.paytable else "")


def summary(sheet: WagerSheet) -> str:
    """One line: the wager, its pay table and its figures (house edge exact too)."""
    from croupier.analysis.par import exact

    return (
        f"{_label(sheet)}: house edge {float(sheet.house_edge):.6%} "
        f"({exact(sheet.house_edge)}), element of risk {float(sheet.element_of_risk):.6%}, "
        f"hit frequency {float(sheet.hit_frequency):.6%}, std dev {sheet.std_dev:.4f} "
        f"({sheet.method})"
    )


def wager_table(sheet: WagerSheet) -> Table:
    """One wager's outcomes: pays, combinations, probability, contribution to return."""
    out = Table(box=box.SIMPLE_HEAD, caption_justify="left")
    out.add_column("outcome")
    out.add_column("pays", justify="right")
    out.add_column("combinations", justify="right")
    out.add_column("probability", justify="right")
    out.add_column("return", justify="right")
    total = sheet.total
    for o in sheet.outcomes:
        out.add_row(
            o.name,
            o.pays,
            f"{o.weight:,}",
            f"{o.weight / total:.8f}",
            f"{float(o.net * o.weight / total):.6f}",
        )
    out.add_section()
    out.add_row("total", "", f"{total:,}", "1.00000000", f"{float(sheet.expected):.6f}")
    return out


def _notes(sheet: WagerSheet) -> list[str]:
    return [
        *(f"note: {n}" for n in sheet.notes),
        *(f"{k}: {v}" for k, v in sheet.meter.items()),
        *(f"warning: {f}" for f in sheet.flags),
    ]


def par_sheet(sheet: ParSheet) -> None:
    """``croupier par``: the conventions, then one table per wager."""
    from croupier.analysis.par import CONVENTIONS

    console = stdout()
    console.print(f"Par sheet: {sheet.game} ({sheet.method})")
    console.print(f"Conventions: {CONVENTIONS}")
    for wager in ([sheet.base] if sheet.base else []) + list(sheet.wagers.values()):
        console.print()
        console.print(summary(wager))
        console.print(wager_table(wager))
        for line in _notes(wager):
            console.print(line)
    for note in sheet.notes:
        console.print(f"note: {note}")


def strategy_table(table: StrategyTable) -> None:
    """``croupier strategy``: one row per decision."""
    console = stdout()
    console.print(table.title)
    out = Table(box=box.SIMPLE_HEAD)
    out.add_column("decision")
    out.add_column("situation", overflow="fold", max_width=80)
    out.add_column("action", overflow="fold")
    counted = any(r.situations is not None for r in table.rows)
    if counted:
        out.add_column("situations", justify="right")
    costed = any(r.cost is not None for r in table.rows)
    if costed:
        out.add_column("cost (Ante/round)", justify="right")
    for row in table.rows:
        cells = row.cells()
        out.add_row(*cells[:3], *((cells[4],) if counted else ()), *((cells[5],) if costed else ()))
    console.print(out)
