"""Pay-table sanity (issue 35): every par sheet and ``croupier rules check`` flag a wager whose
exact house edge is negative (a progressive's return at its meter's reset above 100%) or above
50%, as a warning and never a refusal; and an example table is one a casino uses, cited, or
there is none (Let It Ride's Five Card Hand Bonus priced at 95.64% under croupier's own example).
"""

from __future__ import annotations

import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from croupier.analysis import ParSheet, par_sheet, sanity_flags
from croupier.analysis.par import EDGE_CEILING, Outcome, WagerSheet
from croupier.analysis.pricing import every_wager
from croupier.cli import main
from croupier.games import GAMES, get_game
from croupier.games.let_it_ride import LetItRide
from croupier.rules.submission import load_rules

RULES = Path(__file__).parent / "rules"
UNPUBLISHED = ("five_card_hand_bonus", "three_card_progressive")
"""Let It Ride's wagers with no table a casino uses at hand (§ 643a.7(g), (i))."""


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


def sheet(edge: Fraction, meter: dict[str, Any] | None = None) -> WagerSheet:
    """A wager that loses 1 or wins ``1 - 2 * edge`` (even chances): house edge ``edge``."""
    return WagerSheet(
        wager="w",
        outcomes=(
            Outcome(name="win", net=1 - 2 * edge, weight=1),
            Outcome(name="lose", net=Fraction(-1), weight=1),
        ),
        meter=meter or {},
    )


# --- the flags of a sheet ------------------------------------------------------------------------


@pytest.mark.parametrize("edge", [Fraction(0), Fraction(1, 100), EDGE_CEILING])
def test_house_edge_from_zero_to_fifty_percent_is_not_flagged(edge: Fraction) -> None:
    assert sheet(edge).house_edge == edge
    assert sheet(edge).flags == ()


def test_house_edge_above_fifty_percent_is_flagged() -> None:
    edge = EDGE_CEILING + Fraction(1, 10**6)
    (flag,) = sheet(edge).flags
    assert "house edge 50.0001%" in flag and "is above 50%" in flag


def test_negative_house_edge_is_flagged_with_the_return() -> None:
    (flag,) = sheet(Fraction(-1, 4)).flags
    assert flag.startswith("exact return 125.0000% exceeds 100%")
    assert "house edge -25.0000% (-1/4) is negative" in flag


def test_progressive_return_over_100_percent_at_its_meters_reset_is_flagged() -> None:
    (flag,) = sheet(Fraction(-1, 2), {"meter_cents": 1_000_000}).flags
    assert flag.startswith("exact return 150.0000% at its meter's reset of 1,000,000 cents")


def test_flags_in_the_sheet_json_and_text_led_by_the_wager() -> None:
    flagged, fine = sheet(Fraction(3, 5)), sheet(Fraction(1, 10))
    whole = ParSheet(game="g", method="exact", base=fine, wagers={"w": flagged})
    assert whole.flags == (f"w: {flagged.flags[0]}",)
    data = whole.to_json()
    assert data["flags"] == list(whole.flags)
    assert data["wagers"]["w"]["flags"] == list(flagged.flags)
    assert data["base"]["flags"] == []
    assert f"warning: w: {flagged.flags[0]}" in whole.render()


# --- par sheets and rules check ------------------------------------------------------------------


def test_par_sheet_text_and_json_flag_the_five_card_hand_bonus_test_table() -> None:
    argv = ["par", "let-it-ride", "--rules", str(RULES / "let-it-ride.toml")]
    argv += ["--wager", "five_card_hand_bonus", "--quiet"]
    status, text = run(argv)
    assert status == 0
    assert "warning: house edge 95.6416% (310711/324870) is above 50%" in text
    status, text = run([*argv, "--json"])
    data = json.loads(text)
    flags = data["wagers"]["five_card_hand_bonus"]["flags"]
    assert status == 0 and len(flags) == 1 and "95.6416%" in flags[0]
    assert data["flags"] == [f"five_card_hand_bonus: {flags[0]}"]


def test_html_report_shows_the_flag_under_its_wager() -> None:
    from croupier.analysis.report import render_report

    game = get_game(load_rules(RULES / "let-it-ride.toml"))
    flagged = par_sheet(game, wagers=["five_card_hand_bonus"])
    html = render_report(game, flagged)
    (flag,) = flagged.wagers["five_card_hand_bonus"].flags
    assert f'<p class="flag"><b>warning:</b> {flag}</p>' in html
    assert html.count('class="flag"') == 1


def test_rules_check_warns_of_a_wager_above_fifty_percent_and_exits_0() -> None:
    path = str(RULES / "let-it-ride.toml")
    status, text = run(["rules", "check", path])
    out = text.splitlines()
    assert status == 0
    assert out[0] == f"{path}: a valid Let It Ride Poker Rules Submission"
    assert out[1:] == [
        f"{path}: warning: five_card_hand_bonus: house edge 95.6416% (310711/324870) is above 50%"
        ": the player gets back under half of each wager"
    ]


def test_rules_check_warns_when_a_progressive_returns_over_100_percent_at_its_reset(
    tmp_path: Path,
) -> None:
    # a $2,000,000 reset on a $1 wager: the royal flush alone returns 3.08 times the wager
    path = tmp_path / "uth.toml"
    path.write_text(
        'game = "ultimate-texas-holdem"\n[progressive]\npaytable = "A"\nwager = 100\n'
        'reset = 200000000\nrate = "0.25"\n',
        encoding="utf-8",
    )
    status, text = run(["rules", "check", str(path), "--json"])
    data = json.loads(text)
    assert status == 0 and data["ok"] is True and data["problems"] == []
    (warning,) = data["warnings"]
    assert warning["wager"] == "progressive"
    assert "at its meter's reset of 200,000,000 cents exceeds 100%" in warning["warning"]
    game = get_game(load_rules(path))
    edge = par_sheet(game, wagers=["progressive"]).wagers["progressive"].house_edge
    assert edge < 0 and f"exact return {float(1 - edge):.4%}" in warning["warning"]


def test_rules_check_warns_of_nothing_on_the_tables_of_the_regulation() -> None:
    status, text = run(["rules", "check", str(RULES / "ultimate-texas-holdem.toml"), "--json"])
    data = json.loads(text)
    assert status == 0 and data["warnings"] == []


def test_sanity_flags_name_each_wager() -> None:
    game = get_game(load_rules(RULES / "let-it-ride.toml"))
    assert [w for w, _ in sanity_flags(game)] == ["five_card_hand_bonus"]


# --- example tables ------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", list(GAMES))
def test_example_rules_offer_only_tables_a_casino_uses_each_cited(slug: str) -> None:
    cls = GAMES[slug]
    assert "custom_paytables" not in cls.example_rules, slug
    game = get_game(dict(cls.example_rules)) if cls.example_rules else get_game(slug)
    tables = [t for w in game.offered_wagers() if (t := game.paytable(w)) is not None]
    tables += [game.progressive_table] if game.progressive_table is not None else []
    for table in tables:
        # a regulation's table (verified against the PA text) or a published one, its source
        assert table.section and (table.verified or table.note), (slug, table.letter)


def test_643a_7_i_no_example_table_for_the_five_card_hand_bonus() -> None:
    game = get_game(dict(LetItRide.example_rules))
    assert not set(UNPUBLISHED) & set(game.offered_wagers())
    priced, notes = every_wager(game)
    assert not set(UNPUBLISHED) & set(par_sheet(priced).wagers)
    for wager in UNPUBLISHED:
        assert (
            f"{wager}: not priced: no table a casino uses is at hand; give yours as "
            f"[custom_paytables.{wager}] in --rules"
        ) in notes
