"""Winning hands declared at a table whose cards croupier does not see (issue 39): the
progressive is paid only after a supervisor verifies the declared hand against the light, the
rest lose, Envy Bonuses follow, and the audit's rebuild replays every step."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.core.cards import parse_cards
from croupier.core.errors import IllegalAction, InvalidInput, RulesViolation
from croupier.games import get_game
from croupier.games.declared import (
    CloseDeclarations,
    DeclarationVerified,
    DeclareHand,
    HandDeclared,
    VerifyDeclared,
)
from croupier.games.records import (
    EnvyPaid,
    NoMoreBets,
    PlaceWager,
    ProgressivePaid,
    Result,
    WagerSettled,
    record_to_json,
)
from croupier.games.round import Phase, Round
from croupier.games.sensors import Light, SenseWager
from croupier.rules.progressive import MemoryMeters
from croupier.store.codec import record_from_json
from croupier.table.reported import ReportedShoe

FELT: dict[str, Any] = {
    "game": "four-card-poker",
    "progressive": {
        "paytable": "A",
        "envy": "A",
        "wager": 100,
        "reset": 500_000,
        "rate": "0.25",
        "meter": "4cp",
    },
    "table": {"cards": "felt", "progressive_wagers": "sensors"},
}
ROYAL = tuple(parse_cards("As Ks Qs Js 10s"))
QUADS = tuple(parse_cards("9c 9d 9h 9s 2c"))
NOTHING = tuple(parse_cards("2h 5d 8c Jh Kd"))


def _declaring(lit: tuple[int, ...] = (1, 2)) -> Round:
    """Seats 1-3 seated, the sensors lit at ``lit``, the count agreed: declaring."""
    game = get_game(FELT)
    rnd = game.new_round(
        shoe=ReportedShoe(decks=1),
        meters=MemoryMeters({"4cp": 600_000}),
        players={1: "P1", 2: "P2", 3: "P3"},
    )
    for seat in lit:
        rnd.apply(SenseWager(seat=seat, light=Light.LIT))
    rnd.apply(NoMoreBets(progressive_chips=len(lit)))
    return rnd


def test_641a_11_c_5_ii_a_declared_hand_pays_only_after_the_supervisors_verification() -> None:
    rnd = _declaring()
    assert rnd.phase.value == "declaring" and rnd.run_dealer() == ()
    (declared,) = rnd.apply(DeclareHand(seat=1, cards=QUADS))
    assert isinstance(declared, HandDeclared) and declared.line
    assert not any(isinstance(r, ProgressivePaid) for r in rnd.records)
    with pytest.raises(IllegalAction):
        rnd.apply(CloseDeclarations())  # a declared hand awaits its verification
    new = rnd.apply(VerifyDeclared(seat=1, by="sue"))
    assert new[0] == DeclarationVerified(seat=1, by="sue", light=Light.LIT)
    (paid,) = [r for r in new if isinstance(r, ProgressivePaid)]
    assert paid.seat == 1 and paid.amount > 0
    rnd.apply(CloseDeclarations())
    assert rnd.phase is Phase.OVER
    settled = {(r.seat, r.result) for r in rnd.records if isinstance(r, WagerSettled)}
    assert settled == {(1, Result.WIN), (2, Result.LOSE)}


def test_641a_11_c_5_ii_a_dark_light_pays_nothing() -> None:
    rnd = _declaring(lit=(2,))
    rnd.apply(DeclareHand(seat=3, cards=ROYAL))
    new = rnd.apply(VerifyDeclared(seat=3, by="sue"))
    assert new == (DeclarationVerified(seat=3, by="sue", light=Light.DARK),)
    assert isinstance(rnd.meters, MemoryMeters)
    before = rnd.meters.amount("4cp")
    rnd.apply(CloseDeclarations())
    assert rnd.meters.amount("4cp") == before  # no award taken off the meter
    # seat 2's wager loses; it earns an Envy Bonus for seat 3's verified royal flush
    envy = [r for r in rnd.records if isinstance(r, EnvyPaid)]
    assert [(e.seat, e.for_seat) for e in envy] == [(2, 3)]


def test_641a_11_c_5_i_only_a_winning_hand_is_declared() -> None:
    rnd = _declaring()
    with pytest.raises(IllegalAction):
        rnd.apply(DeclareHand(seat=1, cards=NOTHING))
    with pytest.raises(InvalidInput):
        rnd.apply(DeclareHand(seat=1, cards=ROYAL[:4]))
    rnd.apply(DeclareHand(seat=1, cards=ROYAL))
    with pytest.raises(IllegalAction):  # the same card twice in a one-deck game
        rnd.apply(DeclareHand(seat=2, cards=(*QUADS[:4], ROYAL[0])))
    with pytest.raises(IllegalAction):
        rnd.apply(DeclareHand(seat=1, cards=QUADS))  # declared once


def test_641a_11_c_5_iii_verification_names_the_supervisor_and_follows_a_declaration() -> None:
    rnd = _declaring()
    with pytest.raises(IllegalAction):
        rnd.apply(VerifyDeclared(seat=1, by="sue"))
    rnd.apply(DeclareHand(seat=1, cards=QUADS))
    with pytest.raises(InvalidInput):
        rnd.apply(VerifyDeclared(seat=1, by=""))
    rnd.apply(VerifyDeclared(seat=1, by="sue"))
    with pytest.raises(IllegalAction):
        rnd.apply(VerifyDeclared(seat=1, by="sue"))


def test_641a_2_c_1_at_the_felt_no_wager_is_placed_through_croupier() -> None:
    game = get_game(FELT)
    rnd = game.new_round(shoe=ReportedShoe(decks=1), players={1: "P1"})
    with pytest.raises(IllegalAction):
        rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(SenseWager(seat=1, light=Light.LIT))  # no Ante known: the sensor still takes it
    assert rnd.stakes[1] == {"progressive": 100}


def test_a_felt_table_needs_sensors_and_a_progressive() -> None:
    with pytest.raises(RulesViolation):
        get_game({**FELT, "table": {"cards": "felt"}})
    with pytest.raises(RulesViolation):
        get_game({"game": "four-card-poker", "table": FELT["table"]})
    with pytest.raises(RulesViolation):
        get_game({"game": "three-card-poker", "table": FELT["table"]})


def test_641a_11_c_5_the_audit_rebuilds_a_declared_round() -> None:
    rnd = _declaring(lit=(1, 2, 3))
    rnd.apply(DeclareHand(seat=1, cards=QUADS))
    rnd.apply(DeclareHand(seat=3, cards=ROYAL))
    rnd.apply(VerifyDeclared(seat=3, by="sue"))
    rnd.apply(VerifyDeclared(seat=1, by="sue"))
    rnd.apply(CloseDeclarations())
    stored = [record_from_json(record_to_json(r)) for r in rnd.records]
    assert stored == list(rnd.records)
    rebuilt = Round.rebuild(rnd.game, stored, players=rnd.players)
    assert rebuilt.records == rnd.records and rebuilt.phase is Phase.OVER
    assert rebuilt.settlement() == rnd.settlement()
