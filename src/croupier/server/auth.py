"""Accounts, passwords and bearer tokens.

Passwords are argon2id hashes (argon2-cffi); a token is 32 random bytes from ``secrets``, given
to the client once and stored only as its SHA-256, with an expiry.  Roles: ``player`` (a seat's
wagering device), ``dealer`` (of one table), ``supervisor``, ``observer`` (the pit view) and
``auditor`` (read-only records).
"""

from __future__ import annotations

import hashlib
import os
import secrets
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, Engine, insert, select

from croupier.errors import InvalidInput
from croupier.server.schema import accounts, sessions
from croupier.store._db import as_utc, now

__all__ = ["TOKEN_LIFETIME", "Account", "Auth", "Role"]

TOKEN_LIFETIME = timedelta(hours=12)

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


class AuthError(Exception):
    """Refused credentials or token (HTTP 401)."""


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Auth:
    """Accounts and tokens in the database; verified tokens are cached until they expire."""

    def __init__(self, engine: Engine, *, lifetime: timedelta = TOKEN_LIFETIME) -> None:
        self.engine = engine
        self.lifetime = lifetime
        self._hasher = _hasher()
        self._cache: dict[str, tuple[Account, datetime]] = {}
        self._lock = threading.Lock()

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
            token = secrets.token_urlsafe(32)
            at = now()
            expires = at + self.lifetime
            conn.execute(
                insert(sessions).values(
                    token_sha256=_digest(token),
                    username=username,
                    expires_at=expires,
                    created_at=at,
                )
            )
        return token, _account(row), expires

    def verify(self, token: str) -> Account:
        """The account a token belongs to; :class:`AuthError` if unknown or expired."""
        digest = _digest(token)
        at = now()
        with self._lock:
            cached = self._cache.get(digest)
        if cached is not None and cached[1] > at:
            return cached[0]
        with self.engine.begin() as conn:
            row = conn.execute(
                select(sessions.c.expires_at, accounts)
                .join(accounts, accounts.c.username == sessions.c.username)
                .where(sessions.c.token_sha256 == digest)
            ).first()
        if row is None or as_utc(row.expires_at) <= at:
            raise AuthError("the token is unknown or has expired")
        account = _account(row)
        with self._lock:
            self._cache[digest] = (account, as_utc(row.expires_at))
        return account


def _account(row: object) -> Account:
    return Account(
        username=row.username,  # type: ignore[attr-defined]
        role=Role(row.role),  # type: ignore[attr-defined]
        player_id=row.player_id,  # type: ignore[attr-defined]
        table_id=row.table_id,  # type: ignore[attr-defined]
    )
