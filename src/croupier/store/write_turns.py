"""This process's writers to one SQLite file take the write lock in the order they asked for it.

SQLite has one write lock a database.  A writer that finds it taken does not queue: its busy
handler sleeps (1, 2, 5, 10 ... 100 ms) and tries again.  A writer that takes the lock again at
once after each commit, as the group commit does under a full floor
(:mod:`croupier.server.commit`), then starves the others: at 400 tables the sign-ins waited
past their 30 s timeouts while the group commit's batches followed one another (found by
``benchmarks/bench_locust.py --tables 400``, whose players sign in while the first tables
play).

Here each connection to a database file (:class:`TurnTaking`, the ``sqlite3`` connection
class :func:`croupier.store.database.open_engine` makes them with) takes a turn
(:meth:`TurnTaking.take_turn`) before ``BEGIN IMMEDIATE`` and gives it back once its
transaction has ended (its ``COMMIT`` or ``ROLLBACK`` done, or the connection closed).  The
turns of a file are handed over first come, first served (:class:`WriteTurns`), so a writer
waits for those ahead of it, each one transaction, and never for a sleep's luck.  The
database's own lock is still taken: another process's writer (``croupier db backup``, a
second server on the same file) waits in SQLite's busy handler as before.  A turn not given
within the connection's ``timeout`` is SQLite's own "database is locked" refusal.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections import deque
from typing import Any, ClassVar

__all__ = ["TurnTaking", "WriteTurns"]


class WriteTurns:
    """The write turns of one database file: one holder at a time, the others served in the
    order they asked (each waiter's own lock, released by the holder that hands it over)."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._waiting: deque[threading.Lock] = deque()
        self._held = False

    def take(self, timeout: float) -> bool:
        """Wait for the turn, at most ``timeout`` seconds; whether it was taken."""
        with self._guard:
            if not self._held:
                self._held = True
                return True
            waiter = threading.Lock()
            waiter.acquire()
            self._waiting.append(waiter)
        if waiter.acquire(timeout=max(0.0, timeout)):
            return True  # handed over: the turn stays held, now by this caller
        with self._guard:
            if waiter in self._waiting:
                self._waiting.remove(waiter)
                return False
        return True  # handed over as the wait ended

    def give(self) -> None:
        """End the holder's turn: the next waiter's now, else nobody's."""
        with self._guard:
            if self._waiting:
                self._waiting.popleft().release()
            else:
                self._held = False

    def waiting(self) -> int:
        """How many writers wait for a turn."""
        with self._guard:
            return len(self._waiting)


class TurnTaking(sqlite3.Connection):
    """A ``sqlite3`` connection that takes its file's write turn for each transaction it
    begins (:meth:`take_turn`) and gives it back when the transaction ends."""

    _files: ClassVar[dict[str, WriteTurns]] = {}
    _files_guard: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, database: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(database, *args, **kwargs)
        self.timeout = float(kwargs.get("timeout", args[0] if args else 5.0))
        self.turns = self.turns_of(database)
        self._holding = False

    @classmethod
    def turns_of(cls, database: Any) -> WriteTurns:
        """The turns of the file ``database`` names (one for every connection to it)."""
        key = os.fsdecode(database)
        if not key.startswith("file:"):
            key = os.path.realpath(key)
        with cls._files_guard:
            return cls._files.setdefault(key, WriteTurns())

    @classmethod
    def forget_files(cls) -> None:
        """No turns known (a forked child: its parent's writers are not its own)."""
        cls._files = {}
        cls._files_guard = threading.Lock()

    def take_turn(self) -> None:
        """Wait for this file's write turn (before ``BEGIN IMMEDIATE``); SQLite's
        ``OperationalError`` where it is not given within the connection's timeout."""
        if self._holding:
            return
        if not self.turns.take(self.timeout):
            raise sqlite3.OperationalError(
                f"database is locked: {self.turns.waiting()} more of this process's writers "
                f"wait, the turn not given within {self.timeout:g} s"
            )
        self._holding = True

    def give_turn(self) -> None:
        """The turn given back (nothing where this connection does not hold it)."""
        if self._holding:
            self._holding = False
            self.turns.give()

    def commit(self) -> None:
        try:
            super().commit()
        finally:
            self.give_turn()

    def rollback(self) -> None:
        try:
            super().rollback()
        finally:
            self.give_turn()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.give_turn()


os.register_at_fork(after_in_child=TurnTaking.forget_files)
