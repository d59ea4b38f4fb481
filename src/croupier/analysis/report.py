"""A self-contained HTML par-sheet report: tables, the distribution of each wager's net result,
and the return of every pay table a wager may use, side by side.

The plots are drawn by matplotlib on its ``Agg`` canvas (no display, no global pyplot state) and
embedded as base64 PNG ``data:`` URIs, so the one HTML file needs nothing beside it.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from croupier.analysis import par_sheet
from croupier.analysis.in_force import rules_in_force
from croupier.analysis.par import CONVENTIONS, ParSheet, WagerSheet, exact
from croupier.core.errors import CroupierError, InvalidInput
from croupier.core.progress import Task
from croupier.core.reading import save_file

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from croupier.games import Game

__all__ = [
    "PaytableReturn",
    "paytable_figure",
    "paytable_returns",
    "render_report",
    "write_report",
]

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; }
th { background: #f0f0f0; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.current td { font-weight: bold; background: #fff6d5; }
.small { color: #555; font-size: 0.88em; } img { max-width: 100%; }
.flag { color: #a11; }
pre { background: #f7f7f7; padding: 0.6em; overflow-x: auto; }
"""


@dataclass(frozen=True, kw_only=True)
class PaytableReturn:
    """One pay table of one wager: its exact sheet, or why it could not be priced."""

    wager: str
    letter: str
    current: bool
    sheet: WagerSheet | None
    problem: str = ""
    priced: str = ""
    """What the sheet prices: the wager itself, or ``base`` (a table of the required wagers)."""


# --------------------------------------------------------------------------------------------
# Pay-table variants


def _raw_rules(game: Game) -> dict[str, Any]:
    raw = dict(game.rules.raw)
    return raw if raw else {"game": game.slug}


def _current_letter(game: Game, wager: str) -> str | None:
    if wager == "progressive":
        prog = game.rules.progressive
        return prog.paytable if prog is not None else None
    table = game.paytable(wager)
    return table.letter if table is not None else None


def _variant(game: Game, wager: str, letter: str) -> Game:
    """The game under the same rules with ``letter`` for ``wager`` (and for the wagers whose
    table goes with it, such as the two Dragon Bonus wagers, where the rules tie them)."""
    raw = _raw_rules(game)
    if wager == "progressive":
        raw["progressive"] = {**dict(raw.get("progressive", {})), "paytable": letter}
        return type(game)(raw)

    def build(tables: dict[str, str]) -> Game | None:
        variant = type(game)({**raw, "paytables": tables})
        return variant if _current_letter(variant, wager) == letter else None

    tables = {**dict(raw.get("paytables", {})), wager: letter}
    try:
        alone = build(tables)
    except CroupierError:
        alone = None
    if alone is not None:
        return alone
    current = _current_letter(game, wager)
    for other, letters in game.paytables.items():
        if letter in letters and _current_letter(game, other) == current:
            tables[other] = letter
    tied = build(tables)
    if tied is None:
        raise InvalidInput(f"the rules do not let {wager} use pay table {letter}")
    return tied


def _in_base(game: Game, wager: str) -> bool:
    """Whether ``wager``'s pay table prices the base (a required wager, or a table such as the
    Ante Bonus that is no wager of its own)."""
    return wager in game.required_wagers or wager not in game.wagers


def _letters(game: Game, sheet: ParSheet) -> dict[str, tuple[str, ...]]:
    """Wagers whose pay table is chosen by letter and priced by ``sheet``, with the letters."""
    found: dict[str, tuple[str, ...]] = {}
    for wager, tables in game.paytables.items():
        covered = wager in sheet.wagers or (sheet.base is not None and _in_base(game, wager))
        if covered and len(tables) > 1:
            found[wager] = tuple(tables)
    if "progressive" in sheet.wagers and len(game.progressive_paytables) > 1:
        found["progressive"] = tuple(game.progressive_paytables)
    return found


def paytable_returns(game: Game, sheet: ParSheet) -> dict[str, list[PaytableReturn]]:
    """For every wager of ``sheet`` with a choice of pay tables, the exact sheet under each
    letter (computed by ``par_sheet`` for ``type(game)`` with the rules changed to that letter;
    a letter the rest of the rules do not allow is reported with its problem).  Each letter
    priced is reported as progress (:mod:`croupier.core.progress`)."""
    out: dict[str, list[PaytableReturn]] = {}
    choices = _letters(game, sheet)
    task = Task(
        sum(len(letters) for letters in choices.values()),
        f"{game.slug}: pricing every pay table",
    )
    for wager, letters in choices.items():
        current = _current_letter(game, wager)
        rows: list[PaytableReturn] = []
        for letter in letters:
            task.update()
            priced = "base" if wager not in sheet.wagers else wager
            try:
                variant = par_sheet(_variant(game, wager, letter), wagers=(priced,))
            except CroupierError as exc:
                rows.append(
                    PaytableReturn(
                        wager=wager,
                        letter=letter,
                        current=letter == current,
                        sheet=None,
                        problem=str(exc),
                        priced=priced,
                    )
                )
                continue
            found = variant.base if priced == "base" else variant.wagers.get(wager)
            rows.append(
                PaytableReturn(
                    wager=wager,
                    letter=letter,
                    current=letter == current,
                    sheet=found,
                    problem="" if found is not None else "not in the par sheet",
                    priced=priced,
                )
            )
        out[wager] = rows
    task.close()
    return out


# --------------------------------------------------------------------------------------------
# Plots


def _png(fig: Figure) -> str:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight", pad_inches=0.15)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return f"data:image/png;base64,{data}"


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _title_lines(text: str, width_in: float) -> str:
    """A plot title wrapped to the figure's width, so no part of it is cut off."""
    import textwrap

    return textwrap.fill(text, width=max(30, int(width_in * 11)))


def _tick_label(letter: str, width: int = 12) -> str:
    """A pay-table letter as a tick label: whole (two tables never share a label), a long
    name such as ``jackpot-500-100-90`` broken after its hyphens onto lines of ``width``."""
    lines = [""]
    for part in letter.split("-"):
        piece = part if not lines[-1] else "-" + part
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines[-1] += "-"
            lines.append(part)
        else:
            lines[-1] += piece
    return "\n".join(lines)


def _net_label(net: Fraction) -> str:
    if net == 0:
        return "0"
    if net.denominator == 1:
        return f"{int(net):+d}"
    return f"{float(net):+.4g}"


def distribution(sheet: WagerSheet) -> list[tuple[Fraction, Fraction]]:
    """The probability of each net result per unit, lowest net first."""
    total = sheet.total
    mass: dict[Fraction, int] = {}
    for o in sheet.outcomes:
        mass[o.net] = mass.get(o.net, 0) + o.weight
    return [(net, Fraction(w, total)) for net, w in sorted(mass.items())]


def _distribution_plot(name: str, sheet: WagerSheet) -> str:
    rows = distribution(sheet)
    width = max(5.0, min(12.0, 1.0 + 0.45 * len(rows)))
    fig = _figure(width, 3.4)
    ax = fig.add_subplot()
    xs = list(range(len(rows)))
    probs = [float(p) for _, p in rows]
    colours = ["#2b8a3e" if net > 0 else "#868e96" if net == 0 else "#c92a2a" for net, _ in rows]
    ax.bar(xs, probs, color=colours)
    ax.set_yscale("log")
    ax.set_ylim(bottom=min(probs) / 3, top=1.5)
    ax.set_xticks(xs, [_net_label(net) for net, _ in rows], rotation=45, ha="right")
    ax.set_xlabel("net result per unit wagered")
    ax.set_ylabel("probability (log scale)")
    ax.set_title(_title_lines(f"{name}: distribution of the net result of a round", width))
    return _png(fig)


def _paytable_plot(wager: str, rows: Sequence[PaytableReturn]) -> str | None:
    fig = paytable_figure(wager, rows)
    return _png(fig) if fig is not None else None


def paytable_figure(wager: str, rows: Sequence[PaytableReturn]) -> Figure | None:
    """The bar chart of the return to player of each pay table of ``wager`` (None: none
    priced); the axis starts at zero."""
    priced = [r for r in rows if r.sheet is not None]
    if not priced:
        return None
    width = max(5.0, min(12.0, 1.5 + 0.6 * len(priced)))
    fig = _figure(width, 3.4)
    ax = fig.add_subplot()
    xs = list(range(len(priced)))
    returns = [100 * float(1 + r.sheet.expected) for r in priced if r.sheet is not None]
    colours = ["#e67700" if r.current else "#1971c2" for r in priced]
    bars = ax.bar(xs, returns, color=colours)
    ax.bar_label(bars, labels=[f"{v:.2f}%" for v in returns], fontsize=8)
    # bars start from zero: their heights compare the returns honestly (the labels give the
    # differences exactly)
    ax.set_ylim(0.0, max(100.0, *returns) * 1.12)
    labels = [_tick_label(r.letter) for r in priced]
    rotated = len(priced) > 6
    ax.set_xticks(xs, labels, rotation=30 if rotated else 0, ha="right" if rotated else "center")
    ax.set_ylabel("return to player, %")
    ax.set_xlabel("pay table (the table in use highlighted)")
    ax.set_title(_title_lines(f"{wager}: return to player of each pay table", width))
    return fig


# --------------------------------------------------------------------------------------------
# HTML


def _e(value: object) -> str:
    return html.escape(str(value))


def _pct(value: Fraction) -> str:
    return f"{float(value):.4%}"


def _title(name: str, sheet: WagerSheet) -> str:
    table = f" (pay table {sheet.paytable})" if sheet.paytable else ""
    return f"{name}{table}"


def _summary(sheet: ParSheet) -> list[str]:
    rows = [
        "<table><caption>Every wager at a glance</caption>"
        "<tr><th>wager</th><th>pay table</th><th>house edge</th><th>exact</th>"
        "<th>element of risk</th><th>hit frequency</th><th>std dev</th><th>method</th></tr>"
    ]
    named: list[tuple[str, WagerSheet]] = [("base", sheet.base)] if sheet.base else []
    named += list(sheet.wagers.items())
    for name, ws in named:
        rows.append(
            f"<tr><td>{_e(name)}</td><td>{_e(ws.paytable or '-')}</td>"
            f'<td class="num">{_pct(ws.house_edge)}</td>'
            f'<td class="num small">{_e(exact(ws.house_edge))}</td>'
            f'<td class="num">{_pct(ws.element_of_risk)}</td>'
            f'<td class="num">{_pct(ws.hit_frequency)}</td>'
            f'<td class="num">{ws.std_dev:.4f}</td><td>{_e(ws.method)}</td></tr>'
        )
    rows.append("</table>")
    return rows


def _wager_section(name: str, ws: WagerSheet, task: Task) -> list[str]:
    parts = [
        f'<h3 id="wager-{_e(name)}">{_e(_title(name, ws))}</h3>',
        f"<p>House edge <b>{_pct(ws.house_edge)}</b> ({_e(exact(ws.house_edge))}); element of "
        f"risk {_pct(ws.element_of_risk)}; average wager {float(ws.average_wager):.4f} units; "
        f"hit frequency {_pct(ws.hit_frequency)}; standard deviation {ws.std_dev:.4f}; "
        f"{ws.total:,} equally likely {_e(ws.method)} combinations.</p>",
        f"<table><caption>{_e(name)}: every outcome</caption>"
        "<tr><th>outcome</th><th>pays</th><th>net</th><th>combinations</th>"
        "<th>probability</th><th>return</th></tr>",
    ]
    total = ws.total
    for o in ws.outcomes:
        parts.append(
            f"<tr><td>{_e(o.name)}</td><td>{_e(o.pays)}</td>"
            f'<td class="num">{_e(_net_label(o.net))}</td><td class="num">{o.weight:,}</td>'
            f'<td class="num">{o.weight / total:.8f}</td>'
            f'<td class="num">{float(o.net * o.weight / total):.6f}</td></tr>'
        )
    parts.append("</table>")
    for key, value in ws.meter.items():
        parts.append(f'<p class="small">{_e(key)}: {_e(value)}</p>')
    parts += [f'<p class="small">note: {_e(n)}</p>' for n in ws.notes]
    parts += [f'<p class="flag"><b>warning:</b> {_e(f)}</p>' for f in ws.flags]
    plot = _distribution_plot(name, ws)
    task.update()
    parts.append(f'<img alt="{_e(name)}: distribution of the net result" src="{plot}">')
    return parts


def _pay_lines(game: Game, wager: str, letter: str) -> str:
    tables = game.progressive_paytables if wager == "progressive" else game.paytables.get(wager, {})
    table = tables.get(letter)
    if table is None:
        return ""
    return "; ".join(f"{line.hand.replace('_', ' ')} {line.describe()}" for line in table.lines)


def _paytable_section(
    game: Game, returns: Mapping[str, Sequence[PaytableReturn]], task: Task
) -> list[str]:
    if not returns:
        return []
    parts = [
        "<h2>Pay tables side by side</h2>",
        "<p>Each letter priced by the exact analysis with the rest of the Rules Submission "
        "unchanged; the table in use is highlighted.  Return to player = 1 - house edge (per "
        "unit of the initial wager).</p>",
    ]
    for wager, rows in returns.items():
        what = " (its effect on the base: the required wagers)" if rows[0].priced == "base" else ""
        parts += [
            f'<h3 id="paytables-{_e(wager)}">{_e(wager)}: every pay table side by side{what}</h3>',
            f"<table><caption>{_e(wager)}: the price of each pay table, with its pay lines"
            "</caption><tr><th>pay table</th><th>house edge</th><th>exact</th>"
            "<th>return to player</th>"
            "<th>hit frequency</th><th>std dev</th><th>pay lines</th></tr>",
        ]
        for r in rows:
            mark = ' class="current"' if r.current else ""
            if r.sheet is None:
                parts.append(
                    f"<tr{mark}><td>{_e(r.letter)}</td>"
                    f'<td colspan="5" class="small">{_e(r.problem)}</td>'
                    f'<td class="small">{_e(_pay_lines(game, wager, r.letter))}</td></tr>'
                )
                continue
            s = r.sheet
            parts.append(
                f'<tr{mark}><td>{_e(r.letter)}</td><td class="num">{_pct(s.house_edge)}</td>'
                f'<td class="num small">{_e(exact(s.house_edge))}</td>'
                f'<td class="num">{_pct(1 + s.expected)}</td>'
                f'<td class="num">{_pct(s.hit_frequency)}</td>'
                f'<td class="num">{s.std_dev:.4f}</td>'
                f'<td class="small">{_e(_pay_lines(game, wager, r.letter))}</td></tr>'
            )
        parts.append("</table>")
        plot = _paytable_plot(wager, rows)
        task.update()
        if plot is not None:
            parts.append(f'<img alt="{_e(wager)}: return of each pay table" src="{plot}">')
    return parts


def render_report(
    game: Game,
    sheet: ParSheet | None = None,
    *,
    returns: Mapping[str, Sequence[PaytableReturn]] | None = None,
    today: dt.date | None = None,
) -> str:
    """The HTML report of ``game`` (its exact par sheet, computed unless given; ``returns``:
    its :func:`paytable_returns`, computed unless given), dated ``today`` (default: today,
    UTC).  Each chart drawn is reported as progress."""
    from croupier.core.about import version

    if sheet is None:
        sheet = par_sheet(game)
    if returns is None:
        returns = paytable_returns(game, sheet)
    date = today or dt.datetime.now(dt.UTC).date()
    wagers = [*([("base", sheet.base)] if sheet.base is not None else []), *sheet.wagers.items()]
    task = Task(len(wagers) + len(returns), f"{game.slug}: drawing the report's charts")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Par sheet: {_e(game.title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>Par sheet: {_e(game.title)}</h1>",
        f'<p class="small">{_e(game.chapter)}; game <code>{_e(sheet.game)}</code>; method '
        f"{_e(sheet.method)}; croupier {_e(version())}; {date.isoformat()}.</p>",
        f'<p class="small">Conventions: {_e(CONVENTIONS)}</p>',
        "<h2>Summary</h2>",
        *_summary(sheet),
        "<h2>Wagers</h2>",
    ]
    for name, ws in wagers:
        parts += _wager_section(name, ws, task)
    parts += _paytable_section(game, returns, task)
    task.close()
    parts += [
        "<h2>Rules Submission in force</h2>",
        '<p class="small">In full: what the submission says and every default it leaves to '
        "the regulation (pay tables, table and progressive settings).</p>",
        f"<pre>{_e(_rules_json(game, sheet))}</pre>",
    ]
    parts += [f'<p class="small">note: {_e(n)}</p>' for n in sheet.notes]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _rules_json(game: Game, sheet: ParSheet) -> str:
    return json.dumps(rules_in_force(game), indent=2, default=str)


def write_report(
    game: Game,
    path: str | Path,
    *,
    sheet: ParSheet | None = None,
    wagers: Sequence[str] = (),
    returns: Mapping[str, Sequence[PaytableReturn]] | None = None,
) -> Path:
    """Write the self-contained HTML report of ``game`` to ``path``; ``sheet`` is its par sheet
    if already computed (else computed, limited to ``wagers`` when given), ``returns`` its
    :func:`paytable_returns` if already computed."""
    if sheet is None:
        sheet = par_sheet(game, wagers=wagers)
    return save_file(path, render_report(game, sheet, returns=returns).encode("utf-8"))
