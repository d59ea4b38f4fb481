"""Statements every command runs, compiled once and run on the connection's own cursor.

A live command runs about a dozen small statements; through SQLAlchemy's full execution path
(cache key, execution context, events, result set-up) each cost more of the server's CPU than
the database's work (``perf`` on ``bench_server.py``: SQLite itself 3% of the server's CPU,
SQLAlchemy's execution path about half of the writer thread's).  :class:`Prepared` compiles a
Core statement once per dialect (SQLAlchemy's compiler: the same SQL text, the same parameter
order and the same type conversions, e.g. SQLite's text times) and runs it on the DBAPI cursor of
the caller's connection: in the caller's transaction, as the statement it replaces would.  A
driver's error is raised as SQLAlchemy's (:class:`sqlalchemy.exc.DBAPIError`), as
``Connection.execute`` raises it (a busy database stays a 503).

Only plain statements qualify (checked when compiled): no Python-side column defaults, no
expanding ``IN`` lists; a statement that needs them is refused with ``TypeError``.

Rows appended (:meth:`Prepared.append`: an ``INSERT`` of rows nothing reads back in the same
transaction) are written at once, or, inside :meth:`Appends.held`, held back and written with
every other row of their statement before the transaction commits (:meth:`Appends.flush`): on
SQLite, one multi-row ``INSERT`` for many rows.  The group commit holds a batch's appends so
(:mod:`croupier.server.commit`): on SQLite each statement gives up the GIL while the database
works (``sqlite3_step``, ``sqlite3_reset``), and the single writer thread waits to get it back
behind every other busy thread, so a batch's writer spends more time in those waits than in
its own work (``benchmarks/bench_locust.py``, issue 38).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import ClauseElement

__all__ = ["Appends", "Prepared"]

Processor = Callable[[Any], Any] | None


@dataclass(frozen=True)
class _Form:
    """A statement as one dialect runs it: its SQL text, its parameters' names in order
    (positional drivers; ``None``: the driver takes them by name) and their conversions."""

    sql: str
    compiled: Any
    names: tuple[str, ...] | None
    processors: tuple[tuple[str, Callable[[Any], Any]], ...]

    def rows_sql(self, count: int) -> str | None:
        """The statement inserting ``count`` rows at once (its ``VALUES`` group repeated), its
        parameters each row's in turn; ``None`` where the form is not a positional ``INSERT
        ... VALUES (...)`` of one row (a driver taking parameters by name: run once a row)."""
        head, values, group = self.sql.rpartition(" VALUES ")
        if (
            self.names is None
            or not values
            or not head.startswith("INSERT ")
            or not (group.startswith("(") and group.endswith(")"))
            or "(" in group[1:]
        ):
            return None
        return f"{head}{values}{', '.join([group] * count)}"

    def params(self, values: Mapping[str, Any]) -> Any:
        bound = self.compiled.construct_params(values)
        for name, process in self.processors:
            value = bound[name]
            if value is not None:
                bound[name] = process(value)
        if self.names is None:
            return bound
        return tuple(bound[n] for n in self.names)


class Prepared:
    """``statement`` compiled once per dialect (and, for an ``INSERT`` without values, per set
    of columns given), run on the connection's DBAPI cursor."""

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._forms: dict[tuple[str, tuple[str, ...]], _Form] = {}

    def _form(self, dialect: Dialect, keys: tuple[str, ...]) -> _Form:
        form = self._forms.get((dialect.name, keys))
        if form is None:
            compiled: Any = self.statement.compile(dialect=dialect, column_keys=list(keys))
            if (
                getattr(compiled, "insert_prefetch", None)
                or getattr(compiled, "update_prefetch", None)
                or any(b.expanding for b in compiled.binds.values())
            ):
                raise TypeError(f"{compiled.string!r} is not a plain statement")
            names = tuple(compiled.positiontup) if dialect.positional else None
            processors = []
            for name, bind in compiled.binds.items():
                process = bind.type.dialect_impl(dialect).bind_processor(dialect)
                if process is not None:
                    processors.append((compiled.escaped_bind_names.get(name, name), process))
            form = _Form(compiled.string, compiled, names, tuple(processors))
            self._forms[(dialect.name, keys)] = form
        return form

    def run(self, conn: Connection, values: Mapping[str, Any]) -> Any:
        """Execute once with ``values``; the DBAPI cursor (``fetchone``, ``rowcount``)."""
        form = self._form(conn.dialect, tuple(values))
        params = form.params(values)
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute(form.sql, params)
        except conn.dialect.loaded_dbapi.Error as exc:
            raise _wrapped(conn, form.sql, params, exc) from exc
        return cursor

    def first(self, conn: Connection, values: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """The first row the statement returns (a tuple), or ``None``."""
        cursor = self.run(conn, values)
        try:
            row = cursor.fetchone()
        finally:
            cursor.close()
        return tuple(row) if row is not None else None

    def count(self, conn: Connection, values: Mapping[str, Any]) -> int:
        """Execute once; the rows it changed."""
        cursor = self.run(conn, values)
        try:
            return int(cursor.rowcount)
        finally:
            cursor.close()

    def append(self, conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert ``rows`` (an ``INSERT`` whose rows nothing reads back before the transaction
        commits): now, or, where ``conn``'s transaction holds its appends
        (:meth:`Appends.held`), with the transaction's other rows of this statement."""
        held = conn.info.get(_HELD)
        if held is None:
            self.many(conn, rows)
        else:
            held.add(self, rows)

    def many(self, conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Execute once per row (every row with the same keys), in one driver call."""
        if not rows:
            return
        form = self._form(conn.dialect, tuple(rows[0]))
        params = [form.params(r) for r in rows]
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.executemany(form.sql, params)
        except conn.dialect.loaded_dbapi.Error as exc:
            raise _wrapped(conn, form.sql, params, exc) from exc
        finally:
            cursor.close()

    def many_at_once(self, conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """:meth:`many` in as few statements as the driver allows (every row with the same
        keys): multi-row ``INSERT`` statements of :data:`CHUNKS` rows where the form has them
        (:meth:`_Form.rows_sql`), else :meth:`many`."""
        if not rows:
            return
        form = self._form(conn.dialect, tuple(rows[0]))
        if form.rows_sql(1) is None:
            self.many(conn, rows)
            return
        params = [form.params(r) for r in rows]
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            start = 0
            while start < len(params):
                size = next(c for c in CHUNKS if c <= len(params) - start)
                sql = form.rows_sql(size)
                flat = [v for p in params[start : start + size] for v in p]
                try:
                    cursor.execute(sql, flat)
                except conn.dialect.loaded_dbapi.Error as exc:
                    raise _wrapped(conn, str(sql), flat, exc) from exc
                start += size
        finally:
            cursor.close()


_HELD = "croupier.appends"
"""The key of a connection's :class:`Appends` in its ``info`` while held."""

CHUNKS = (64, 32, 16, 8, 4, 2, 1)
"""Rows in one multi-row ``INSERT`` (the largest that fits first): seven statement texts at
most for the driver's statement cache, whatever a batch's count of rows."""


class Appends:
    """The rows a transaction's :meth:`Prepared.append` calls held back, in order, until
    :meth:`flush`; :meth:`mark` and :meth:`back_to` drop a savepoint's rows with it."""

    def __init__(self) -> None:
        self._rows: list[tuple[Prepared, Mapping[str, Any]]] = []

    @contextmanager
    def held(self, conn: Connection) -> Iterator[Appends]:
        """``conn``'s appends held here while the block runs (flush them before it ends)."""
        if _HELD in conn.info:
            raise RuntimeError("the connection's appends are held already")
        conn.info[_HELD] = self
        try:
            yield self
        finally:
            del conn.info[_HELD]

    def add(self, statement: Prepared, rows: Sequence[Mapping[str, Any]]) -> None:
        self._rows.extend((statement, row) for row in rows)

    def mark(self) -> int:
        """Where the rows stand now (a savepoint's start)."""
        return len(self._rows)

    def back_to(self, mark: int) -> None:
        """Drop the rows added since ``mark`` (their savepoint rolled back)."""
        del self._rows[mark:]

    def __len__(self) -> int:
        return len(self._rows)

    def flush(self, conn: Connection) -> None:
        """Write the rows held, each statement's in the order added (a statement's rows with
        the same columns in multi-row ``INSERT`` statements of :data:`CHUNKS` rows where the
        driver takes positional parameters, else once a row); nothing is held after."""
        grouped: dict[tuple[int, tuple[str, ...]], tuple[Prepared, list[Mapping[str, Any]]]] = {}
        for statement, row in self._rows:
            grouped.setdefault((id(statement), tuple(row)), (statement, []))[1].append(row)
        self._rows = []
        for statement, rows in grouped.values():
            statement.many_at_once(conn, rows)


def _wrapped(conn: Connection, sql: str, params: Any, exc: Exception) -> BaseException:
    """The driver's error as ``Connection.execute`` raises it."""
    return DBAPIError.instance(
        sql, params, exc, conn.dialect.loaded_dbapi.Error, dialect=conn.dialect
    )
