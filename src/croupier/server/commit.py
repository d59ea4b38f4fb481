"""Group commit: one writer thread runs the pending commands in one transaction, one fsync.

A command is *acknowledged* (its HTTP response released) only after the transaction holding its
records, ledger rows, events and idempotency row has committed: on SQLite (WAL,
``synchronous=FULL``) the commit is on disk, on PostgreSQL the server has flushed its WAL.  What
changes is how many commands share a commit: the writer takes every command waiting (up to
:data:`MAX_BATCH`), runs each inside a savepoint of one transaction, commits once, then releases
every response of the batch.

- A command refused by a rule (a :class:`~croupier.core.errors.CroupierError` or ``LookupError``)
  rolls back to its savepoint: it changes nothing and the rest of the batch goes on.
- Any other failure (the database refused a statement, the commit failed) fails the whole batch:
  the transaction rolls back, every command's in-memory changes are undone (each job's ``undo``,
  newest first) and each command of the batch then runs again alone, in its own transaction, so
  one bad command cannot fail its neighbours; if that fails too its caller gets the error and
  nothing of it is applied.
- A process killed during a batch loses the whole batch and nothing else: no response of it was
  released, and the database holds all of it or none of it.
- On SQLite the rows a batch's commands append (ledger rows, round records, table events:
  :meth:`Prepared.append <croupier.store.prepared.Prepared.append>`) are held back and written
  together just before the commit, a multi-row ``INSERT`` a table (a refused command's rows
  dropped with its savepoint): each statement gives the GIL up while SQLite works, and the
  writer then waits behind every busy thread to get it back (issue 38).

Every job runs on a writer thread: the commands of one table never race (the writer holds the
table's lock from its job until the batch commits, so readers that take the lock never see
records that are not yet committed).  SQLite (one write lock) has one writer batching everything;
PostgreSQL has several writers of one command each (:func:`for_engine`).

Several server processes on one PostgreSQL database (:mod:`croupier.server.table_sync`): a
table's command first takes, in its own transaction, the database's advisory lock for that table
(``pg_advisory_xact_lock``, released by the commit or the rollback) and compares the table's
last committed event ``seq`` with this process's; where another process moved the table, it is
rebuilt from the committed records before the command runs.  The rule above is unchanged: the
command is acknowledged only once that transaction has committed, and the ``NOTIFY`` that tells
the other processes of its events is part of it (delivered only by the commit).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack, nullcontext
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, Engine

from croupier.core.errors import CroupierError
from croupier.store.prepared import Appends

__all__ = ["MAX_BATCH", "BatchFailed", "GroupCommitter", "Work", "for_engine"]

log = logging.getLogger("croupier.server.commit")

MAX_BATCH = 256
"""Most commands in one transaction (a longer queue waits for the next batch)."""

T = TypeVar("T")

REFUSALS = (CroupierError, LookupError)
"""A command's own refusal: rolls back to its savepoint, the batch goes on."""


def for_engine(engine: Engine) -> GroupCommitter:
    """The committer for ``engine``'s database.  SQLite has one write lock: one writer batches
    every command into one transaction.  PostgreSQL commits concurrent transactions with one WAL
    flush of its own (its group commit) and takes row locks: several writers, one command each,
    so a statement's round trip to the server never holds up the other tables' commands."""
    if engine.dialect.name == "sqlite":
        return GroupCommitter(engine)
    return GroupCommitter(engine, max_batch=1, writers=PG_WRITERS)


SAVEPOINT = "croupier_command"
"""The savepoint each command of a batch runs in."""

PG_WRITERS = 16
"""Writer threads (and connections) on PostgreSQL."""


class BatchFailed(RuntimeError):
    """The command's transaction did not commit; nothing of it was applied (HTTP 503)."""


@dataclass
class Work(Generic[T]):
    """A command for the writer.  ``run(conn)`` does its work in ``conn``'s transaction and
    returns ``(result, after)``: ``after`` runs once the transaction committed (wakes streams).
    ``undo(conn)`` puts back what ``run`` changed in memory when its work does not commit:
    ``conn`` is the transaction rolled back to before the command (its savepoint), ``None``
    when the whole transaction rolled back.  ``locks``: taken before ``run`` and held until the
    commit (or the rollback)."""

    run: Callable[[Connection], tuple[T, Callable[[], None] | None]]
    undo: Callable[[Connection | None], None]
    locks: tuple[threading.Lock, ...] = ()
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None
    after: Callable[[], None] | None = None


class GroupCommitter:
    """The writer: ``submit(work)`` blocks until ``work``'s transaction committed (or failed)."""

    def __init__(self, engine: Engine, *, max_batch: int = MAX_BATCH, writers: int = 1) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self.writers = writers
        self._queue: list[Work[Any]] = []
        self._cond = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._closed = False
        self.batches = 0
        self.commands = 0
        self._holds_appends = engine.dialect.name == "sqlite"
        """A batch's appended rows written together before its commit (:class:`Appends`):
        on SQLite, which one process serves (a table's version, read back on PostgreSQL
        before each command, is never read within a batch)."""

    def submit(self, work: Work[T]) -> T:
        """Run ``work`` in the next batch; its result once the batch committed."""
        if threading.current_thread() in self._threads:
            # A command started from inside another (never in the routes): run it alone.
            self._run_alone([work])
        else:
            with self._cond:
                if self._closed:
                    raise BatchFailed("the server is stopping; nothing was applied")
                self._queue.append(work)
                self._start()
                self._cond.notify()
            work.done.wait()
        if work.error is not None:
            raise work.error
        if work.after is not None:
            work.after()
        result: T = work.result
        return result

    def close(self) -> None:
        """Finish the commands queued, then stop the writer."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            threads = list(self._threads)
        for thread in threads:
            thread.join(timeout=60)

    def _start(self) -> None:
        while len(self._threads) < self.writers:
            thread = threading.Thread(
                target=self._loop, name=f"croupier-writer-{len(self._threads)}", daemon=True
            )
            self._threads.append(thread)
            thread.start()

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closed:
                    self._cond.wait()
                if not self._queue:
                    return
                batch, self._queue = (
                    self._queue[: self.max_batch],
                    self._queue[self.max_batch :],
                )
            try:
                self._run_batch(batch)
            except BaseException as exc:  # pragma: no cover (the writer must not die)
                log.exception("the writer failed", exc_info=exc)
                for work in batch:
                    if not work.done.is_set():
                        work.error = BatchFailed("the command's transaction did not commit")
                        work.done.set()

    def _run_batch(self, batch: list[Work[Any]]) -> None:
        self.batches += 1
        self.commands += len(batch)
        if len(batch) == 1:
            self._run_alone(batch)
            return
        ran: list[Work[Any]] = []
        appends = Appends()
        with ExitStack() as held:
            try:
                with self.engine.begin() as conn, self._holding(appends, conn):
                    taken: set[int] = set()
                    for work in batch:
                        for lock in work.locks:
                            if id(lock) not in taken:
                                taken.add(id(lock))
                                held.enter_context(lock)
                        ran.append(work)
                        if not self._step(conn, work, appends):
                            ran.pop()  # refused: rolled back to its savepoint and undone
                    appends.flush(conn)
            except BaseException:
                # The transaction rolled back: nothing of the batch is in the database.  Undo
                # the commands that had run in memory (the failing one too), newest first.
                for work in reversed(ran):
                    work.undo(None)
                failed = True
            else:
                failed = False
        if failed:
            log.warning("a batch of %d commands failed; running them one by one", len(batch))
            self._run_alone(batch)
            return
        for work in batch:
            work.done.set()

    def _run_alone(self, batch: list[Work[Any]]) -> None:
        """Each command in a transaction of its own (no savepoint: a refusal or a failure
        rolls the whole transaction back, then the command's memory is undone)."""
        for work in batch:
            work.error = None
            with ExitStack() as held:
                for lock in dict.fromkeys(work.locks):
                    held.enter_context(lock)
                # The undo runs under the table's lock too: no reader nor other writer sees
                # what did not commit.
                try:
                    with self.engine.begin() as conn:
                        work.result, work.after = work.run(conn)
                except BaseException as exc:
                    work.undo(None)
                    work.error = exc
            work.done.set()

    def _holding(self, appends: Appends, conn: Connection) -> AbstractContextManager[object]:
        """``conn``'s appends held in ``appends`` while a batch runs, where this database's
        batches hold them."""
        return appends.held(conn) if self._holds_appends else nullcontext()

    @staticmethod
    def _step(conn: Connection, work: Work[Any], appends: Appends) -> bool:
        """Run one job of a batch in a savepoint; ``False`` when the command refused (its
        error kept, its rows held in ``appends`` dropped).  The savepoint's three statements go
        straight to the connection's cursor (the same SQL as ``Connection.begin_nested`` on
        both backends, without its execution path, which cost as much as a command's own
        statements)."""
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        mark = appends.mark()
        try:
            cursor.execute(f"SAVEPOINT {SAVEPOINT}")
            try:
                work.result, work.after = work.run(conn)
            except REFUSALS as exc:
                cursor.execute(f"ROLLBACK TO SAVEPOINT {SAVEPOINT}")
                cursor.execute(f"RELEASE SAVEPOINT {SAVEPOINT}")
                appends.back_to(mark)
                work.undo(conn)
                work.error = exc
                return False
            cursor.execute(f"RELEASE SAVEPOINT {SAVEPOINT}")
            return True
        finally:
            cursor.close()
