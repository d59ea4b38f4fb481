"""Table limits (issue 35): every wager's posted minimum and maximum, what the chapters make of
them (decision wagers bounded by the Ante, fixed progressive wagers, wagers that must be equal),
and the wager a round needs matched within them.  Tests named after the rule."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from croupier.core.errors import IllegalAction, RulesViolation
from croupier.games import get_game
from croupier.games.limits import unposted
from croupier.games.records import NoMoreBets, PlaceWager
from croupier.rules.progressive import MemoryMeters
from croupier.rules.submission import load_rules
from croupier.server.demo import demo_rules
from croupier.table.shoe import SeededShuffler, Shoe

UTH_PROGRESSIVE = {
    "paytable": "A",
    "wager": 100,
    "reset": 1_000_000,
    "rate": "0.10",
    "meter": "uth-limits",
}


def problems(rules: dict[str, Any]) -> list[tuple[str, str | None]]:
    with pytest.raises(RulesViolation) as refused:
        get_game(rules)
    return list(refused.value.problems)


def text(rules: dict[str, Any]) -> str:
    return " | ".join(message for message, _ in problems(rules))


def _round(rules: dict[str, Any]) -> Any:
    game = get_game(rules)
    return game.new_round(shoe=Shoe.shuffled(SeededShuffler(35)), meters=MemoryMeters())


def test_557_7_a_4_a_progressive_limit_agrees_with_the_fixed_wager() -> None:
    rules = {
        "game": "four-card-poker",
        "progressive": {
            "paytable": "A",
            "envy": "A",
            "wager": 100,
            "reset": 500_000,
            "rate": "0.25",
        },
        "limits": {"progressive": {"min": 100, "max": 500}},
    }
    found = problems(rules)
    assert found == [
        (
            "[limits] progressive: the progressive wager is a fixed 100 cents (the Rules "
            "Submission's amount); a limit posted for it must be 100 cents",
            "§ 557.7(a)(4)",
        )
    ]
    rules["limits"] = {"progressive": {"min": 100, "max": 100}, "ante": {"min": 500, "max": 900}}
    game = get_game(rules)
    assert game.posted_limits() == {
        "ante": {"min": 500, "max": 900},
        "progressive": {"min": 100, "max": 100},
    }
    assert unposted(game) == ["aces_up"]


def test_643a_7_g_h_let_it_ride_progressive_limits_agree_with_their_fixed_wagers() -> None:
    # the test Rules Submission offers the Three-Card Progressive (the demo table does not)
    path = Path(__file__).parent / "rules" / "let-it-ride.toml"
    rules: dict[str, Any] = tomllib.loads(path.read_text())
    rules["limits"] = {"three_card_progressive": {"max": 500}}
    assert problems(rules) == [
        (
            "[limits] three_card_progressive: the three_card_progressive wager is a fixed 100 "
            "cents (the Rules Submission's amount); a limit posted for it must be 100 cents",
            "§ 643a.7(g)",
        )
    ]


def test_a_limit_for_a_wager_the_table_does_not_offer_names_the_chapter() -> None:
    # the Dragon 7 is EZ Baccarat's; no [progressive]: no progressive wager; a wager of no game
    assert text({"game": "mini-baccarat", "limits": {"dragon_7": {"min": 100, "max": 500}}}) == (
        "[limits] dragon_7: this table does not offer the dragon_7 wager under its Rules "
        "Submission (Minibaccarat (58 Pa. Code Ch. 627a (temporary Ch. 541)))"
    )
    found = text({"game": "three-card-poker", "limits": {"progressive": {"max": 100}}})
    assert "does not offer the progressive wager" in found and "Ch. 649a" in found
    found = text({"game": "ultimate-texas-holdem", "limits": {"aces_up": {"max": 100}}})
    assert found == (
        "[limits] names 'aces_up', which is not a wager of Ultimate Texas Hold 'Em Poker "
        "(58 Pa. Code Ch. 569 (temporary), Ch. 653a)"
    )


@pytest.mark.parametrize(
    ("slug", "wager", "section"),
    [
        ("four-card-poker", "play", "§ 641a.7(d)(1)"),
        ("three-card-poker", "play", "§ 649a.11(b)"),
        ("ultimate-texas-holdem", "play", "§ 569.11"),
        ("mississippi-stud", "fourth_street", "§ 571.11(a), (c), (e)"),
    ],
)
def test_decision_wagers_are_bounded_by_the_ante_and_never_posted(
    slug: str, wager: str, section: str
) -> None:
    (found,) = problems({"game": slug, "limits": {wager: {"min": 500, "max": 1000}}})
    assert found[1] == section
    assert f"the {wager} wager is not posted" in found[0] and "limit the Ante" in found[0]


def test_a_minimum_above_the_maximum_is_refused_with_every_other_problem() -> None:
    found = problems(
        {
            "game": "three-card-poker",
            "paytables": {"pair_plus": "Z"},
            "limits": {"ante": {"min": 900, "max": 500}, "blind": {"min": 500}},
        }
    )
    joined = " | ".join(m for m, _ in found)
    assert "[limits] ante: min 900 cents is above max 500 cents" in joined
    assert "'blind', which is not a wager of Three Card Poker" in joined
    assert "pair_plus pay table 'Z'" in joined  # with the pay table's problem: all at once
    assert len(found) == 3
    (zero,) = problems({"game": "three-card-poker", "limits": {"ante": {"min": 0}}})
    assert zero[0] == "[limits.ante] min 0 must be more than 0 cents"  # at least 1 cent


def test_569_2_b_2_the_blinds_limits_must_hold_every_ante() -> None:
    base = {"game": "ultimate-texas-holdem", "progressive": UTH_PROGRESSIVE}
    narrow = {"ante": {"min": 500, "max": 500_000}, "blind": {"min": 500, "max": 100_000}}
    assert problems({**base, "limits": narrow}) == [
        (
            "[limits] blind: 500 to 100000 cents cannot match every ante of 500 to 500000 "
            "cents the table takes; the blind equals the ante, so its limits must hold the "
            "ante's",
            "§ 569.2(b)(2)",
        )
    ]
    high_floor = {"ante": {"min": 500, "max": 1000}, "blind": {"min": 1000, "max": 1000}}
    assert problems({**base, "limits": high_floor})[0][1] == "§ 569.2(b)(2)"
    # no maximum on the Ante (the demo table before issue 35) and one on the Blind: refused
    assert problems({**base, "limits": {"ante": {"min": 500}, "blind": {"max": 100_000}}})
    wider = {"ante": {"min": 500, "max": 100_000}, "blind": {"min": 100, "max": 200_000}}
    assert get_game({**base, "limits": wider}).posted_limits()["blind"] == wider["blind"]


def test_643a_7_d_the_three_bets_post_limits_that_match() -> None:
    limits = {f"bet{n}": {"min": 500, "max": 50_000} for n in (1, 2, 3)}
    limits["bet3"] = {"min": 500, "max": 20_000}
    (found,) = problems({"game": "let-it-ride", "limits": limits})
    assert found[1] == "§ 643a.7(d)" and found[0].startswith("[limits] bet3:")


def test_569_2_b_2_a_blind_the_ante_could_not_match_is_refused_naming_why() -> None:
    limits = {"ante": {"min": 500, "max": 100_000}, "blind": {"min": 500, "max": 200_000}}
    rnd = _round({"game": "ultimate-texas-holdem", "limits": limits})
    with pytest.raises(IllegalAction) as refused:
        rnd.apply(PlaceWager(seat=1, wager="blind", amount=150_000))
    assert refused.value.section == "§ 569.2(b)(2)"
    assert refused.value.message == (
        "blind wager of 150000 cents at seat 1 refused: the ante wager must equal it and the "
        "table's ante limits are 500 to 100000 cents"
    )
    assert rnd.stakes == {}  # nothing placed: the round is not stuck waiting for a match
    rnd.apply(PlaceWager(seat=1, wager="blind", amount=100_000))
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=100_000))
    rnd.apply(NoMoreBets())


def test_uth_demo_table_refuses_the_5000_dollar_ante_its_blind_could_not_match() -> None:
    # issue 35: the demo table took a $5,000 Ante with no maximum posted, and the page's Blind
    # could not match it; now the Ante and the Blind post the same limits
    game = get_game(load_rules(demo_rules()["ultimate-texas-holdem"]))
    rnd = game.new_round(shoe=Shoe.shuffled(SeededShuffler(35)), meters=MemoryMeters())
    with pytest.raises(IllegalAction) as refused:
        rnd.apply(PlaceWager(seat=1, wager="ante", amount=500_000))
    assert refused.value.message == (
        "ante wager of 500000 cents at seat 1 is above the table maximum of 100000 cents "
        "(posted: 500 to 100000 cents)"
    )
    posted = game.posted_limits()
    assert posted["ante"] == posted["blind"] == {"min": 500, "max": 100_000}


def test_every_demo_table_posts_every_wager_it_offers() -> None:
    for table, rules in demo_rules().items():
        game = get_game(load_rules(rules))
        assert unposted(game) == [], table
        offered = {w for w in game.offered_wagers() if w not in game.decision_wagers}
        assert set(game.posted_limits()) == offered, table
