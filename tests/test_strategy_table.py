"""Strategy tables: every decision of a game as rows, on screen and as CSV or XLSX."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from pathlib import Path

from typer.testing import CliRunner

from croupier.analysis.strategy_table import strategy_table
from croupier.cli import app
from croupier.games import get_game


def test_mississippi_stud_table_has_all_169_starting_hands_and_both_street_rules() -> None:
    table = strategy_table(get_game("mississippi-stud"))
    third = [r for r in table.rows if r.decision == "3rd Street"]
    assert len(third) == 169 and {r.action for r in third} <= {"bet 3x", "bet 1x", "fold"}
    assert any(r.situation == "AA" and r.action == "bet 3x" for r in third)
    assert any(r.decision == "4th Street" for r in table.rows)
    assert any(r.decision == "5th Street" for r in table.rows)


def test_four_card_poker_table_has_every_up_card() -> None:
    table = strategy_table(get_game("four-card-poker"))
    ups = {r.decision for r in table.rows if r.decision.startswith("up ")}
    assert ups == {f"up {s}" for s in "23456789TJQKA"}
    assert {r.action for r in table.rows if r.decision == "up A"} == {"3x", "1x", "fold"}


def test_strategy_exports_csv_and_xlsx(tmp_path: Path) -> None:
    csv_path, xlsx_path = tmp_path / "s.csv", tmp_path / "s.xlsx"
    argv = ["strategy", "mississippi-stud", "--quiet", "--csv", str(csv_path)]
    result = CliRunner().invoke(app, [*argv, "--xlsx", str(xlsx_path)])
    assert result.exit_code == 0, result.stderr
    assert "{" not in result.stdout and "3rd Street" in result.stdout
    rows = list(csv.reader(io.StringIO(csv_path.read_text(encoding="utf-8"))))
    assert rows[0] == ["decision", "situation", "action", "share", "situations", "cost"]
    assert ["3rd Street", "AA", "bet 3x", "", "", ""] in rows
    # the rules' measures carry their cost: 4th Street's 107/116025 of the Ante per hand
    fourth = next(r for r in rows if r[0] == "4th Street" and r[2] == "rule vs optimum")
    assert float(fourth[5]) == 107 / 116025
    with zipfile.ZipFile(xlsx_path) as book:
        strings = book.read("xl/sharedStrings.xml").decode()
    assert "AKs" in strings and "5th Street" in strings
    assert re.search(
        r"<sheet name=\"Strategy\"", zipfile.ZipFile(xlsx_path).read("xl/workbook.xml").decode()
    )


def test_strategy_json_keeps_the_text_and_adds_the_rows() -> None:
    result = CliRunner().invoke(app, ["strategy", "three-card-poker", "--json", "--quiet"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["strategy"][0].startswith("Three Card Poker: optimal")
    assert any("Q-6-4" in r["situation"] or "Q-6-4" in r["decision"] for r in data["decisions"])


def test_655a_12_street_rules_are_one_row_a_clause_with_its_action() -> None:
    # the 4th and 5th Street rules once came out one row per printed line, cut mid-clause,
    # with the action "rule"; the measurement row's action read "check", a move of the game
    from croupier.analysis.strategy_table import MEASURE_ACTION

    table = strategy_table(get_game("mississippi-stud"))
    for street in ("4th Street", "5th Street"):
        rows = [r for r in table.rows if r.decision == street]
        assert [r.action for r in rows] == ["bet 3x", "bet 1x", "fold", MEASURE_ACTION]
        assert rows[0].situation.startswith("a pair of sixes or better")
        assert rows[2].situation == "the rest"
        assert rows[3].situations is not None and rows[3].share is not None
        assert rows[3].cost is not None
    fourth = [r for r in table.rows if r.decision == "4th Street"]
    assert fourth[0].situation.endswith("or any three to a straight flush with 5 points")
    assert fourth[3].situations == 2_239_300
