"""Sessions: a bearer token's life, its cache, its revocation and the streams it holds open.

A session is a row of ``sessions``: the SHA-256 of its token, its account, ``created_at`` and
``expires_at``.  It ends at the first of:

- **idle**: :attr:`SessionLimits.idle` after the last request it authenticated (``croupier
  serve --session-idle MINUTES``, default 30).  ``expires_at`` holds that moment; a request
  moves it forward in memory at once, once it has moved a :meth:`SessionLimits.step` (a
  minute, a tenth of the idle time where that is shorter), so a session ends between ``idle``
  and ``idle + step`` after its last request.  The moves are written together, one
  transaction every :meth:`SessionLimits.write_every` (:meth:`Tokens.write_touches`, the
  server's task): a floor's thousands of sessions moved a minute each were as many write
  transactions a second, each waiting for the database's write lock with the floor's commits
  (issue 38).  Until written another process reads the end before the move, at most two steps
  short of it, and a move lost with its process ends the session that much sooner.  A
  stream's messages are not requests: a page left open on a quiet table ends its session
  (GLI-19: a session ends after a period of inactivity);
- **lifetime**: :attr:`SessionLimits.lifetime` after its sign-in, however active (``--session-
  lifetime HOURS``, default 12);
- **sign-out**: ``POST /api/logout`` (:meth:`Tokens.revoke`);
- **an account's sessions ended**: :meth:`Tokens.end_sessions` (a password changed, an account
  disabled).

A verified token is kept in memory (:class:`Tokens`) and read again from the database at least
every :data:`RECHECK_SECONDS`: a session ended by another server process on the same database
stops answering there within that bound, and in the process that ended it at once (its cache
entry dropped).  An open stream re-checks its session every half of that bound, and at once
when this process ends it; it is then closed with the WebSocket close code 1008 (policy
violation): within 1.5 x :data:`RECHECK_SECONDS` of another process ending it, or of its idle
or lifetime end.  Ended and expired rows are deleted every :meth:`SessionLimits.prune_every`
(:meth:`Tokens.prune`), and the cache entries no longer fresh with them.
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
import threading
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Generic, TypeVar

from sqlalchemy import Connection, Engine, bindparam, delete, insert, update

from croupier.core.errors import InvalidInput
from croupier.store import now
from croupier.store.schema import sessions

__all__ = [
    "IDLE",
    "LIFETIME",
    "RECHECK_SECONDS",
    "SessionEnded",
    "SessionLimits",
    "Tokens",
    "digest",
    "open_session",
]

IDLE = timedelta(minutes=30)
LIFETIME = timedelta(hours=12)

RECHECK_SECONDS = 5.0
"""A cached token is read again from the database after this long (the bound within which a
session ended by another process stops answering in this one)."""

TOUCH_STEP = timedelta(minutes=1)
WRITE_STEP = timedelta(seconds=2.5)
PRUNE_STEP = timedelta(minutes=10)

_MOVE = (
    update(sessions)
    .where(sessions.c.token_sha256 == bindparam("key"), sessions.c.expires_at > bindparam("at"))
    .values(expires_at=bindparam("wanted"))
)
"""A session's idle end moved to ``wanted`` where it was still alive ``at`` the request that
moved it (:meth:`Tokens.write_touches`)."""

A = TypeVar("A")


class SessionEnded(Exception):
    """The token is unknown, ended or expired (HTTP 401; a stream: close code 1008)."""


def digest(token: str) -> str:
    """What the database keeps of a token: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class SessionLimits:
    """How long a session lasts idle and at most (``croupier serve --session-idle MINUTES
    --session-lifetime HOURS``)."""

    idle: timedelta = IDLE
    lifetime: timedelta = LIFETIME

    def __post_init__(self) -> None:
        if self.idle <= timedelta(0):
            raise InvalidInput(f"the session idle time {self.idle} must be positive")
        if self.lifetime <= timedelta(0):
            raise InvalidInput(f"the session lifetime {self.lifetime} must be positive")

    @classmethod
    def of(cls, *, idle_minutes: float, lifetime_hours: float) -> SessionLimits:
        """The limits from the command line's minutes and hours (:class:`InvalidInput` naming
        a value that is not a positive number)."""
        for name, value in (
            ("--session-idle", idle_minutes),
            ("--session-lifetime", lifetime_hours),
        ):
            if not value > 0 or value == float("inf"):
                raise InvalidInput(f"{name} {value!r} must be a positive number")
        return cls(timedelta(minutes=idle_minutes), timedelta(hours=lifetime_hours))

    def step(self) -> timedelta:
        """How far a request must move the idle end before it is written (a write at most
        once a step per session)."""
        return min(TOUCH_STEP, self.idle / 10)

    def write_every(self) -> timedelta:
        """How often the idle ends requests moved are written (a step at most)."""
        return min(WRITE_STEP, self.step())

    def prune_every(self) -> timedelta:
        """How often the ended and expired sessions are deleted."""
        return min(PRUNE_STEP, self.idle)

    def end(self, created: datetime, at: datetime) -> datetime:
        """When a session signed in at ``created`` and used at ``at`` ends unless used again."""
        return min(created + self.lifetime, at + self.idle)


def open_session(conn: Connection, username: str, limits: SessionLimits) -> tuple[str, datetime]:
    """A new session of ``username`` in ``conn``'s transaction: its token (given once, kept
    only as its digest) and the latest it may last (its lifetime's end)."""
    token = secrets.token_urlsafe(32)
    at = now()
    conn.execute(
        insert(sessions).values(
            token_sha256=digest(token),
            username=username,
            expires_at=limits.end(at, at),
            created_at=at,
        )
    )
    return token, at + limits.lifetime


@dataclass(frozen=True, slots=True)
class Held(Generic[A]):
    """A verified session in memory: its account, when it was signed in, when it ends unless
    used (``expires``), and its ``stamp``: the session as its reader read it (its row and its
    account's), so that a read finding the same answers with this one, not a new one."""

    account: A
    username: str
    created: datetime
    expires: datetime
    stamp: Hashable


Reader = Callable[[str], "Held[A] | None"]
"""Reads a session by its digest from the database (``None``: no such session)."""

ManyReader = Callable[[Sequence[str], Mapping[str, "Held[A]"]], "dict[str, Held[A]]"]
"""Reads sessions by their digests from the database in one go (a digest absent from the answer:
no such session), given what this process holds of them: a session read as it was held (the same
``stamp``) is answered with the one held."""

Recorder = Callable[[Connection, str], None]
"""Records a session's end in its transaction (given the account's username)."""


class Tokens(Generic[A]):
    """The sessions of one server process: the token cache, the idle end moved forward, the
    revocations and the open streams' watchers (see the module)."""

    def __init__(
        self,
        engine: Engine,
        limits: SessionLimits,
        read: Reader[A],
        *,
        read_many: ManyReader[A] | None = None,
    ) -> None:
        self.engine = engine
        self.limits = limits
        self._read = read
        self._read_many = read_many
        """Where given, a stale session is read again with every cached session due within
        half of :data:`RECHECK_SECONDS` (one read for them all: a floor's thousands of open
        streams re-check their sessions from memory, issue 38)."""
        self._refreshing = threading.Lock()
        self._cache: dict[str, tuple[Held[A], datetime]] = {}
        """By token digest: the session and until when it is served without reading the
        database."""
        self._watchers: dict[int, tuple[str, str, Callable[[], None]]] = {}
        self._ids = itertools.count()
        self._generation = 0
        """Counts the sessions ended by this process (a read that a revocation overtook is
        not cached)."""
        self._moved: dict[str, tuple[datetime, datetime]] = {}
        """By token digest: the idle end a request moved, not yet written, and when."""
        self._lock = threading.Lock()

    # -- verifying -----------------------------------------------------------------------------

    def verify(self, token: str) -> A:
        """The account of ``token`` for a request: its idle end moved forward (a request is
        activity); :class:`SessionEnded` where it has ended."""
        key = digest(token)
        held = self._held(key)
        at = now()
        wanted = self.limits.end(held.created, at)
        if wanted - held.expires >= self.limits.step():
            held = self._touch(held, key, wanted, at)
        return held.account

    def check(self, token: str) -> A:
        """The account of ``token`` for an open stream's re-check: not activity (the idle end
        stays); :class:`SessionEnded` where it has ended."""
        return self._held(digest(token)).account

    def fresh(self, token: str) -> A | None:
        """The account of ``token`` where its session is served from memory now (fresh and
        alive: what :meth:`check` would answer without reading the database); ``None`` where
        :meth:`check` must read it (as :meth:`recheck_watched` reads the open streams'
        sessions)."""
        held = self._fresh(digest(token), now())
        return held.account if held is not None else None

    def _held(self, key: str) -> Held[A]:
        at = now()
        held = self._fresh(key, at)
        if held is not None:
            return held
        if self._read_many is None:
            with self._lock:
                generation = self._generation
            one = self._read(key)
            return self._kept(key, at, generation, [key], {key: one} if one else {})
        with self._refreshing:
            held = self._fresh(key, at)  # read meanwhile by another request's refresh
            if held is not None:
                return held
            with self._lock:
                generation = self._generation
                due = at + timedelta(seconds=RECHECK_SECONDS / 2)
                keys = [key, *(k for k, (_h, f) in self._cache.items() if k != key and f <= due)]
                known = {k: kept[0] for k in keys if (kept := self._cache.get(k)) is not None}
            return self._kept(key, at, generation, keys, self._read_many(keys, known))

    def _fresh(self, key: str, at: datetime) -> Held[A] | None:
        """``key``'s cached session where it may be served without reading the database."""
        with self._lock:
            kept = self._cache.get(key)
        # Read again once stale, or where it looks ended (another process may have moved its
        # idle end since).
        if kept is not None and kept[1] > at and self._alive(kept[0], at):
            return kept[0]
        return None

    def _kept(
        self, key: str, at: datetime, generation: int, keys: list[str], read: dict[str, Held[A]]
    ) -> Held[A]:
        """The sessions of ``keys`` as ``read`` (at ``at``) into the cache, those ended
        dropped; ``key``'s session, or :class:`SessionEnded` where it has ended."""
        self._cache_read(at, generation, keys, read)
        held = read.get(key)
        if held is None or not self._alive(held, at):
            raise SessionEnded("the token is unknown or its session has ended")
        return held

    def _cache_read(
        self, at: datetime, generation: int, keys: list[str], read: dict[str, Held[A]]
    ) -> set[str]:
        """The sessions of ``keys`` as ``read`` (at ``at``) into the cache, those ended
        dropped; the keys of those ended."""
        fresh = at + timedelta(seconds=RECHECK_SECONDS)
        ended = set()
        with self._lock:
            # A session ended while it was being read is not cached (it answers this request,
            # which came first, and no later one).
            kept = self._generation == generation
            for k in keys:
                held = read.get(k)
                if held is not None and self._alive(held, at):
                    if kept:
                        self._cache[k] = (held, fresh)
                else:
                    self._cache.pop(k, None)
                    ended.add(k)
        return ended

    def _alive(self, held: Held[A], at: datetime) -> bool:
        return held.expires > at and held.created + self.limits.lifetime > at

    def _touch(self, held: Held[A], key: str, wanted: datetime, at: datetime) -> Held[A]:
        """The session's idle end moved to ``wanted`` at ``at``: in memory now, written by the
        next :meth:`write_touches`."""
        touched = replace(held, expires=wanted)
        with self._lock:
            kept = self._cache.get(key)
            if kept is not None:
                self._cache[key] = (touched, kept[1])
            self._moved[key] = (wanted, at)
        return touched

    def write_touches(self) -> int:
        """Write the idle ends requests moved since the last call, in one transaction; each
        only where its session was still alive in the database when it was moved (a session
        ended meanwhile stays ended: dropped here, its open streams told).  How many were
        written.  Where the database refuses the transaction the moves are kept for the next
        call (a later move of a session wins)."""
        with self._lock:
            moved, self._moved = self._moved, {}
        if not moved:
            return 0
        ended: set[str] = set()
        try:
            with self.engine.begin() as conn:
                for key, (wanted, at) in moved.items():
                    written = conn.execute(_MOVE, {"key": key, "at": at, "wanted": wanted})
                    if not written.rowcount:
                        ended.add(key)
        except BaseException:
            with self._lock:
                self._moved = {**moved, **self._moved}
            raise
        for key in ended:
            self.forget_digest(key)
        if ended:
            self._wake(lambda k, _user: k in ended)
        return len(moved) - len(ended)

    # -- ending --------------------------------------------------------------------------------

    def revoke(self, token: str, *, record: Recorder | None = None) -> bool:
        """End the session of ``token`` (sign-out): its row deleted, its cache entry dropped and
        its open streams of this process told at once; whether it was a session.  ``record``
        is called with the transaction and the session's account where there was one (the
        security log's entry, committed with the deletion)."""
        key = digest(token)
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(sessions)
                .where(sessions.c.token_sha256 == key)
                .returning(sessions.c.username)
            ).all()
            if gone and record is not None:
                record(conn, str(gone[0].username))
            ended = len(gone)
        self.forget_digest(key)
        with self._lock:
            self._moved.pop(key, None)  # its idle end: nothing left to move
        self._wake(lambda k, _user: k == key)
        return bool(ended)

    def end_sessions(self, conn: Connection, username: str) -> int:
        """End every session of ``username`` in ``conn``'s transaction (a password changed, an
        account disabled): the rows deleted, this process's cache entries dropped and its
        open streams of the account told at once; how many sessions there were."""
        ended = conn.execute(delete(sessions).where(sessions.c.username == username)).rowcount
        self.forget(username)
        self._wake(lambda _key, user: user == username)
        return int(ended or 0)

    def forget(self, username: str) -> None:
        """Drop this process's cache entries of ``username`` (its sessions go on): the next
        request reads them again (its account changed)."""
        with self._lock:
            self._generation += 1
            for key in [k for k, (h, _f) in self._cache.items() if h.username == username]:
                del self._cache[key]

    def forget_digest(self, key: str) -> None:
        with self._lock:
            self._generation += 1
            self._cache.pop(key, None)

    def prune(self) -> int:
        """Delete the sessions that have ended (idle or lifetime) and drop the cache entries
        that are no longer fresh; how many rows were deleted."""
        at = now()
        with self.engine.begin() as conn:
            deleted = conn.execute(
                delete(sessions).where(
                    (sessions.c.expires_at <= at)
                    | (sessions.c.created_at <= at - self.limits.lifetime)
                )
            ).rowcount
        with self._lock:
            for key in [k for k, (_h, f) in self._cache.items() if f <= at]:
                del self._cache[key]
        return int(deleted or 0)

    def cached(self) -> int:
        """How many tokens the cache holds."""
        with self._lock:
            return len(self._cache)

    # -- the open streams ----------------------------------------------------------------------

    def watch(self, token: str, username: str, wake: Callable[[], None]) -> Callable[[], None]:
        """Call ``wake`` (from any thread) when this process ends the session of ``token``;
        returns the function that stops watching."""
        ident = next(self._ids)
        with self._lock:
            self._watchers[ident] = (digest(token), username, wake)

        def cancel() -> None:
            with self._lock:
                self._watchers.pop(ident, None)

        return cancel

    def recheck_watched(self) -> int:
        """Re-check the session of every open stream of this process whose cached session is
        not fresh (expired, idle, ended by another process, its account disabled), all read
        together, and wake the watchers of those that ended; how many sessions were read.
        One sweep for a floor's streams every few seconds (``croupier.server.streams``),
        not a timer a stream: thousands of open streams cost their sessions' reads only."""
        at = now()
        with self._lock:
            generation = self._generation
            watched = {key for key, _user, _wake in self._watchers.values()}
        stale = sorted(k for k in watched if self._fresh(k, at) is None)
        if not stale:
            return 0
        if self._read_many is not None:
            with self._lock:
                known = {k: kept[0] for k in stale if (kept := self._cache.get(k)) is not None}
            read = self._read_many(stale, known)
        else:
            read = {k: h for k in stale if (h := self._read(k)) is not None}
        ended = self._cache_read(at, generation, stale, read)
        if ended:
            self._wake(lambda k, _user: k in ended)
        return len(stale)

    def _wake(self, ended: Callable[[str, str], bool]) -> None:
        with self._lock:
            woken = [w for key, user, w in self._watchers.values() if ended(key, user)]
        for wake in woken:
            wake()
