"""Engines, the schema, and the transaction shared by a tracked round and its meters (private).

SQLite by default, PostgreSQL (or any SQLAlchemy backend with row locks) by URL.  Every write is
one short transaction: on SQLite it opens with ``BEGIN IMMEDIATE`` (the database write lock is
taken before the first read, so a read-modify-write cannot interleave with another writer; a
busy writer waits up to the connection ``timeout``); elsewhere the meter row is read with
``SELECT ... FOR UPDATE``.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import StaticPool

from croupier.core.errors import InvalidInput
from croupier.store.write_turns import TurnTaking

__all__ = [
    "DEFAULT_URL",
    "error_line",
    "masked_url",
    "open_engine",
    "open_existing",
    "parse_url",
    "shown_url",
    "unreadable",
]

DEFAULT_URL = "sqlite:///croupier.sqlite"
"""The default database: a SQLite file in the working directory."""

SQLITE_TIMEOUT = 30.0
"""Seconds a SQLite writer waits for another writer's lock before giving up."""

BIGINT_MAX = 2**63 - 1

metadata = MetaData()

meters = Table(
    "meters",
    metadata,
    Column("name", String(200), primary_key=True),
    Column("reset", BigInteger, nullable=False),
    Column("rate_num", BigInteger, nullable=False),
    Column("rate_den", BigInteger, nullable=False),
    # The exact amount in cents is ``cents + rem_num / rem_den`` with 0 <= rem_num < rem_den:
    # ``cents`` is what the meter shows (whole cents, rounded down).
    Column("cents", BigInteger, nullable=False),
    Column("rem_num", BigInteger, nullable=False),
    Column("rem_den", BigInteger, nullable=False),
    # § 605a.7(a)(4): the cumulative progressive payout meter (total of jackpots paid, cents).
    Column("paid_total", BigInteger, nullable=False),
    Column("awards", Integer, nullable=False),
    # One configuration per linked meter: the wager amount and pay table beside reset and rate.
    Column("wager", BigInteger, nullable=True),
    Column("paytable", String(40), nullable=True),
    # The hash of the meter's last ledger row (the head of its chain).
    Column("head", String(64), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

meter_ledger = Table(
    "meter_ledger",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("meter", String(200), ForeignKey("meters.name"), nullable=False),
    Column("reason", String(40), nullable=False),
    Column("before", BigInteger, nullable=False),
    Column("after", BigInteger, nullable=False),
    Column("paid", BigInteger, nullable=False),
    # Exact amounts ("p/q" or "n" cents), so the ledger explains every fraction of a cent.
    Column("before_exact", Text, nullable=False),
    Column("after_exact", Text, nullable=False),
    Column("round_id", String(200), nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
    # What the movement was: a contribution's exact amount ("p/q" cents), an award's share of
    # the meter, the configuration a meter was created with (canonical JSON).
    Column("amount", Text, nullable=True),
    Column("share", Text, nullable=True),
    Column("config", Text, nullable=True),
    # SHA-256 over the previous row's hash (of this meter) and this row (croupier.store.chain).
    Column("hash", String(64), nullable=False),
    Index("ix_meter_ledger_meter", "meter", "id"),
    Index("ix_meter_ledger_round", "round_id"),
)

rounds = Table(
    "rounds",
    metadata,
    Column("id", String(200), primary_key=True),
    Column("game", String(100), nullable=False),
    Column("rules", Text, nullable=False),
    Column("players", Text, nullable=False),
    Column("stub_check", String(40), nullable=False),
    # Real play, simulation or training (croupier.core.modes.PlayMode): part of the hashed header.
    Column("mode", String(20), nullable=False),
    Column("status", String(20), nullable=False),
    Column("records", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # SHA-256 of the header (id, game, rules, players, stub check, created_at): the chain's
    # start; ``head`` is the hash of the last record (the chain's end).
    Column("hash", String(64), nullable=False),
    Column("head", String(64), nullable=False),
    # A supervisor's void after a crash: who, and why.
    Column("voided_by", String(200), nullable=True),
    Column("void_reason", Text, nullable=True),
    Index("ix_rounds_status", "status"),
)

round_records = Table(
    "round_records",
    metadata,
    Column("round_id", String(200), ForeignKey("rounds.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(60), nullable=False),
    Column("data", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("hash", String(64), nullable=False),
)

round_shoes = Table(
    # The order of the cards a round deals from, kept apart from its public records: readable
    # by the server side only (never part of a view, a recall or an export).
    "round_shoes",
    metadata,
    Column("round_id", String(200), ForeignKey("rounds.id"), primary_key=True),
    Column("cards", Text, nullable=False),
    Column("taken", Integer, nullable=False),
    Column("decks", Integer, nullable=False),
    Column("stacked", Boolean, nullable=False),
    Column("nonce", String(64), nullable=False),
    # SHA-256 of the order and the nonce: what the server may publish before the deal.
    Column("commitment", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # The shoe a round was dealt from where a table deals one shoe round after round
    # (``dealing_shoes``): its order is revealed when that shoe ends, not with the round.
    Column("shoe_id", String(200), nullable=True),
)

dealing_shoes = Table(
    # A shoe a table deals round after round down to its cut card (baccarat): the order and
    # nonce its rounds' commitment covers, kept secret until ``ended_at``, and where the shoe
    # stands (``state``, JSON: cards taken, rounds dealt, the cut card's stage, the markers).
    "dealing_shoes",
    metadata,
    Column("id", String(200), primary_key=True),
    Column("table_id", String(200), nullable=False),
    Column("number", Integer, nullable=False),
    Column("cards", Text, nullable=False),
    Column("decks", Integer, nullable=False),
    Column("cut_card", Integer, nullable=False),
    Column("nonce", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("state", Text, nullable=False),
    Column("opened_at", DateTime(timezone=True), nullable=False),
    Column("ended_at", DateTime(timezone=True), nullable=True),
    Index("ix_dealing_shoes_table", "table_id", "number"),
)

table_rounds = Table(
    # The rounds a table began (the deck each was dealt from), beside its events: with the
    # rounds' records (stub counts, decks removed) they restore deck life and the stub cadence.
    "table_rounds",
    metadata,
    Column("table_id", String(200), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("round_id", String(200), nullable=True),
    Column("back", String(20), nullable=False),
    Column("deck", Integer, nullable=False),
    Column("stub_check", String(40), nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
)

table_log = Table(
    "table_log",
    metadata,
    Column("table_id", String(200), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(40), nullable=False),
    Column("data", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("hash", String(64), nullable=False),
)


def now() -> datetime:
    return datetime.now(UTC)


def as_utc(value: datetime) -> datetime:
    """SQLite hands back naive datetimes; every stored time is UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def check_bigint(value: int, what: str) -> int:
    if not -BIGINT_MAX <= value <= BIGINT_MAX:
        raise InvalidInput(f"{what} {value} does not fit a 64-bit database integer")
    return value


# --- engines ----------------------------------------------------------------------------------


def _is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def _is_memory(url: Any) -> bool:
    database = url.database
    return (
        database in (None, "", ":memory:")
        or url.query.get("mode") == "memory"
        or str(database).startswith("file::memory:")
    )


def _begin_immediate(conn: Connection) -> None:
    dbapi = conn.connection.dbapi_connection
    # Take transaction control from the sqlite3 module (the SQLAlchemy-documented recipe), then
    # start every transaction with the write lock held: on a file, in this process's writers'
    # turn (croupier.store.write_turns).
    if dbapi is not None and getattr(dbapi, "isolation_level", None) is not None:
        dbapi.isolation_level = None
    if not isinstance(dbapi, TurnTaking):
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        return
    try:
        dbapi.take_turn()
    except sqlite3.OperationalError as exc:
        raise OperationalError("BEGIN IMMEDIATE", None, exc) from None
    try:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    except BaseException:
        dbapi.give_turn()
        raise


def _write_ahead_log(dbapi: Any, record: Any) -> None:
    # A file database keeps a write-ahead log: one sync per commit (still durable when the
    # process is killed), and readers never block the writer.
    cursor = dbapi.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
    finally:
        cursor.close()


def prepare(engine: Engine) -> None:
    """Make ``engine`` ready for croupier: SQLite transactions begin immediately (a file in
    write-ahead-log mode); tables exist."""
    if _is_sqlite(engine) and not event.contains(engine, "begin", _begin_immediate):
        event.listen(engine, "begin", _begin_immediate)
        if not _is_memory(engine.url):
            event.listen(engine, "connect", _write_ahead_log)
    metadata.create_all(engine, checkfirst=True)


def parse_url(url: object) -> Any:
    """``url`` as SQLAlchemy's URL; text that is not one is ``InvalidInput``."""
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url)  # type: ignore[arg-type]
    except (ArgumentError, TypeError):
        raise InvalidInput(f"database URL {str(url)[:80]!r} is not a URL") from None


def error_line(exc: BaseException, limit: int = 160) -> str:
    """The first line of a database error, cut to ``limit`` characters (for a one-line refusal)."""
    return str(exc).splitlines()[0][:limit] if str(exc) else type(exc).__name__


def unreadable(exc: BaseException) -> InvalidInput:
    """The refusal of a database a reading command cannot read as croupier's."""
    return InvalidInput(f"the database cannot be read as croupier's: {error_line(exc, 120)}")


def masked_url(url: object) -> str:
    """``url`` with its password masked (``postgresql://user:***@host/db``), to print."""
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)  # type: ignore[arg-type]
    except (ArgumentError, TypeError, ValueError):
        return str(url)


def shown_url(url: object) -> str:
    """``url`` as an error message quotes it: its password masked, at most 80 characters."""
    return repr(masked_url(url)[:80])


def open_engine(url: str = DEFAULT_URL) -> Engine:
    """An engine for ``url``, configured for croupier (SQLite: busy timeout, ``BEGIN
    IMMEDIATE``; an in-memory SQLite database is one connection, for single-threaded use)."""
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    parsed = parse_url(url)
    try:
        engine = _engine_for(parsed)
    except (ArgumentError, ImportError) as exc:
        raise InvalidInput(f"database URL {shown_url(url)}: {str(exc)[:120]}") from None
    try:
        prepare(engine)
    except SQLAlchemyError as exc:
        # no database there, not one at all, or one that cannot be reached: one line, and
        # nothing else done with it
        engine.dispose()
        reason = error_line(exc)
        raise InvalidInput(f"database {shown_url(url)} cannot be opened: {reason}") from None
    return engine


def _engine_for(parsed: Any) -> Engine:
    if parsed.get_backend_name() == "sqlite":
        connect_args: dict[str, Any] = {}
        if "timeout" not in parsed.query:
            connect_args["timeout"] = SQLITE_TIMEOUT
        if _is_memory(parsed):
            connect_args["check_same_thread"] = False
            engine = create_engine(parsed, connect_args=connect_args, poolclass=StaticPool)
        else:
            connect_args["factory"] = TurnTaking  # writers in turn (write_turns)
            engine = create_engine(parsed, connect_args=connect_args)
    else:
        engine = create_engine(parsed)
    return engine


def open_existing(url: str) -> Engine:
    """An engine on a database that already exists, for reading: nothing is created (no SQLite
    file, no table); a URL that is not one, or names no SQLite file, is ``InvalidInput``."""
    from sqlalchemy.exc import ArgumentError

    parsed = parse_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database in ("", ":memory:") or not Path(database).is_file():
            raise InvalidInput(f"no SQLite database file at {database[:80]!r}")
    try:
        return create_engine(parsed)
    except (ArgumentError, ImportError) as exc:
        raise InvalidInput(f"database URL {shown_url(url)}: {exc}") from None


def database_key(engine: Engine) -> tuple[str, str]:
    """Names the database ``engine`` reaches: equal keys mean the same database."""
    url = engine.url
    if _is_sqlite(engine):
        if _is_memory(url):
            return ("engine", str(id(engine)))
        return ("sqlite", os.path.realpath(str(url.database)))
    return (url.get_backend_name(), url.render_as_string(hide_password=True))


class Database:
    """An engine, owned (created from a URL, disposed by :meth:`close`) or borrowed."""

    def __init__(self, target: str | Engine) -> None:
        if isinstance(target, Engine):
            self.engine = target
            self._owned = False
            prepare(target)
        elif isinstance(target, str):
            self.engine = open_engine(target)
            self._owned = True
        else:
            raise InvalidInput(f"database {target!r} is neither a URL nor an Engine")
        self.key = database_key(self.engine)
        self._reader: Engine | None = None

    def close(self) -> None:
        """Release the connections (only of an engine this object created)."""
        if self._reader is not None and self._reader is not self.engine:
            self._reader.dispose()
        if self._owned:
            self.engine.dispose()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection to read from: the tracked round's open transaction where it writes to
        this database, else a reader that takes no write lock (SQLite: a separate engine
        without ``BEGIN IMMEDIATE``, so a reader never queues behind the writer in WAL mode)."""
        shared = _AMBIENT.get()
        if shared is not None and shared.key == self.key:
            yield shared.conn
            return
        with self._reading().connect() as conn:
            yield conn

    def _reading(self) -> Engine:
        if self._reader is None:
            engine = self.engine
            if _is_sqlite(engine) and not _is_memory(engine.url):
                self._reader = create_engine(
                    engine.url, connect_args={"timeout": SQLITE_TIMEOUT}, pool_size=8
                )
                event.listen(self._reader, "connect", _write_ahead_log)
            else:
                self._reader = engine
        return self._reader

    @contextmanager
    def write(self) -> Iterator[tuple[Connection, str | None]]:
        """A transaction: the tracked round's open one where it writes to this database (with
        the round id), else a new one committed on leaving."""
        shared = _AMBIENT.get()
        if shared is not None and shared.key == self.key:
            yield shared.conn, shared.round_id
            return
        with self.engine.begin() as conn:
            yield conn, None


# --- the transaction a tracked round shares with its meters -----------------------------------


@dataclass(frozen=True, slots=True)
class Shared:
    key: tuple[str, str]
    conn: Connection
    round_id: str


_AMBIENT: ContextVar[Shared | None] = ContextVar("croupier_store_transaction", default=None)


@contextmanager
def shared(key: tuple[str, str], conn: Connection, round_id: str) -> Iterator[None]:
    """While inside, meter changes on the same database join ``conn``'s transaction."""
    token = _AMBIENT.set(Shared(key, conn, round_id))
    try:
        yield
    finally:
        _AMBIENT.reset(token)
