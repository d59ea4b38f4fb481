"""This process's writers to a SQLite file take the write lock first come, first served
(:mod:`croupier.store.write_turns`).

Found by ``benchmarks/bench_locust.py --tables 400``: the players' sign-ins, each a write
transaction, waited in SQLite's busy handler while the group commit's batches followed one
another; the handler sleeps and tries again, so a writer that takes the lock back at once
after each commit kept it, and the sign-ins ran out of their 30 s (a pool timeout, a 500)."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from croupier.server.app import create_app
from croupier.store.database import open_engine
from croupier.store.write_turns import TurnTaking, WriteTurns

HOG_TRANSACTIONS = 150


def _scratch(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS scratch (who TEXT, n INTEGER)")


def _order(engine: Engine) -> list[tuple[str, int]]:
    with engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT who, n FROM scratch ORDER BY rowid").all()
    return [(str(who), int(n)) for who, n in rows]


def test_a_writer_behind_one_that_writes_back_to_back_gets_the_next_turn(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'turns.sqlite'}")
    _scratch(engine)
    started = threading.Event()

    def hog() -> None:
        # as the group commit under a full floor: a transaction, then the next one at once
        for n in range(HOG_TRANSACTIONS):
            with engine.begin() as conn:
                conn.exec_driver_sql("INSERT INTO scratch VALUES ('hog', ?)", (n,))
                started.set()
                time.sleep(0.004)

    thread = threading.Thread(target=hog)
    thread.start()
    try:
        assert started.wait(10)
        with engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO scratch VALUES ('other', 0)")
    finally:
        thread.join()
    order = _order(engine)
    other = order.index(("other", 0))
    # it asked while the hog's first transaction was open: at most the hog's next one (which
    # may have asked just before it) comes between them
    assert other <= 3, f"the other writer waited for {other} of the hog's transactions"
    assert len(order) == HOG_TRANSACTIONS + 1
    engine.dispose()


def test_a_turn_not_given_within_the_timeout_is_sqlites_database_is_locked(
    tmp_path: Path,
) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'turns.sqlite'}?timeout=0.2")
    _scratch(engine)
    holding, release = threading.Event(), threading.Event()

    def holder() -> None:
        with engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO scratch VALUES ('holder', 1)")
            holding.set()
            release.wait(10)

    thread = threading.Thread(target=holder)
    thread.start()
    assert holding.wait(10)
    try:
        with pytest.raises(OperationalError, match="database is locked"), engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO scratch VALUES ('late', 1)")
    finally:
        release.set()
        thread.join()
    # the refused writer took nothing: the next one is served at once
    with engine.begin() as conn:
        conn.exec_driver_sql("INSERT INTO scratch VALUES ('next', 1)")
    assert _order(engine) == [("holder", 1), ("next", 1)]
    engine.dispose()


def test_a_transaction_that_fails_gives_its_turn_back(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'turns.sqlite'}?timeout=0.2")
    _scratch(engine)
    with pytest.raises(ZeroDivisionError), engine.begin() as conn:
        conn.exec_driver_sql("INSERT INTO scratch VALUES ('failed', 1)")
        _ = 1 / 0
    with engine.begin() as conn:  # within 0.2 s, or refused
        conn.exec_driver_sql("INSERT INTO scratch VALUES ('next', 1)")
    assert _order(engine) == [("next", 1)]
    engine.dispose()


def test_every_connection_to_one_file_shares_its_turns(tmp_path: Path) -> None:
    path = tmp_path / "turns.sqlite"
    engine = open_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        dbapi = conn.connection.dbapi_connection
        assert isinstance(dbapi, TurnTaking)
        assert dbapi.turns is TurnTaking.turns_of(str(tmp_path / "." / "turns.sqlite"))
        assert dbapi.turns is not TurnTaking.turns_of(str(tmp_path / "other.sqlite"))
    engine.dispose()


def test_write_turns_are_served_in_the_order_asked() -> None:
    turns = WriteTurns()
    assert turns.take(0)
    served: list[int] = []
    threads = []

    def writer(n: int) -> None:
        assert turns.take(10)
        served.append(n)

    for n in range(5):
        thread = threading.Thread(target=writer, args=(n,))
        thread.start()
        while turns.waiting() < n + 1:  # the next asks only once this one waits
            time.sleep(0.001)
        threads.append(thread)
    for n in range(5):
        turns.give()  # handed to the longest waiting
        while len(served) < n + 1:
            time.sleep(0.001)
    for thread in threads:
        thread.join()
    assert served == [0, 1, 2, 3, 4]
    assert not turns.take(0) and turns.waiting() == 0  # the last holder kept it
    turns.give()
    assert turns.take(0)


def test_a_database_connection_pools_timeout_is_a_503_problem(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'floor.sqlite'}", web=False)

    def busy() -> None:
        raise PoolTimeout("QueuePool limit of size 5 overflow 10 reached, connection timed out")

    app.add_api_route("/api/busy", busy)

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            return await c.get("/api/busy")

    answers: list[httpx.Response] = []  # a thread of its own: no event loop of the caller's
    thread = threading.Thread(target=lambda: answers.append(asyncio.run(ask())))
    thread.start()
    thread.join()
    [answer] = answers
    assert answer.status_code == 503
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.headers["retry-after"] == "1"
    assert "nothing was written" in answer.json()["detail"]
    app.state.floor.close()


def test_a_forked_child_does_not_inherit_its_parents_turns(tmp_path: Path) -> None:
    turns = TurnTaking.turns_of(str(tmp_path / "forked.sqlite"))
    assert turns.take(0)  # held here, as a writer mid-transaction at the fork would
    try:
        child = os.fork()
        if child == 0:  # the child: its own writers' turns, none held
            fresh = TurnTaking.turns_of(str(tmp_path / "forked.sqlite"))
            os._exit(0 if fresh is not turns and fresh.take(0) else 1)
        _, status = os.waitpid(child, 0)
    finally:
        turns.give()
    assert os.waitstatus_to_exitcode(status) == 0
