"""Dealer training's drills (issue 40, :mod:`croupier.server.drills`): every game of the
registry is drilled, each drill is the engine's deal read back (the same seed, the same drill),
graded against the engine with the section that rules it, and a procedure drill's steps are the
engine's: an out-of-order one is its refusal."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games import GAMES
from croupier.server.drills import (
    DrillKind,
    drill_games,
    grade,
    kinds_of,
    parse_dollars,
    procedure,
    question,
)

SEEDS = range(0, 400, 37)


def test_every_game_of_the_registry_has_payout_and_procedure_drills() -> None:
    games = drill_games()
    assert [g["slug"] for g in games] == list(GAMES)
    for g in games:
        assert g["kinds"][0] == "payout" and g["kinds"][-1] == "procedure", g
        assert g["name"] == GAMES[g["slug"]].spoken_name()


def test_the_same_seed_deals_the_same_drill() -> None:
    for slug in GAMES:
        for kind in kinds_of(slug)[:-1]:
            assert question(slug, kind, 17) == question(slug, kind, 17)


def test_541_13_c_banker_win_commission_is_the_rate_rounded_up_to_5_cents() -> None:
    # § 541.13(c), (f): 5% of a winning Banker wager (the default table), rounded up to 5 cents
    for seed in SEEDS:
        asked = question("mini-baccarat", DrillKind.COMMISSION, seed)
        found = re.search(r"Banker wager \$(\d+)(?:\.(\d\d))?\.", asked.prompt)
        assert found is not None, asked.prompt
        basis = int(found.group(1)) * 100 + int(found.group(2) or 0)
        owed = -(-Fraction(basis) * Fraction(5, 100) // 5) * 5
        assert int(asked.expected) == owed, asked
        assert asked.section == "§ 541.13(c)"
        right = grade(asked, f"{int(asked.expected) / 100:.2f}")
        assert right.correct and right.section == "§ 541.13(c)"
        assert not grade(asked, f"{int(asked.expected) / 100 + 0.05:.2f}").correct


def test_ez_baccarat_has_no_commission_drill() -> None:
    # § 541.13(c): an EZ table collects no vigorish, so no deal holds a commission to ask
    assert DrillKind.COMMISSION not in kinds_of("ez-baccarat")
    with pytest.raises(IllegalAction, match="no commission drill"):
        question("ez-baccarat", DrillKind.COMMISSION, 0)


def test_641a_7_d_1_four_card_poker_play_sizes_graded_with_the_section() -> None:
    # § 641a.7(d)(1): a Play of one to three times the Ante; the engine refuses four times
    seen = set()
    for seed in range(0, 2000, 7):
        asked = question("four-card-poker", DrillKind.DECISION, seed)
        if "play 4x the Ante" in asked.prompt:
            assert (asked.expected, asked.section) == ("no", "§ 641a.7(d)(1)")
            seen.add("4x")
        if "play 1x the Ante" in asked.prompt:
            assert asked.expected == "yes"
            seen.add("1x")
        if len(seen) == 2:
            break
    assert seen == {"4x", "1x"}


def test_payout_drills_name_a_section_and_grade_the_engine_amount() -> None:
    for slug in GAMES:
        for seed in (3, 4):
            asked = question(slug, DrillKind.PAYOUT, seed)
            assert asked.section.startswith("§"), asked
            cents = int(asked.expected)
            assert grade(asked, f"${cents // 100}.{cents % 100:02d}").correct
            assert not grade(asked, f"{cents / 100 + 1:.2f}").correct


def test_an_unreadable_answer_is_refused_naming_it() -> None:
    asked = question("three-card-poker", DrillKind.PAYOUT, 5)
    with pytest.raises(InvalidInput, match="'five dollars' is not an amount"):
        grade(asked, "five dollars")
    decided = question("three-card-poker", DrillKind.DECISION, 5)
    with pytest.raises(InvalidInput, match="'maybe' is not one of yes, no"):
        grade(decided, "maybe")
    assert parse_dollars("$1,250.5") == 125050 and parse_dollars("7") == 700


def test_procedure_out_of_order_step_is_the_engine_refusal_and_changes_nothing() -> None:
    for slug in GAMES:
        early = procedure(slug, 9, [], "settle")
        assert early.taken is not None and not early.taken.accepted
        assert early.taken.message.startswith("settlement follows the reveal"), early.taken
        assert early.taken.section  # the engine's, or the game's chapter where it names none
        assert early.steps == () and early.phase == "betting"


def test_procedure_in_order_steps_reach_the_end_of_the_round() -> None:
    for slug in GAMES:
        state = procedure(slug, 11, [], None)
        for _ in range(30):
            if state.over:
                break
            tried = [procedure(slug, 11, state.steps, b) for b in state.buttons]
            state = next(t for t in tried if t.taken is not None and t.taken.accepted)
        assert state.over, (slug, state.steps)
        assert set(state.net) == {"1", "2"}


def test_procedure_steps_sent_are_replayed_or_refused() -> None:
    with pytest.raises(InvalidInput, match="step 1 \\('deal'\\) of the steps sent was not"):
        procedure("let-it-ride", 2, ["deal"], None)
    with pytest.raises(InvalidInput, match="'shuffle' is not a dealer's step"):
        procedure("let-it-ride", 2, [], "shuffle")


def test_541_12_b_every_payout_drill_names_a_section_over_sixty_deals() -> None:
    """A wager no pay table pays and no section of its result names (a baccarat wager that
    loses or pushes) is ruled by the chapter's settlement section (§ 541.12(b) for Mini- and EZ
    Baccarat), never by the chapter's title alone: sixty deals of every game."""
    for slug in GAMES:
        for seed in range(60):
            asked = question(slug, DrillKind.PAYOUT, seed)
            assert asked.section.startswith("§"), (slug, seed, asked)
