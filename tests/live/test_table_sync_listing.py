"""Two server processes' floors on one PostgreSQL database (two :class:`Floor` objects here,
each with its own engine and listener): the pit and the table list of one show a table the
other moved as it committed it, from the list entry the notification carried, without
rebuilding the table for each change heard (:meth:`TableSync.listed
<croupier.server.table_sync.TableSync.listed>`, issue 38: at 400 tables on two processes the
rebuilds took a fifth of each process's CPU).  A change heard without its entry (a command
that does not hold the table: a cash-in telling the tables its player sits at) is still
listed right, by the rebuild."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from croupier.server.auth import Account, Auth, Role
from croupier.server.db import connect
from croupier.server.demo import setup_demo
from croupier.server.live_floor import Floor
from croupier.server.live_tables import Txn
from live.live_harness import Cluster
from live.test_pit_summary import LINKED, PLAYER, linked_round_steps

SUPERVISOR = Account("supervisor", Role.SUPERVISOR, demo=True)


@pytest.fixture
def floors(pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Floor, Floor]]:
    monkeypatch.setenv("CROUPIER_ARGON2_PROFILE", "test")
    url = pg_cluster.database()
    made: list[Floor] = []
    try:
        for n in range(2):
            floor = Floor(connect(url))
            made.append(floor)
            floor.load()
            if n == 0:
                setup_demo(floor, Auth(floor.engine))  # the first sets the demo floor up
        for floor in made:  # each listener hears the other's commits from here
            assert floor.sync.listening.wait(timeout=30)
        yield made[0], made[1]
    finally:
        for floor in made:
            floor.close()
            floor.engine.dispose()


def _heard(floor: Floor, table_id: str, seq: int) -> None:
    """Wait (5 s at most) until ``floor``'s listener heard ``table_id`` committed to ``seq``."""
    deadline = time.monotonic() + 5
    while floor.table(table_id).heard < seq:
        assert time.monotonic() < deadline, f"{table_id} at {seq} not heard"
        time.sleep(0.01)


def _entry(floor: Floor, table_id: str) -> dict[str, Any]:
    return next(t.model_dump() for t in floor.reads.tables() if t.id == table_id)


def _pit_entry(floor: Floor, table_id: str) -> dict[str, Any]:
    _version, text = floor.reads.pit_message()
    tables = json.loads(text)["data"]["tables"]
    return next(t for t in tables if t["id"] == table_id)


def test_listing_of_a_table_another_process_moved_is_its_committed_entry_without_rebuild(
    floors: tuple[Floor, Floor],
) -> None:
    one, two = floors
    held_before = two.table(LINKED).seq
    phases = []
    for account, key, run in linked_round_steps(one):
        one.commands.transact(account, key, key, LINKED, run)
        _heard(two, LINKED, one.table(LINKED).seq)
        # the table list and the pit show what the first process committed, meters included
        assert _entry(two, LINKED) == _entry(one, LINKED), key
        assert _pit_entry(two, LINKED) == _pit_entry(one, LINKED), key
        phases.append(_entry(two, LINKED)["phase"])
    assert phases[-1] == "decisions" and len(set(phases)) > 2  # the round moved
    # listed from the notifications: the second process did not rebuild the table
    assert two.sync.rebuilds == 0 and two.table(LINKED).seq == held_before
    # a command there rebuilds it first (the version checked under the database's lock)
    lt = two.table(LINKED)

    def check(txn: Txn) -> dict[str, Any]:
        assert lt.round is not None  # rebuilt by now
        return {"n": len(two.rounds.apply(txn, lt, lt.round.parse_decision(1, "check")))}

    two.commands.transact(PLAYER, "check", "check", LINKED, check)
    assert two.sync.rebuilds == 1 and lt.seq > one.table(LINKED).seq
    # and the first process lists it from the second's notification, without a rebuild
    _heard(one, LINKED, lt.seq)
    assert _entry(one, LINKED) == _entry(two, LINKED)
    assert one.sync.rebuilds == 0


def test_listing_heard_without_its_entry_is_rebuilt(floors: tuple[Floor, Floor]) -> None:
    one, two = floors
    lt = one.table(LINKED)
    sit = linked_round_steps(one)[0][2]
    one.commands.transact(PLAYER, "sit", "sit", LINKED, sit)
    _heard(two, LINKED, lt.seq)
    assert _entry(two, LINKED) == _entry(one, LINKED) and two.sync.rebuilds == 0
    # a cash-in tells each table its player sits at (a "chips" event): the command holds no
    # table's lock, so its notification carries no entry and the table is rebuilt to list it
    one.commands.transact(
        SUPERVISOR, "buy", "buy", None, lambda txn: {"b": str(one.cage.buy_in(txn, "P1", 1000))}
    )
    _heard(two, LINKED, lt.seq)
    assert two.sync.listed(two.table(LINKED)) is None
    assert _entry(two, LINKED) == _entry(one, LINKED)
    assert two.sync.rebuilds == 1 and two.table(LINKED).seq == lt.seq
