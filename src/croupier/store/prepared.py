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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import ClauseElement

__all__ = ["Prepared"]

Processor = Callable[[Any], Any] | None


@dataclass(frozen=True)
class _Form:
    """A statement as one dialect runs it: its SQL text, its parameters' names in order
    (positional drivers; ``None``: the driver takes them by name) and their conversions."""

    sql: str
    compiled: Any
    names: tuple[str, ...] | None
    processors: tuple[tuple[str, Callable[[Any], Any]], ...]

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


def _wrapped(conn: Connection, sql: str, params: Any, exc: Exception) -> BaseException:
    """The driver's error as ``Connection.execute`` raises it."""
    return DBAPIError.instance(
        sql, params, exc, conn.dialect.loaded_dbapi.Error, dialect=conn.dialect
    )
