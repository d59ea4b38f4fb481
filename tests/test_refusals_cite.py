"""Every refusal of a Rules Submission cites its section or names its chapter (issue 35).

Two refused with nothing to cite before: a pay-table letter for a wager with one table
(Mississippi Stud's ``ante = "B"``) and a wager the game does not have (Ultimate Texas Hold 'Em's
``aces_up``).  The walk below takes every refusal path of ``rules.py`` and ``croupier.games``
(``Game.check`` and each game's own checks) to every game, then mutates valid submissions at
random: whatever is refused, each problem line cites a § or a chapter.
"""

from __future__ import annotations

import copy
import json
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.core.errors import CroupierError, Problem, RulesViolation, format_problem
from croupier.games import GAMES, get_game
from croupier.games.mississippi_stud import MississippiStud
from croupier.rules.submission import load_rules

RULES = Path(__file__).parent / "rules"
FILES = sorted(RULES.glob("*.toml"))
Doc = dict[str, Any]


def cites(problem: Problem) -> bool:
    """The line shown for ``problem`` cites a section or names a chapter."""
    line = format_problem(problem)
    return "§" in line or " Ch. " in line


def refused(doc: Doc) -> list[Problem] | None:
    """The problems of ``doc`` (None: a valid submission)."""
    try:
        get_game(copy.deepcopy(doc))
    except RulesViolation as exc:
        return list(exc.problems)
    except CroupierError as exc:  # a submission refused whole (its game is unknown)
        return [(exc.message, exc.section)]
    return None


def example(slug: str) -> Doc:
    cls = GAMES[slug]
    return {**copy.deepcopy(dict(cls.example_rules)), "game": slug}


def _set(doc: Doc, path: str, value: Any) -> Doc:
    out = copy.deepcopy(doc)
    *parents, key = path.split(".")
    node = out
    for name in parents:
        node = node.setdefault(name, {})
    node[key] = value
    return out


def _progressive(doc: Doc, **changes: Any) -> Doc:
    base = doc.get("progressive") or {"paytable": "A", "wager": 100, "reset": 2_000_000}
    return {**doc, "progressive": {**base, "rate": "0.25", **changes}}


MUTATIONS: dict[str, Callable[[Doc], Doc]] = {
    # rules.py and the model: shape
    "decks not a number": lambda d: _set(d, "table.decks", "x"),
    "unknown top-level key": lambda d: {**d, "colour": "red"},
    "unknown table key": lambda d: _set(d, "table.felt", "green"),
    "payout_limit not cents": lambda d: {**d, "payout_limit": "lots"},
    "progressive wager not cents": lambda d: _progressive(d, wager="one dollar"),
    "rate not a rate": lambda d: _progressive(d, rate="fast"),
    "limits min not cents": lambda d: _set(d, "limits.ante", {"min": "x"}),
    # Game.check
    "pay-table letter of a wager with one table": lambda d: _set(d, "paytables.ante", "B"),
    "pay-table letter of a wager the game does not have": lambda d: _set(
        d, "paytables.aces_up_2", "A"
    ),
    "pay-table letter unknown": lambda d: {
        **d,
        "paytables": {w: "Z" for w in GAMES[d["game"]].paytables if w not in {"base"}},
    },
    "custom letter without a table": lambda d: {
        **d,
        "paytables": dict.fromkeys(GAMES[d["game"]].custom_shapes, "custom"),
    },
    "custom table where the chapter has none": lambda d: _set(
        d, "custom_paytables.ante", {"royal_flush": "1 to 1"}
    ),
    "custom table lines wrong": lambda d: {
        **d,
        "custom_paytables": {
            w: {"royal_flush": "ten to one", "pair": "0 to 1"}
            for w in GAMES[d["game"]].custom_shapes
        },
    },
    "vig where the chapter defines none": lambda d: {**d, "vig": {"type": "commission"}},
    "vig type and collect unknown": lambda d: {**d, "vig": {"type": "half", "collect": "later"}},
    "vig rate wrong": lambda d: {**d, "vig": {"type": "commission", "rate": "0.07"}},
    "ez option": lambda d: _set(d, "table.ez", True),
    "face_up option": lambda d: _set(d, "table.face_up", False),
    "deal by hand": lambda d: _set(d, "table.deal", "hand"),
    "decks wrong": lambda d: _set(d, "table.decks", 7),
    "adjacent boxes": lambda d: _set(d, "table.adjacent_boxes", 3),
    "payout limit": lambda d: {**d, "payout_limit": 1},
    "progressive letter unknown": lambda d: _progressive(d, paytable="Q"),
    "progressive wager amount": lambda d: _progressive(d, wager=200),
    "progressive reset low": lambda d: _progressive(d, reset=1),
    "progressive rate above 1": lambda d: _progressive(d, rate="3/2"),
    "envy schedule unknown": lambda d: _progressive(d, envy="Q"),
    "envy left out": lambda d: {
        **d,
        "progressive": {k: v for k, v in _progressive(d)["progressive"].items() if k != "envy"},
    },
    "jackpot meters": lambda d: _progressive(
        d, paytable="B", meters={"mega": {"meter": "x", "rate": "0.9"}, "nope": {}}
    ),
    "limits of no wager": lambda d: _set(d, "limits.nope", {"min": 100}),
    "limits of a decision wager": lambda d: _set(d, "limits.play", {"min": 100}),
    "limits of the progressive": lambda d: _set(d, "limits.progressive", {"min": 100}),
    "limits without min or max": lambda d: _set(d, "limits.ante", {}),
    "limits min above max": lambda d: {
        **d,
        "limits": {w: {"min": 900, "max": 100} for w in GAMES[d["game"]].wagers},
    },
    # croupier.games.get_game
    "game unknown": lambda d: {**d, "game": "nope"},
    "game unknown with shape problems": lambda d: {**d, "game": "nope", "table": {"decks": "x"}},
    "game missing": lambda d: {k: v for k, v in d.items() if k != "game"},
}


def walk() -> Iterator[tuple[str, str, list[Problem]]]:
    for slug in GAMES:
        for name, mutate in MUTATIONS.items():
            problems = refused(mutate(example(slug)))
            if problems is not None:
                yield slug, name, problems


WALKED = list(walk())


def test_the_two_refusals_of_issue_35_cite_their_sections() -> None:
    stud = refused({"game": "mississippi-stud", "paytables": {"ante": "B"}})
    assert stud == [
        (
            "[paytables] ante = 'B': the ante wager has no pay table choice in Mississippi "
            "Stud: one table pays it",
            "§ 655a.12(a)",
        )
    ]
    holdem = refused({"game": "ultimate-texas-holdem", "paytables": {"aces_up": "A"}})
    assert holdem == [
        (
            "[paytables] aces_up = 'A': Ultimate Texas Hold 'Em Poker has no 'aces_up' wager "
            "(its wagers: ante, blind, play, trips, progressive); [paytables] chooses among "
            "the chapter's tables",
            "§ 653a.12",
        )
    ]


@pytest.mark.parametrize(
    ("slug", "name", "problems"), WALKED, ids=[f"{s}:{n}" for s, n, _ in WALKED]
)
def test_every_refusal_path_cites_a_section_or_a_chapter(
    slug: str, name: str, problems: list[Problem]
) -> None:
    assert problems
    assert [p for p in problems if not cites(p)] == [], (slug, name)


def test_every_path_of_the_walk_is_refused_somewhere() -> None:
    reached = {name for _, name, _ in WALKED}
    assert set(MUTATIONS) - reached == set()
    # and the walk meets many distinct refusals, not one said many times
    assert len({format_problem(p) for _, _, problems in WALKED for p in problems}) > 150


@pytest.mark.parametrize("path", [p for p in FILES if p.stem.endswith("-bad")], ids=str)
def test_every_problem_of_the_bad_submissions_cites(path: Path) -> None:
    with pytest.raises(RulesViolation) as info:
        get_game(load_rules(path))
    assert [p for p in info.value.problems if not cites(p)] == []


LEAVES: st.SearchStrategy[Any] = st.sampled_from(
    [None, True, -1, 0, 3, 10**12, "x", "A", "custom", "0.5", [], {}]
)


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.sampled_from(FILES), st.data())
def test_any_refused_mutation_of_a_submission_cites(path: Path, data: st.DataObject) -> None:
    doc: Doc = json.loads(json.dumps(tomllib.loads(path.read_text("utf-8")), default=str))
    node = doc
    while True:
        key = data.draw(st.sampled_from(sorted(node)))
        if isinstance(node[key], dict) and node[key] and data.draw(st.booleans()):
            node = node[key]
            continue
        node[key] = data.draw(LEAVES)
        break
    problems = refused(doc)
    assert problems is None or [p for p in problems if not cites(p)] == []


def test_571_12_rate_above_one_is_refused_with_the_others_not_alone() -> None:
    # the walk found it: Mississippi Stud's jackpot meters were built from a rate of 3/2 and
    # the check stopped there, with one uncited line and the other problems unsaid
    problems = refused(
        {
            "game": "mississippi-stud",
            "table": {"decks": 2},
            "progressive": {"paytable": "A", "wager": 100, "reset": 2_000_000, "rate": "3/2"},
        }
    )
    assert problems is not None and len(problems) == 2
    assert ("rate of progression 3/2 is outside (0, 1]", MississippiStud.chapter) in problems
    assert all(cites(p) for p in problems)
