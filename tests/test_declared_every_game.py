"""Declared winning hands at a felt table for every game of the registry with a progressive
(issue 39): the declaration checked against the game's own progressive pay table, the
supervisor's verification against the light, then the meter pays; the audit rebuilds the
round.  A game that takes no declared hand refuses a felt table.  No game is named: the games
come from the registry, their rules from ``tests/rules/<slug>.toml``."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from croupier.core.cards import Card, parse_cards
from croupier.core.errors import CroupierError, IllegalAction
from croupier.games import GAMES, get_game
from croupier.games.declared import (
    CloseDeclarations,
    DeclarationVerified,
    DeclareHand,
    HandDeclared,
    VerifyDeclared,
)
from croupier.games.records import (
    NoMoreBets,
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

RULES = Path(__file__).with_name("rules")
SPADES = parse_cards("As Ks Qs Js 10s 9s 8s")
"""The best cards of one suit: a royal flush in a five-card game, the top of any poker table."""
HEARTS = parse_cards("Ah Kh Qh Jh 10h 9h 8h")
"""The same in another suit (another seat's winning hand, no card twice)."""
NOTHING = parse_cards("2h 5d 8c Jh Kd 3s 4c")
"""Distinct ranks, no flush, no straight: a hand winning no progressive line."""


def _rules(slug: str, cards: str) -> dict[str, Any]:
    rules: dict[str, Any] = tomllib.loads((RULES / f"{slug}.toml").read_text(encoding="utf-8"))
    rules["table"] = {**rules.get("table", {}), "progressive_wagers": "sensors", "cards": cards}
    return rules


def _with_progressive(slug: str) -> bool:
    return bool(get_game(_rules(slug, "shuffle")).progressive_offers())


PROGRESSIVE_SLUGS = [s for s in sorted(GAMES) if _with_progressive(s)]
DECLARING = [s for s in PROGRESSIVE_SLUGS if GAMES[s].round_class.declared_cards]
NOT_DECLARING = [s for s in PROGRESSIVE_SLUGS if s not in DECLARING]


def _declaring(slug: str) -> Round:
    """Seats 1-3, the sensors lit at 1 and 2, the count agreed: declaring."""
    game = get_game(_rules(slug, "felt"))
    offer = game.progressive_offers()[0]
    meters = {spec.name: spec.reset * 2 for spec in offer.line_meters.values()}
    rnd = game.new_round(
        shoe=ReportedShoe(decks=max(1, game.deck_count)),
        meters=MemoryMeters(meters),
        players={1: "P1", 2: "P2", 3: "P3"},
    )
    for seat in (1, 2):
        rnd.apply(SenseWager(seat=seat, light=Light.LIT, wager=offer.wager))
    rnd.apply(NoMoreBets(progressive_chips=2))
    assert rnd.phase is Phase.DECLARING
    return rnd


def _hand(rnd: Round, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(cards[: rnd.declared_cards])


def test_some_game_takes_declared_hands() -> None:
    assert DECLARING and set(DECLARING) | set(NOT_DECLARING) == set(PROGRESSIVE_SLUGS)


@pytest.mark.parametrize("slug", DECLARING)
def test_641a_11_c_5_i_every_game_checks_a_declaration_against_its_own_pay_table(
    slug: str,
) -> None:
    rnd = _declaring(slug)
    offer = rnd.declared_offer()
    assert offer is not None and offer == rnd.game.progressive_offers()[0]
    with pytest.raises(IllegalAction):
        rnd.apply(DeclareHand(seat=2, cards=_hand(rnd, NOTHING)))
    assert not any(isinstance(r, HandDeclared) for r in rnd.records)
    (declared,) = rnd.apply(DeclareHand(seat=1, cards=_hand(rnd, SPADES)))
    assert isinstance(declared, HandDeclared)
    assert declared.line in {line.hand for line in offer.table.lines}  # a line of its own table


@pytest.mark.parametrize("slug", DECLARING)
def test_641a_11_c_5_ii_every_game_pays_a_declared_hand_after_the_verification(slug: str) -> None:
    rnd = _declaring(slug)
    offer = rnd.declared_offer()
    assert offer is not None
    (declared,) = rnd.apply(DeclareHand(seat=1, cards=_hand(rnd, SPADES)))
    assert isinstance(declared, HandDeclared)
    rnd.apply(DeclareHand(seat=3, cards=_hand(rnd, HEARTS)))
    assert not any(isinstance(r, ProgressivePaid) for r in rnd.records)
    with pytest.raises(IllegalAction):
        rnd.apply(CloseDeclarations())
    new = rnd.apply(VerifyDeclared(seat=1, by="sue"))
    assert new[0] == DeclarationVerified(seat=1, by="sue", light=Light.LIT)
    (paid,) = [r for r in new if isinstance(r, ProgressivePaid)]
    assert (paid.seat, paid.line) == (1, declared.line) and paid.amount > 0
    dark = rnd.apply(VerifyDeclared(seat=3, by="sue"))  # no chip at seat 3: nothing paid
    assert dark == (DeclarationVerified(seat=3, by="sue", light=Light.DARK),)
    rnd.apply(CloseDeclarations())
    lost = [r for r in rnd.records if isinstance(r, WagerSettled) and r.result is Result.LOSE]
    assert [(r.seat, r.wager) for r in lost] == [(2, offer.wager)]
    assert rnd.phase is Phase.OVER
    stored = [record_from_json(record_to_json(r)) for r in rnd.records]
    assert stored == list(rnd.records)
    rebuilt = Round.rebuild(rnd.game, stored, players=rnd.players)
    assert rebuilt.records == rnd.records and rebuilt.phase is Phase.OVER


@pytest.mark.parametrize("slug", NOT_DECLARING)
def test_641a_11_c_5_i_a_game_without_declared_hands_refuses_a_felt_table(slug: str) -> None:
    with pytest.raises(CroupierError, match="takes no declared hand"):
        get_game(_rules(slug, "felt"))
