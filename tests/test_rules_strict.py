"""Rules Submissions strict per chapter (issue 12): every key the chapter does not define is
refused naming the chapter, every refusal cites its section, the Envy Bonus comes with every
progressive that has one, table limits are posted and enforced, rates are read exactly."""

from __future__ import annotations

import copy
import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from croupier.cli import main
from croupier.core.errors import IllegalAction, RulesViolation
from croupier.core.shapes import RulesModel, ScenarioModel, json_schema
from croupier.games import GAMES, get_game
from croupier.games.baccarat import BaccaratGame
from croupier.games.mississippi_stud import MississippiStud, max_win_at_minimum
from croupier.games.records import PlaceWager
from croupier.rules.progressive import MemoryMeters
from croupier.rules.submission import load_rules
from croupier.table.scenario import LIBRARY, load_scenario, run_scenario
from croupier.table.shoe import SeededShuffler, Shoe

RULES = Path(__file__).parent / "rules"
SCENARIOS = LIBRARY
POKER = ("four-card-poker", "let-it-ride", "three-card-poker", "ultimate-texas-holdem",
         "mississippi-stud")  # fmt: skip
BACCARAT = ("mini-baccarat", "midi-baccarat")
PROG_4CP = {"paytable": "A", "wager": 100, "reset": 500_000, "rate": "0.25"}


def problems(rules: dict[str, Any]) -> list[tuple[str, str | None]]:
    with pytest.raises(RulesViolation) as info:
        get_game(rules)
    return list(info.value.problems)


def messages(rules: dict[str, Any]) -> str:
    return " | ".join(m for m, _ in problems(rules))


# --- the Envy Bonus comes with the progressive ------------------------------------------------


def test_641a_12_d_5_progressive_without_envy_schedule_refused() -> None:
    found = problems({"game": "four-card-poker", "progressive": PROG_4CP})
    assert len(found) == 1
    message, section = found[0]
    assert section == "§ 641a.12(d)(5)"
    assert "select its schedule" in message and "A, B" in message
    assert get_game({"game": "four-card-poker", "progressive": {**PROG_4CP, "envy": "B"}})


def test_641a_12_d_5_unknown_envy_schedule_refused_with_its_section() -> None:
    found = problems({"game": "four-card-poker", "progressive": {**PROG_4CP, "envy": "C"}})
    assert found == [("Envy Bonus schedule 'C' is not one of A, B", "§ 641a.12(d)(5)")]


def test_569_12_f_2_envy_in_force_whether_or_not_the_submission_names_it() -> None:
    named = load_scenario(SCENARIOS / "569_12_f_4_royal_then_straight_flush_meter_in_turn.json")
    unnamed = copy.deepcopy(named)
    del unnamed["rules"]["progressive"]["envy"]
    with_name, without = run_scenario(named), run_scenario(unnamed)
    assert without["seats"] == with_name["seats"]
    assert without["seats"]["2"]["envy"] == [
        {"for_seat": 6, "line": "royal_flush", "amount": 100_000}
    ]
    game = get_game({"game": "ultimate-texas-holdem", **unnamed["rules"]})
    assert game.envy_schedule is not None and "Envy" in game.sign()


def test_569_12_f_2_no_other_envy_schedule() -> None:
    prog = {"paytable": "A", "envy": "B", "wager": 100, "reset": 1_000_000, "rate": "0.25"}
    found = problems({"game": "ultimate-texas-holdem", "progressive": prog})
    assert found == [("Envy Bonus schedule 'B' is not one of A", "§ 569.12(f)(2)")]


def test_571_12_e_envy_in_force_and_only_its_one_schedule() -> None:
    prog = {"paytable": "A", "wager": 100, "reset": 1_000_000, "rate": "0.10"}
    game = get_game({"game": "mississippi-stud", "progressive": prog})
    assert game.envy_schedule is not None
    found = problems({"game": "mississippi-stud", "progressive": {**prog, "envy": "Z"}})
    assert found == [("Envy Bonus schedule 'Z' is not one of A", "§ 571.12(e)")]


def test_643a_1_five_card_progressive_without_envy_refused() -> None:
    rules = dict(load_rules(RULES / "let-it-ride.toml").raw)
    del rules["progressive"]["envy"]
    found = problems(rules)
    assert len(found) == 1 and found[0][1] == "§ 643a.1"
    assert "Five-Card Envy Bonus" in found[0][0]


def test_643a_1_three_card_progressive_without_envy_refused() -> None:
    rules = dict(load_rules(RULES / "let-it-ride.toml").raw)
    del rules["custom_paytables"]["three_card_progressive"]["envy"]
    found = problems(rules)
    assert len(found) == 1 and found[0][1] == "§ 643a.1"
    assert "Three-Card Envy Bonus" in found[0][0]


def test_649a_12_progressive_without_envy_refused() -> None:
    rules = dict(load_rules(RULES / "three-card-poker.toml").raw)
    del rules["progressive"]["envy"]
    found = problems(rules)
    assert len(found) == 1 and found[0][1] == "§ 649a.12"


# --- keys the chapter does not define -----------------------------------------------------------


@pytest.mark.parametrize("slug", POKER)
def test_poker_chapters_define_no_vigorish_ez_or_face_up(slug: str) -> None:
    base = dict(GAMES[slug].example_rules)
    for extra, needle in (
        ({"vig": {"type": "commission", "rate": "0.05"}}, "defines no vigorish"),
        ({"table": {**base.get("table", {}), "ez": False}}, "defines no table option 'ez'"),
        ({"table": {**base.get("table", {}), "face_up": True}}, "no table option 'face_up'"),
    ):
        found = problems({**base, **extra})
        assert len(found) == 1, found
        assert needle in found[0][0] and GAMES[slug].chapter in found[0][0]


@pytest.mark.parametrize("slug", ["four-card-poker", "ultimate-texas-holdem", "mississippi-stud"])
def test_lettered_tables_only_no_custom_paytables(slug: str) -> None:
    cls = GAMES[slug]
    custom = {"custom_paytables": {"aces_up": {"pair": "1 to 1"}}}
    found = problems({**cls.example_rules, **custom})
    assert found == [
        (f"{cls.where()} allows only its own lettered pay tables: [custom_paytables] is refused",
         cls.paytables_section)
    ]  # fmt: skip


@pytest.mark.parametrize("slug", BACCARAT)
def test_baccarat_chapters_define_no_progressive(slug: str) -> None:
    found = problems({"game": slug, "progressive": PROG_4CP})
    assert len(found) == 1 and "defines no progressive wager" in found[0][0]
    assert GAMES[slug].chapter in found[0][0]


def test_unknown_keys_anywhere_refused_each_named() -> None:
    text = messages(
        {
            "game": "four-card-poker",
            "colour": "red",
            "table": {"decks": 1, "speed": 3},
            "progressive": {**PROG_4CP, "envy": "A", "bonus": 1},
            "limits": {"ante": {"min": 500, "mx": 9}},
        }
    )
    for key, block in (("colour", "the file"), ("speed", "[table]"), ("bonus", "[progressive]"),
                       ("mx", "[limits.ante]")):  # fmt: skip
        assert f"unknown key {key!r} in {block}" in text


def test_missing_key_is_named_never_none() -> None:
    found = problems({"game": "four-card-poker", "progressive": {"paytable": "A", "envy": "A"}})
    text = " | ".join(m for m, _ in found)
    for key in ("wager", "reset", "rate"):
        assert f"[progressive] is missing the key {key!r}" in text
    assert "None" not in text
    assert "game" in messages({"paytables": {"aces_up": "B"}})


def test_each_message_uses_the_keys_own_unit() -> None:
    text = messages(
        {
            "game": "four-card-poker",
            "table": {"decks": 1.5, "adjacent_boxes": "two"},
            "progressive": {**PROG_4CP, "envy": "A", "wager": True},
        }
    )
    assert "[table] decks Decimal('1.5') must be a whole number of decks" not in text
    assert "decks" in text and "whole number of decks" in text
    assert "whole number of betting positions" in text
    assert "[progressive] wager True must be a whole number of cents" in text
    assert "decks" not in [part for part in text.split(" | ") if "cents" in part]


def test_641a_3_a_type_error_in_one_block_hides_nothing_else() -> None:
    found = problems(
        {
            "game": "four-card-poker",
            "table": {"decks": "two"},
            "paytables": {"aces_up": "G"},
            "progressive": {**PROG_4CP, "reset": 100},
        }
    )
    text = " | ".join(m for m, _ in found)
    sections = {s for _, s in found}
    assert "[table] decks 'two' must be a whole number of decks" in text
    assert "aces_up pay table 'G'" in text
    assert {"§ 641a.12(c)", "§ 641a.12(d)(3)", "§ 641a.12(d)(5)"} <= sections


# --- rates read exactly -----------------------------------------------------------------------


def test_json_number_rate_read_exactly_from_its_text(tmp_path: Path) -> None:
    path = tmp_path / "mini.json"
    path.write_text(json.dumps({"game": "mini-baccarat", "vig": {"rate": 0.04}}))
    rules = load_rules(path)
    assert rules.vig is not None and rules.vig.rate == Fraction(4, 100)
    game = get_game(rules)
    assert isinstance(game, BaccaratGame) and game.vig.rate == Fraction(1, 25)
    toml = tmp_path / "mini.toml"
    toml.write_text('game = "mini-baccarat"\n[vig]\nrate = 0.05\n')
    game = get_game(load_rules(toml))
    assert isinstance(game, BaccaratGame) and game.vig.rate == Fraction(1, 20)


def test_binary_float_rate_refused_clearly_never_rounded() -> None:
    text = messages({"game": "mini-baccarat", "vig": {"rate": 0.05}})
    assert "binary float" in text and '"0.25"' in text


# --- table limits -----------------------------------------------------------------------------


def _round(rules: dict[str, Any]) -> Any:
    game = get_game(rules)
    return game.new_round(shoe=Shoe.shuffled(SeededShuffler(1)), meters=MemoryMeters())


def test_557_7_a_1_ante_within_the_posted_minimum_and_maximum() -> None:
    rules = {"game": "four-card-poker", "limits": {"ante": {"min": 500, "max": 10_000}}}
    rnd = _round(rules)
    with pytest.raises(IllegalAction, match="below the table minimum of 500") as low:
        rnd.apply(PlaceWager(seat=1, wager="ante", amount=499))
    assert low.value.section == "§ 557.7(a)(1)"
    with pytest.raises(IllegalAction, match="above the table maximum of 10000"):
        rnd.apply(PlaceWager(seat=1, wager="ante", amount=10_001))
    assert rnd.stakes == {}
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(PlaceWager(seat=2, wager="ante", amount=10_000))
    sign = get_game(rules).sign()
    assert "Table limits per wager:" in sign and "Ante: $5 to $100" in sign


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_limits_enforced_on_every_game(slug: str) -> None:
    wager = next(w for w in GAMES[slug].wagers if w not in GAMES[slug].decision_wagers)
    rules = {**GAMES[slug].example_rules, "game": slug, "limits": {wager: {"min": 1000}}}
    if slug == "mississippi-stud":
        rules["payout_limit"] = max_win_at_minimum(1000)
    rnd = _round(rules)
    with pytest.raises(IllegalAction, match="below the table minimum"):
        rnd.apply(PlaceWager(seat=1, wager=wager, amount=999))


def test_limits_on_decision_and_progressive_wagers_and_min_above_max_refused() -> None:
    text = messages(
        {
            "game": "four-card-poker",
            "limits": {
                "play": {"max": 500},
                "progressive": {"max": 500},
                "ante": {"min": 900, "max": 500},
                "aces_up": {},
                "blind": {"min": 5},
            },
        }
    )
    assert "[limits] play" in text and "[limits] progressive" in text
    assert "min 900 cents is above max 500 cents" in text
    assert "aces_up gives neither min nor max" in text
    assert "'blind', which is not a wager of Four Card Poker (58 Pa. Code Ch. 641a)" in text


def test_655a_12_b_aggregate_limit_checked_against_the_minimum_wager() -> None:
    assert max_win_at_minimum(2000) == 10_000_000  # $20 Ante, three 3x streets, royal 500 to 1
    found = problems(
        {"game": "mississippi-stud", "payout_limit": 5_000_000, "limits": {"ante": {"min": 2000}}}
    )
    assert len(found) == 1 and found[0][1] == "§ 655a.12(b)" and "10000000" in found[0][0]
    needs = problems({"game": "mississippi-stud", "payout_limit": 5_000_000})
    assert needs[0][1] == "§ 655a.12(b)" and "[limits.ante] min" in needs[0][0]
    ok = get_game(
        {"game": "mississippi-stud", "payout_limit": 5_000_000, "limits": {"ante": {"min": 1000}}}
    )
    assert isinstance(ok, MississippiStud) and ok.payout_limit == 5_000_000
    default = get_game({"game": "mississippi-stud", "limits": {"ante": {"min": 2000}}})
    assert isinstance(default, MississippiStud) and default.payout_limit == 10_000_000


# --- the models and their schema --------------------------------------------------------------


def test_every_valid_example_file_fits_the_model() -> None:
    for path in sorted(RULES.glob("*.toml")):
        if "-bad" in path.name:
            continue
        rules = load_rules(path)
        assert rules.problems == (), path
        RulesModel.model_validate(dict(rules.raw))
        get_game(rules)
    for path in sorted(SCENARIOS.glob("*.json")):
        ScenarioModel.model_validate(load_scenario(path))


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_to_json_reads_back_equal(slug: str) -> None:
    game = get_game({**GAMES[slug].example_rules, "game": slug})
    again = load_rules(game.rules.to_json())
    assert again == game.rules and get_game(again).rules == game.rules


def test_schema_command_prints_the_models_json_schema() -> None:
    for which in ("rules", "scenario"):
        out = io.StringIO()
        assert main(["schema", which], out=out) == 0
        schema = json.loads(out.getvalue())
        assert schema == json_schema(which)
        assert schema["additionalProperties"] is False
    assert "limits" in json_schema("rules")["properties"]
    seats = json_schema("scenario")["properties"]["seats"]
    assert list(seats["patternProperties"]) == ["^[1-7]$"]
    assert seats["additionalProperties"] is False


def test_a_submission_without_a_game_is_told_so_once_beside_its_other_problems() -> None:
    """A file that names no game has that among its problems; "game '' is unknown" would be
    the same problem said twice.  A game it names that does not exist is still reported."""
    with pytest.raises(RulesViolation) as missing:
        get_game({"table": {"decks": "x"}})
    assert [m for m, _ in missing.value.problems] == [
        "the file is missing the key 'game'",
        "[table] decks 'x' must be a whole number of decks",
    ]
    with pytest.raises(RulesViolation) as unknown:
        get_game({"game": "nope", "table": {"decks": "x"}})
    messages = [m for m, _ in unknown.value.problems]
    assert messages[0] == "[table] decks 'x' must be a whole number of decks"
    assert messages[1].startswith("game 'nope' is unknown; games are ez-baccarat")
    assert len(messages) == 2
