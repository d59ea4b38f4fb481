"""The pit summary (the floor stream's version: each table's last event ``seq``) is kept by the
events each commit publishes, not read again from the database for every stream connection
after every command (issue 37: it re-ran a GROUP BY over every table's events each time).  A
process serving only some tables reads the others' counts from the database, shared."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from croupier.server import read_model
from croupier.server.auth import Account, Role
from croupier.server.db import connect
from croupier.server.live_floor import Floor
from croupier.server.live_tables import Txn
from croupier.server.read_model import floor_versions

PLAYER = Account("player1", Role.PLAYER, player_id="P1")
TABLE = "three-card-poker"


@contextmanager
def _statements(floor: Floor) -> Iterator[list[str]]:
    """Every SQL statement ``floor``'s engine runs while inside."""
    seen: list[str] = []

    def record(*args: Any) -> None:
        seen.append(str(args[2]))

    event.listen(floor.engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(floor.engine, "before_cursor_execute", record)


def _sit(floor: Floor, key: str, seat: int) -> None:
    lt = floor.table(TABLE)

    def run(txn: Txn) -> dict[str, Any]:
        return {"seats": floor.registry.sit(txn, lt, PLAYER, seat)}

    floor.commands.transact(PLAYER, key, key, TABLE, run)


def test_pit_version_follows_each_commit_from_memory(floor: Floor) -> None:
    before = floor_versions(floor)
    _sit(floor, "sit", 1)
    with _statements(floor) as seen:
        after = floor_versions(floor)
    assert seen == []  # no database read: the events kept it
    lt = floor.table(TABLE)
    assert after[TABLE] == lt.seq == before.get(TABLE, 0) + 1
    assert {t: n for t, n in after.items() if t != TABLE} == {
        t: n for t, n in before.items() if t != TABLE
    }
    assert floor.reads.pit.version() == sum(after.values())


def test_pit_version_on_load_is_the_databases(floor: Floor, tmp_path: Path) -> None:
    _sit(floor, "sit", 1)
    again = Floor(connect(f"sqlite:///{tmp_path / 'floor.sqlite'}"))
    try:
        again.load()
        assert floor_versions(again) == floor_versions(floor)
    finally:
        again.committer.close()
        again.engine.dispose()


def test_pit_version_of_a_table_another_process_serves_is_read_from_the_database(
    floor: Floor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = next(t.id for t in floor.live_tables() if t.id != TABLE)
    elsewhere = Floor(connect(f"sqlite:///{tmp_path / 'floor.sqlite'}"), tables=frozenset({other}))
    try:
        elsewhere.load()
        _sit(floor, "sit", 1)  # committed by the process serving TABLE
        monkeypatch.setattr(read_model, "FOREIGN_REFRESH", 0.0)
        assert floor_versions(elsewhere)[TABLE] == floor.table(TABLE).seq
    finally:
        elsewhere.committer.close()
        elsewhere.engine.dispose()


def test_pit_state_is_built_once_per_version_for_every_connection(floor: Floor) -> None:
    version, first = floor.reads.pit_state()
    again = floor.reads.pit_state()
    assert again == (version, first) and again[1] is first  # one build, shared
    _sit(floor, "sit", 1)
    later, state = floor.reads.pit_state()
    assert later == version + 1
    table = next(t for t in state["tables"] if t["id"] == TABLE)
    assert table["seats"]["1"] == "P1" and state["tables_seq"][TABLE] == floor.table(TABLE).seq
