"""The floor forecast as one self-contained HTML page (plots embedded as PNG ``data:`` URIs)."""

from __future__ import annotations

import html
from datetime import UTC, datetime
from typing import Any

from croupier.analysis.floor_forecast import Z95, FloorResult
from croupier.analysis.report import _figure, _png

__all__ = ["floor_html"]


def _money(cents: float) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) / 100:,.2f}"


def _e(value: object) -> str:
    return html.escape(str(value))


def _hold_plot(data: dict[str, Any]) -> str:
    fig = _figure(7.5, 3.2)
    ax = fig.add_subplot()
    games = list(data["games"])
    holds = [data["games"][g]["hold"] * 100 for g in games]
    theo = [data["games"][g]["theoretical_hold"] * 100 for g in games]
    errs = []
    for g in games:
        low, high = data["games"][g]["win_band_95_cents"]
        handle = data["games"][g]["handle_cents"] or 1
        errs.append((high - low) / 2 / handle * 100)
    xs = range(len(games))
    ax.bar(xs, holds, yerr=errs, capsize=4, color="#2e7d4f", label="simulated hold (95% band)")
    ax.scatter(xs, theo, color="#c0392b", zorder=3, label="theoretical hold")
    ax.set_xticks(list(xs), games, rotation=20, ha="right", fontsize=8)
    ax.set_ylabel("hold, % of handle")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_title("Hold by game")
    ax.legend(fontsize=8)
    return _png(fig)


def _meter_plot(data: dict[str, Any]) -> str | None:
    if not data["meters"]:
        return None
    fig = _figure(7.5, 3.2)
    ax = fig.add_subplot()
    for m in data["meters"]:
        ax.plot(
            range(1, len(m["hourly_cents"]) + 1),
            [c / 100 for c in m["hourly_cents"]],
            label=m["meter"],
        )
    ax.set_xlabel("hour")
    ax.set_ylabel("meter, $")
    ax.set_ylim(bottom=0)
    ax.set_title("Progressive meters, end of each hour")
    ax.legend(fontsize=8)
    return _png(fig)


def _rows(items: list[list[str]]) -> str:
    return "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in items)


_GAME_HEAD = (
    "<th>game</th><th>tables</th><th>rounds</th><th>handle</th><th>theoretical win</th>"
    "<th>simulated win</th><th>95% band</th><th>hold</th><th>theoretical hold</th>"
)
_TABLE_HEAD = (
    "<th>table</th><th>game</th><th>rounds</th><th>handle</th><th>theoretical win</th>"
    "<th>simulated win</th><th>hold</th><th>drop</th>"
)
_STYLE = (
    "<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#1b1b1b}"
    "table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #bbb;"
    "padding:.25rem .5rem;text-align:right}th{background:#e8f0ea}td:first-child"
    "{text-align:left}img{max-width:100%}</style></head><body>"
)


def _game_rows(data: dict[str, Any]) -> list[list[str]]:
    return [
        [
            _e(g),
            str(v["tables"]),
            f"{v['rounds']:,}",
            _money(v["handle_cents"]),
            _money(v["theoretical_win_cents"]),
            _money(v["win_cents"]),
            f"{_money(v['win_band_95_cents'][0])} to {_money(v['win_band_95_cents'][1])}",
            f"{v['hold']:.3%}",
            f"{v['theoretical_hold']:.3%}",
        ]
        for g, v in data["games"].items()
    ]


def _table_rows(data: dict[str, Any]) -> list[list[str]]:
    return [
        [
            _e(t["table"]),
            _e(t["game"]),
            f"{t['rounds']:,}",
            _money(t["handle_cents"]),
            _money(t["theoretical_win_cents"]),
            _money(t["win_cents"]),
            f"{t['hold']:.3%}",
            _money(t["drop_cents"]) if "drop_cents" in t else "-",
        ]
        for t in data["tables"]
    ]


def _meter_parts(data: dict[str, Any], meter_plot: str) -> list[str]:
    """The meters, their plot and the jackpots they paid."""
    jackpots = [
        [str(j["hour"] + 1), _e(j["table"]), _e(j["hand"]), _e(j["meter"]), _money(j["paid_cents"])]
        for j in data["jackpots"]
    ]
    meters = [
        [
            _e(m["meter"]),
            f"{m['progressive_wagers']:,}",
            _money(m["contributions_cents"]),
            _money(m["paid_cents"]),
            _money(m["hourly_cents"][-1]) if m["hourly_cents"] else "-",
        ]
        for m in data["meters"]
    ]
    return [
        "<h2>Progressive meters</h2><table><tr><th>meter</th><th>progressive wagers</th>"
        f"<th>contributions</th><th>paid</th><th>at the end</th></tr>{_rows(meters)}</table>",
        f"<img alt='meter paths' src='{meter_plot}'>",
        "<h3>Jackpots</h3><table><tr><th>hour</th><th>table</th><th>hand</th><th>meter</th>"
        f"<th>paid</th></tr>{_rows(jackpots)}</table>",
    ]


def floor_html(result: FloorResult) -> str:
    """The forecast as an HTML page: summary, hold by game and by table, meters, jackpots."""
    data = result.to_json()
    meter_plot = _meter_plot(data)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Floor forecast: {_e(result.floor)}</title>",
        _STYLE,
        f"<h1>Floor forecast: {_e(result.floor)}</h1>",
        f"<p>{len(result.tables)} tables, {result.hours} hours, seed {result.seed}: "
        f"{result.rounds:,} seat-rounds in {result.wall_s:.1f} s ({_e(result.where)}); "
        f"made {stamp}. The band is {Z95} standard errors each side.</p>",
        f"<h2>By game</h2><table><tr>{_GAME_HEAD}</tr>{_rows(_game_rows(data))}</table>",
        f"<img alt='hold by game' src='{_hold_plot(data)}'>",
    ]
    if meter_plot is not None:
        parts += _meter_parts(data, meter_plot)
    parts += [
        f"<h2>By table</h2><table><tr>{_TABLE_HEAD}</tr>{_rows(_table_rows(data))}</table>",
        "<h2>Notes</h2><ul>" + "".join(f"<li>{_e(n)}</li>" for n in result.notes) + "</ul>",
        "</body></html>",
    ]
    return "\n".join(parts)
