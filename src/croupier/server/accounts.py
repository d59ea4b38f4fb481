"""Accounts as a casino runs them: staff of each role, dealers bound to tables, players.

One set of operations behind ``croupier accounts ...`` (:mod:`croupier.cli.accounts`) and the
administrator's API (``/api/accounts...``, :mod:`croupier.server.account_routes`).  Each runs in
the caller's transaction and writes its security-log entry there (GLI-19: every change to an
account is logged with who made it); a disable, a password change and a role change end every
session of the account at once (:meth:`~croupier.server.auth.Auth.end_sessions`: deleted,
dropped from the token cache and its open streams closed in this process; in other processes
within :data:`~croupier.server.sessions.RECHECK_SECONDS`).  A floor always keeps one
active administrator: the last one cannot be disabled or given another role.

The first administrator: ``croupier accounts create NAME --role admin`` (the password read from
the terminal or standard input), or the one-time set-up token that a floor with no
administrator prints once at its start (:func:`issue_setup_token`, redeemed by ``POST
/api/setup``).  No account ever has a fixed password.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.server.auth import Account, AccountStatus, Auth, Role
from croupier.server.identifiers import normalise_username
from croupier.server.passwords import check_password
from croupier.server.security_log import SecurityEvent, append
from croupier.server.signin import Lock, account_key, address_key
from croupier.store import as_utc, now
from croupier.store.schema import account_tables, accounts, live_tables, players, setup_tokens

__all__ = [
    "SETUP_TOKEN_LIFETIME",
    "AccountInfo",
    "account_info",
    "bind_tables",
    "create_account",
    "issue_setup_token",
    "list_accounts",
    "redeem_setup_token",
    "set_password",
    "set_role",
    "set_status",
    "unlock",
]

SETUP_TOKEN_LIFETIME = timedelta(hours=24)


@dataclass(frozen=True, slots=True)
class AccountInfo:
    """An account as listed (never its password hash)."""

    username: str
    role: str
    status: str
    demo: bool
    player_id: str | None
    tables: tuple[str, ...]
    created_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "username": self.username,
            "role": self.role,
            "status": self.status,
            "demo": self.demo,
            "player_id": self.player_id,
            "tables": list(self.tables),
            "created_at": self.created_at.isoformat(),
        }


def list_accounts(conn: Connection) -> list[AccountInfo]:
    bound: dict[str, list[str]] = {}
    for row in conn.execute(select(account_tables).order_by(account_tables.c.table_id)):
        bound.setdefault(row.username, []).append(row.table_id)
    rows = conn.execute(select(accounts).order_by(accounts.c.role, accounts.c.username)).all()
    return [
        AccountInfo(
            username=r.username,
            role=r.role,
            status=r.status,
            demo=bool(r.demo),
            player_id=r.player_id,
            tables=tuple(bound.get(r.username, ())),
            created_at=as_utc(r.created_at),
        )
        for r in rows
    ]


def account_info(conn: Connection, username: str) -> AccountInfo:
    """The account ``username`` names, as listed; ``LookupError`` where none does."""
    name = normalise_username(username)
    found = [a for a in list_accounts(conn) if a.username == name]
    if not found:
        raise LookupError(f"account {name!r} does not exist")
    return found[0]


def create_account(
    auth: Auth,
    conn: Connection,
    *,
    username: str,
    password: str,
    role: Role,
    actor: str,
    player_id: str | None = None,
    player_name: str | None = None,
    tables: Iterable[str] = (),
) -> AccountInfo:
    """A new account; a player account's player is created where it does not exist yet."""
    wanted = _existing_tables(conn, tables)
    if role is Role.PLAYER:
        if player_id is None:
            raise InvalidInput(f"a player account ({username!r}) needs a player id")
        _ensure_player(conn, player_id, player_name or player_id)
    made = auth.create(
        conn, username, password, role, player_id=player_id, tables=wanted, actor=actor
    )
    return account_info(conn, made.username)


def _ensure_player(conn: Connection, player_id: str, name: str) -> None:
    if not player_id or len(player_id) > 100 or not player_id.replace("-", "").isalnum():
        raise InvalidInput(f"player id {player_id!r} must be letters, digits and '-'")
    if conn.execute(select(players.c.id).where(players.c.id == player_id)).first() is None:
        conn.execute(insert(players).values(id=player_id, name=name[:200], created_at=now()))


def _existing_tables(conn: Connection, tables: Iterable[str]) -> frozenset[str]:
    wanted = frozenset(tables)
    known = set(conn.execute(select(live_tables.c.id)).scalars())
    missing = sorted(wanted - known)
    if missing:
        raise InvalidInput(f"table(s) {', '.join(map(repr, missing))} do not exist on this floor")
    return wanted


def _admins(conn: Connection) -> int:
    query = select(func.count()).where(
        accounts.c.role == Role.ADMIN.value,
        accounts.c.status == AccountStatus.ACTIVE.value,
        accounts.c.demo.is_(False),
    )
    return int(conn.execute(query).scalar_one())


def _keep_an_admin(conn: Connection, info: AccountInfo, what: str) -> None:
    active_admin = info.role == Role.ADMIN.value and info.status == "active" and not info.demo
    if active_admin and _admins(conn) <= 1:
        raise IllegalAction(
            f"{info.username!r} is the floor's last active administrator: {what} refused "
            "(create another administrator first)"
        )


def set_status(
    auth: Auth, conn: Connection, username: str, status: AccountStatus, *, actor: str
) -> AccountInfo:
    """Disable (every session ended) or enable an account (its failed sign-ins forgotten)."""
    info = account_info(conn, username)
    if info.status == status.value:
        raise IllegalAction(f"account {info.username!r} is already {status.value}")
    if status is AccountStatus.DISABLED:
        _keep_an_admin(conn, info, "disabling it")
    _update(conn, info.username, status=status.value)
    detail: dict[str, Any] = {}
    if status is AccountStatus.DISABLED:
        detail["sessions_ended"] = auth.end_sessions(conn, info.username)
        event = SecurityEvent.ACCOUNT_DISABLED
    else:
        # its failed sign-ins (those refused while it was disabled among them) are forgotten
        auth.limiter.forget(conn, info.username)
        event = SecurityEvent.ACCOUNT_ENABLED
    append(conn, event, username=info.username, actor=actor, detail=detail)
    return account_info(conn, info.username)


def set_password(
    auth: Auth, conn: Connection, username: str, password: str, *, actor: str
) -> AccountInfo:
    """A new password (strong enough); every session of the account ended."""
    info = account_info(conn, username)
    if info.demo:
        raise IllegalAction(
            f"{info.username!r} is a demo account: its password is published with the demo; "
            "create an account of your own instead"
        )
    check_password(password, info.username)
    _update(conn, info.username, password_hash=auth.hasher.hash(password))
    ended = auth.end_sessions(conn, info.username)
    append(
        conn,
        SecurityEvent.PASSWORD_CHANGED,
        username=info.username,
        actor=actor,
        detail={"sessions_ended": ended},
    )
    return account_info(conn, info.username)


def set_role(auth: Auth, conn: Connection, username: str, role: Role, *, actor: str) -> AccountInfo:
    """Another role (staff only: a player account stays a player's); sessions ended."""
    info = account_info(conn, username)
    if info.role == role.value:
        raise IllegalAction(f"account {info.username!r} is already {role.value}")
    if Role.PLAYER.value in (info.role, role.value):
        raise IllegalAction(
            f"a player account and a staff account are different people: create a new account "
            f"rather than make {info.username!r} ({info.role}) {role.value}"
        )
    _keep_an_admin(conn, info, "changing its role")
    _update(conn, info.username, role=role.value)
    if role is not Role.DEALER:
        conn.execute(delete(account_tables).where(account_tables.c.username == info.username))
    ended = auth.end_sessions(conn, info.username)
    append(
        conn,
        SecurityEvent.ROLE_CHANGED,
        username=info.username,
        actor=actor,
        detail={"from": info.role, "to": role.value, "sessions_ended": ended},
    )
    return account_info(conn, info.username)


def bind_tables(
    auth: Auth, conn: Connection, username: str, tables: Iterable[str], *, actor: str
) -> AccountInfo:
    """Bind a dealer to exactly ``tables`` (none: the dealer deals no table)."""
    info = account_info(conn, username)
    if info.role != Role.DEALER.value:
        raise IllegalAction(f"only a dealer is bound to tables; {info.username!r} is {info.role}")
    wanted = _existing_tables(conn, tables)
    conn.execute(delete(account_tables).where(account_tables.c.username == info.username))
    if wanted:
        conn.execute(
            insert(account_tables),
            [{"username": info.username, "table_id": t} for t in sorted(wanted)],
        )
    _update(conn, info.username)
    auth.forget(info.username)  # its tokens answer with the new tables at the next request
    append(
        conn,
        SecurityEvent.TABLES_BOUND,
        username=info.username,
        actor=actor,
        detail={"from": list(info.tables), "to": sorted(wanted)},
    )
    return account_info(conn, info.username)


def unlock(
    auth: Auth,
    conn: Connection,
    *,
    actor: str,
    username: str | None = None,
    address: str | None = None,
) -> Lock:
    """Release the sign-in lock (or the failures counted) of an account name or an address."""
    if (username is None) == (address is None):
        raise InvalidInput("unlock one account name or one client address")
    key = account_key(normalise_username(username)) if username else address_key(str(address))
    return auth.limiter.unlock(conn, key, by=actor)


def _update(conn: Connection, username: str, **values: Any) -> None:
    conn.execute(
        update(accounts).where(accounts.c.username == username).values(updated_at=now(), **values)
    )


# -- the first administrator ------------------------------------------------------------------


def _sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_setup_token(conn: Connection) -> str | None:
    """A new one-time set-up token where the floor has no active administrator (of its own:
    a demo admin does not count), replacing any earlier one; ``None`` where it has one.  Only
    its SHA-256 is stored; the caller prints it once."""
    if _admins(conn):
        return None
    conn.execute(delete(setup_tokens))
    token = secrets.token_urlsafe(24)
    at = now()
    conn.execute(
        insert(setup_tokens).values(
            token_sha256=_sha(token), created_at=at, expires_at=at + SETUP_TOKEN_LIFETIME
        )
    )
    append(
        conn,
        SecurityEvent.SETUP_TOKEN_ISSUED,
        actor="server start",
        detail={"expires_at": (at + SETUP_TOKEN_LIFETIME).isoformat()},
    )
    return token


def redeem_setup_token(
    auth: Auth, conn: Connection, token: str, *, username: str, password: str
) -> Account | None:
    """The first administrator, made with a valid set-up token (which is spent); ``None``
    where the token is unknown or expired (the caller refuses and counts the failure)."""
    row = conn.execute(
        select(setup_tokens.c.expires_at).where(setup_tokens.c.token_sha256 == _sha(token))
    ).first()
    if row is None or as_utc(row.expires_at) <= now() or _admins(conn):
        return None
    made = auth.create(conn, username, password, Role.ADMIN, actor="set-up token")
    conn.execute(delete(setup_tokens))
    return made
