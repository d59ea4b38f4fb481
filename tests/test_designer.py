"""The pay-table designer: given a lettered table's exact edge as the target, it finds that
table among its best; every proposal re-priced by the ordinary par sheet has the edge it claims.

Pair Plus letters (§ 649a.12(d) as the game module states their source) are the outside truth.
"""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.analysis import par_sheet
from croupier.analysis.designer import design, reprice
from croupier.cli import app
from croupier.core.errors import CroupierError
from croupier.core.money import OddsKind
from croupier.games import Game, get_game


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


# --------------------------------------------------------------------------------------------
# A base game with a decision: Let It Ride's table, every candidate re-solved


_LIR_FIXED = {
    hand: {"fixed": pay}
    for hand, pay in (
        ("royal_flush", 1000),
        ("straight_flush", 200),
        ("four_of_a_kind", 50),
        ("full_house", 11),
        ("three_of_a_kind", 3),
        ("two_pair", 2),
        ("pair_of_tens_or_better", 1),
    )
}


def test_643a_12_base_designer_finds_the_table_in_force_from_its_edge() -> None:
    """Given the § 643a.12 table's exact edge (3.5057%), the designer re-solving every
    candidate's optimal strategy ranks that table first; every proposal equals the ordinary
    par sheet of its Rules Submission, and re-solving never prices above the fixed-strategy
    bound."""
    from croupier.analysis.designer_base import base_rules, design_base

    game = get_game("let-it-ride")
    sheet = par_sheet(game).base
    assert sheet is not None
    result = design_base(game, "base", sheet.house_edge, constraints=_LIR_FIXED, top=2, solves=3)
    best = result.candidates[0]
    assert best.name() == "1000-200-50-11-8-5-3-2-1" and best.house_edge == sheet.house_edge
    for cand in result.candidates:
        priced = par_sheet(get_game(base_rules(game, "base", cand))).base
        assert priced is not None and priced.house_edge == cand.house_edge


def test_base_designer_refuses_other_base_tables() -> None:
    from croupier.analysis.designer_base import design_base

    with pytest.raises(CroupierError, match=r"base-game designer re-solves .*let-it-ride base"):
        design_base(get_game("mini-baccarat"), "base", Fraction(2, 100))
    with pytest.raises(CroupierError, match=r"base-game designer re-solves .*let-it-ride base"):
        design_base(get_game("ultimate-texas-holdem"), "trips", Fraction(2, 100))


_MS_FIXED = {
    hand: {"fixed": pay}
    for hand, pay in (
        ("royal_flush", 500),
        ("straight_flush", 100),
        ("four_of_a_kind", 40),
        ("full_house", 10),
    )
}


def test_655a_12_a_base_designer_finds_the_table_in_force_from_its_edge() -> None:
    """Mississippi Stud's one table (§ 655a.12(a)): given its exact edge (53223/1082900, the
    par sheet's), the designer re-solving every candidate's street bets ranks it first; every
    proposal equals the ordinary par sheet of the game with it in force (the solver reads the
    game's table), and no re-solved edge is above its fixed-strategy bound's ordering."""
    from croupier.analysis.designer_base import base_game, design_base, price_base

    game = get_game("mississippi-stud")
    sheet = par_sheet(game).base
    assert sheet is not None and sheet.house_edge == Fraction(53223, 1082900)
    result = design_base(game, "base", sheet.house_edge, constraints=_MS_FIXED, top=3, solves=3)
    names = [c.name() for c in result.candidates]
    assert names[0] == "500-100-40-10-6-4-3-2-1" and result.candidates[0].distance == 0
    assert len(set(names)) == len(names)  # each table once
    base = base_game(game, "base")
    for cand in result.candidates[1:]:
        priced = price_base(base, cand)
        assert priced.house_edge == cand.house_edge != sheet.house_edge
        assert priced.hit_frequency == cand.hit_frequency


def test_649a_12_b_ante_bonus_designer_finds_letter_a_from_its_edge() -> None:
    """Three Card Poker's Ante Bonus (§ 649a.12(b), table A: 5-4-1): from its edge (the par
    sheet's 3.3730%), with each candidate's Play decision re-solved, A ranks first; the others
    are the ordinary par sheet with them in force."""
    from croupier.analysis.designer_base import base_game, design_base, price_base

    game = get_game("three-card-poker")
    sheet = par_sheet(game).base
    assert sheet is not None
    result = design_base(game, "ante_bonus", sheet.house_edge, top=3, solves=3)
    assert result.candidates[0].name() == "5-4-1"
    assert result.candidates[0].distance == 0
    base = base_game(game, "ante_bonus")
    for cand in result.candidates[1:]:
        assert price_base(base, cand).house_edge == cand.house_edge != sheet.house_edge


@pytest.mark.long
def test_641a_12_b_ante_bonus_designer_finds_the_table_in_force_from_its_edge() -> None:
    """Four Card Poker's one Ante Bonus table (§ 641a.12(b), 25-20-2): from its edge, the
    designer (each candidate's Ante/Play strategy re-solved by the block solver) ranks it
    first; the other candidate equals the ordinary par sheet with it in force."""
    from croupier.analysis.designer_base import base_game, design_base, price_base

    game = get_game("four-card-poker")
    sheet = par_sheet(game).base
    assert sheet is not None
    limits = {"four_of_a_kind": {"fixed": 25}}
    result = design_base(game, "ante_bonus", sheet.house_edge, constraints=limits, top=2, solves=2)
    best, other = result.candidates
    assert best.name() == "25-20-2" and best.distance == 0
    assert price_base(base_game(game, "ante_bonus"), other).house_edge == other.house_edge


@pytest.mark.long
def test_653a_12_b_blind_designer_finds_table_b_from_its_edge() -> None:
    """Ultimate Texas Hold 'Em's Blind (§ 653a.12(b)): from table A, given table B's exact edge,
    the designer finds B (the straight paying nothing: a push, as under B; the flush kept at 3
    to 2) with distance 0, each candidate re-solved by the three-street solver: B as found has
    the exact edge of the ordinary par sheet of letter B."""
    from croupier.analysis.designer_base import design_base

    game = get_game("ultimate-texas-holdem")
    b = par_sheet(get_game({"game": "ultimate-texas-holdem", "paytables": {"blind": "B"}})).base
    assert b is not None
    limits = {
        hand: {"fixed": pay}
        for hand, pay in (
            ("royal_flush", 500),
            ("straight_flush", 50),
            ("four_of_a_kind", 10),
            ("full_house", 3),
        )
    }
    started = time.process_time()
    result = design_base(game, "blind", b.house_edge, constraints=limits, top=2, solves=2)
    spent = time.process_time() - started
    best = result.candidates[0]
    assert best.name() == "500-50-10-3-3/2-0" and best.house_edge == b.house_edge
    # the search's cost, printed for `make bench` (bench_proofs): each candidate is a solve from
    # scratch, so this is what issue 41's faster solver buys a designer
    print(f"UTH Blind search: {spent:.1f} CPU-s for {len(result.candidates)} candidates re-solved")


def test_cli_design_base_verified_by_par(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["design", "let-it-ride", "--wager", "base", "--target-edge", "0.0350567919"]
    args += ["--top", "1", "--solves", "2", "--verify", "--json"]
    limits = "\n".join(
        f"[lines.{hand}]\nfixed = {rule['fixed']}" for hand, rule in _LIR_FIXED.items()
    )
    (tmp_path / "limits.toml").write_text(limits, encoding="utf-8")
    result = runner.invoke(app, [*args, "--constraints", str(tmp_path / "limits.toml")])
    assert result.exit_code == 0, result.stderr
    (cand,) = json.loads(result.stdout)["candidates"]
    assert cand["table"] == "1000-200-50-11-8-5-3-2-1" and cand["verified_by_par"] is True


def test_655a_12_a_unconstrained_search_is_exhaustive_and_finds_the_table_in_force() -> None:
    """Mississippi Stud's base table with no constraints (every line within its widened span:
    137,098,710 monotone tables, beyond the branch and bound's node budget) is searched
    whole by meeting in the middle; from the table's own edge it ranks that table first."""
    from croupier.analysis.designer import ranked_tables
    from croupier.analysis.designer_base import design_base

    game = get_game("mississippi-stud")
    sheet = par_sheet(game).base
    assert sheet is not None
    result = design_base(game, "base", sheet.house_edge, top=2, solves=2)
    assert result.candidates[0].name() == "500-100-40-10-6-4-3-2-1"
    assert result.candidates[0].distance == 0
    widths = [b.high - b.low + 1 for b in result.bounds]
    assert widths == [251, 51, 21, 5, 3, 3, 3, 3, 2]  # no line fixed
    assert result.nodes < 10**6  # the two lists, not their product
    items, _, exhaustive = ranked_tables(
        result.bounds, Fraction(0), sheet.total, (500, 100, 40, 10, 6, 4, 3, 2, 1), 2, 1
    )
    assert exhaustive and len(items) == 2  # a budget of one node: no branch and bound used


def test_meet_in_the_middle_ranks_as_the_branch_and_bound() -> None:
    """The two searches agree item for item (distance, closeness to the reference, pays) on a
    search the branch and bound finishes: Mississippi Stud's lower five lines free."""
    from croupier.analysis.designer import _bounds, _Search
    from croupier.analysis.designer_base import _linear, base_game
    from croupier.analysis.designer_search import nearest_tables

    game = get_game("mississippi-stud")
    sheet = par_sheet(game).base
    assert sheet is not None
    base = base_game(game, "base")
    weights, fixed = _linear(base, sheet)
    bounds = _bounds(game, "base", base.table, weights, _MS_FIXED)
    reference = (500, 100, 40, 10, 6, 4, 3, 2, 1)
    for target in (-sheet.house_edge * sheet.total - fixed, -Fraction(3, 100) * sheet.total):
        search = _Search(bounds, target, sheet.total, reference, top=8, budget=10**7)
        search.run(0, None, Fraction(0), ())
        found = nearest_tables(bounds, target, reference, 8)
        assert found is not None
        key = lambda item: (-item[0], -item[1], item[2])  # noqa: E731
        assert sorted(found[0], key=key) == sorted(search.heap, key=key)
