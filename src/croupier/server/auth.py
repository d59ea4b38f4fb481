"""Accounts, passwords and bearer tokens.

Passwords are argon2id hashes (argon2-cffi), of the strength :mod:`croupier.server.passwords`
requires; a token is 32 random bytes from ``secrets``, given to the client once and stored only
as its SHA-256: its session ends when idle, at the end of its lifetime, at sign-out or when its
account's sessions are ended (:mod:`croupier.server.sessions`: the cache, the revocations, the
streams told).  Roles: ``player`` (a seat's wagering device), ``dealer`` (of the tables bound
to it, ``account_tables``), ``supervisor``, ``observer`` (the pit view), ``auditor`` (read-only
records and the security log) and ``admin`` (the accounts).

Usernames are normalised (:mod:`croupier.server.identifiers`): any spelling that normalises
the same signs in to the same account.  A sign-in is throttled (:mod:`croupier.server.signin`)
and every sign-in, failure, lock and sign-out is written to the security log
(:mod:`croupier.server.security_log`).  An unknown name, a wrong password, a disabled account
and a demo account on a real floor answer alike (the log says which it was).

Demo accounts (:func:`croupier.server.demo.setup_demo`, published passwords) are accepted only
by a floor started as a demo or for training (:class:`FloorMode`); on any other floor they are
refused at sign-in and their tokens stop answering (as a disabled account's: the session read
refuses them, :meth:`Auth._session`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, Engine, insert, select

from croupier.core.errors import InvalidInput, shown_value
from croupier.server.identifiers import normalise_username
from croupier.server.passwords import check_password
from croupier.server.security_log import SecurityEvent, append
from croupier.server.sessions import (
    LIFETIME,
    Held,
    SessionEnded,
    SessionLimits,
    Tokens,
    open_session,
)
from croupier.server.signin import Limiter, SignInLimits, account_key, address_key
from croupier.store import Database, as_utc, now
from croupier.store.schema import account_tables, accounts, sessions

__all__ = [
    "TOKEN_LIFETIME",
    "Account",
    "AccountStatus",
    "Auth",
    "AuthError",
    "FloorMode",
    "Role",
]

TOKEN_LIFETIME = LIFETIME

ARGON2_TIME_COST = 2
ARGON2_MEMORY_KIB = 19_456
"""argon2id at OWASP's recommended minimum (19 MiB, 2 passes, 1 lane): a login costs tens of
milliseconds on a table terminal, not seconds on a busy server."""

TEST_PROFILE_ENV = "CROUPIER_ARGON2_PROFILE"
"""``CROUPIER_ARGON2_PROFILE=test`` (test suites and benchmarks that enrol hundreds of bot
players only): argon2id with 1 pass over 64 KiB.  Never set on a real floor."""

REFUSED = "unknown username or wrong password"
"""The one answer to every refused sign-in (GLI-19: a failed sign-in does not say which part
was wrong)."""


def _hasher() -> PasswordHasher:
    if os.environ.get(TEST_PROFILE_ENV) == "test":
        return PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
    return PasswordHasher(time_cost=ARGON2_TIME_COST, memory_cost=ARGON2_MEMORY_KIB, parallelism=1)


SESSIONS_READ = 500
"""Most token digests :meth:`Auth._sessions` reads by their digests: more are read with every
session, in one statement (a floor's thousands of sessions: ``benchmarks/bench_sessions.py``
prints what re-reading them costs)."""

_SESSION_ROWS = select(
    sessions.c.token_sha256,
    sessions.c.expires_at,
    sessions.c.created_at.label("signed_in"),
    accounts.c.username,
    accounts.c.role,
    accounts.c.player_id,
    accounts.c.demo,
    accounts.c.status,
).join(accounts, accounts.c.username == sessions.c.username)
"""Each session with what its account is made of (:meth:`Auth._sessions`; the row is the
session's ``stamp``)."""


class Role(StrEnum):
    PLAYER = "player"
    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    OBSERVER = "observer"
    AUDITOR = "auditor"
    ADMIN = "admin"
    TRAINEE = "trainee"
    """A dealer in training (issue 40): drills, and watches the tables' felts face up; deals,
    voids and sees no face-down card."""


class AccountStatus(StrEnum):
    ACTIVE = "active"
    DISABLED = "disabled"


class FloorMode(StrEnum):
    """How a floor was started: the demo (``croupier serve``), for training (``--training``:
    the demo floor, every table a training table) or for real (``--no-demo``)."""

    DEMO = "demo"
    TRAINING = "training"
    REAL = "real"

    @property
    def admits_demo(self) -> bool:
        """Whether demo accounts sign in here."""
        return self is not FloorMode.REAL


@dataclass(frozen=True, slots=True)
class Account:
    username: str
    role: Role
    player_id: str | None = None
    tables: frozenset[str] = frozenset()
    """A dealer's tables (``account_tables``)."""
    demo: bool = False
    """A demo account (published password; demo and training floors only)."""

    def deals(self, table_id: str) -> bool:
        """Whether this account deals ``table_id``: a dealer bound to it; the demo floor's
        dealer, bound to none, deals every table of a demo floor; any other dealer bound to
        none deals no table."""
        if self.role is not Role.DEALER:
            return False
        return table_id in self.tables if self.tables else self.demo

    @property
    def sole_table(self) -> str | None:
        """The one table a dealer is bound to (``None``: none or several)."""
        return next(iter(self.tables)) if len(self.tables) == 1 else None


class AuthError(SessionEnded):
    """Refused credentials or token (HTTP 401)."""


class Auth:
    """Accounts and sessions in the database; verified tokens cached (:class:`Tokens`)."""

    def __init__(
        self,
        engine: Engine,
        *,
        mode: FloorMode = FloorMode.REAL,
        limits: SignInLimits | None = None,
        sessions: SessionLimits | None = None,
    ) -> None:
        """``limits``: the sign-in delays and locks; ``sessions``: the sessions' idle time and
        lifetime."""
        self.engine = engine
        self.mode = mode
        self.limiter = Limiter(limits if limits is not None else SignInLimits())
        self.hasher = _hasher()
        self._db: Database | None = None  # made at the first token read (prepares the engine)
        self.tokens: Tokens[Account] = Tokens(
            engine,
            sessions if sessions is not None else SessionLimits(),
            self._session,
            read_many=self._sessions,
        )

    # -- accounts ---------------------------------------------------------------------------

    def create(
        self,
        conn: Connection,
        username: str,
        password: str,
        role: Role,
        *,
        player_id: str | None = None,
        tables: Iterable[str] = (),
        actor: str | None = None,
    ) -> Account:
        """A new account (its name normalised, its password strong enough), logged."""
        name = normalise_username(username)
        check_password(password, name)
        made = Account(name, role, player_id, frozenset(tables))
        return self._insert(conn, made, password, actor)

    def create_demo(
        self, conn: Connection, username: str, password: str, role: Role, *, player_id: str | None
    ) -> Account:
        """A demo account: its published password is not held to the strength rules; it signs
        in only on a demo or training floor."""
        made = Account(normalise_username(username), role, player_id, demo=True)
        return self._insert(conn, made, password, None)

    def _insert(self, conn: Connection, made: Account, password: str, actor: str | None) -> Account:
        name, role, player_id, tables = made.username, made.role, made.player_id, made.tables
        if role is Role.PLAYER and player_id is None:
            raise InvalidInput(f"player account {name!r} needs a player")
        if role is not Role.PLAYER and player_id is not None:
            raise InvalidInput(f"only a player account has a player ({name!r} is {role.value})")
        if tables and role is not Role.DEALER:
            raise InvalidInput(f"only a dealer is bound to tables ({name!r} is {role.value})")
        if self.exists(conn, name):
            raise InvalidInput(f"username {name!r} is taken")
        at = now()
        conn.execute(
            insert(accounts).values(
                username=name,
                role=role.value,
                password_hash=self.hasher.hash(password),
                player_id=player_id,
                created_at=at,
                status=AccountStatus.ACTIVE.value,
                demo=made.demo,
                updated_at=at,
            )
        )
        if tables:
            conn.execute(
                insert(account_tables), [{"username": name, "table_id": t} for t in sorted(tables)]
            )
        detail: dict[str, Any] = {"role": role.value, "demo": made.demo}
        if player_id is not None:
            detail["player_id"] = player_id
        if tables:
            detail["tables"] = sorted(tables)
        append(conn, SecurityEvent.ACCOUNT_CREATED, username=name, actor=actor, detail=detail)
        return made

    def exists(self, conn: Connection, username: str) -> bool:
        """Whether an account answers to ``username`` (normalised; a name that cannot be one
        exists not)."""
        try:
            name = normalise_username(username)
        except InvalidInput:
            return False
        row = conn.execute(select(accounts.c.username).where(accounts.c.username == name))
        return row.first() is not None

    def account(self, conn: Connection, username: str) -> Account:
        """The account ``username`` names; ``LookupError`` where none does."""
        name = normalise_username(username)
        row = conn.execute(select(accounts).where(accounts.c.username == name)).first()
        if row is None:
            raise LookupError(f"account {name!r} does not exist")
        return _account(row, _tables(conn, name))

    # -- sessions ---------------------------------------------------------------------------

    def login(
        self, username: str, password: str, *, address: str | None = None
    ) -> tuple[str, Account, datetime]:
        """A new token for ``username``; :class:`AuthError` on a wrong name or password,
        :class:`~croupier.server.signin.Throttled` while a delay or a lock holds it back.
        ``address``: the client's (counted and logged)."""
        try:
            name: str | None = normalise_username(username)
        except InvalidInput:
            name = None  # never an account: refused alike, counted on the address
        keys = [account_key(name)] if name is not None else []
        if address:
            keys.append(address_key(address))
        with self.engine.begin() as conn:
            refusal = self.limiter.admit(conn, keys, address=address)
            row = None
            if name is not None and refusal is None:
                row = conn.execute(select(accounts).where(accounts.c.username == name)).first()
        if refusal is not None:
            raise refusal
        reason = self._refusal(row, password)
        token, expires, account = "", now(), None
        with self.engine.begin() as conn:
            if reason is not None:
                self.limiter.failed(conn, keys, address=address)
                detail = {"reason": reason}
                if name is None:
                    detail["given"] = shown_value(username)
                append(
                    conn,
                    SecurityEvent.SIGN_IN_FAILED,
                    username=name,
                    address=address,
                    detail=detail,
                )
            else:
                assert name is not None and row is not None
                token, expires = open_session(conn, name, self.tokens.limits)
                self.limiter.succeeded(conn, keys)
                append(
                    conn,
                    SecurityEvent.SIGN_IN,
                    username=name,
                    address=address,
                    detail={"role": row.role},
                )
                account = _account(row, _tables(conn, name))
        if account is None:
            raise AuthError(REFUSED)
        return token, account, expires

    def _refusal(self, row: Any, password: str) -> str | None:
        """Why a sign-in is refused (``None``: it is not); the same work either way."""
        if row is None:
            # Spend the same effort on an unknown name as on a wrong password.
            self.hasher.hash(password)
            return "unknown username"
        try:
            self.hasher.verify(row.password_hash, password)
        except (VerificationError, InvalidHashError):
            return "wrong password"
        if row.status != AccountStatus.ACTIVE.value:
            return "account disabled"
        if row.demo and not self.mode.admits_demo:
            return "demo account on a floor not started as a demo or for training"
        return None

    # -- sessions (croupier.server.sessions) ----------------------------------------------------

    def verify(self, token: str) -> Account:
        """The account of a request's token (the request is activity: the idle end moves);
        :class:`AuthError` if unknown, ended or expired, its account disabled, or a demo
        account's on a floor that does not admit them."""
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

    def revoke(self, token: str, *, address: str | None = None) -> bool:
        """Sign-out: end the session of ``token`` in the database, in this process's cache and
        on its open streams at once (other processes: within ``RECHECK_SECONDS``), written to
        the security log (``sign_out``); whether it was a session."""

        def record(conn: Connection, username: str) -> None:
            append(conn, SecurityEvent.SIGN_OUT, username=username, address=address)

        return self.tokens.revoke(token, record=record)

    def end_sessions(self, conn: Connection, username: str) -> int:
        """End every session of ``username`` in ``conn``'s transaction (a password changed, an
        account disabled): database, cache and open streams, as :meth:`revoke`."""
        return self.tokens.end_sessions(conn, username)

    def forget(self, username: str) -> None:
        """Drop every cached token of ``username`` (its sessions go on): the next request
        reads its account again (its tables changed)."""
        self.tokens.forget(username)

    def _session(self, key: str) -> Held[Account] | None:
        """The session of the token digest ``key`` as the database holds it; ``None`` where
        there is none, or its account is disabled, or it is a demo account on a floor that
        does not admit them (its token refused as an ended session's)."""
        return self._sessions([key], {}).get(key)

    def _sessions(
        self, keys: Sequence[str], known: Mapping[str, Held[Account]]
    ) -> dict[str, Held[Account]]:
        """:meth:`_session` of each of ``keys``, read together; a digest left out has no
        session that answers.  Up to :data:`SESSIONS_READ` digests are read by their digests,
        in one statement; more (a floor's open streams re-checked together) in one statement
        reading every session, of which those of ``keys`` are kept.  A session of ``known``
        read as it was (its row, its account's and the account's tables: its ``stamp``) is
        answered with the one known."""
        if self._db is None:
            self._db = Database(self.engine)  # a reader that takes no write lock (SQLite)
        wanted = frozenset(keys)
        every = len(wanted) > SESSIONS_READ
        query = _SESSION_ROWS
        if not every:
            query = query.where(sessions.c.token_sha256.in_(sorted(wanted)))
        out: dict[str, Held[Account]] = {}
        active, demo = AccountStatus.ACTIVE.value, self.mode.admits_demo
        with self._db.read() as conn:
            rows = [
                row
                for row in conn.execute(query).all()
                if row.token_sha256 in wanted and row.status == active and (demo or not row.demo)
            ]
            tables = _tables_of(conn, None if every else {row.username for row in rows})
        for row in rows:
            theirs = tables.get(row.username, frozenset())
            stamp = (tuple(row), theirs)
            held = known.get(row.token_sha256)
            if held is None or held.stamp != stamp:
                account = _account(row, theirs)
                expires = as_utc(row.expires_at)
                held = Held(account, row.username, as_utc(row.signed_in), expires, stamp)
            out[row.token_sha256] = held
        return out


def _tables_of(conn: Connection, usernames: set[str] | None) -> dict[str, frozenset[str]]:
    """The tables of each of ``usernames`` (a dealer's; ``None``: of every account), by
    username."""
    query = select(account_tables.c.username, account_tables.c.table_id)
    if usernames is not None:
        if not usernames:
            return {}
        query = query.where(account_tables.c.username.in_(sorted(usernames)))
    out: dict[str, set[str]] = {}
    for username, table_id in conn.execute(query):
        out.setdefault(username, set()).add(table_id)
    return {username: frozenset(tables) for username, tables in out.items()}


def _tables(conn: Connection, username: str) -> frozenset[str]:
    query = select(account_tables.c.table_id).where(account_tables.c.username == username)
    return frozenset(conn.execute(query).scalars())


def _account(row: Any, tables: frozenset[str]) -> Account:
    return Account(
        username=row.username,
        role=Role(row.role),
        player_id=row.player_id,
        tables=tables,
        demo=bool(row.demo),
    )
