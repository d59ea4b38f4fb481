"""Table events in a database: :class:`TableEventStore`.

Everything a :class:`~croupier.table.table.Table` does outside a round (the opening, decks received,
inspected, shuffled, cut, changed or removed, seatings, the two-deck rotation) is a
:class:`~croupier.table.table.TableEvent`; stored in order under the table's id, each chained by
SHA-256 to the one before (:mod:`croupier.store.chain`), with the rounds the table began (the
deck each was dealt from and its round id), they let a table carry on after a restart
(:meth:`TableEventStore.restore`): the same seats, the deck serials and their time in service
(§ 641a.3(c)), the stub-count cadence (§ 641a.8(f): from the rounds' ``StubCounted`` records),
the round numbering and the two-deck rotation; and :mod:`croupier.audit.chains` detects an edited
event.

::

    events = TableEventStore(engine)
    rnd = table.new_round()
    events.save("T1", table, round_id="T1-000042")     # after each change of the table
    ...                                                  # (a restart)
    table = events.restore("T1", game, shuffler=SecureShuffler(), rounds=RoundStore(engine))
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, select

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games.base import Game
from croupier.games.records import RoundVoided, StubCounted
from croupier.store.chain import GENESIS, canonical, link
from croupier.store.database import DEFAULT_URL, Database, table_log, table_rounds
from croupier.store.rounds import RoundStore
from croupier.table.shoe import BackColour
from croupier.table.table import StoredTable, Table, TableEvent, TableEventKind

__all__ = ["TableEventStore", "event_from_json", "event_payload"]


def event_payload(table_id: str, seq: int, data: Mapping[str, Any]) -> dict[str, Any]:
    """What a table event's hash covers."""
    return {"table_id": table_id, "seq": seq, "event": dict(data)}


_OPTIONAL_INT = ("deck", "position", "seat")


def event_from_json(data: Mapping[str, Any]) -> TableEvent:
    """The :class:`~croupier.table.table.TableEvent` that ``TableEvent.to_json`` wrote as
    ``data``."""
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
    for name in ("by", "player"):
        value = data.get(name)
        if value is not None and not isinstance(value, str):
            raise InvalidInput(f"table event {name} {value!r} must be text")
        values[name] = value
    for name in ("section", "detail"):
        value = data.get(name, "")
        if not isinstance(value, str):
            raise InvalidInput(f"table event {name} {value!r} must be text")
        values[name] = value
    known = {"kind", "at", "round", "back", "by", "player", *_OPTIONAL_INT, "section", "detail"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise InvalidInput(f"table event has unknown field(s) {', '.join(unknown)}")
    return TableEvent(kind=kind, at=at, round=number, back=back, **values)


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
        query = select(func.count()).where(table_log.c.table_id == table_id)
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
                select(table_log.c.seq, table_log.c.hash)
                .where(table_log.c.table_id == table_id)
                .order_by(table_log.c.seq.desc())
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
                conn.execute(insert(table_log), rows)
            return count + len(rows)

    def load(self, table_id: str) -> list[TableEvent]:
        """The table's events (``TableEvent``), oldest first."""
        with self._db.engine.begin() as conn:
            data = conn.execute(
                select(table_log.c.data)
                .where(table_log.c.table_id == table_id)
                .order_by(table_log.c.seq)
            ).scalars()
            return [event_from_json(json.loads(text)) for text in data]

    # -- a table's state -----------------------------------------------------------------

    def save(self, table_id: str, table: Table, *, round_id: str | None = None) -> int:
        """Store what ``table`` did since the last save: its new events, and the rounds it
        began (``round_id``: the store id of the latest one, tracked with a
        :class:`~croupier.store.RoundStore`).  Call it after every change of the table (a
        round begun, a seat taken or left, a procedure); returns the events stored."""
        stored = self.count(table_id)
        events = table.events
        if stored > len(events):
            raise IllegalAction(
                f"table {table_id!r} has {stored} stored events; this table has {len(events)}"
            )
        count = self.append(table_id, events[stored:], expected=stored)
        history = table.history
        with self._db.engine.begin() as conn:
            known = set(
                conn.execute(
                    select(table_rounds.c.number).where(table_rounds.c.table_id == table_id)
                ).scalars()
            )
            rows = [
                {
                    "table_id": table_id,
                    "number": p.number,
                    "round_id": round_id if p is history[-1] else None,
                    "back": p.back.value,
                    "deck": p.deck,
                    "stub_check": p.stub_check.value,
                    "started_at": p.started_at,
                }
                for p in history
                if p.number not in known
            ]
            if rows:
                conn.execute(insert(table_rounds), rows)
        return count

    def rounds(self, table_id: str) -> list[dict[str, Any]]:
        """The rounds the table began, in order: number, round id, back, deck serial."""
        with self._db.engine.begin() as conn:
            rows = conn.execute(
                select(table_rounds)
                .where(table_rounds.c.table_id == table_id)
                .order_by(table_rounds.c.number)
            ).all()
        return [
            {"number": r.number, "round_id": r.round_id, "back": BackColour(r.back), "deck": r.deck}
            for r in rows
        ]

    def restore(
        self,
        table_id: str,
        game: Game,
        *,
        rounds: RoundStore | None = None,
        **options: Any,
    ) -> Table:
        """The table as it stood, from its stored events and rounds: seats, deck serials and
        their time in service, the stub-count cadence (from the records of its rounds in
        ``rounds``), the round numbering and the two-deck rotation.  The cards are shuffled
        afresh (an order held only in memory before the restart is never reused), recorded as
        a shuffle of each deck.  ``options`` are :class:`~croupier.table.table.Table`'s (shuffler,
        clock, meters, mode, ...)."""
        events = self.load(table_id)
        if not events or events[0].kind is not TableEventKind.OPENED:
            raise IllegalAction(f"table {table_id!r} has no stored opening to restore from")
        table = Table(game, **options)
        table.reopen(_stored(events, self.rounds(table_id), rounds))
        return table


def _stored(
    events: list[TableEvent],
    began: list[dict[str, Any]],
    rounds: RoundStore | None,
) -> StoredTable:
    """What the stored history says of the table's past (:meth:`Table.reopen` takes it)."""
    counted: dict[BackColour, int] = {}
    removed = False
    for entry in began:
        records = _records(rounds, entry["round_id"])
        if any(isinstance(r, StubCounted) for r in records):
            counted[entry["back"]] = entry["number"]
        removed = any(isinstance(r, RoundVoided) and r.deck_removed for r in records)
    return StoredTable(
        events=tuple(events),
        rounds_before=began[-1]["number"] if began else 0,
        last_back=began[-1]["back"] if began else None,
        counted=counted,
        dealt=frozenset(entry["deck"] for entry in began),
        last_deck_removed=removed,
    )


def _records(rounds: RoundStore | None, round_id: str | None) -> list[Any]:
    if rounds is None or round_id is None:
        return []
    try:
        return list(rounds.load(round_id))
    except IllegalAction:
        return []
