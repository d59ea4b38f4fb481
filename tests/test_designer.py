"""The pay-table designer: given a lettered table's exact edge as the target, it finds that
table among its best; every proposal re-priced by the ordinary par sheet has the edge it claims.

Pair Plus letters (§ 649a.12(d) as the game module states their source) are the outside truth.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from croupier.analysis import par_sheet
from croupier.analysis.designer import design, reprice
from croupier.cli import app
from croupier.errors import CroupierError
from croupier.games import Game, get_game
from croupier.money import OddsKind


def _letter(letter: str) -> Game:
    return get_game({"game": "three-card-poker", "paytables": {"pair_plus": letter}})


def _name(game: Game) -> str:
    table = game.paytable("pair_plus")
    assert table is not None
    return "-".join(str(ln.odds.numerator) for ln in table.lines if ln.odds is not None)


@pytest.fixture(scope="module")
def reference() -> Game:
    return _letter("A")


@pytest.mark.parametrize("letter", ["B", "D"])
def test_649a_12_designer_finds_the_letter_of_a_target_edge(reference: Game, letter: str) -> None:
    target_game = _letter(letter)
    edge = par_sheet(target_game, wagers=["pair_plus"]).wagers["pair_plus"].house_edge
    result = design(reference, "pair_plus", edge, top=5)
    assert result.exhaustive
    names = [c.name() for c in result.candidates]
    assert _name(target_game) in names[:3]
    best = result.candidates[0]
    assert best.distance == 0  # the letter itself hits the target exactly
    assert [b.kind for b in result.bounds] == [OddsKind.TO] * 5


def test_every_proposal_is_repriced_by_the_ordinary_par_sheet(reference: Game) -> None:
    result = design(reference, "pair_plus", Fraction(3, 100), top=4)
    for cand in result.candidates:
        pays = cand.pays
        assert list(pays) == sorted(pays, reverse=True)  # monotone down the table
        sheet = reprice(reference, cand, "pair_plus")
        assert sheet.house_edge == cand.house_edge
        assert sheet.hit_frequency == cand.hit_frequency
        assert sheet.std_dev == pytest.approx(cand.std_dev)


def test_fixed_and_bounded_lines_are_kept(reference: Game) -> None:
    limits = {"straight_flush": {"fixed": 40}, "pair": {"fixed": 1}, "flush": {"min": 3, "max": 4}}
    result = design(reference, "pair_plus", Fraction(2, 100), constraints=limits, top=5)
    for cand in result.candidates:
        assert cand.pays[0] == 40 and cand.pays[-1] == 1 and 3 <= cand.pays[3] <= 4


def test_designer_refuses_a_base_game_table_and_unknown_lines(reference: Game) -> None:
    with pytest.raises(CroupierError, match="part of the base game"):
        design(reference, "ante_bonus", Fraction(3, 100))
    with pytest.raises(CroupierError, match="not lines of pair_plus"):
        design(reference, "pair_plus", Fraction(3, 100), constraints={"royal_flush": {"min": 1}})


def test_cli_design_json_and_bad_target() -> None:
    runner = CliRunner()
    args = ["design", "three-card-poker", "--wager", "pair_plus", "--paytable", "pair_plus=A"]
    # the target is Pair Plus A's own edge, 253/5525 (derived by enumeration; see test_book.py)
    result = runner.invoke(app, [*args, "--target-edge", "0.0457918552", "--top", "3", "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["candidates"][0]["table"] == "35-25-6-4-1"
    bad = runner.invoke(app, [*args, "--target-edge", "NaN"])
    assert bad.exit_code == 2
    assert len(bad.stderr.strip().splitlines()) == 1
