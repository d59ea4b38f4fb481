"""No crash on any input (issue 13): every malformed file or argument to ``replay``, ``rules
check``, ``par --rules``, ``hand`` and ``count`` is exit status 2 and one line on stderr that
quotes at most about 80 characters of what it read.

A test per class: not UTF-8, nested thousands deep, integers of thousands of digits, NaN and
Infinity, floats or booleans where cents are required, non-ASCII digits in seat keys and
decisions, decimal exponents (``1e-30000000``, ``1e-22``), files over the size cap, a million
cards or meters.  The timeout marks only guard against a hang (the figures are in the report).
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from croupier.cli import main
from croupier.table.scenario import LIBRARY

SCENARIOS = LIBRARY
BACCARAT = json.loads((SCENARIOS / "627a_10_banker_6_draws_on_player_third_7.json").read_text())
FOUR = json.loads((SCENARIOS / "641a_11_c_3_tie_goes_to_the_player.json").read_text())

pytestmark = pytest.mark.timeout(30)


def one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str], needle: str) -> str:
    out = io.StringIO()
    status = main(argv, out=out)
    err = capsys.readouterr().err
    assert status == 2, err
    assert out.getvalue() == ""
    assert err.count("\n") == 1 and err.startswith("croupier: "), err
    assert len(err) < 400, err
    assert needle in err, err
    return err


def no_long_quote(err: str, text: str) -> None:
    """No run of more than ~80 characters of the input appears in the message."""
    for start in range(0, len(text) - 90, 45):
        assert text[start : start + 90] not in err


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def scenario(tmp_path: Path, data: dict[str, Any], name: str = "s.json") -> str:
    return write(tmp_path, name, json.dumps(data, ensure_ascii=False))


# --- files that are not UTF-8 ---------------------------------------------------------------


@pytest.mark.parametrize(
    "command", [["rules", "check"], ["replay"], ["par", "mini-baccarat", "--rules"]]
)
def test_file_not_utf8_refused(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "bad.json", b'{"game": "mini-baccarat", "x": "\xff\xfe"}')
    one_line_exit_2([*command, path], capsys, "is not UTF-8 text")


# --- nesting thousands deep -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("deep.json", '{"game": "mini-baccarat", "a": ' + "[" * 50_000 + "]" * 50_000 + "}"),
        ("deep.toml", 'game = "mini-baccarat"\na = ' + "[" * 50_000 + "]" * 50_000 + "\n"),
        ("tables.toml", 'game = "mini-baccarat"\na = ' + "{b = " * 3000 + "1" + "}" * 3000),
        ("mid.json", '{"game": "mini-baccarat", "a": ' + "[" * 500 + "]" * 500 + "}"),
    ],
)
def test_nested_thousands_deep_refused(
    name: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, name, text)
    one_line_exit_2(["rules", "check", path], capsys, "nested deeper than 16 levels")
    if name.endswith(".json"):
        one_line_exit_2(["replay", path], capsys, "nested deeper than 16 levels")


# --- integers of thousands of digits ------------------------------------------------------


@pytest.mark.parametrize("digits", [4000, 5000, 20])
def test_integers_of_thousands_of_digits_refused(
    digits: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    number = "9" * digits
    path = write(tmp_path, "r.toml", f'game = "mini-baccarat"\npayout_limit = {number}\n')
    err = one_line_exit_2(["rules", "check", path], capsys, "payout_limit" if digits < 4300 else "")
    no_long_quote(err, number)
    data = dict(BACCARAT, seats={"1": {"wagers": {"banker": 10**18}}})
    one_line_exit_2(["replay", scenario(tmp_path, data)], capsys, "larger than")


# --- NaN and Infinity -------------------------------------------------------------------------


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_json_nan_and_infinity_refused(
    constant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(BACCARAT).replace('"banker": 1000', f'"banker": {constant}')
    one_line_exit_2(["replay", write(tmp_path, "s.json", text)], capsys, "not a number")
    rules = f'{{"game": "mini-baccarat", "vig": {{"rate": {constant}}}}}'
    one_line_exit_2(["rules", "check", write(tmp_path, "r.json", rules)], capsys, "not a number")


@pytest.mark.parametrize("constant", ["nan", "inf", "-inf", "+nan"])
def test_toml_nan_and_inf_refused(
    constant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "r.toml", f'game = "mini-baccarat"\n[vig]\nrate = {constant}\n')
    one_line_exit_2(["rules", "check", path], capsys, "not a finite number")


# --- floats or booleans where cents are required ---------------------------------------------


@pytest.mark.parametrize("amount", ["1000.0", "true", "1e3", '"1000"', "-5", "0"])
def test_floats_booleans_and_text_where_cents_are_required(
    amount: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(BACCARAT).replace('"banker": 1000', f'"banker": {amount}')
    one_line_exit_2(["replay", write(tmp_path, "s.json", text)], capsys, "seat 1 wagers banker")
    path = write(tmp_path, "r.toml", f'game = "four-card-poker"\npayout_limit = {amount}\n')
    one_line_exit_2(["rules", "check", path], capsys, "payout_limit")


# --- non-ASCII digits in seat keys and decisions ------------------------------------------


@pytest.mark.parametrize("digit", ["\u0663", "\uff13", "\u00b3", "\U0001d7d1"])
def test_non_ascii_digits_in_seat_keys_and_decisions(
    digit: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = dict(BACCARAT, seats={digit: BACCARAT["seats"]["1"]})
    one_line_exit_2(["replay", scenario(tmp_path, data)], capsys, "not a betting position")
    seat = next(iter(FOUR["seats"]))
    seats = {seat: dict(FOUR["seats"][seat], decisions=[f"play {digit}"])}
    data = dict(FOUR, seats=seats)
    one_line_exit_2(["replay", scenario(tmp_path, data)], capsys, "is not a decision")


# --- decimal exponents --------------------------------------------------------------------


@pytest.mark.parametrize(
    "rate", ['"1e-30000000"', '"1e-22"', "1e-22", "1e-30000000", '"0.0000001"', "0.05e400"]
)
def test_decimal_exponents_refused_at_once(
    rate: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = write(tmp_path, "r.toml", f'game = "mini-baccarat"\n[vig]\nrate = {rate}\n')
    one_line_exit_2(["rules", "check", toml], capsys, "rate")
    prog = {"paytable": "A", "envy": "A", "wager": 100, "reset": 500_000}
    text = json.dumps({"game": "four-card-poker", "progressive": {**prog, "rate": "R"}})
    path = write(tmp_path, "r.json", text.replace('"R"', rate))
    one_line_exit_2(["rules", "check", path], capsys, "rate")


# --- files over the size cap; a million cards or meters -----------------------------------


def test_file_over_the_size_cap_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "big.toml", 'game = "mini-baccarat"\n' + "# padding\n" * 30_000)
    one_line_exit_2(["rules", "check", path], capsys, "larger than 262144 bytes")
    one_line_exit_2(["par", "mini-baccarat", "--rules", path], capsys, "larger than")


FILE_COMMANDS = [
    ["rules", "check"],
    ["replay"],
    ["par", "mini-baccarat", "--rules"],
    ["floor", "simulate", "--hours", "1", "--seed", "1"],
    ["design", "3cp", "--wager", "pair_plus", "--target-edge", "0.05", "--constraints"],
]


@pytest.mark.parametrize("command", FILE_COMMANDS, ids=lambda c: c[0])
def test_a_file_that_is_not_a_regular_file_is_refused_without_reading_it(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A FIFO with no writer would block the open for ever; /dev/zero never ends; a directory is
    no document: each is refused at once, one line, before a byte is read."""
    fifo = tmp_path / "rules.toml"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero", str(tmp_path)):
        one_line_exit_2([*command, path], capsys, "is not a regular file")


@pytest.mark.parametrize("command", FILE_COMMANDS, ids=lambda c: c[0])
def test_a_huge_file_is_refused_after_reading_only_its_first_bytes(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.toml"
    with big.open("wb") as handle:
        handle.truncate(1 << 34)  # 16 GiB, sparse: read whole it would never finish
    one_line_exit_2([*command, str(big)], capsys, "is larger than")


DEMO_FLOOR = str(Path(__file__).parents[1] / "src/croupier/analysis/floors/demo.toml")


@pytest.mark.parametrize(
    "argv",
    [
        ["par", "three-card-poker", "--quiet", "--xlsx"],
        ["par", "three-card-poker", "--quiet", "--pdf"],
        ["par", "three-card-poker", "--quiet", "--report"],
        ["strategy", "three-card-poker", "--xlsx"],
        ["strategy", "three-card-poker", "--csv"],
        ["floor", "simulate", DEMO_FLOOR, "--hours", "1", "--seed", "1", "--report"],
    ],
    ids=lambda a: f"{a[0]}-{a[-1]}",
)
def test_an_output_file_that_cannot_be_written_is_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A full disk (``/dev/full``) is one line naming the file, and no half-made writer is left
    to complain on its way out (a workbook is built in memory, then written in one step)."""
    status = main([*argv, "/dev/full"], out=io.StringIO())
    err = capsys.readouterr().err
    assert status == 2, err
    assert err == "croupier: /dev/full: cannot be written (No space left on device)\n"


@pytest.mark.parametrize("count", [1_000_000, 30_000])
def test_a_million_cards_refused(
    count: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = dict(BACCARAT, cards=["As"] * count)
    needle = "larger than" if count > 50_000 else "more than"
    one_line_exit_2(["replay", scenario(tmp_path, data)], capsys, needle)
    one_line_exit_2(["hand", " ".join(["As"] * count)], capsys, "longer than 200 characters")


def test_a_million_meters_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    meters = {f"m{i}": 100 for i in range(1_000_000)}
    one_line_exit_2(["replay", scenario(tmp_path, dict(BACCARAT, meters=meters))], capsys, "larger")
    meters = {f"m{i}": 100 for i in range(1_000)}
    data = dict(BACCARAT, meters=meters)
    one_line_exit_2(["replay", scenario(tmp_path, data)], capsys, "meters")


# --- hand and count ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards", ["As Kd \udcff", "\u0663s Kd Qh", "As" * 300, "As Kd Qh Jc Tc 9c 8c 7c", "\x00"]
)
def test_hand_malformed_cards(cards: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = one_line_exit_2(["hand", cards], capsys, "")
    no_long_quote(err, cards)


def test_hand_stdin_line_not_utf8(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Stdin(io.StringIO):
        buffer = io.BytesIO(b"As Kd 3c\n\xff\xfe 2c\n")

    monkeypatch.setattr("sys.stdin", Stdin())
    out = io.StringIO()
    assert main(["hand", "--ranking", "three-card"], out=out) == 2
    assert json.loads(out.getvalue())["category"] == "high_card"
    assert capsys.readouterr().err == "croupier: line 2: the line is not UTF-8 text\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "--ranking", "nine", "--cards", "3"],
        ["count", "--ranking", "three-card", "--cards", "99"],
    ],
)
def test_count_malformed(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    one_line_exit_2(argv, capsys, "")
