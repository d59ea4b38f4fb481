"""Table events persist (issue 13): a table's events and the rounds it began are stored, so
after a restart its deck life (§ 641a.3(c)), stub-count cadence (§ 641a.8(f)), seats, round
numbering and two-deck rotation (§ 641a.3(b)) carry on as if it had never stopped."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from croupier.audit.chains import verify
from croupier.core.errors import IllegalAction
from croupier.core.modes import PlayMode
from croupier.games import get_game
from croupier.store import RoundStore, SqlMeters, TableEventStore
from croupier.table.shoe import SeededShuffler
from croupier.table.table import ManualClock, Table, TableEventKind
from store_play import drive

START = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)


def _game(decks: int) -> Any:
    shuffle = "automated" if decks == 2 else "manual"
    table = {"decks": decks, "shuffle": shuffle, "deal": "manual_shoe"}
    return get_game({"game": "four-card-poker", "table": table})


def _table(decks: int, clock: ManualClock, seed: int) -> Table:
    return Table(
        _game(decks), shuffler=SeededShuffler(seed), clock=clock, stub_every=3,
        mode=PlayMode.SIMULATION,
    )  # fmt: skip


def _round(table: Table, store: RoundStore, rid: str, rng: random.Random) -> tuple[Any, ...]:
    rnd = table.new_round()
    drive(store.track(rid, rnd), rnd, rng, seats=tuple(table.seats), irregular=0)
    played = table.history[-1]
    return (played.number, played.back, played.deck, played.stub_check)


@pytest.mark.parametrize("decks", [1, 2])
def test_641a_3_c_641a_8_f_deck_life_and_stub_cadence_survive_a_restart(
    tmp_path: Path, decks: int
) -> None:
    url = f"sqlite:///{tmp_path / 'casino.sqlite'}"
    clock = ManualClock(START)
    with SqlMeters(url) as meters, RoundStore(url) as store, TableEventStore(url) as events:
        table = _table(decks, clock, 1)
        table.sit(1, "Ann")
        table.sit(2, "Bob")
        events.save("T1", table)
        rng = random.Random(4)
        for n in range(1, 5):
            clock.advance(timedelta(hours=1))
            _round(table, store, f"T1-{n}", rng)
            events.save("T1", table, round_id=f"T1-{n}")
        table.leave(2)
        events.save("T1", table)
        # The process restarts: the table comes back from the store; the original goes on
        # beside it as the reference of what should happen next.
        later = ManualClock(clock.now() + timedelta(minutes=5))
        clock.advance(timedelta(minutes=5))
        restored = events.restore(
            "T1", _game(decks), rounds=store, shuffler=SeededShuffler(99), clock=later,
            meters=meters, mode=PlayMode.SIMULATION, stub_every=3,
        )  # fmt: skip
        assert restored.seats == table.seats == {1: "Ann"}
        assert restored.rounds_played == table.rounds_played == 4
        reshuffled = restored.events[len(table.events) :]
        assert [e.kind for e in reshuffled] == [TableEventKind.SHUFFLED] * decks
        for n in range(5, 12):
            clock.advance(timedelta(hours=1))
            later.advance(timedelta(hours=1))
            expected = _round(table, store, f"T1-{n}", random.Random(n))
            assert _round(restored, store, f"R1-{n}", random.Random(n)) == expected
        changes = [e for e in restored.events if e.kind is TableEventKind.DECK_CHANGED]
        assert changes and changes[0].round == next(
            e.round for e in table.events if e.kind is TableEventKind.DECK_CHANGED
        )
        events.save("T1-restored", restored)
    assert verify(url).ok


def test_a_table_without_stored_events_is_not_restored(tmp_path: Path) -> None:
    with (
        TableEventStore(f"sqlite:///{tmp_path / 'c.sqlite'}") as events,
        pytest.raises(IllegalAction, match="no stored opening"),
    ):
        events.restore("T9", _game(1), shuffler=SeededShuffler(1), mode=PlayMode.SIMULATION)
