"""The pit summary (the floor stream's version: each table's last event ``seq``) is kept by the
events each commit publishes, not read again from the database for every stream connection
after every command (issue 37: it re-ran a GROUP BY over every table's events each time).  A
process serving only some tables reads the others' counts from the database, shared."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from croupier.games.records import NoMoreBets, PlaceWager
from croupier.games.round import Phase
from croupier.server import read_model
from croupier.server.auth import Account, Role
from croupier.server.db import connect
from croupier.server.live_floor import Floor
from croupier.server.live_tables import Txn
from croupier.server.read_model import floor_versions

PLAYER = Account("player1", Role.PLAYER, player_id="P1")
TABLE = "three-card-poker"
DEALING = (Phase.DEALING, Phase.DECISIONS)
LINKED, METER = "ultimate-texas-holdem", "stud-mega"


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


def test_pit_message_is_built_once_per_version_for_every_connection(floor: Floor) -> None:
    version, first = floor.reads.pit_message()
    again = floor.reads.pit_message()
    assert again == (version, first) and again[1] is first  # one build, shared
    _sit(floor, "sit", 1)
    later, text = floor.reads.pit_message()
    assert later == version + 1
    message = json.loads(text)
    assert message["seq"] == later and message["type"] == "floor"
    state = message["data"]
    table = next(t for t in state["tables"] if t["id"] == TABLE)
    assert table["seats"]["1"] == "P1" and state["tables_seq"][TABLE] == floor.table(TABLE).seq


def linked_round_steps(floor: Floor) -> list[tuple[Account, str, Callable[[Txn], dict[str, Any]]]]:
    """A round's commands at the Ultimate Texas Hold 'Em table, whose progressive meter the
    Mississippi Stud table's wagers move too: a seat taken, the round opened, an Ante, a Blind
    and a progressive wager, "no more bets" and the deal (each command's account, its key and
    what it runs)."""
    lt = floor.table(LINKED)
    dealer = Account("dealer", Role.DEALER, demo=True)
    wagers = [
        PlaceWager(seat=1, wager=w, amount=a)
        for w, a in (("ante", 500), ("blind", 500), ("progressive", 100))
    ]
    chips = 1  # the progressive chip the dealer collects
    return [
        (PLAYER, "sit", lambda txn: {"seats": floor.registry.sit(txn, lt, PLAYER, 1)}),
        (dealer, "round", lambda txn: {"rid": floor.rounds.begin_round(txn, lt, None)}),
        *[
            (PLAYER, f"w{n}", lambda txn, w=w: {"n": len(floor.rounds.apply(txn, lt, w))})
            for n, w in enumerate(wagers)
        ],
        (
            dealer,
            "nmb",
            lambda txn: {
                "n": len(floor.rounds.apply(txn, lt, NoMoreBets(progressive_chips=chips)))
            },
        ),
        (dealer, "deal", lambda txn: {"n": len(floor.rounds.dealer_steps(txn, lt, DEALING))}),
    ]


def test_pit_message_equals_the_floor_built_whole(floor: Floor) -> None:
    """Each table's part is kept from earlier messages until the table changes: after each
    command of a round (a progressive wager moving a meter other tables show), the message
    equals the floor built from nothing (every table's list entry, the meters, each table's
    seq)."""
    steps = linked_round_steps(floor)
    meter = floor.reads.meters.snapshot()[METER]
    floor.reads.pit_message()  # every table's part kept from here
    seen = []
    for account, key, run in steps:
        floor.commands.transact(account, key, key, LINKED, run)
        version, text = floor.reads.pit_message()
        whole: dict[str, Any] = {
            "tables": [t.model_dump() for t in floor.reads.tables()],
            "meters": floor.reads.meters.snapshot(),
            "tables_seq": floor_versions(floor),
        }
        assert json.loads(text) == {"seq": version, "type": "floor", "data": whole}, key
        seen.append(next(t["phase"] for t in whole["tables"] if t["id"] == LINKED))
    assert seen[-1] == "decisions" and len(set(seen)) > 2  # the round moved through phases
    assert floor.reads.meters.snapshot()[METER] > meter  # the meter moved with the wager
