"""Several server processes on one PostgreSQL database: any process serves any table.

No table is assigned to a process (HAProxy usually sends a table's requests to one, by the
hash of its path, docs/scale-out.md; correctness never depends on it).  What keeps the tables
exact is the database's own locking and each table's version, its last event ``seq``:

- **A command** (:meth:`TableSync.claim`, in the command's transaction, under the table's lock
  in this process) takes ``pg_advisory_xact_lock`` keyed on the table (:func:`lock_key`),
  held until its transaction commits or rolls back: two processes never run commands of one
  table at once.  It then reads the table's last ``seq``; where another process moved the table
  past what this process holds, the table is rebuilt from the database's records, by the path
  a restart takes (:meth:`TableRegistry.stored
  <croupier.server.table_registry.TableRegistry.stored>`,
  :func:`croupier.server.recovery.recover_table`, the baccarat shoe), before the command runs.
- **A read** (:meth:`TableSync.fresh`: a view, a table's detail, the access policy's
  decision) reads the one row of the table's last ``seq`` and rebuilds the same way where it
  moved (under the advisory lock, so it reads no half of another process's command).
- **Streams**: every command's transaction ends with ``NOTIFY croupier_events`` (payload: this
  process's origin, the table, its last ``seq``), delivered only if it commits.  One listening
  connection per process (:meth:`TableSync.start`) hears the other processes' commits, reads
  their events from the event log and publishes them to this process's streams and pit
  summary (:meth:`EventLog.publish <croupier.server.event_log.EventLog.publish>`): a client's
  stream, wherever it is held, receives every event; one that reconnects with ``since`` its
  last ``seq`` receives exactly those after it.  The notification also marks the table stale
  (:attr:`LiveTable.heard <croupier.server.live_tables.LiveTable.heard>`): the state a stream
  carries is rebuilt first (:meth:`TableSync.current`, no query).
- **The pit and the table list**: a command's notification also carries its table's list entry
  as the command leaves it (:class:`~croupier.server.read_model.Listing`, made under the
  table's lock, which the command holds until it commits).  The other processes list the table
  from it (:meth:`TableSync.listed`) instead of rebuilding the table for each change they hear;
  a table moved by a notification without its entry (another table's command, the listener
  catching up) is rebuilt as before.

Meters and the chip ledger hold nothing in memory between commands: every move reads and locks
its row in the command's transaction (:mod:`croupier.store.meters`, ``SELECT ... FOR UPDATE``;
:class:`croupier.server.ledger.Ledger`, ``UPDATE ... RETURNING``), so linked meters and every
balance stay exact across processes.  On SQLite (one writer, one process) nothing of this runs.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import uuid
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, func, select

from croupier.core.errors import IllegalAction
from croupier.server.event_log import FLOOR, EventLog
from croupier.server.live_tables import LiveTable, Txn
from croupier.server.read_model import Listing
from croupier.server.recovery import recover_table
from croupier.server.shoe_floor import load_shoes
from croupier.server.table_registry import TableRegistry
from croupier.server.wire import compact
from croupier.store import RoundStore
from croupier.store.prepared import Prepared
from croupier.store.schema import live_tables, table_events

__all__ = ["CHANNEL", "TableSync", "lock_key"]

log = logging.getLogger("croupier.server.table_sync")

CHANNEL = "croupier_events"
"""The PostgreSQL notification channel of committed events."""

LISTEN_WAIT = 1.0
"""Seconds the listener waits for a notification before it checks it should stop."""

_LOCK = Prepared(select(func.pg_advisory_xact_lock(bindparam("k"))))
_VERSION = Prepared(
    select(func.max(table_events.c.seq)).where(table_events.c.table_id == bindparam("t"))
)
_NOTIFY = Prepared(select(func.pg_notify(bindparam("c"), bindparam("p"))))

NOTIFY_MAX = 7900
"""Bytes a notification's payload may take (PostgreSQL refuses 8,000 and more): a longer
list entry is left out of it (the table is then rebuilt where its list is read)."""


def lock_key(name: str) -> int:
    """The advisory lock's key of a table id (or of ``meter:<name>``, ``player:<id>``): a
    signed 64-bit number from its hash (in the namespace ``croupier-table:``; a collision only
    makes two of them wait for each other)."""
    digest = hashlib.blake2b(f"croupier-table:{name}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class TableSync:
    """A table's version checked and its commands serialized across the processes on one
    PostgreSQL database (inactive on SQLite)."""

    def __init__(
        self, engine: Engine, registry: TableRegistry, store: RoundStore, log_: EventLog
    ) -> None:
        self.engine = engine
        self.registry = registry
        self.store = store
        self.log = log_
        self.active = engine.dialect.name == "postgresql"
        self.origin = uuid.uuid4().hex[:16]
        """This process's name in its notifications (it skips its own)."""
        self.rebuilds = 0
        """Tables rebuilt because another process moved them."""
        self.hearing: list[Callable[[str, int], None]] = []
        """Called with a table and its last ``seq`` another process committed, where no
        stream of this process reads the table's events (the pit summary's versions)."""
        self._listed: dict[str, Listing] = {}
        """By table: its list entry as another process last said it committed it."""
        self.listening = threading.Event()
        """Set once the listener hears the other processes' commits (and caught up with what
        they committed before it listened)."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if self.active:
            log_.announce = self.announce_events
            registry.finder = self.discover
            registry.serialize = self.serialize

    # -- commands ----------------------------------------------------------------------------

    def claim(self, conn: Connection, lt: LiveTable) -> None:
        """In a command's transaction, before it runs: the table's advisory lock, then its
        version; rebuilt from the database where another process moved it."""
        if not self.active:
            return
        _LOCK.first(conn, {"k": lock_key(lt.id)})
        if _version(conn, lt.id) != lt.seq:
            self._rebuild(conn, lt)

    @staticmethod
    def serialize(conn: Connection, name: str) -> None:
        """The advisory lock named ``name`` in ``conn``'s transaction (``meter:<name>``: a
        meter's creation and funding, which no table's lock covers)."""
        _LOCK.first(conn, {"k": lock_key(name)})

    def announce(
        self, conn: Connection, table_id: str, seq: int, listing: Listing | None = None
    ) -> None:
        """``NOTIFY`` in the command's transaction: heard by the other processes only once
        it commits; with the table's list entry where the command holds the table."""
        note: dict[str, Any] = {"origin": self.origin, "seq": seq, "table": table_id}
        if listing is not None:
            note["listing"] = listing.wire()
        payload = compact(note)
        if len(payload.encode()) > NOTIFY_MAX:
            del note["listing"]
            payload = compact(note)
        _NOTIFY.first(conn, {"c": CHANNEL, "p": payload})

    def announce_events(self, conn: Connection, lt: LiveTable, txn: Txn) -> None:
        """The events ``txn`` wrote of ``lt`` announced (:meth:`announce`), its list entry
        with them where ``txn`` holds its lock."""
        listing = Listing.of(lt) if txn.holding == lt.id else None
        self.announce(conn, lt.id, lt.seq, listing)

    def made(self, conn: Connection, table_id: str) -> None:
        """A new table, announced in its creating transaction (the others load it)."""
        if self.active:
            self.announce(conn, table_id, 0)

    def verify_unseated(self, conn: Connection, table_id: str, player_id: str | None) -> None:
        """Refuse ``player_id`` a seat at ``table_id`` while the database shows them seated at
        another table (which another process may have seated them at): checked under the
        player's advisory lock, held until the command commits."""
        if not self.active or player_id is None:
            return
        _LOCK.first(conn, {"k": lock_key(f"player:{player_id}")})
        for other, seats in conn.execute(select(live_tables.c.id, live_tables.c.seats)):
            if other != table_id and player_id in json.loads(seats).values():
                raise IllegalAction(f"{player_id} is seated at table {other}")

    # -- reads -------------------------------------------------------------------------------

    def fresh(self, lt: LiveTable) -> LiveTable:
        """``lt`` as committed now: its version read (one row), rebuilt where it moved."""
        if not self.active:
            return lt
        with self.engine.connect() as conn:
            version = _version(conn, lt.id)
            conn.rollback()
        if version != lt.seq:
            self._rebuild_locked(lt)
        return lt

    def current(self, lt: LiveTable) -> LiveTable:
        """``lt``, rebuilt first where another process's notification says it moved past
        what this process holds (no query otherwise: the streams' carried state)."""
        if self.active and lt.heard > lt.seq:
            self._rebuild_locked(lt)
        return lt

    def listed(self, lt: LiveTable) -> Listing | None:
        """``lt``'s list entry as committed, where another process moved it past what this
        process holds and its last notification said how it left it; ``None`` otherwise
        (``lt`` itself is as committed, or must be rebuilt: :meth:`current`)."""
        if not self.active or lt.heard <= lt.seq:
            return None
        listing = self._listed.get(lt.id)
        return listing if listing is not None and listing.seq == lt.heard else None

    def discover(self, table_id: str) -> LiveTable | None:
        """A table another process made, loaded from the database (``None``: none such)."""
        if not self.active:
            return None
        with self.registry.seating:
            found = self.registry.tables.get(table_id)
            if found is not None:
                return found
            with self.engine.begin() as conn:
                lt = self.registry.stored(conn, table_id)
            if lt is not None:
                # whole (its round, its shoe) before any request finds it on the floor
                recover_table(self.engine, self.store, self.registry, lt)
                load_shoes(self.engine, [lt])
                self.registry.enter(lt)
            return lt

    def _rebuild_locked(self, lt: LiveTable) -> None:
        with lt.lock, self.engine.begin() as conn:
            _LOCK.first(conn, {"k": lock_key(lt.id)})
            if _version(conn, lt.id) != lt.seq:
                self._rebuild(conn, lt)

    def _rebuild(self, conn: Connection, lt: LiveTable) -> None:
        """``lt`` from the database (the caller holds its lock and the advisory lock), and
        the events this process had not published yet handed to its streams."""
        before = lt.seq
        fresh = self.registry.stored(conn, lt.id)
        if fresh is None:
            raise LookupError(f"table {lt.id!r} is not stored")
        # Built whole apart (its round, its shoe), then taken by the table every stream and
        # request holds: none of them sees it half made.
        recover_table(self.engine, self.store, self.registry, fresh)
        load_shoes(self.engine, [fresh])
        lt.adopt(fresh)
        self.rebuilds += 1
        log.info("table %s rebuilt at seq %d (held %d)", lt.id, lt.seq, before)
        self._publish(lt.id, min(before, lt.top or before))

    # -- the listener ------------------------------------------------------------------------

    def start(self) -> None:
        """The listening connection's thread (PostgreSQL), until :meth:`close`."""
        if not self.active or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._listen, name="croupier-listen", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _listen(self) -> None:
        import psycopg

        url = self.engine.url.set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        while not self._stop.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._caught_up()  # what was committed while nobody listened
                    self.listening.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=LISTEN_WAIT):
                            self._note(note.payload)
            except Exception as exc:  # the connection lost: listen again
                log.warning("the event listener reconnects: %s", exc)
                self._stop.wait(0.5)

    def _caught_up(self) -> None:
        for table_id, seq in self.log.last_seqs().items():
            self._heard(table_id, seq)

    def _note(self, payload: str) -> None:
        note = json.loads(payload)
        if note["origin"] == self.origin:
            return
        told = note.get("listing")
        listing = Listing.parse(told) if told is not None else None
        self._heard(str(note["table"]), int(note["seq"]), listing)

    def _heard(self, table_id: str, seq: int, listing: Listing | None = None) -> None:
        """Another process committed ``table_id`` up to ``seq`` (leaving it as ``listing``
        says, where the notification said)."""
        lt: LiveTable | None = self.registry.tables.get(table_id)
        if lt is None:
            lt = self.discover(table_id)
            if lt is None:
                return
        if seq == 0:
            return  # a new table: loaded (above)
        # before ``heard`` moves (a reader finds it); at the ``seq`` heard already where the
        # listener's catching up (which tells no entry) read the table's ``seq`` first
        if listing is not None and listing.seq == seq >= lt.heard:
            self._listed[table_id] = listing
        lt.heard = max(lt.heard, seq)
        since = lt.top or lt.seq  # nothing published since the load: it held lt.seq
        if seq <= since:
            return
        if self.log.notifier.watched(table_id):
            self._publish(table_id, since)  # its streams here read the events
        else:
            for hear in self.hearing:  # nobody streams it here: its version only
                hear(table_id, seq)
            self.log.notifier.notify(FLOOR)

    def _publish(self, table_id: str, since: int) -> None:
        """The table's committed events after ``since`` to this process's streams."""
        while True:
            events = self.log.stored(table_id, since)
            if not events:
                return
            self.log.publish({table_id: events})
            since = events[-1][0]


def _version(conn: Connection, table_id: str) -> int:
    """The table's last committed event ``seq`` (0: none)."""
    row = _VERSION.first(conn, {"t": table_id})
    return int(row[0] or 0) if row is not None else 0
