"""One problem formatter: every face writes a list of problems the same way (issue 14)."""

from __future__ import annotations

import pytest

from croupier.core.errors import RulesViolation, format_problem, format_problems
from croupier.games import get_game


def test_problem_shows_its_section_in_parentheses() -> None:
    assert format_problem(("two decks need a shuffler", "§ 641a.3(b)")) == (
        "two decks need a shuffler (§ 641a.3(b))"
    )
    assert format_problem(("bad input", None)) == "bad input"


def test_problems_are_joined_and_cut_after_the_limit() -> None:
    problems = [(f"p{i}", None) for i in range(10)]
    assert format_problems(problems[:2]) == "p0; p1"
    assert format_problems(problems, limit=8) == "; ".join(f"p{i}" for i in range(8)) + (
        " (and 2 more)"
    )


def test_game_reports_every_problem_with_the_one_formatter() -> None:
    with pytest.raises(RulesViolation) as caught:
        get_game({"game": "four-card-poker", "table": {"decks": 3}, "vig": {"type": "commission"}})
    exc = caught.value
    assert len(exc.problems) == 2
    assert exc.message == (
        f"2 problem(s) in the four-card-poker Rules Submission: {format_problems(exc.problems)}"
    )
    assert "(§ 641a.3(a))" in exc.message
