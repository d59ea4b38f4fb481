"""Declared winning hands at a felt table for every game of the registry with a progressive
(issue 39): the declaration checked against the game's own progressive pay table, the
supervisor's verification against the light, then the meter pays; the audit rebuilds the
round, for each progressive wager of each game (Let It Ride's two).  No game is named: the games
come from the registry, their rules from ``tests/rules/<slug>.toml``."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from croupier.core.cards import Card, parse_cards
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games import GAMES, get_game
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
OFFERS = [
    (slug, offer.wager)
    for slug in PROGRESSIVE_SLUGS
    for offer in get_game(_rules(slug, "shuffle")).progressive_offers()
]
"""Each progressive wager of each game of the registry (Let It Ride's two)."""
SEVERAL = [s for s in PROGRESSIVE_SLUGS if sum(slug == s for slug, _ in OFFERS) > 1]
"""The games whose positions have several progressive wagers (Let It Ride)."""


def _declaring(slug: str, seats: tuple[int, ...] = (1, 2)) -> Round:
    """Seats 1-3, the sensors of every progressive wager lit at ``seats``, the count agreed:
    declaring."""
    game = get_game(_rules(slug, "felt"))
    offers = game.progressive_offers()
    meters = {spec.name: spec.reset * 2 for offer in offers for spec in offer.line_meters.values()}
    rnd = game.new_round(
        shoe=ReportedShoe(decks=max(1, game.deck_count)),
        meters=MemoryMeters(meters),
        players={1: "P1", 2: "P2", 3: "P3"},
    )
    for seat in seats:
        for offer in offers:
            rnd.apply(SenseWager(seat=seat, light=Light.LIT, wager=offer.wager))
    rnd.apply(NoMoreBets(progressive_chips=len(seats) * len(offers)))
    assert rnd.phase is Phase.DECLARING
    return rnd


def _hand(rnd: Round, wager: str, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(cards[: rnd.declared_cards[wager]])


def test_641a_11_c_5_i_every_progressive_wager_of_every_game_takes_a_declared_hand() -> None:
    assert len(OFFERS) > len(PROGRESSIVE_SLUGS) >= 5
    for slug, wager in OFFERS:
        assert GAMES[slug].round_class.declared_cards[wager] > 0, (slug, wager)
        get_game(_rules(slug, "felt"))  # a felt table of it is accepted


@pytest.mark.parametrize(("slug", "wager"), OFFERS)
def test_641a_11_c_5_i_every_game_checks_a_declaration_against_its_own_pay_table(
    slug: str, wager: str
) -> None:
    rnd = _declaring(slug)
    offer = rnd.declared_offer(wager)
    assert offer is not None
    assert offer == next(o for o in rnd.game.progressive_offers() if o.wager == wager)
    with pytest.raises(IllegalAction) as refused:
        rnd.apply(DeclareHand(seat=2, cards=_hand(rnd, wager, NOTHING), wager=wager))
    assert refused.value.section == rnd.sections["declared_hand"]
    assert not any(isinstance(r, HandDeclared) for r in rnd.records)
    (declared,) = rnd.apply(DeclareHand(seat=1, cards=_hand(rnd, wager, SPADES)))
    assert isinstance(declared, HandDeclared) and declared.wager == wager  # found by its cards
    assert declared.line in {line.hand for line in offer.table.lines}  # a line of its own table
    with pytest.raises(IllegalAction, match="already declared"):
        rnd.apply(DeclareHand(seat=1, cards=_hand(rnd, wager, HEARTS), wager=wager))


@pytest.mark.parametrize(("slug", "wager"), OFFERS)
def test_641a_11_c_5_ii_every_game_pays_a_declared_hand_after_the_verification(
    slug: str, wager: str
) -> None:
    rnd = _declaring(slug)
    (declared,) = rnd.apply(DeclareHand(seat=1, cards=_hand(rnd, wager, SPADES), wager=wager))
    assert isinstance(declared, HandDeclared)
    rnd.apply(DeclareHand(seat=3, cards=_hand(rnd, wager, HEARTS), wager=wager))
    assert not any(isinstance(r, ProgressivePaid) for r in rnd.records)
    with pytest.raises(IllegalAction) as waiting:
        rnd.apply(CloseDeclarations())
    assert waiting.value.section == rnd.sections["declared_light"]
    new = rnd.apply(VerifyDeclared(seat=1, by="sue"))
    assert new[0] == DeclarationVerified(seat=1, by="sue", light=Light.LIT, wager=wager)
    (paid,) = [r for r in new if isinstance(r, ProgressivePaid)]
    assert (paid.seat, paid.line) == (1, declared.line) and paid.amount > 0
    dark = rnd.apply(VerifyDeclared(seat=3, by="sue"))  # no chip at seat 3: nothing paid
    assert dark == (DeclarationVerified(seat=3, by="sue", light=Light.DARK, wager=wager),)
    rnd.apply(CloseDeclarations())
    lost = [r for r in rnd.records if isinstance(r, WagerSettled) and r.result is Result.LOSE]
    offered = [o.wager for o in rnd.game.progressive_offers()]
    # every wager not won loses: seat 2's of each progressive, seat 1's of the others
    assert sorted((r.seat, r.wager) for r in lost) == sorted(
        [(2, w) for w in offered] + [(1, w) for w in offered if w != wager]
    )
    envy = [r for r in rnd.records if isinstance(r, EnvyPaid)]
    # an Envy Bonus for another player's verified hand, to a seat holding the wager, never for
    # the seat's own hand (§ 641a.11(c)(5)(v))
    assert {(r.seat, r.for_seat) for r in envy} <= {(1, 3), (2, 1), (2, 3)}
    assert rnd.phase is Phase.OVER
    stored = [record_from_json(record_to_json(r)) for r in rnd.records]
    assert stored == list(rnd.records)
    rebuilt = Round.rebuild(rnd.game, stored, players=rnd.players)
    assert rebuilt.records == rnd.records and rebuilt.phase is Phase.OVER


@pytest.mark.parametrize("slug", SEVERAL)
def test_641a_11_c_5_ii_a_seat_declares_a_hand_for_each_of_its_progressive_wagers(
    slug: str,
) -> None:
    """Where a position has several progressive wagers (Let It Ride's Three- and Five-Card),
    the seat's hand of each is declared (found by its number of cards), each verified against
    its own light and paid from its own meter."""
    rnd = _declaring(slug, seats=(1,))
    wagers = [o.wager for o in rnd.declared_offers()]
    declared = {}
    for wager in wagers:
        (record,) = rnd.apply(DeclareHand(seat=1, cards=_hand(rnd, wager, SPADES)))
        assert isinstance(record, HandDeclared)
        declared[record.wager] = record
    assert sorted(declared) == sorted(wagers)
    assert rnd.declared_seats() == {"1": False}
    meters = set()
    for n, wager in enumerate(wagers):  # named, or the seat's next in the game's order
        named = wager if n else ""
        new = rnd.apply(VerifyDeclared(seat=1, by="sue", wager=named))
        assert isinstance(new[0], DeclarationVerified) and new[0].wager == wager
        (paid,) = [r for r in new if isinstance(r, ProgressivePaid)]
        assert paid.line == declared[wager].line
        meters.add(paid.meter)
    assert len(meters) == len(wagers)  # each from its own meter
    assert rnd.declared_seats() == {"1": True}
    rnd.apply(CloseDeclarations())
    rebuilt = Round.rebuild(rnd.game, list(rnd.records), players=rnd.players)
    assert rebuilt.records == rnd.records


@pytest.mark.parametrize("slug", PROGRESSIVE_SLUGS)
def test_641a_11_c_5_i_a_declared_hand_of_no_wager_size_is_refused(slug: str) -> None:
    rnd = _declaring(slug)
    sizes = set(rnd.declared_cards.values())
    wrong = next(n for n in range(2, 8) if n not in sizes)
    with pytest.raises(InvalidInput, match=f"not {wrong}"):
        rnd.apply(DeclareHand(seat=1, cards=tuple(SPADES[:wrong])))
    assert not any(isinstance(r, HandDeclared) for r in rnd.records)
