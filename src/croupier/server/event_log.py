"""The event log: every table's stream of committed events, numbered per table.

A command's events (:meth:`Txn.emit <croupier.server.live_tables.Txn.emit>`) are written in
its transaction by :meth:`EventLog.write`; once that transaction has committed,
:meth:`EventLog.publish` hands them to their table's recent events (which the streams read
without the database), to every listener (the read model's pit summary) and wakes the streams
waiting on them.  :meth:`EventLog.events` reads a table's committed events after a ``seq``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Connection, func, insert, select

from croupier.server.live_tables import LiveTable, Notifier, Txn
from croupier.store import Database, now
from croupier.store.prepared import Prepared
from croupier.store.schema import table_events

__all__ = ["FLOOR", "Event", "EventLog", "Written"]

FLOOR = ""
"""The stream id of floor-level events (the pit stream's wake-ups)."""

Event = tuple[int, str, dict[str, Any], str | None]
"""A committed event: ``(seq, type, data, round_id)``."""

Written = dict[str, list[Event]]
"""A command's events by table, numbered."""

_INSERT_EVENTS = Prepared(insert(table_events))


class EventLog:
    """The tables' event streams: written with each command, published after its commit."""

    def __init__(self, db: Database, tables: Callable[[str], LiveTable | None]) -> None:
        """``tables``: a table by id (``None`` where this process does not serve it)."""
        self.db = db
        self._table = tables
        self.notifier = Notifier()
        self._listeners: list[Callable[[Written], None]] = []
        self.announce: Callable[[Connection, LiveTable, Txn], None] | None = None
        """Called in a command's transaction with each table it wrote events of (at its last
        ``seq``) and the transaction (PostgreSQL: a ``NOTIFY`` other server processes hear once
        it commits, :mod:`croupier.server.table_sync`)."""

    def listen(self, listener: Callable[[Written], None]) -> None:
        """``listener(written)`` after each commit, before the streams wake (in the writer's
        thread: keep it short)."""
        self._listeners.append(listener)

    def write(self, txn: Txn) -> Written:
        """Number the events ``txn`` emitted (each table's ``seq`` goes on) and insert them in
        its transaction; the events as numbered (:meth:`publish` them once it committed)."""
        at = now()
        written: Written = {}
        for stream, events in txn.events.items():
            lt = self._table(stream)
            assert lt is not None, f"an event of table {stream!r}, which this floor does not serve"
            rows = []
            for type_, data, rid in events:
                lt.seq += 1
                written.setdefault(stream, []).append((lt.seq, type_, data, rid))
                rows.append(
                    {
                        "table_id": stream,
                        "seq": lt.seq,
                        "type": type_,
                        "round_id": rid,
                        "data": json.dumps(data),
                        "at": at,
                    }
                )
            _INSERT_EVENTS.append(txn.conn, rows)
            if self.announce is not None:
                self.announce(txn.conn, lt, txn)
        return written

    def publish(self, written: Written) -> None:
        """After the commit: the events written join their table's recent events, the
        listeners see them, and the streams waiting on them (and the pit stream) wake.  Events
        published before (another process's, read again) are not handed on twice."""
        for stream, events in list(written.items()):
            lt = self._table(stream)
            if lt is not None:
                written[stream] = lt.published(events)
        fresh = {stream: events for stream, events in written.items() if events}
        if written and not fresh:
            return  # every event had been published already
        written = fresh
        for listener in self._listeners:
            listener(written)
        for stream in written:
            self.notifier.notify(stream)
        self.notifier.notify(FLOOR)

    def events(self, table_id: str, since: int, limit: int = 500) -> list[Event]:
        """The table's committed events after ``since``: the recent ones from memory (each
        published once its transaction committed), older ones from the database."""
        lt = self._table(table_id)
        recent = lt.recent_events(since, limit) if lt is not None else []
        if recent is None or recent:
            return recent or []
        return self.stored(table_id, since, limit)

    def stored(self, table_id: str, since: int, limit: int = 500) -> list[Event]:
        """The table's committed events after ``since``, read from the database."""
        with self.db.read() as conn:
            rows = conn.execute(
                select(
                    table_events.c.seq,
                    table_events.c.type,
                    table_events.c.data,
                    table_events.c.round_id,
                )
                .where(table_events.c.table_id == table_id, table_events.c.seq > since)
                .order_by(table_events.c.seq)
                .limit(limit)
            ).all()
        return [(r.seq, r.type, json.loads(r.data), r.round_id) for r in rows]

    def last_seqs(self) -> Mapping[str, int]:
        """Each table's last committed ``seq`` in the database (every process's tables)."""
        with self.db.read() as conn:
            rows = conn.execute(
                select(table_events.c.table_id, func.max(table_events.c.seq)).group_by(
                    table_events.c.table_id
                )
            ).all()
        return {str(t): int(n) for t, n in rows}
