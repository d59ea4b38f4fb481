"""The library's public faces refuse bad input with a typed error, as the command line and HTTP
do: a value of the wrong type, an integer of thousands of digits or a wager whose win no record
can hold is an :class:`~croupier.core.errors.InvalidInput` (a ``ValueError``) naming what was given,
never a ``TypeError``, ``AttributeError`` or ``OverflowError`` from inside, and it changes nothing.

The money bound: a wager of at most :data:`~croupier.core.money.MAX_WAGER` cents on a line of at
most
:data:`~croupier.core.money.MAX_ODDS` to 1 wins an amount a record holds exactly (``INT_LIMIT``); a
larger wager was accepted before and then wedged its round at settlement (a Pair Plus of 2**52
cents on a straight flush: ``WagerSettled.paid`` over the limit, raised on every retry).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from croupier import (
    CroupierError,
    InvalidInput,
    Odds,
    audit,
    evaluate,
    format_cards,
    parse_cards,
)
from croupier.analysis import optimal_strategy, par_sheet, strategy_text
from croupier.analysis.counts import count_table
from croupier.analysis.designer import design
from croupier.analysis.floor_forecast import load_floor
from croupier.analysis.montecarlo import run
from croupier.analysis.pricing import every_wager, parse_hours, theoretical_win
from croupier.analysis.progressive_plan import plan, progressive_model
from croupier.core.cards import DECK
from croupier.core.errors import RulesViolation, shown_value
from croupier.core.modes import PlayMode
from croupier.core.money import MAX_ODDS, MAX_WAGER, parse_cents
from croupier.games import GAMES, get_game
from croupier.games.play import play_out
from croupier.games.pov import Pov
from croupier.games.records import INT_LIMIT, PlaceWager, Result, WagerSettled
from croupier.rules.progressive import MemoryMeters, pay_share
from croupier.table.commitment import digest
from croupier.table.scenario import load_scenario
from croupier.table.shoe import SeededShuffler, Shoe, StackedShoe
from croupier.table.table import Table, devices

_NO_CARDS: list[object] = []
_NO_WAGERS: set[object] = set()
_NO_LINES: dict[str, object] = {}
_THIRD = Fraction(1, 3)
_HUGE = 2**70
HOSTILE: tuple[object, ...] = (
    None,
    True,
    -1,
    _HUGE,
    10**5000,  # quoted by its size: Python prints no integer of over 4,300 digits
    1.5,
    float("nan"),
    b"As Ks",
    _NO_CARDS,
    _NO_LINES,
    {"a": 1},
    object(),
    _THIRD,
    Decimal("1.5"),
    _NO_WAGERS,
)
"""Values of the wrong type for every face below (none of them text, a card list or a game)."""


def _faces() -> dict[str, Callable[[Any], object]]:
    tcp = get_game("three-card-poker")
    return {
        "evaluate": evaluate,
        "parse_cards": parse_cards,
        "format_cards": format_cards,
        "Odds.parse": Odds.parse,
        "parse_cents": parse_cents,
        "get_game": get_game,
        "par_sheet": par_sheet,
        "optimal_strategy": optimal_strategy,
        "strategy_text": strategy_text,
        "par_sheet wagers": lambda value: par_sheet(tcp, wagers=value),
        "Pov.player": Pov.player,
        "paytable": tcp.paytable,
        "Shoe.shuffled decks": lambda value: Shoe.shuffled(SeededShuffler(1), decks=value),
    }


def _analysis_faces() -> dict[str, Callable[[Any], object]]:
    tcp = get_game("three-card-poker")
    lir = get_game(GAMES["let-it-ride"].example_rules)  # its progressive offered

    base = par_sheet(tcp).base

    def theo(name: str) -> Callable[[Any], object]:
        def call(value: Any) -> object:
            given: dict[str, Any] = {"average_bet": 500, "hours": Fraction(4), name: value}
            game, sheet = given.pop("game", tcp), given.pop("sheet", base)
            return theoretical_win(game, sheet, **given)

        return call

    return {
        "theoretical_win game": theo("game"),
        "theoretical_win sheet": theo("sheet"),
        "theoretical_win average_bet": theo("average_bet"),
        "theoretical_win hours": theo("hours"),
        "parse_hours": parse_hours,
        "every_wager": every_wager,
        "design game": lambda v: design(v, "pair_plus", Fraction(1, 20), budget=100),
        "design target": lambda v: design(tcp, "pair_plus", v, budget=100),
        "design top": lambda v: design(tcp, "pair_plus", Fraction(1, 20), top=v, budget=100),
        "design constraints": lambda v: design(
            tcp, "pair_plus", Fraction(1, 20), constraints=v, budget=100
        ),
        "count_table cards": lambda v: count_table("poker5", v),
        "progressive_model": progressive_model,
        "progressive plan target": lambda v: plan(lir, v),
        "progressive plan resets": lambda v: plan(lir, Fraction(1, 10), v),
        "load_floor": load_floor,
        "monte carlo game": lambda v: run(v, 1000, 1),
        "monte carlo seed": lambda v: run("three-card-poker", 1000, v),
        "monte carlo workers": lambda v: run("three-card-poker", 1000, 1, workers=v),
    }


def _table_faces() -> dict[str, Callable[[Any], object]]:
    def table() -> Table:
        made = Table(
            get_game("three-card-poker"), shuffler=SeededShuffler(1), mode=PlayMode.SIMULATION
        )
        made.sit(1, "Ann")
        return made

    return {
        "order_reshuffle by": lambda v: table().order_reshuffle(by=v),
        "player_left seat": lambda v: table().player_left(v),
        "device_out_of_order": lambda v: table().device_out_of_order(v),
        "devices": devices,
        "new_round cut_at": lambda v: table().new_round(cut_at=v),
        "meters amount": MemoryMeters().amount,
        "meters ensure": MemoryMeters().ensure,
        "pay_share share": lambda v: pay_share(Fraction(50_000), v, 10_000),
        "load_scenario": load_scenario,
        "audit verify": audit.verify,
        "verify_deal round": lambda v: audit.verify_deal("sqlite:////nonexistent/db.sqlite", v),
        "digest order": lambda v: digest(v, "nonce"),
        "digest nonce": lambda v: digest(["As", "Kd"], v),
    }


FACES = {**_faces(), **_analysis_faces(), **_table_faces()}

EMPTY = (_NO_CARDS, _NO_WAGERS)
"""No cards and no wagers: an answer of their own (an empty list of cards, the whole sheet)."""
ANSWERED: dict[str, tuple[object, ...]] = {
    "parse_cards": EMPTY,
    "format_cards": EMPTY,
    "par_sheet wagers": (_NO_CARDS,),
    "progressive plan resets": (_NO_CARDS,),  # no resets: the submission's, 2x and 5x it
    "design constraints": (None, _NO_LINES),  # none: every line free
    "design target": (_THIRD,),  # an exact edge (refused only as out of range, below)
    "progressive plan target": (_THIRD,),  # an exact hold
    "theoretical_win hours": (_THIRD,),  # twenty minutes
    "monte carlo seed": (_HUGE,),  # any non-negative integer seeds the generator
    "monte carlo workers": (None,),  # every core
    "new_round cut_at": (None,),  # no cut asked: the table's own
    "pay_share share": (_THIRD,),  # a third of the meter
    "digest order": (_NO_CARDS,),  # a commitment to no cards
    # a lookup by name: a name of no table (any hashable value) has none, an unhashable value
    # is no name at all
    "paytable": tuple(v for v in HOSTILE if getattr(type(v), "__hash__", None) is not None),
}
"""The values of :data:`HOSTILE` a face answers (every other one is refused)."""


@pytest.mark.parametrize("face", sorted(FACES))
def test_every_public_face_refuses_a_value_of_the_wrong_type_with_a_typed_error(face: str) -> None:
    call = FACES[face]
    answered = ANSWERED.get(face, ())
    for value in HOSTILE:
        if any(value is a for a in answered):
            call(value)
            continue
        with pytest.raises(CroupierError) as caught:
            call(value)
        assert isinstance(caught.value, ValueError)
        assert len(str(caught.value)) < 400, str(caught.value)
    assert FACES["paytable"]("pair_plus") is not None


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_decision_that_is_not_text_is_refused_by_every_game(slug: str) -> None:
    game = get_game(slug)
    rnd = game.new_round(shoe=Shoe.shuffled(SeededShuffler(1), decks=game.shoe_decks))
    for value in (*HOSTILE, "fold " * 1000):
        with pytest.raises(InvalidInput, match="not a decision written as text"):
            rnd.parse_decision(1, value)  # type: ignore[arg-type]
    assert rnd.records == ()


def test_an_integer_of_thousands_of_digits_is_quoted_by_its_size_not_printed() -> None:
    # Python refuses to print an integer of over 4,300 digits: the quoting counts them instead
    assert shown_value(10**5000) == "<an integer of about 5,001 digits>"
    assert shown_value(-(10**100)) == "<an integer of about 101 digits>"
    with pytest.raises(InvalidInput, match="about 5,001 digits"):
        PlaceWager(seat=1, wager="ante", amount=10**5000)
    with pytest.raises(InvalidInput, match="nine digits"):
        Odds.parse("9" * 5000 + " to 1")
    with pytest.raises(InvalidInput, match="not a whole number"):
        Odds("40", 1)  # type: ignore[arg-type]


def _pair_plus_round() -> Any:
    game = get_game("three-card-poker")
    # dealt a card at a time, the player first: As Ks Qs to the player, a jack high dealer
    top = parse_cards("As 2c Ks 3d Qs Jh")
    rnd = game.new_round(shoe=StackedShoe([*top, *(c for c in DECK if c not in top)]))
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=100))
    return rnd


def test_the_largest_wager_on_the_highest_line_settles_exactly() -> None:
    rnd = _pair_plus_round()
    rnd.apply(PlaceWager(seat=1, wager="pair_plus", amount=MAX_WAGER))
    rnd.apply(rnd.dealer_no_more_bets())
    play_out(rnd, lambda r, seat: r.simple_strategy(seat))
    settled = {r.wager: r for r in rnd.records if isinstance(r, WagerSettled)}
    # § 649a.12(d) Pair Plus table A (the default): a straight flush pays 35 to 1
    assert settled["pair_plus"].result is Result.WIN
    assert settled["pair_plus"].line == "straight_flush"
    assert settled["pair_plus"].paid == 35 * MAX_WAGER
    assert rnd.is_over


def test_a_wager_above_the_largest_is_refused_at_placement_and_changes_nothing() -> None:
    rnd = _pair_plus_round()
    before = rnd.records
    for amount in (MAX_WAGER + 1, 2**52, INT_LIMIT):
        with pytest.raises(InvalidInput, match="largest wager croupier accepts"):
            rnd.apply(PlaceWager(seat=1, wager="pair_plus", amount=amount))
    assert rnd.records == before
    assert dict(rnd.stakes[1]) == {"ante": 100}


def test_every_shipped_pay_line_keeps_the_largest_wager_inside_a_record() -> None:
    largest = 0
    for cls in GAMES.values():
        tables = [t for letters in cls.paytables.values() for t in letters.values()]
        tables += list(cls.progressive_paytables.values())
        for table in tables:
            for line in table.lines:
                if line.odds is not None:
                    largest = max(largest, line.odds.numerator, line.odds.denominator)
    assert largest == 20_000  # Let It Ride's Five Card Bonus royal (§ 643a.12)
    assert largest <= MAX_ODDS
    # a Play of up to four times the Ante on the largest line still fits a record
    assert 4 * MAX_WAGER * MAX_ODDS <= INT_LIMIT


@pytest.mark.parametrize("odds", ["1000001 to 1", "1 to 1000001", "9" * 40 + " to 1"])
def test_a_custom_line_above_the_largest_odds_is_one_problem_of_the_submission(odds: str) -> None:
    lines = {
        "straight_flush": odds,
        "three_of_a_kind": "30 to 1",
        "straight": "6 to 1",
        "flush": "3 to 1",
        "pair": "1 to 1",
    }
    rules = {
        "game": "three-card-poker",
        "paytables": {"pair_plus": "custom"},
        "custom_paytables": {"pair_plus": lines},
    }
    with pytest.raises(RulesViolation) as caught:
        get_game(rules)
    assert len(caught.value.problems) == 1
    assert "above 1,000,000" in str(caught.value)
    lines["straight_flush"] = "1000000 to 1"
    assert get_game(rules).paytable("pair_plus") is not None


def test_posted_limits_and_the_progressive_wager_are_at_most_the_largest_wager() -> None:
    for rules in (
        {"game": "three-card-poker", "limits": {"ante": {"max": MAX_WAGER + 1}}},
        {"game": "three-card-poker", "limits": {"pair_plus": {"min": MAX_WAGER + 1}}},
    ):
        with pytest.raises(RulesViolation, match="at most 1000000000"):
            get_game(rules)
    game = get_game({"game": "three-card-poker", "limits": {"ante": {"max": MAX_WAGER}}})
    assert game.rules.limits["ante"].max == MAX_WAGER


def test_a_shoe_holds_at_most_eight_decks() -> None:
    assert len(Shoe.shuffled(SeededShuffler(1), decks=8)) == 8 * 52
    for decks in (0, 9, 2**70):
        with pytest.raises(InvalidInput, match="from 1 to 8"):
            Shoe.shuffled(SeededShuffler(1), decks=decks)
