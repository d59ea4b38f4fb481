"""The live floor: its collaborators, wired once, loaded from the database.

- :class:`~croupier.server.table_registry.TableRegistry` (``floor.registry``): the tables this
  process serves, their seats and status;
- :class:`~croupier.server.round_service.RoundService` (``floor.rounds``): an engine action,
  its records, ledger rows and events;
- :class:`~croupier.server.cage.Cage` (``floor.cage``): players, chips, hand-pays;
- :class:`~croupier.server.event_log.EventLog` (``floor.event_log``): the tables' event
  streams, written with each command and published after its commit;
- :class:`~croupier.server.read_model.ReadModel` (``floor.reads``): views, recall and the pit
  summary the events keep;
- :class:`~croupier.server.commands.Commands` (``floor.commands``): the command layer the
  routes call (idempotency, the group commit; its module docstring follows one wager through);
- :class:`~croupier.server.table_sync.TableSync` (``floor.sync``): on PostgreSQL, a table's
  commands serialized across server processes by the database's lock, a table another process
  moved rebuilt, and the other processes' events heard (``LISTEN/NOTIFY``).

:class:`Floor` holds nothing of its own but the wiring; the few reads it answers itself
(:meth:`Floor.events`, :meth:`Floor.players_of`, ...) are the read model's, for the streams.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from sqlalchemy import Connection, Engine

from croupier.server.cage import Cage
from croupier.server.commands import Commands
from croupier.server.commit import for_engine
from croupier.server.event_log import FLOOR, Event, EventLog
from croupier.server.ledger import Ledger
from croupier.server.live_tables import LiveTable, Notifier
from croupier.server.read_model import ReadModel
from croupier.server.recovery import recover_tables
from croupier.server.round_service import RoundService
from croupier.server.shoe_floor import load_shoes
from croupier.server.table_registry import TableRegistry
from croupier.server.table_sync import TableSync
from croupier.store import Database, RoundStore, SqlMeters
from croupier.table.shoe import SecureShuffler, Shuffler

__all__ = ["FLOOR", "Floor"]


class Floor:
    """Every table, the meters, the ledger, and the collaborators that serve the API."""

    def __init__(
        self,
        engine: Engine,
        *,
        shuffler: Shuffler | None = None,
        tables: frozenset[str] | None = None,
    ) -> None:
        """``shuffler``: :class:`SecureShuffler` by default, the only one a real table takes;
        a training table (``[table] training``, :mod:`croupier.server.postings`) may be given
        one that stacks the deck.  ``tables``: the tables this process serves (each table's
        rounds live in one process; several share the database, its ledger and its linked
        meters); ``None``: every table, any of which another process on the same database may
        serve too (:mod:`croupier.server.table_sync`)."""
        self.engine = engine
        self.serves = tables
        self.db = Database(engine)
        self.store = RoundStore(engine)
        self.meters = SqlMeters(engine)
        self.ledger = Ledger()
        self.committer = for_engine(engine)
        self.registry = TableRegistry(
            self.db,
            shuffler if shuffler is not None else SecureShuffler(),
            self.meters,
            self.ledger,
            tables,
        )
        self.event_log = EventLog(self.db, self.registry.tables.get)
        self.sync = TableSync(engine, self.registry, self.store, self.event_log)
        self.rounds = RoundService(self.db, self.store, self.meters, self.ledger, self.registry)
        self.cage = Cage(self.ledger, self.registry)
        self.reads = ReadModel(
            self.db, self.store, self.meters, self.ledger, self.registry, self.event_log
        )
        self.sync.hearing.append(self.reads.pit.heard)
        self.reads.current = self.sync.current
        self.reads.listed = self.sync.listed
        self.commands = Commands(
            self.committer,
            self.store,
            self.meters,
            self.registry,
            self.event_log,
            self.rounds,
            self.cage,
            self.sync,
        )

    def load(self) -> None:
        """Rebuild the floor from the database; every round left open resumes exactly from its
        records and persisted shoe, or is held for a supervisor's void where the chapter voids
        it (:mod:`croupier.server.recovery`); the pit summary reads each table's events."""
        with self.engine.begin() as conn:
            self.registry.load(conn)
        recover_tables(self.engine, self.store, self.registry)
        load_shoes(self.engine, self.registry.all())
        self.reads.pit.load()
        self.sync.start()  # PostgreSQL: hear the other server processes' commits

    def close(self) -> None:
        """Finish the commands queued, stop the writer and the listener."""
        self.committer.close()
        self.sync.close()

    # -- what the streams read (the read model's and the registry's) ---------------------------

    @property
    def tables(self) -> dict[str, LiveTable]:
        """The tables this process serves, by id (the registry's)."""
        return self.registry.tables

    @property
    def notifier(self) -> Notifier:
        """Wakes the streams (the event log's)."""
        return self.event_log.notifier

    def live_tables(self) -> tuple[LiveTable, ...]:
        return self.registry.all()

    def table(self, table_id: str) -> LiveTable:
        return self.registry.table(table_id)

    def events(self, table_id: str, since: int, limit: int = 500) -> list[Event]:
        return self.event_log.events(table_id, since, limit)

    def players_of(self, round_id: str) -> Mapping[int, str]:
        return self.reads.players_of(round_id)

    def players_cached(self, round_id: str) -> Mapping[int, str] | None:
        return self.reads.players_cached(round_id)

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        with self.db.read() as conn:
            yield conn
