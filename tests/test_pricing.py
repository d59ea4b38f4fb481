"""Every wager of every game priced the same way; the theoretical win."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from croupier.analysis import par_sheet
from croupier.analysis.pricing import every_wager, theoretical_win
from croupier.analysis.registry import analysis_for
from croupier.cli import app
from croupier.games import GAMES, get_game


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_wager_of_every_game_is_priced_or_said_why_not(slug: str) -> None:
    game, notes = every_wager(get_game(slug))
    for wager in GAMES[slug].wagers:
        assert wager in game.offered_wagers() or any(n.startswith(f"{wager}:") for n in notes)


def test_643a_7_let_it_ride_side_wagers_priced_without_a_rules_submission() -> None:
    # § 643a.7(e)-(j): the optional wagers exist only "if specified in its Rules Submission";
    # without one, par names the table it assumed and how to choose another
    result = CliRunner().invoke(
        app, ["par", "let-it-ride", "--wager", "three_card_bonus", "--json", "--quiet"]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    bonus = data["wagers"]["three_card_bonus"]
    assert bonus["paytable"] == "A"
    assert sum(o["combinations"] for o in bonus["outcomes"]) == 22_100
    assert any("--paytable three_card_bonus=LETTER" in n for n in data["notes"])


def test_a_rules_submission_prices_only_what_it_offers() -> None:
    result = CliRunner().invoke(
        app,
        ["par", "four-card-poker", "--rules", "tests/rules/four-card-poker.toml", "--json"],
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["wagers"]["aces_up"]["paytable"] == "B"


def test_theo_is_rounds_times_bet_times_house_edge() -> None:
    game = get_game("three-card-poker")
    sheet = par_sheet(game, wagers=("base",))
    assert sheet.base is not None
    theo = theoretical_win(game, sheet.base, average_bet=2500, hours=Fraction(3, 2))
    pace = analysis_for(game).pace.rounds
    assert pace == 60  # the Three Card Poker entry's default pace (its source is in the entry)
    assert theo.theo == Fraction(3, 2) * pace * 2500 * sheet.base.house_edge
    result = CliRunner().invoke(
        app,
        ["theo", "3cp", "--average-bet", "2500", "--hours", "1.5", "--rounds-per-hour", "50"],
    )
    assert result.exit_code == 0
    assert "75 rounds" in result.stdout
    expected = round(75 * 2500 * sheet.base.house_edge)
    assert f"${expected // 100}.{expected % 100:02d}" in result.stdout


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--average-bet", "0", "--hours", "1"], "--average-bet 0"),
        (["--average-bet", "100", "--hours", "x"], "--hours 'x'"),
        (["--average-bet", "100", "--hours", "1", "--wager", "nope"], "--wager nope"),
        # a span or a pace no table plays (a float of it would overflow)
        (["--average-bet", "500", "--hours", "1e400"], "--hours 1e400 is over 87,840"),
        (["--average-bet", "500", "--hours", "87841"], "--hours 87841 is over 87,840"),
        (["--average-bet", "500", "--hours", "1e-99999"], "at most 12 places"),
        (["--average-bet", "500", "--hours", "1" * 50], "is not a number of hours"),
        (
            ["--average-bet", "500", "--hours", "2", "--rounds-per-hour", "1" + "0" * 400],
            "at most 3,600",
        ),
        (["--average-bet", "500", "--hours", "2", "--rounds-per-hour", "3601"], "at most 3,600"),
    ],
)
def test_theo_bad_input_is_one_line(argv: list[str], needle: str) -> None:
    result = CliRunner().invoke(app, ["theo", "mini-baccarat", *argv])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and needle in result.stderr


def test_par_of_one_wager_keeps_only_its_own_notes() -> None:
    argv = ["par", "let-it-ride", "--wager", "three_card_bonus", "--json", "--quiet"]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0, result.stderr
    notes = json.loads(result.stdout)["notes"]
    assert any(n.startswith("three_card_bonus: ") and "--paytable" in n for n in notes)
    assert not any(n.startswith(("five_card_bonus:", "six_card_bonus:")) for n in notes)
