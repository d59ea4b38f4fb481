"""Accounts, passwords and bearer tokens.

Passwords are argon2id hashes (argon2-cffi); a token is 32 random bytes from ``secrets``, given
to the client once and stored only as its SHA-256: its session ends when idle, at the end of its
lifetime, at sign-out or when its account's sessions are ended (:mod:`croupier.server.sessions`:
the cache, the revocations, the streams told).  Roles: ``player`` (a seat's
wagering device), ``dealer`` (of one table), ``supervisor``, ``observer`` (the pit view) and
``auditor`` (read-only records).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, Engine, insert, select

from croupier.errors import InvalidInput
from croupier.server.schema import accounts, sessions
from croupier.server.sessions import (
    LIFETIME,
    Held,
    SessionEnded,
    SessionLimits,
    Tokens,
    open_session,
)
from croupier.store._db import Database, as_utc, now

__all__ = ["TOKEN_LIFETIME", "Account", "Auth", "Role"]

TOKEN_LIFETIME = LIFETIME

ARGON2_TIME_COST = 2
ARGON2_MEMORY_KIB = 19_456
"""argon2id at OWASP's recommended minimum (19 MiB, 2 passes, 1 lane): a login costs tens of
milliseconds on a table terminal, not seconds on a busy server."""

TEST_PROFILE_ENV = "CROUPIER_ARGON2_PROFILE"
"""``CROUPIER_ARGON2_PROFILE=test`` (test suites and benchmarks that enrol hundreds of bot
players only): argon2id with 1 pass over 64 KiB.  Never set on a real floor."""


def _hasher() -> PasswordHasher:
    if os.environ.get(TEST_PROFILE_ENV) == "test":
        return PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
    return PasswordHasher(time_cost=ARGON2_TIME_COST, memory_cost=ARGON2_MEMORY_KIB, parallelism=1)


class Role(StrEnum):
    PLAYER = "player"
    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    OBSERVER = "observer"
    AUDITOR = "auditor"


@dataclass(frozen=True, slots=True)
class Account:
    username: str
    role: Role
    player_id: str | None = None
    table_id: str | None = None
    """The dealer's assigned table."""


class AuthError(SessionEnded):
    """Refused credentials or token (HTTP 401)."""


class Auth:
    """Accounts and sessions in the database; verified tokens cached (:class:`Tokens`)."""

    def __init__(self, engine: Engine, *, limits: SessionLimits | None = None) -> None:
        self.engine = engine
        self.limits = limits if limits is not None else SessionLimits()
        self._hasher = _hasher()
        self._db: Database | None = None  # made at the first token read (prepares the engine)
        self.tokens: Tokens[Account] = Tokens(engine, self.limits, self._session)

    def create(
        self,
        conn: Connection,
        username: str,
        password: str,
        role: Role,
        *,
        player_id: str | None = None,
        table_id: str | None = None,
    ) -> Account:
        if not username or len(username) > 100:
            raise InvalidInput(f"username {username!r} must be 1-100 characters")
        if len(password) < 8:
            raise InvalidInput(f"the password of {username!r} must have at least 8 characters")
        if role is Role.PLAYER and player_id is None:
            raise InvalidInput(f"player account {username!r} needs a player")
        conn.execute(
            insert(accounts).values(
                username=username,
                role=role.value,
                password_hash=self._hasher.hash(password),
                player_id=player_id,
                table_id=table_id,
                created_at=now(),
            )
        )
        return Account(username, role, player_id, table_id)

    def exists(self, conn: Connection, username: str) -> bool:
        row = conn.execute(select(accounts.c.username).where(accounts.c.username == username))
        return row.first() is not None

    def login(self, username: str, password: str) -> tuple[str, Account, datetime]:
        """A new token for ``username``; :class:`AuthError` on a wrong name or password."""
        with self.engine.begin() as conn:
            row = conn.execute(select(accounts).where(accounts.c.username == username)).first()
            if row is None:
                # Spend the same effort on an unknown name as on a wrong password.
                self._hasher.hash(password)
                raise AuthError("unknown username or wrong password")
            try:
                self._hasher.verify(row.password_hash, password)
            except (VerificationError, InvalidHashError):
                raise AuthError("unknown username or wrong password") from None
            token, expires = open_session(conn, username, self.limits)
        return token, _account(row), expires

    # -- sessions (croupier.server.sessions) ----------------------------------------------------

    def verify(self, token: str) -> Account:
        """The account of a request's token (the request is activity: the idle end moves);
        :class:`AuthError` if unknown, ended or expired."""
        try:
            return self.tokens.verify(token)
        except SessionEnded as exc:
            raise AuthError(str(exc)) from None

    def check(self, token: str) -> Account:
        """The account of an open stream's token, re-checked (not activity); :class:`AuthError`
        where its session has ended."""
        try:
            return self.tokens.check(token)
        except SessionEnded as exc:
            raise AuthError(str(exc)) from None

    def revoke(self, token: str) -> bool:
        """Sign-out: end the session of ``token`` in the database, in this process's cache and
        on its open streams at once (other processes: within ``RECHECK_SECONDS``)."""
        return self.tokens.revoke(token)

    def end_sessions(self, conn: Connection, username: str) -> int:
        """End every session of ``username`` in ``conn``'s transaction (a password changed, an
        account disabled): database, cache and open streams, as :meth:`revoke`."""
        return self.tokens.end_sessions(conn, username)

    def _session(self, key: str) -> Held[Account] | None:
        if self._db is None:
            self._db = Database(self.engine)  # a reader that takes no write lock (SQLite)
        with self._db.read() as conn:
            row = conn.execute(
                select(sessions.c.expires_at, sessions.c.created_at.label("signed_in"), accounts)
                .join(accounts, accounts.c.username == sessions.c.username)
                .where(sessions.c.token_sha256 == key)
            ).first()
        if row is None:
            return None
        expires = as_utc(row.expires_at)
        return Held(_account(row), row.username, as_utc(row.signed_in), expires, expires)


def _account(row: object) -> Account:
    return Account(
        username=row.username,  # type: ignore[attr-defined]
        role=Role(row.role),  # type: ignore[attr-defined]
        player_id=row.player_id,  # type: ignore[attr-defined]
        table_id=row.table_id,  # type: ignore[attr-defined]
    )
