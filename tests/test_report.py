"""The HTML par-sheet report: one self-contained file with tables and inline plots."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from croupier.analysis import par_sheet
from croupier.analysis.report import paytable_returns, render_report, write_report
from croupier.cli import main
from croupier.games import Game, get_game

RULES = "tests/rules/four-card-poker.toml"


@pytest.fixture(scope="module")
def game() -> Game:
    return get_game(
        {
            "game": "four-card-poker",
            "paytables": {"aces_up": "B"},
            "progressive": {
                "paytable": "A",
                "envy": "A",
                "wager": 100,
                "reset": 500_000,
                "rate": "0.25",
                "meter": "four-card-poker",
            },
        }
    )


@pytest.fixture(scope="module")
def report(game: Game, tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("report") / "four-card-poker.html"
    written = write_report(game, path)
    assert written == path and path.is_file()
    return path.read_text(encoding="utf-8")


def test_the_report_is_self_contained(report: str) -> None:
    assert report.startswith("<!DOCTYPE html>") and report.rstrip().endswith("</html>")
    assert "data:image/png;base64," in report
    sources = re.findall(r'(?:src|href)="([^"]*)"', report)
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    assert "<script" not in report and "<link" not in report


def test_the_report_names_each_wager_and_its_house_edge(game: Game, report: str) -> None:
    sheet = par_sheet(game)
    assert sheet.wagers
    for name, ws in sheet.wagers.items():
        assert name in report
        assert f"{float(ws.house_edge):.4%}" in report
        assert f"{ws.house_edge.numerator}/{ws.house_edge.denominator}" in report
    # one distribution plot per wager, one pay-table plot per wager with letters
    plots = report.count("data:image/png;base64,")
    assert plots == len(sheet.wagers) + (sheet.base is not None) + 2  # aces_up, progressive


def test_every_aces_up_table_is_priced_side_by_side(game: Game, report: str) -> None:
    returns = paytable_returns(game, par_sheet(game))
    rows = returns["aces_up"]
    assert [r.letter for r in rows] == ["A", "B", "C", "D", "E", "F"]
    assert [r.current for r in rows] == [False, True, False, False, False, False]
    for r in rows:
        assert r.sheet is not None and r.priced == "aces_up"
        assert f"{float(r.sheet.house_edge):.4%}" in report
    # table A of § 641a.12(c) (trips 9, flush 6, straight 4, two pair 2) returns more than B
    edges = {r.letter: r.sheet.house_edge for r in rows if r.sheet is not None}
    assert edges["A"] < edges["B"]
    assert {r.letter for r in returns["progressive"]} == {"A", "B"}


def test_a_letter_the_rules_forbid_is_reported_not_priced() -> None:
    # pay table B's reset of $1,000 is below table A's minimum of $5,000 (§ 641a.12(d)(3))
    game = get_game(
        {
            "game": "four-card-poker",
            "progressive": {
                "paytable": "B",
                "envy": "B",
                "wager": 100,
                "reset": 100_000,
                "rate": "0.25",
            },
        }
    )
    rows = paytable_returns(game, par_sheet(game, wagers=("progressive",)))["progressive"]
    by_letter = {r.letter: r for r in rows}
    assert by_letter["A"].sheet is None and "reset" in by_letter["A"].problem
    assert by_letter["B"].sheet is not None and by_letter["B"].current
    html = render_report(game, par_sheet(game, wagers=("progressive",)))
    assert "below" in html and 'id="wager-aces_up"' not in html


def test_cli_par_writes_the_report(tmp_path: Path) -> None:
    target = tmp_path / "par.html"
    out = io.StringIO()
    argv = ["par", "four-card-poker", "--rules", RULES, "--wager", "aces_up", "--json"]
    status = main([*argv, "--report", str(target)], out=out)
    assert status == 0
    assert set(json.loads(out.getvalue())["wagers"]) == {"aces_up"}
    html = target.read_text(encoding="utf-8")
    assert "data:image/png;base64," in html and "aces_up" in html


def test_tables_the_rules_tie_together_are_priced_together() -> None:
    # baccarat: both Dragon Bonus wagers are paid by one pay table (§ 631b.9(f))
    game = get_game(
        {
            "game": "mini-baccarat",
            "paytables": {"dragon_bonus_banker": "A", "dragon_bonus_player": "A"},
        }
    )
    sheet = par_sheet(game, wagers=("dragon_bonus_banker", "dragon_bonus_player"))
    returns = paytable_returns(game, sheet)
    for wager in ("dragon_bonus_banker", "dragon_bonus_player"):
        rows = returns[wager]
        assert len(rows) > 1 and all(r.sheet is not None for r in rows), rows
        assert [r.letter for r in rows if r.current] == ["A"]
        edges = {r.sheet.house_edge for r in rows if r.sheet is not None}
        assert len(edges) == len(rows)  # each letter really priced under its own table


def test_every_letter_is_listed_with_its_pay_lines(game: Game, report: str) -> None:
    for letter, table in game.paytables["aces_up"].items():
        lines = "; ".join(f"{ln.hand.replace('_', ' ')} {ln.describe()}" for ln in table.lines)
        assert lines in report, letter
    assert "aces_up: every pay table side by side" in report


def test_tables_have_distinct_labels(report: str) -> None:
    captions = re.findall(r"<caption>(.*?)</caption>", report)
    assert len(captions) == len(set(captions)) >= 3
    headings = re.findall(r"<h3[^>]*>(.*?)</h3>", report)
    assert len(headings) == len(set(headings))


def test_the_rules_in_force_are_shown_in_full(report: str) -> None:
    # the default tables the submission leaves out are spelled out: the Ante Bonus of
    # § 641a.12(b) has one table, and the table settings are the regulation's defaults
    assert "Rules Submission in force" in report
    assert "&quot;aces_up&quot;: &quot;B&quot;" in report
    assert "&quot;adjacent_boxes&quot;" in report and "&quot;decks&quot;" in report


def test_return_axis_starts_at_zero_and_titles_fit(game: Game) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from croupier.analysis.report import paytable_figure

    rows = paytable_returns(game, par_sheet(game, wagers=("aces_up",)))["aces_up"]
    fig = paytable_figure("aces_up", rows)
    assert fig is not None
    ax = fig.axes[0]
    assert ax.get_ylim()[0] == 0
    FigureCanvasAgg(fig)
    fig.draw_without_rendering()
    title = ax.title.get_window_extent()
    box = fig.bbox
    assert box.x0 <= title.x0 and title.x1 <= box.x1 and title.y1 <= box.y1


def test_long_pay_table_names_keep_distinct_whole_tick_labels() -> None:
    # Three Card Poker's progressive tables jackpot-500-100-50 and jackpot-500-100-90 once
    # both showed as "jackpot-500~"
    from croupier.analysis.pricing import every_wager
    from croupier.analysis.report import paytable_figure

    tcp, _ = every_wager(get_game("three-card-poker"))
    rows = paytable_returns(tcp, par_sheet(tcp, wagers=("progressive",)))["progressive"]
    fig = paytable_figure("progressive", rows)
    assert fig is not None
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert [t.replace("\n", "") for t in ticks] == [r.letter for r in rows]
    assert {"jackpot-500-100-50", "jackpot-500-100-90"} <= {r.letter for r in rows}
    assert all(len(line) <= 12 for t in ticks for line in t.split("\n"))
