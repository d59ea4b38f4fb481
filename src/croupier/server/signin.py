"""Sign-in throttling: a progressive delay, then a lock, per account name and per client address.

GLI-19's account rules ask that repeated failed sign-ins lock the account for a time or until
an authorised person releases it; NIST SP 800-63B § 5.2.2 (rate limiting) that a verifier
limit the failed attempts on one account.  Here, with :class:`SignInLimits` (every number set
by ``croupier serve``'s options):

- **per account name** (any name tried: an unknown name is counted like a known one, so the
  answers stay alike): after the n-th consecutive failure the next attempt is accepted only
  ``delay * 2**(n-1)`` seconds after it (1 s, 2 s, 4 s, ... by default); the
  ``account_failures``-th failure (5) locks the name for ``lock_for`` (15 minutes);
- **per client address**: the ``address_failures``-th failure (50) within ``lock_for`` locks
  the address for ``lock_for``, whatever the names tried (a spray of names from one place);
- an attempt is counted pending before its password is read: failures and pending attempts
  together never exceed the limit, so attempts sent at once check no more passwords than the
  limit (the rest are held back, 429, ``Retry-After: 1``);
- a lock ends by time, or by a supervisor or an administrator (``croupier accounts unlock``,
  ``POST /api/sign-in/unlock``, which also releases failures counted short of a lock: each
  release by a person is logged); a success clears the name's failures; failures older than
  ``lock_for`` are forgotten.

An attempt refused by a delay or a lock is answered 429 with ``Retry-After`` and its password
is never checked; while locked, such attempts are counted on the lock and reported in the
``unlocked`` entry of the security log when it ends (one entry per lock, not one per request,
so that a flood cannot fill the log).  The counts live in the database (``sign_in_limits``):
every server process of a floor and a restart see the same locks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, case, delete, insert, select, update

from croupier.core.errors import CroupierError, InvalidInput
from croupier.server.security_log import SecurityEvent, append
from croupier.store import as_utc, now
from croupier.store.schema import sign_in_limits

__all__ = ["Lock", "SignInLimits", "Throttled", "account_key", "address_key"]


@dataclass(frozen=True, slots=True)
class SignInLimits:
    account_failures: int = 5
    """Consecutive failures that lock an account name."""
    address_failures: int = 50
    """Failures from one client address (any names) that lock the address."""
    lock_for: timedelta = timedelta(minutes=15)
    """How long a lock lasts (and how long a failure is remembered)."""
    delay: timedelta = timedelta(seconds=1)
    """The wait after an account name's first failure, doubled at each failure after it."""

    def __post_init__(self) -> None:
        if self.account_failures < 1 or self.address_failures < 1:
            raise InvalidInput("a sign-in lock needs at least one failure")
        if self.lock_for <= timedelta(0) or self.delay < timedelta(0):
            raise InvalidInput("a sign-in lock lasts a positive time; a delay is not negative")


class Throttled(CroupierError):
    """A sign-in refused before its password is read: a delay or a lock (HTTP 429)."""

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def account_key(username: str) -> str:
    return f"account:{username}"


def address_key(address: str) -> str:
    return f"address:{address}"


@dataclass(frozen=True, slots=True)
class Lock:
    key: str
    failures: int
    locked_until: datetime | None
    refused: int

    def to_json(self) -> dict[str, Any]:
        kind, _, who = self.key.partition(":")
        return {
            kind: who,
            "failures": self.failures,
            "locked_until": None if self.locked_until is None else self.locked_until.isoformat(),
            "refused": self.refused,
        }


def _seconds(delta: timedelta) -> int:
    return max(1, int(delta.total_seconds() + 0.999))


class Limiter:
    """The sign-in limits of a floor's database."""

    def __init__(self, limits: SignInLimits) -> None:
        self.limits = limits

    def admit(
        self, conn: Connection, keys: Sequence[str], *, address: str | None
    ) -> Throttled | None:
        """Count the attempt on every key before its password is read (so that attempts sent
        at once are held back as if each had failed: at most the limit are ever checked), or
        the refusal (:class:`Throttled`, to raise once ``conn`` commits: it counts the attempt
        on the lock) of one a lock, a delay or the limit holds back.  A lock found over is
        released (logged ``unlocked`` by time) and failures older than ``lock_for`` forgotten."""
        at = now()
        ordered = sorted(keys)  # one order of row locks for every transaction
        for key in ordered:
            conn.execute(
                _insert_new(conn).values(
                    key=key, failures=0, pending=0, last_at=at, locked_until=None, refused=0
                )
            )
        rows = conn.execute(
            select(sign_in_limits)
            .where(sign_in_limits.c.key.in_(ordered))
            .order_by(sign_in_limits.c.key)
            .with_for_update()
        ).all()
        for row in rows:
            refusal = self._held(conn, row, at, address)
            if refusal is not None:
                return refusal
        conn.execute(
            update(sign_in_limits)
            .where(sign_in_limits.c.key.in_(ordered))
            .values(pending=sign_in_limits.c.pending + 1, last_at=at)
        )
        return None

    def _held(
        self, conn: Connection, row: Any, at: datetime, address: str | None
    ) -> Throttled | None:
        """Why ``row`` holds an attempt back now (``None``: it does not)."""
        locked = None if row.locked_until is None else as_utc(row.locked_until)
        if locked is not None and locked > at:
            conn.execute(
                update(sign_in_limits)
                .where(sign_in_limits.c.key == row.key)
                .values(refused=sign_in_limits.c.refused + 1)
            )
            return Throttled(
                "too many failed sign-ins: locked; try again later or ask a supervisor",
                retry_after=_seconds(locked - at),
            )
        if locked is not None or as_utc(row.last_at) + self.limits.lock_for <= at:
            # (an attempt still pending that long was lost with its process)
            if row.failures or row.pending or locked is not None:
                self._release(conn, row, by="time", address=address)
                conn.execute(
                    _insert_new(conn).values(
                        key=row.key,
                        failures=0,
                        pending=0,
                        last_at=at,
                        locked_until=None,
                        refused=0,
                    )
                )
            return None
        if row.failures + row.pending >= self._limit(row.key):
            return Throttled(  # failures and attempts being checked make the limit already
                "too many sign-ins at once: wait before trying again", retry_after=1
            )
        if row.key.startswith("account:") and row.failures:
            wait = as_utc(row.last_at) + self.limits.delay * 2 ** (row.failures - 1) - at
            if wait > timedelta(0):
                return Throttled(
                    "a failed sign-in was too recent: wait before trying again",
                    retry_after=_seconds(wait),
                )
        return None

    def _limit(self, key: str) -> int:
        if key.startswith("account:"):
            return self.limits.account_failures
        return self.limits.address_failures

    def failed(self, conn: Connection, keys: Sequence[str], *, address: str | None) -> None:
        """The attempt :meth:`admit` counted failed: a failure on every key; lock each key it
        brings to its limit (logged)."""
        at = now()
        for key in sorted(keys):
            conn.execute(
                update(sign_in_limits)
                .where(sign_in_limits.c.key == key)
                .values(
                    failures=sign_in_limits.c.failures + 1,
                    pending=_less(sign_in_limits.c.pending),
                    last_at=at,
                )
            )
            row = conn.execute(select(sign_in_limits).where(sign_in_limits.c.key == key)).first()
            if row is None or row.locked_until is not None or row.failures < self._limit(key):
                continue
            locked = at + self.limits.lock_for
            conn.execute(
                update(sign_in_limits)
                .where(sign_in_limits.c.key == key)
                .values(locked_until=locked)
            )
            kind, _, who = key.partition(":")
            append(
                conn,
                SecurityEvent.LOCKED,
                username=who if kind == "account" else None,
                address=address,
                detail={kind: who, "failures": int(row.failures), "until": locked.isoformat()},
            )

    def succeeded(self, conn: Connection, keys: Sequence[str]) -> None:
        """The attempt :meth:`admit` counted succeeded: no longer pending; the account
        name's failures cleared."""
        for key in sorted(keys):
            values: dict[str, Any] = {"pending": _less(sign_in_limits.c.pending)}
            if key.startswith("account:"):
                values["failures"] = 0
            conn.execute(update(sign_in_limits).where(sign_in_limits.c.key == key).values(**values))

    def forget(self, conn: Connection, username: str) -> None:
        """Clear the failures counted on an account name (an administrator enabled it)."""
        query = delete(sign_in_limits).where(sign_in_limits.c.key == account_key(username))
        conn.execute(query)

    def unlock(self, conn: Connection, key: str, *, by: str) -> Lock:
        """Release ``key`` (a supervisor or an administrator ``by``); ``LookupError`` where
        nothing holds it."""
        row = conn.execute(select(sign_in_limits).where(sign_in_limits.c.key == key)).first()
        if row is None or (row.failures == 0 and row.locked_until is None):
            kind, _, who = key.partition(":")
            raise LookupError(f"no failed sign-in is counted for the {kind} {who!r}")
        self._release(conn, row, by=by, address=None)
        return _lock(row)

    def locks(self, conn: Connection) -> list[Lock]:
        """Every key with failures counted (locked or not), locked first."""
        rows = conn.execute(select(sign_in_limits).order_by(sign_in_limits.c.key)).all()
        found = [_lock(r) for r in rows]
        at = now()
        live = [
            lock
            for lock, row in zip(found, rows, strict=True)
            if (lock.failures and as_utc(row.last_at) + self.limits.lock_for > at)
            or (lock.locked_until is not None and lock.locked_until > at)
        ]
        return sorted(live, key=lambda lock: (lock.locked_until is None, lock.key))

    @staticmethod
    def _rows(conn: Connection, keys: Sequence[str]) -> list[Any]:
        query = select(sign_in_limits).where(sign_in_limits.c.key.in_(list(keys)))
        return list(conn.execute(query).all())

    @staticmethod
    def _release(conn: Connection, row: Any, *, by: str, address: str | None) -> None:
        conn.execute(delete(sign_in_limits).where(sign_in_limits.c.key == row.key))
        locked = row.locked_until is not None
        if by == "time" and not locked:
            return  # failures forgotten with time: nothing to report
        kind, _, who = row.key.partition(":")
        detail = {kind: who, "failures": int(row.failures), "refused": int(row.refused)}
        append(
            conn,
            SecurityEvent.UNLOCKED,
            username=who if kind == "account" else None,
            actor=by,
            address=address,
            detail={**detail, "locked": locked},
        )


def _less(column: Any) -> Any:
    """``column - 1``, never below zero."""
    return case((column > 0, column - 1), else_=0)


def _insert_new(conn: Connection) -> Any:
    """An ``INSERT`` into ``sign_in_limits`` that does nothing where the key is there."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(sign_in_limits).on_conflict_do_nothing(index_elements=["key"])
    if conn.dialect.name == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert(sign_in_limits).on_conflict_do_nothing(index_elements=["key"])
    return insert(sign_in_limits).prefix_with("OR IGNORE")  # pragma: no cover


def _lock(row: Any) -> Lock:
    return Lock(
        key=row.key,
        failures=int(row.failures),
        locked_until=None if row.locked_until is None else as_utc(row.locked_until),
        refused=int(row.refused),
    )
