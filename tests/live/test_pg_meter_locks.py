"""Rounds starting at once at tables that share a progressive meter, on PostgreSQL (several
writers, one command each, :func:`croupier.server.commit.for_engine`): none waits on another in
a cycle.  A round's start takes its meters' advisory locks, then reads and funds the meters'
rows.  The round's constructor also locks each meter's row (``SqlMeters.ensure``): were it to
run before the advisory locks, two starts would each hold what the other waits for, and
PostgreSQL would end one of them as a deadlock (found by ``bench_locust.py --processes 2`` at 400
tables: over a thousand in the first minutes of play, each after a second's wait)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from croupier.server.auth import Account, Auth, Role
from croupier.server.db import connect
from croupier.server.demo import demo_rules, setup_demo
from croupier.server.live_floor import Floor
from croupier.server.live_tables import Txn
from live.live_harness import Cluster

SUPERVISOR = Account("supervisor", Role.SUPERVISOR, demo=True)
DEALER = Account("dealer", Role.DEALER, demo=True)
TABLES = 12
WAVES = 4


@pytest.fixture
def pg_floor(pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch) -> Iterator[Floor]:
    monkeypatch.setenv("CROUPIER_ARGON2_PROFILE", "test")
    floor = Floor(connect(pg_cluster.database()))
    floor.load()
    setup_demo(floor, Auth(floor.engine))
    try:
        yield floor
    finally:
        floor.close()
        floor.engine.dispose()


def _create(floor: Floor, name: str, rules: dict[str, Any]) -> None:
    """Table ``name`` with ``rules`` on the floor (its meter made or checked: its row locked)."""

    def create(txn: Txn) -> dict[str, Any]:
        txn.placed.append(floor.registry.create(txn.conn, name, name, dict(rules)))
        floor.cage.create_player(txn.conn, f"P-{name}", name)
        return {}

    floor.commands.transact(SUPERVISOR, f"make-{name}", f"make-{name}", None, create)


def _sit(floor: Floor, name: str) -> None:
    player = Account(f"p-{name}", Role.PLAYER, player_id=f"P-{name}")

    def sit(txn: Txn) -> dict[str, Any]:
        return {"seats": floor.registry.sit(txn, floor.table(name), player, 1)}

    floor.commands.transact(player, f"sit-{name}", f"sit-{name}", name, sit)


def _begin(floor: Floor, name: str) -> None:
    lt = floor.table(name)
    floor.commands.transact(
        DEALER,
        f"round-{name}",
        f"round-{name}",
        name,
        lambda txn: {"rid": floor.rounds.begin_round(txn, lt, None)},
    )


def test_605a_7_round_starts_and_new_tables_sharing_a_meter_never_deadlock(
    pg_floor: Floor,
) -> None:
    """Each wave: rounds start at tables already seated while as many new tables with the same
    meter are made (a new table locks its meter's row after the meter's advisory lock), all at
    once; the new tables are seated and start rounds in the next wave."""
    floor = pg_floor
    rules = demo_rules()["three-card-poker"]
    ready = [f"tcp-0-{n}" for n in range(TABLES)]
    for name in ready:
        _create(floor, name, rules)
        _sit(floor, name)
    meters = {floor.table(name).meters for name in ready}
    assert len(meters) == 1 and meters.pop()  # every table moves the same meter
    errors: list[BaseException] = []

    def run(task: Any, start: threading.Barrier) -> None:
        start.wait()
        try:
            task()
        except BaseException as exc:
            errors.append(exc)

    started: list[str] = []
    for wave in range(1, WAVES + 1):
        made = [f"tcp-{wave}-{n}" for n in range(TABLES)]
        tasks = [lambda n=n: _begin(floor, n) for n in ready]
        tasks += [lambda n=n: _create(floor, n, rules) for n in made]
        start = threading.Barrier(len(tasks))
        threads = [threading.Thread(target=run, args=(task, start)) for task in tasks]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert errors == [], errors[:3]
        started += ready
        for name in made:
            _sit(floor, name)
        ready = made
    assert all(floor.table(name).round is not None for name in started)
