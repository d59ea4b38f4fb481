"""Dealer training's drills (issue 40, :mod:`croupier.server.drills`): every game of the
registry is drilled, each drill is the engine's deal read back (the same seed, the same drill),
graded against the engine with the section that rules it, and a procedure drill's steps are the
engine's: an out-of-order one is its refusal."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games import GAMES, game_class
from croupier.rules.compliance import parse_test_name
from croupier.server.drills import (
    DrillKind,
    Question,
    drill_games,
    grade,
    kinds_of,
    parse_dollars,
    procedure,
    question,
)
from croupier.table.scenario import LIBRARY, load_scenario, run_scenario

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


# -- the rulebook's edge cases: the scenario library --------------------------------------------

CASE_SEEDS = range(0, 3000, 7)


def _case(slug: str, section: str, *words: str) -> Question:
    """The first case drill of ``slug`` from :data:`CASE_SEEDS` on the scenario citing
    ``section`` whose prompt holds every one of ``words``."""
    for seed in CASE_SEEDS:
        asked = question(slug, DrillKind.CASE, seed)
        if asked.section == section and all(w in asked.prompt for w in words):
            return asked
    raise AssertionError(f"no case drill of {slug} at {section} asks {words}")


def test_541_13_h_case_drill_tie_commission_is_a_quarter_of_the_banker_wager() -> None:
    # § 541.13(h): with a tie vig of 25%, seat 5's $10 Banker wager on a tie pays $2.50 (the
    # library's 541_13_h scenario)
    asked = _case("mini-baccarat", "§ 541.13(h)", "seat 5", "commission")
    assert asked.expected == "250"
    assert asked.facts[0] == "The case: § 541.13(h), tie vig is 25 percent of the banker wager"
    right = grade(asked, "2.50")
    assert right.correct and right.section == "§ 541.13(h)"
    assert not grade(asked, "0.50").correct


def test_569_11_g_case_drill_blind_paid_when_the_dealer_does_not_qualify() -> None:
    # § 569.11(g): the dealer does not qualify; the Blind still pays by its table (a straight
    # pays 1 to 1: $10 on $10); the Ante is returned, paying nothing
    blind = _case("ultimate-texas-holdem", "§ 569.11(g)", "Blind $10")
    assert blind.expected == "1000"
    assert "as § 653a.12(b) rules" in blind.explanation
    ante = _case("ultimate-texas-holdem", "§ 569.11(g)", "Ante $10")
    assert ante.expected == "0" and "the $10 wager goes back" in ante.explanation
    assert grade(ante, "0").correct and not grade(ante, "10").correct


def test_case_drills_are_the_library_replayed_and_name_its_subsection() -> None:
    scenarios = sorted(LIBRARY.glob("*.json"))
    for slug in GAMES:
        mine = [p for p in scenarios if game_class(load_scenario(p)["game"]).slug == slug]
        if not mine:
            assert DrillKind.CASE not in kinds_of(slug), slug
            with pytest.raises(IllegalAction, match="no case drill"):
                question(slug, DrillKind.CASE, 0)
            continue
        assert DrillKind.CASE in kinds_of(slug), slug
        by_section = {
            ", ".join(f"§ {r}" for r in parse_test_name(p.stem)): p for p in mine
        }  # fmt: skip
        for seed in range(0, 400, 23):
            asked = question(slug, DrillKind.CASE, seed)
            assert asked.section in by_section, (slug, asked.section)
            seat = re.search(r"seat (\d+)", asked.prompt)
            assert seat is not None, asked.prompt
            settled = [
                run_scenario(load_scenario(p))["seats"].get(seat.group(1))
                for p in mine
                if ", ".join(f"§ {r}" for r in parse_test_name(p.stem)) == asked.section
            ]
            owed = {int(w["paid"]) for s in settled if s for w in s["wagers"].values()}
            owed |= {int(s["vig"]["collected"]) for s in settled if s and "vig" in s}
            assert int(asked.expected) in owed, (slug, seed, asked)
            assert grade(asked, f"{int(asked.expected) / 100:.2f}").correct
            words = " ".join((asked.prompt, *asked.facts, asked.explanation))
            assert "_" not in words and "None" not in words, words
