"""Chip-reading layouts (issue 39): at a table with ``[table] base_wagers = "chip_reading"`` the
sensor device reports the amount of each other wager at each position (:class:`ReadChips`).
The amount is the seat's wager, checked as a wager placed through croupier (the posted limits
with their section, the game's own rules), refused when not allowed; ``0`` takes it down; after
the lock-out a reading is refused and recorded.  For every game of the registry with a
progressive (the sensors); no game is named."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from croupier.core.errors import CroupierError, IllegalAction, InvalidInput
from croupier.games import GAMES, get_game
from croupier.games.records import NoMoreBets, PlaceWager, WagerSettled, record_to_json
from croupier.games.reported_cards import ReportCard
from croupier.games.round import ActorKind, Phase, Round
from croupier.games.sensors import ChipsRead, ChipsRefused, ReadChips
from croupier.rules.progressive import MemoryMeters
from croupier.store.codec import record_from_json
from croupier.table.reported import ReportedShoe
from croupier.table.shoe import SeededShuffler, shoe_cards

RULES = Path(__file__).with_name("rules")


def _rules(slug: str, **table: str) -> dict[str, Any]:
    rules: dict[str, Any] = tomllib.loads((RULES / f"{slug}.toml").read_text(encoding="utf-8"))
    base = {"progressive_wagers": "sensors", "cards": "reader", "base_wagers": "chip_reading"}
    rules["table"] = {**rules.get("table", {}), **base, **table}
    if rules.get("vig", {}).get("collect") == "deferred":  # real cards keep no markers
        rules["vig"] = {**rules["vig"], "collect": "at_payout"}
    return rules


def _with_progressive(slug: str) -> bool:
    return bool(get_game(_rules(slug, base_wagers="placed")).progressive_offers())


SLUGS = [s for s in sorted(GAMES) if _with_progressive(s)]


def _betting(slug: str, **rules: Any) -> Round:
    data = _rules(slug)
    data.update(rules)
    game = get_game(data)
    return game.new_round(
        shoe=ReportedShoe(decks=max(1, game.deck_count)),
        meters=MemoryMeters(),
        players={1: "P1", 2: "P2"},
    )


def _required(rnd: Round) -> tuple[str, ...]:
    return rnd.game.required_wagers


def test_some_games_read_chips() -> None:
    assert len(SLUGS) >= 5


@pytest.mark.parametrize("slug", SLUGS)
def test_a_chip_reading_places_takes_down_and_refuses_a_placed_wager(slug: str) -> None:
    rnd = _betting(slug)
    wager = _required(rnd)[0]
    assert wager in rnd.read_wagers()
    assert not set(rnd.sensed_wagers()) & rnd.read_wagers()  # the progressives: by light
    assert not rnd.game.decision_wagers & rnd.read_wagers()  # a Play stays a decision
    with pytest.raises(IllegalAction, match="read from the chips"):
        rnd.apply(PlaceWager(seat=1, wager=wager, amount=500))
    (read,) = rnd.apply(ReadChips(seat=1, wager=wager, amount=500))
    assert read == ChipsRead(seat=1, wager=wager, amount=500)
    assert rnd.stakes[1][wager] == 500
    with pytest.raises(IllegalAction, match="taken off"):
        rnd.apply(ReadChips(seat=1, wager=wager, amount=1000))  # a changed stack: off first
    rnd.apply(ReadChips(seat=1, wager=wager, amount=0))
    assert wager not in rnd.stakes.get(1, {})
    with pytest.raises(IllegalAction, match=r"no \w+ wager to take down"):
        rnd.apply(ReadChips(seat=1, wager=wager, amount=0))
    with pytest.raises(InvalidInput):
        rnd.apply(ReadChips(seat=1, wager=rnd.sensed_wagers()[0], amount=100))


@pytest.mark.parametrize("slug", SLUGS)
def test_a_chip_reading_outside_the_posted_limits_is_refused_as_a_placed_wager(slug: str) -> None:
    """The same refusal, with the same section (where the chapter gives one), as a wager of
    that amount placed through croupier at a table without the layout."""
    wager = _required(_betting(slug))[0]
    limits = {wager: {"min": 500, "max": 5000}}
    rnd = _betting(slug, limits=limits)
    placed = _betting(slug, limits=limits, table={**_rules(slug)["table"], "base_wagers": "placed"})
    before = list(rnd.records)
    with pytest.raises(IllegalAction) as refused:
        rnd.apply(ReadChips(seat=1, wager=wager, amount=100))
    with pytest.raises(IllegalAction) as as_placed:
        placed.apply(PlaceWager(seat=1, wager=wager, amount=100))
    assert (refused.value.message, refused.value.section) == (
        as_placed.value.message,
        as_placed.value.section,
    )
    assert list(rnd.records) == before and 1 not in rnd.stakes
    with pytest.raises(IllegalAction) as unseated:
        rnd.apply(ReadChips(seat=4, wager=wager, amount=500))
    assert unseated.value.section == rnd.sections["seated"]


@pytest.mark.parametrize("slug", SLUGS)
def test_a_chip_reading_after_the_lock_out_is_refused_and_recorded(slug: str) -> None:
    rnd = _betting(slug)
    for wager in _required(rnd):
        rnd.apply(ReadChips(seat=1, wager=wager, amount=500))
    rnd.apply(NoMoreBets(progressive_chips=0))
    stakes = {s: dict(w) for s, w in rnd.stakes.items()}
    wager = _required(rnd)[0]
    (late,) = rnd.apply(ReadChips(seat=2, wager=wager, amount=500))
    assert isinstance(late, ChipsRefused)
    assert (late.seat, late.wager, late.amount) == (2, wager, 500)
    assert late.section == rnd.sections["no_more_bets"] and late.phase == rnd.phase.value
    assert {s: dict(w) for s, w in rnd.stakes.items()} == stakes
    stored = [record_from_json(record_to_json(r)) for r in rnd.records]
    rebuilt = Round.rebuild(rnd.game, stored, players=rnd.players)
    assert rebuilt.records == rnd.records


@pytest.mark.parametrize("slug", SLUGS)
def test_a_round_of_read_wagers_and_reported_cards_settles_every_wager(slug: str) -> None:
    rnd = _betting(slug)
    for seat in (1, 2):
        for wager in _required(rnd):
            rnd.apply(ReadChips(seat=seat, wager=wager, amount=500))
    rnd.apply(NoMoreBets(progressive_chips=0))
    assert rnd.phase is not Phase.BETTING
    cards = iter(SeededShuffler(3).shuffle(shoe_cards(max(1, rnd.game.deck_count))))
    while not rnd.is_over:
        actor = rnd.to_act()
        if rnd.phase is Phase.DEALING:
            rnd.apply(ReportCard(card=next(cards)))
        elif actor.kind is ActorKind.SEAT and actor.seat is not None:
            rnd.apply(next(iter(rnd.decision_candidates(actor.seat))))
        else:
            rnd.run_dealer()
    assert rnd.phase is Phase.OVER
    settled = {(r.seat, r.wager) for r in rnd.records if isinstance(r, WagerSettled)}
    assert {(seat, w) for seat in (1, 2) for w in _required(rnd)} <= settled


@pytest.mark.parametrize(
    ("table", "why"),
    [({"progressive_wagers": "placed"}, "needs progressive_wagers"), ({"cards": "felt"}, "felt")],
)
def test_a_chip_reading_layout_needs_the_sensors_and_cards_croupier_sees(
    table: dict[str, str], why: str
) -> None:
    with pytest.raises(CroupierError, match=why):
        get_game(_rules(SLUGS[0], **table))
