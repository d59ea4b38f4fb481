"""The verified interfaces other objects use instead of a class's private state (issue 37):
each refuses bad input with a typed error and, refused, changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.core.modes import PlayMode
from croupier.games import get_game
from croupier.games.records import NoMoreBets, PlaceWager
from croupier.rules.progressive import MemoryMeters
from croupier.table.shoe import SeededShuffler, Shoe
from croupier.table.table import ManualClock, StoredTable, Table, TableEventKind

START = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)


def _table(clock: ManualClock) -> Table:
    game = get_game("four-card-poker")
    return Table(game, shuffler=SeededShuffler(3), clock=clock, mode=PlayMode.SIMULATION)


def _stored(table: Table) -> StoredTable:
    return StoredTable(
        events=table.events,
        rounds_before=0,
        last_back=None,
        counted={},
        dealt=frozenset(),
        last_deck_removed=False,
    )


def test_attach_meters_refuses_what_is_not_a_meter_bank_and_keeps_the_meters() -> None:
    game = get_game("four-card-poker")
    meters = MemoryMeters()
    rnd = game.new_round(shoe=Shoe.shuffled(SeededShuffler(1)), meters=meters)
    with pytest.raises(InvalidInput, match="are not a MeterBank"):
        rnd.attach_meters({"progressive": 100})  # type: ignore[arg-type]
    assert rnd.meters is meters
    other = MemoryMeters()
    rnd.attach_meters(other)
    assert rnd.meters is other


def test_641a_7_b_unseat_refuses_a_seat_that_has_wagered_and_frees_one_that_has_not() -> None:
    game = get_game("four-card-poker")
    rnd = game.new_round(shoe=Shoe.shuffled(SeededShuffler(1)), players={1: "Ann", 2: "Bob"})
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    with pytest.raises(IllegalAction, match="stays seated"):
        rnd.unseat(1)
    rnd.unseat(2)
    assert dict(rnd.players) == {1: "Ann"}
    rnd.apply(NoMoreBets())
    assert rnd.active_seats == (1,)


def test_reopen_refused_when_the_clock_is_before_the_last_event_changes_nothing() -> None:
    clock = ManualClock(START)
    table = _table(clock)
    table.sit(1, "Ann")
    stored = _stored(table)
    behind = _table(ManualClock(START - timedelta(hours=1)))
    before = (behind.events, behind.seats, behind.rounds_played)
    with pytest.raises(IllegalAction, match="before the last stored event"):
        behind.reopen(stored)
    assert (behind.events, behind.seats, behind.rounds_played) == before


def test_reopen_refuses_events_without_an_opening_and_what_is_not_a_stored_table() -> None:
    table = _table(ManualClock(START))
    stored = _stored(table)
    without = StoredTable(
        events=stored.events[1:],
        rounds_before=0,
        last_back=None,
        counted={},
        dealt=frozenset(),
        last_deck_removed=False,
    )
    with pytest.raises(IllegalAction, match="no opening"):
        table.reopen(without)
    with pytest.raises(InvalidInput, match="is not a StoredTable"):
        table.reopen(table.events)  # type: ignore[arg-type]


def test_reopen_takes_up_the_seats_and_shuffles_each_deck_afresh() -> None:
    clock = ManualClock(START)
    table = _table(clock)
    table.sit(1, "Ann")
    table.sit(3, "Cy")
    table.leave(3)
    clock.advance(timedelta(minutes=5))
    fresh = _table(clock)
    fresh.reopen(_stored(table))
    assert fresh.seats == {1: "Ann"}
    added = fresh.events[len(table.events) :]
    assert [e.kind for e in added] == [TableEventKind.SHUFFLED] * table.rules.decks
