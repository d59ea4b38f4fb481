"""Table events in a database: :class:`TableEventStore`.

Everything a :class:`~croupier.table.Table` does outside a round (the opening, decks received,
inspected, shuffled, cut, changed or removed, stub counts, seatings, the two-deck rotation) is
a :class:`~croupier.table.TableEvent`; stored in order under the table's id, each chained by
SHA-256 to the one before (:mod:`croupier.store.chain`), they let a table carry on after a
restart with its deck life and stub-count cadence (:meth:`Table.restore
<croupier.table.Table.restore>`) and let :mod:`croupier.audit` detect an edited event.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, select

from croupier.errors import IllegalAction, InvalidInput
from croupier.shoe import BackColour
from croupier.store._db import DEFAULT_URL, Database, table_events
from croupier.store.chain import GENESIS, canonical, link
from croupier.table import TableEvent, TableEventKind

__all__ = ["TableEventStore", "event_from_json", "event_payload"]


def event_payload(table_id: str, seq: int, data: Mapping[str, Any]) -> dict[str, Any]:
    """What a table event's hash covers."""
    return {"table_id": table_id, "seq": seq, "event": dict(data)}


_OPTIONAL_INT = ("deck", "position", "seat")


def event_from_json(data: Mapping[str, Any]) -> TableEvent:
    """The :class:`~croupier.table.TableEvent` that ``TableEvent.to_json`` wrote as ``data``."""
    if not isinstance(data, Mapping):
        raise InvalidInput(f"table event {data!r} must be a JSON object")
    try:
        kind = TableEventKind(data["kind"])
        at = datetime.fromisoformat(data["at"])
        number = data["round"]
        back = BackColour(data["back"]) if data.get("back") is not None else None
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(f"table event {str(dict(data))[:80]} does not decode: {exc}") from None
    if isinstance(number, bool) or not isinstance(number, int):
        raise InvalidInput(f"table event round {number!r} must be a whole number")
    values: dict[str, Any] = {}
    for name in _OPTIONAL_INT:
        value = data.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise InvalidInput(f"table event {name} {value!r} must be a whole number")
        values[name] = value
    for name in ("section", "detail"):
        value = data.get(name, "")
        if not isinstance(value, str):
            raise InvalidInput(f"table event {name} {value!r} must be text")
        values[name] = value
    player = data.get("player")
    if player is not None and not isinstance(player, str):
        raise InvalidInput(f"table event player {player!r} must be text")
    known = {"kind", "at", "round", "back", "player", *_OPTIONAL_INT, "section", "detail"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise InvalidInput(f"table event has unknown field(s) {', '.join(unknown)}")
    return TableEvent(kind=kind, at=at, round=number, back=back, player=player, **values)


class TableEventStore:
    """Each table's events, in order, in a database (SQLite file by default, URL or Engine)."""

    def __init__(self, target: str | Engine = DEFAULT_URL) -> None:
        self._db = Database(target)

    @property
    def engine(self) -> Engine:
        return self._db.engine

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> TableEventStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def count(self, table_id: str) -> int:
        with self._db.engine.begin() as conn:
            return self._count(conn, table_id)

    @staticmethod
    def _count(conn: Connection, table_id: str) -> int:
        query = select(func.count()).where(table_events.c.table_id == table_id)
        return int(conn.execute(query).scalar_one())

    def append(
        self, table_id: str, events: Sequence[TableEvent], *, expected: int | None = None
    ) -> int:
        """Store ``events`` (``TableEvent``) after the table's last, in one transaction;
        returns the count stored.  ``expected`` (the count already stored) guards against a
        second writer."""
        if not isinstance(table_id, str) or not table_id:
            raise InvalidInput(f"table id {table_id!r} must be non-empty text")
        with self._db.engine.begin() as conn:
            # The write lock (SQLite BEGIN IMMEDIATE) is held: read the head, then append.
            last = conn.execute(
                select(table_events.c.seq, table_events.c.hash)
                .where(table_events.c.table_id == table_id)
                .order_by(table_events.c.seq.desc())
                .limit(1)
            ).one_or_none()
            count = 0 if last is None else int(last.seq) + 1
            if expected is not None and count != expected:
                raise IllegalAction(
                    f"table {table_id!r} has {count} stored events, {expected} expected: "
                    "another writer changed it"
                )
            head = GENESIS if last is None else str(last.hash)
            rows = []
            for i, event in enumerate(events):
                data = event.to_json()
                text = canonical(data)
                head = link(head, event_payload(table_id, count + i, json.loads(text)))
                rows.append(
                    {
                        "table_id": table_id,
                        "seq": count + i,
                        "kind": data["kind"],
                        "data": text,
                        "at": event.at,
                        "hash": head,
                    }
                )
            if rows:
                conn.execute(insert(table_events), rows)
            return count + len(rows)

    def load(self, table_id: str) -> list[TableEvent]:
        """The table's events (``TableEvent``), oldest first."""
        with self._db.engine.begin() as conn:
            data = conn.execute(
                select(table_events.c.data)
                .where(table_events.c.table_id == table_id)
                .order_by(table_events.c.seq)
            ).scalars()
            return [event_from_json(json.loads(text)) for text in data]
