"""The statements every live command runs go to the connection's cursor
(:class:`croupier.store.prepared.Prepared`): on both backends they store and read what
``Connection.execute`` does, in the caller's transaction, and a driver's error arrives as
SQLAlchemy's (a busy database stays a 503, a duplicate an ``IntegrityError``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    Table,
    bindparam,
    create_engine,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from croupier.server.db import connect
from croupier.store.prepared import Prepared
from croupier.store.schema import chip_accounts, idempotency

AT = datetime(2026, 12, 6, 10, 30, 15, 123456, tzinfo=UTC)

_ADD = Prepared(
    update(chip_accounts)
    .where(chip_accounts.c.name == bindparam("b_name"))
    .values(num=chip_accounts.c.num + bindparam("b_delta"), updated_at=bindparam("b_at"))
    .returning(chip_accounts.c.num)
)
_REMEMBER = Prepared(insert(idempotency))


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
