"""The command line, through Typer's runner: JSON out, bad input as one line on stderr with exit
status 2 (library errors and usage errors alike)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app, main
from croupier.core.about import version


def invoke(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, argv, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    status = main(argv, out=out)
    return status, out.getvalue()


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["par", "--bogus"], "--bogus"),
        (["par"], "needs a GAME"),
        (["strategy"], "Missing argument"),
        (["count", "--cards", "x"], "--cards"),
        (["no-such-command"], "no-such-command"),
        (["rules"], "Missing command"),
        (["play", "four-card-poker", "--json"], "--json"),
        (["demo", "--json"], "--json"),
        (["hand", "As As Kd"], "As"),
        (["par", "no-such-game"], "no-such-game"),
    ],
)
def test_usage_errors_are_one_line_on_stderr_exit_2(argv: list[str], needle: str) -> None:
    status, out, err = invoke(argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("croupier: ")
    assert needle in err


def test_version_and_help_list_games_aliases_and_rankings() -> None:
    status, out, _ = invoke(["--version"])
    assert status == 0 and out == f"croupier {version()}\n"
    status, out, _ = invoke(["--help"])
    assert status == 0
    for name in ("four-card-poker", "4cp", "ultimate-texas-holdem", "uth", "ez-baccarat"):
        assert name in out
    for ranking in ("poker5", "four-card", "three-card", "three-card-bonus"):
        assert ranking in out
    status, out, _ = invoke([])
    assert status == 2 and "Commands" in out


def test_every_command_taking_a_game_lists_the_slugs_in_its_help() -> None:
    from croupier.games import GAMES

    for command in ("par", "simulate", "strategy", "theo", "play"):
        status, out, _ = invoke([command, "--help"])
        flat = " ".join(out.split()).replace("- ", "-")
        assert status == 0 and all(slug in flat for slug in GAMES), (command, out)


def test_hand_through_the_runner_reads_stdin() -> None:
    status, out, err = invoke(["hand", "--ranking", "three-card"], stdin="As Kd 3c\nZz\n")
    assert status == 2
    assert json.loads(out.splitlines()[0])["category"] == "high_card"
    assert err == "croupier: line 2: card 'Zz' has unknown rank 'Z'; ranks are 2-9, T, J, Q, K, A\n"


def test_count_text_is_an_aligned_table_without_python_structures() -> None:
    status, out, _ = invoke(["count", "--ranking", "three-card", "--cards", "3", "--quiet"])
    assert status == 0
    rows = [line for line in out.splitlines() if "straight_flush" in line or "high_card" in line]
    assert len(rows) == 2
    assert rows[0].index("48") + 2 == rows[1].index("16,440") + 6  # right-aligned numbers
    assert "{" not in out and "total" in out


def test_progress_bars_draw_on_a_terminal_and_not_in_a_pipe() -> None:
    argv = ["simulate", "three-card-poker", "--rounds", "30", "--seed", "1", "--json"]
    result = CliRunner(env={"TTY_COMPATIBLE": "1"}).invoke(app, argv)
    assert result.exit_code == 0 and "simulating three-card-poker" in result.stderr
    assert json.loads(result.stdout)["rounds"] == 30
    quiet = CliRunner(env={"TTY_COMPATIBLE": "1"}).invoke(app, [*argv, "--quiet"])
    assert quiet.exit_code == 0 and quiet.stderr == ""
    piped = CliRunner(env={"TTY_COMPATIBLE": "0"}).invoke(app, argv)
    assert piped.exit_code == 0 and piped.stderr == ""


def test_hand_ranks_and_prints_json() -> None:
    status, text = run(["hand", "As Ks Qs Js Ts 2c 3d", "--ranking", "poker5"])
    assert status == 0
    data = json.loads(text)
    assert data["category"] == "royal_flush"
    assert sorted(data["cards"]) == sorted(["As", "Ks", "Qs", "Js", "Ts"])


def test_hand_four_card_best_four_of_six() -> None:
    status, text = run(["hand", "Ac", "Ad", "Ah", "As", "2c", "3c", "--ranking", "four-card"])
    assert status == 0
    assert json.loads(text)["category"] == "four_of_a_kind"


def test_hand_reads_one_hand_a_line_from_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("As Kd 3c\n\n2c 2d 2h\n"))
    status, text = run(["hand", "--ranking", "three-card"])
    assert status == 0
    rows = [json.loads(line) for line in text.splitlines()]
    assert [r["category"] for r in rows] == ["high_card", "three_of_a_kind"]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["hand", "As As Kd"], "As"),
        (["hand", "Zz"], "'Zz'"),
        (["hand", "As Kd Qh Jc", "--ranking", "three-card"], "4 cards"),
        (["hand", "As Kd Qh", "--ranking", "nine-card"], "nine-card"),
        (["count", "--ranking", "three-card", "--cards", "5"], "--cards 5"),
    ],
)
def test_bad_input_is_one_line_on_stderr_exit_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, text = run(argv)
    assert status == 2
    assert text == ""
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert needle in err


def test_count_three_card_json() -> None:
    status, text = run(["count", "--ranking", "three-card", "--cards", "3", "--json", "--quiet"])
    assert status == 0
    data = json.loads(text)
    assert data["total"] == 22_100
    assert data["counts"]["straight_flush"] == 48
    assert data["probabilities"]["straight_flush"]["exact"] == "12/5525"


def test_replay_prints_the_settlement(tmp_path: object) -> None:
    status, text = run(["replay", "src/croupier/scenarios/641a_11_c_3_tie_goes_to_the_player.json"])
    assert status == 0
    data = json.loads(text)
    assert data["seats"]["1"]["net"] == 1500
    assert data["dealer"]["category"] == "pair"


def test_rules_check_lists_every_problem_with_its_section(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _text = run(["rules", "check", "tests/rules/four-card-poker-bad.toml"])
    assert status == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 6
    assert any("§ 557.7(a)(4)" in line for line in err)
    assert any("§ 641a.3(b)" in line for line in err)


def test_rules_check_and_sign_accept_a_valid_submission() -> None:
    status, text = run(["rules", "check", "tests/rules/four-card-poker.toml"])
    assert status == 0 and "valid Four Card Poker" in text
    status, text = run(["rules", "sign", "tests/rules/four-card-poker.toml"])
    assert status == 0
    assert "Aces Up, pay table B (§ 641a.12(c))" in text
    assert "four aces              100% of meter" in text


def test_unreadable_files_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["replay", "no/such/file.json"])[0] == 2
    assert run(["rules", "check", "no/such/file.toml"])[0] == 2
    assert "cannot be read" in capsys.readouterr().err


def test_play_reads_answers_from_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("500\n\n4\nn\n"))
    status, text = run(["play", "four-card-poker", "--seed", "3"])
    assert status == 0
    assert "Dealer:" in text and "You leave the table with" in text


def test_simulate_kernel_path_reports_the_exact_value() -> None:
    status, text = run(
        [
            "simulate",
            "four-card-poker",
            "--kernel",
            "--rounds",
            "20000",
            "--seed",
            "3",
            "--quiet",
            "--json",
        ]
    )
    assert status == 0
    data = json.loads(text)
    assert data["rounds"] == 20_000
    assert data["exact_mean_exact"] == "-8840827253/317119576410"
    assert abs(data["mean"] - data["exact_mean"]) < 4 * data["std_error"]


def test_simulate_kernel_path_refuses_what_it_cannot_play(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "three-card-poker", "--kernel", "--rounds", "10", "--seed"]
    assert run([*argv, "1", "--paytable", "pair_plus=B"])[0] == 2
    assert "default pay tables" in capsys.readouterr().err
    assert run([*argv, "x"])[0] == 2
    assert "integer" in capsys.readouterr().err


def test_par_scheduler_is_for_the_block_solvers(capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = run(["par", "three-card-poker", "--scheduler", "tcp://127.0.0.1:1"])
    assert status == 2
    assert "block solvers" in capsys.readouterr().err


def test_baccarat_par_sheet_and_its_files_draw_progress_bars(tmp_path: Path) -> None:
    # the coup walk, the pricing of every pay table and the report's charts each take over a
    # second cold: each is a bar on a terminal (the baccarat sheet once had none)
    from croupier.analysis.baccarat.exact import coups

    coups.cache_clear()
    argv = ["par", "mini-baccarat", "--json", "--report", str(tmp_path / "m.html")]
    runner = CliRunner(env={"TTY_COMPATIBLE": "1", "COLUMNS": "200"})
    result = runner.invoke(app, [*argv, "--xlsx", str(tmp_path / "m.xlsx")])
    assert result.exit_code == 0, result.stderr
    for task in (
        "baccarat: every coup of the 8-deck shoe",
        "mini-baccarat: pricing every pay table",
        "mini-baccarat: drawing the report's charts",
    ):
        assert task in result.stderr, task
    assert "left" in result.stderr  # the time remaining
    assert json.loads(result.stdout)["game"] == "mini-baccarat"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["par", "--all", "--book", "b", "--json"], "--json"),
        (["par", "--all", "--book", "b", "--xlsx", "x.xlsx"], "--xlsx"),
        (["par", "--all", "--book", "b", "--method", "simulate"], "--method simulate"),
        (["par", "--all"], "no --book"),
        (["par", "mini-baccarat", "--rounds", "10"], "--method simulate"),
        (["par", "mini-baccarat", "--seed", "1"], "--method simulate"),
        (["par", "mini-baccarat", "--method", "simulate", "--wager", "tie"], "--wager"),
        (["simulate", "mini-baccarat", "--rounds", "9", "--seed", "1", "--kernel", "--unit", "5"],
         "--unit"),
        (["simulate", "mini-baccarat", "--rounds", "9", "--seed", "1", "--scheduler", "tcp://x"],
         "--kernel"),
    ],
)  # fmt: skip
def test_an_option_that_would_do_nothing_is_refused(argv: list[str], needle: str) -> None:
    # each was once accepted and ignored (the book took no --json, an exact sheet no seed)
    status, out, err = invoke(argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("croupier: ") and needle in err


def test_progress_bars_nest_the_book_draws_every_games_bars_under_one_display(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `par --all --book` draws one bar for the book and each game's bars inside it: a second
    # Rich live display inside the first would raise
    from croupier.cli.app import progress_bars
    from croupier.core.progress import Task

    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    monkeypatch.setenv("COLUMNS", "200")
    with progress_bars(), Task(2, "the book: games written") as book:
        for game in ("first", "second"):
            with progress_bars(), Task(3, f"{game} game: every deal") as inner:
                inner.update(3)
            book.update()
    err = capsys.readouterr().err
    assert "the book: games written" in err and "second game: every deal" in err
