"""Par sheets as files labs read: XLSX and PDF with the summary, the outcome tables, every
pay-table letter with its pay lines and price, the strategy, the rules in force, date and
version."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pypdf
import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.core.about import version

# Three Card Poker, default tables: Ante/Play 686689/20358520 (3.3730%), Pair Plus A 253/5525
# (§ 649a.12(d)); Pair Plus D (40-30-6-4-1) 128/5525 = 2.3167%.
# Source: derived by enumeration in the exact Three Card Poker analysis (over the hand counts of
# tests/data/counts-three-card-3.txt); Wizard of Odds, "Three Card Poker", publishes the Ante/Play
# 3.37% and the 40-30-6-4-1 Pair Plus 2.32%.
FACTS = (
    "686689/20358520",
    "253/5525",
    "128/5525",
    "straight flush 40 to 1; three of a kind 30 to 1; straight 6 to 1; flush 4 to 1",
    "§ 649a.12(d)",
    "Play Q-6-4 or better".lower(),
)


def _xlsx(path: Path) -> tuple[list[str], str]:
    """The sheet names and the text of every cell (shared strings) of an .xlsx file."""
    with zipfile.ZipFile(path) as book:
        sheets = re.findall(r'<sheet name="([^"]+)"', book.read("xl/workbook.xml").decode())
        strings = book.read("xl/sharedStrings.xml").decode()
    text = re.sub(r"<[^>]+>", "\n", strings)
    text = text.replace("&amp;", "&").replace("&apos;", "'").replace("&quot;", '"')
    return sheets, text.lower()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("book")
    xlsx, pdf = folder / "3cp.xlsx", folder / "3cp.pdf"
    argv = ["par", "three-card-poker", "--wager", "base", "--wager", "pair_plus", "--quiet"]
    result = CliRunner().invoke(app, [*argv, "--xlsx", str(xlsx), "--pdf", str(pdf)])
    assert result.exit_code == 0, result.stderr
    assert f"croupier: wrote {xlsx}" in result.stderr
    return xlsx, pdf


def test_xlsx_holds_summary_outcomes_every_letter_strategy_rules(files: tuple[Path, Path]) -> None:
    sheets, text = _xlsx(files[0])
    assert sheets == ["Summary", "W base", "W pair_plus", "Pay tables", "Strategy", "Rules"]
    for fact in FACTS:
        assert fact.lower() in text, fact
    assert f"croupier {version()}" in text
    assert re.search(r"\d{4}-\d\d-\d\d", text)
    assert '"pair_plus": "a"' in text  # the rules in force, the default resolved


def test_pdf_holds_the_same_facts(files: tuple[Path, Path]) -> None:
    reader = pypdf.PdfReader(files[1])
    assert len(reader.pages) >= 5  # summary, base, pair plus, pay tables, strategy + rules
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages).lower()
    for fact in FACTS:
        assert fact.lower() in text, fact
    assert f"croupier {version()}" in text


def test_unwritable_file_is_one_line_exit_2(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "dir" / "x.xlsx"
    argv = ["par", "mini-baccarat", "--wager", "tie", "--quiet", "--xlsx", str(target)]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "cannot be written" in result.stderr


def test_all_needs_a_book_folder() -> None:
    result = CliRunner().invoke(app, ["par", "--all"])
    assert result.exit_code == 2 and "--book DIR" in result.stderr


def test_643a_7_wagers_with_one_custom_or_progressive_table_list_their_pay_lines() -> None:
    # Let It Ride's Five Card Hand Bonus and Three Card Progressive (custom tables of the
    # submission: no published table, so the test file's) and its Five Card Progressive once
    # had no row on the pay-tables page
    from croupier.analysis import par_sheet
    from croupier.analysis.book import build_book
    from croupier.games import get_game
    from croupier.rules.submission import load_rules

    lir = get_game(load_rules("tests/rules/let-it-ride.toml"))
    wagers = ("three_card_progressive", "five_card_hand_bonus", "five_card_progressive")
    book = build_book(lir, par_sheet(lir, wagers=wagers))
    listed = {lp.wager: lp for lp in book.letters}
    for wager in wagers:
        assert listed[wager].current and listed[wager].sheet is not None, wager
    assert "royal flush 500 to 1" in listed["five_card_hand_bonus"].pay_lines
    assert listed["five_card_progressive"].pay_lines.startswith("royal flush 100% of meter")
    assert listed["three_card_progressive"].pay_lines.startswith("mini royal 100% of meter")
