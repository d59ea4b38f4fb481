"""The statements every live command runs go to the connection's cursor
(:class:`croupier.store.prepared.Prepared`): on both backends they store and read what
``Connection.execute`` does, in the caller's transaction, and a driver's error arrives as
SQLAlchemy's (a busy database stays a 503, a duplicate an ``IntegrityError``).  Rows appended
while a transaction holds its appends (:class:`croupier.store.prepared.Appends`) are written
together, in order, before it commits; a savepoint's rows go with it."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    Table,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from croupier.server.db import connect
from croupier.store.prepared import Appends, Prepared
from croupier.store.schema import chip_accounts, idempotency

AT = datetime(2026, 12, 6, 10, 30, 15, 123456, tzinfo=UTC)

_ADD = Prepared(
    update(chip_accounts)
    .where(chip_accounts.c.name == bindparam("b_name"))
    .values(num=chip_accounts.c.num + bindparam("b_delta"), updated_at=bindparam("b_at"))
    .returning(chip_accounts.c.num)
)
_REMEMBER = Prepared(insert(idempotency))


def _remembered(keys: range | list[str]) -> list[dict[str, object]]:
    return [
        {
            "key": f"k{k:03}" if isinstance(k, int) else k,
            "username": "ana",
            "request": "r",
            "status": 200,
            "response": "{}",
            "at": AT,
        }
        for k in keys
    ]


def test_prepared_rows_read_back_as_connection_execute_wrote_them(db_url: str) -> None:
    engine = connect(db_url)
    try:
        with engine.begin() as conn:
            _REMEMBER.many(
                conn,
                [
                    {
                        "key": k,
                        "username": "ana",
                        "request": "r",
                        "status": 200,
                        "response": '{"señor": "♠"}',
                        "at": AT,
                    }
                    for k in ("k1", "k2")
                ],
            )
            conn.execute(
                insert(chip_accounts),
                {"name": "player:ana", "num": 500, "den": 1, "updated_at": AT},
            )
            assert _ADD.first(conn, {"b_name": "player:ana", "b_delta": -120, "b_at": AT}) == (380,)
            assert _ADD.first(conn, {"b_name": "player:nobody", "b_delta": 1, "b_at": AT}) is None
        with engine.connect() as conn:
            rows = conn.execute(select(idempotency).order_by(idempotency.c.key)).all()
            account = conn.execute(select(chip_accounts)).one()
        assert [(r.key, r.response) for r in rows] == [
            ("k1", '{"señor": "♠"}'),
            ("k2", '{"señor": "♠"}'),
        ]
        assert {r.at.replace(tzinfo=UTC) for r in rows} == {AT}
        assert (account.num, account.updated_at.replace(tzinfo=UTC)) == (380, AT)
    finally:
        engine.dispose()


def test_prepared_statement_rolls_back_with_its_transaction(db_url: str) -> None:
    engine = connect(db_url)
    try:
        with pytest.raises(RuntimeError), engine.begin() as conn:
            _REMEMBER.many(
                conn,
                [
                    {
                        "key": "gone",
                        "username": "ana",
                        "request": "r",
                        "status": 200,
                        "response": "{}",
                        "at": AT,
                    }
                ],
            )
            raise RuntimeError("the command failed after its statement")
        with engine.connect() as conn:
            assert conn.execute(select(idempotency)).all() == []
    finally:
        engine.dispose()


def test_prepared_duplicate_key_is_sqlalchemys_integrity_error(db_url: str) -> None:
    engine = connect(db_url)
    row = {"key": "k", "username": "ana", "request": "r", "status": 200, "response": "{}", "at": AT}
    try:
        with pytest.raises(IntegrityError), engine.begin() as conn:
            _REMEMBER.many(conn, [row])
            _REMEMBER.many(conn, [row])
    finally:
        engine.dispose()


def test_prepared_refuses_a_statement_with_python_side_defaults() -> None:
    counted = Table("counted", MetaData(), Column("n", Integer, default=7), Column("m", Integer))
    engine = create_engine("sqlite://")
    try:
        with engine.begin() as conn, pytest.raises(TypeError, match="not a plain statement"):
            Prepared(insert(counted)).many(conn, [{"m": 1}])
    finally:
        engine.dispose()


def test_appends_held_are_written_in_order_before_the_commit_a_savepoints_dropped(
    db_url: str,
) -> None:
    engine = connect(db_url)
    try:
        with engine.begin() as conn:
            appends = Appends()
            with appends.held(conn):
                _REMEMBER.append(conn, _remembered(range(0, 40)))
                mark = appends.mark()
                _REMEMBER.append(conn, _remembered(range(40, 45)))  # its savepoint rolls back
                appends.back_to(mark)
                _REMEMBER.append(conn, _remembered(range(45, 75)))
                # held: not in the transaction yet, not even for itself
                assert conn.execute(select(func.count()).select_from(idempotency)).scalar() == 0
                appends.flush(conn)
                assert len(appends) == 0
        with engine.connect() as conn:
            keys = [r.key for r in conn.execute(select(idempotency.c.key).order_by("key"))]
        assert keys == [f"k{k:03}" for k in [*range(0, 40), *range(45, 75)]]
    finally:
        engine.dispose()


def test_appends_held_a_duplicate_fails_the_flush_and_nothing_commits(db_url: str) -> None:
    engine = connect(db_url)
    try:
        with pytest.raises(IntegrityError), engine.begin() as conn:
            appends = Appends()
            with appends.held(conn):
                _REMEMBER.append(conn, _remembered(["same", "other"]))
                _REMEMBER.append(conn, _remembered(["same"]))
                appends.flush(conn)
        with engine.connect() as conn:
            assert conn.execute(select(idempotency)).all() == []
    finally:
        engine.dispose()


def test_append_outside_held_appends_writes_at_once_and_holding_twice_is_refused(
    db_url: str,
) -> None:
    engine = connect(db_url)
    try:
        with engine.begin() as conn:
            _REMEMBER.append(conn, _remembered(["now"]))
            assert conn.execute(select(func.count()).select_from(idempotency)).scalar() == 1
            appends = Appends()
            with (
                appends.held(conn),
                pytest.raises(RuntimeError, match="held already"),
                Appends().held(conn),
            ):
                pass
            _REMEMBER.append(conn, _remembered(["after"]))  # no longer held: at once
            assert conn.execute(select(func.count()).select_from(idempotency)).scalar() == 2
    finally:
        engine.dispose()


def test_appends_on_sqlite_are_multi_row_inserts_of_the_chunks_sizes(tmp_path: Path) -> None:
    """100 rows held: one INSERT of 64 rows, one of 32, one of 4 (each statement gives the GIL
    up while SQLite works: three times, not a hundred)."""
    engine = connect(f"sqlite:///{tmp_path / 'appends.sqlite'}")
    traced: list[str] = []

    def trace(dbapi: sqlite3.Connection, _record: object) -> None:
        dbapi.set_trace_callback(traced.append)

    event.listen(engine, "connect", trace)
    try:
        with engine.begin() as conn:
            appends = Appends()
            with appends.held(conn):
                for start in range(0, 100, 10):
                    _REMEMBER.append(conn, _remembered(range(start, start + 10)))
                traced.clear()
                appends.flush(conn)
        inserts = [t for t in traced if t.startswith("INSERT INTO idempotency")]
        assert [t.count("), (") + 1 for t in inserts] == [64, 32, 4]
        with engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(idempotency)).scalar() == 100
    finally:
        engine.dispose()
