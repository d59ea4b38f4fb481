"""The security log: every security event of the floor, append-only and hash-chained.

GLI-19's logging rules ask that a system record who signed in and when, each failed attempt and
lockout, each change to an account (its creation, role, password, status) and each refused
access, in a log that cannot be altered without detection; the auditor reads it.

Each entry is numbered (``seq`` 1, 2, ...) and carries ``hash = SHA-256(previous hash || "\\n"
|| canonical JSON of the entry)`` (:mod:`croupier.store.chain`; the first entry's previous hash
is :data:`~croupier.store.chain.GENESIS`); ``security_head`` holds the last number and hash.
Appending updates the head first, which serialises writers (PostgreSQL's row lock, SQLite's
write lock), in the transaction of the change it records: an account disabled and its entry
commit together or not at all.  :func:`check` (run by ``croupier audit verify``) recomputes the
chain and names the first entry that was edited, inserted or deleted, and a log cut short
(the head's number and hash against the last entry).  A password, a token or a hash is never
written here.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import Connection, Engine, insert, inspect, select, update
from sqlalchemy.exc import OperationalError

from croupier.audit.chains import Finding
from croupier.store import as_utc, now
from croupier.store.chain import GENESIS, canonical, link, stamp
from croupier.store.schema import security_head, security_log

__all__ = [
    "Entry",
    "SecurityEvent",
    "append",
    "check",
    "entries",
    "entry_payload",
    "record_refusal",
]

log = logging.getLogger("croupier.server")

HEAD = 1
"""The one row of ``security_head``."""


class SecurityEvent(StrEnum):
    SIGN_IN = "sign_in"
    SIGN_IN_FAILED = "sign_in_failed"
    LOCKED = "locked"
    UNLOCKED = "unlocked"
    SIGN_OUT = "sign_out"
    ACCOUNT_CREATED = "account_created"
    ACCOUNT_DISABLED = "account_disabled"
    ACCOUNT_ENABLED = "account_enabled"
    ACCOUNT_RENAMED = "account_renamed"
    PASSWORD_CHANGED = "password_changed"
    ROLE_CHANGED = "role_changed"
    TABLES_BOUND = "tables_bound"
    ACCESS_REFUSED = "access_refused"
    SETUP_TOKEN_ISSUED = "setup_token_issued"


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    at: datetime
    event: str
    username: str | None
    actor: str | None
    address: str | None
    detail: Mapping[str, Any]
    hash: str

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "at": stamp(self.at),
            "event": self.event,
            "username": self.username,
            "actor": self.actor,
            "address": self.address,
            "detail": dict(self.detail),
            "hash": self.hash,
        }


def entry_payload(
    *,
    seq: int,
    at: datetime,
    event: str,
    username: str | None,
    actor: str | None,
    address: str | None,
    detail: Mapping[str, Any],
) -> dict[str, Any]:
    """What an entry's hash covers."""
    return {
        "seq": seq,
        "at": stamp(at),
        "event": event,
        "username": username,
        "actor": actor,
        "address": address,
        "detail": dict(detail),
    }


def _head(conn: Connection) -> tuple[int, str]:
    """The head after taking the next number (its row stays locked until the commit)."""
    bumped = conn.execute(
        update(security_head).where(security_head.c.id == HEAD).values(seq=security_head.c.seq + 1)
    )
    if bumped.rowcount == 0:  # a database made from the metadata, not the migrations
        conn.execute(insert(security_head).values(id=HEAD, seq=1, hash=GENESIS))
    row = conn.execute(
        select(security_head.c.seq, security_head.c.hash).where(security_head.c.id == HEAD)
    ).one()
    return int(row.seq), str(row.hash)


def append(
    conn: Connection,
    event: SecurityEvent,
    *,
    username: str | None = None,
    actor: str | None = None,
    address: str | None = None,
    detail: Mapping[str, Any] | None = None,
) -> Entry:
    """Record ``event`` in ``conn``'s transaction (committed with it)."""
    seq, previous = _head(conn)
    entry = Entry(
        seq=seq,
        at=now(),
        event=event.value,
        username=_cut(username),
        actor=_cut(actor),
        address=_cut(address),
        detail=dict(detail or {}),
        hash="",
    )
    payload = entry_payload(
        seq=seq,
        at=entry.at,
        event=entry.event,
        username=entry.username,
        actor=entry.actor,
        address=entry.address,
        detail=entry.detail,
    )
    digest = link(previous, payload)
    conn.execute(
        insert(security_log).values(
            seq=seq,
            at=entry.at,
            event=entry.event,
            username=entry.username,
            actor=entry.actor,
            address=entry.address,
            detail=canonical(dict(entry.detail)),
            hash=digest,
        )
    )
    conn.execute(update(security_head).where(security_head.c.id == HEAD).values(hash=digest))
    return replace(entry, hash=digest)


def record_refusal(
    engine: Engine,
    *,
    username: str | None,
    address: str | None,
    status: int,
    method: str,
    path: str,
    why: str,
) -> None:
    """A refused access in its own transaction (``access_refused``): a request or a stream
    refused (HTTP ``status``), or an open stream closed because its session ended (its close
    code, 1008).  A log the database cannot take now does not turn the refusal into an error."""
    detail = {"status": status, "method": method, "path": path[:200], "why": why[:300]}
    try:
        with engine.begin() as conn:
            append(
                conn,
                SecurityEvent.ACCESS_REFUSED,
                username=username,
                address=address,
                detail=detail,
            )
    except OperationalError as exc:
        log.warning("security log: a refusal not recorded (%s)", exc.orig)


def _cut(text: str | None) -> str | None:
    return None if text is None else text[:100]


def entries(conn: Connection, *, after: int = 0, limit: int = 100) -> list[Entry]:
    """The entries numbered above ``after``, oldest first, at most ``limit``."""
    rows = conn.execute(
        select(security_log)
        .where(security_log.c.seq > after)
        .order_by(security_log.c.seq)
        .limit(limit)
    ).all()
    return [_entry(row) for row in rows]


def _entry(row: Any) -> Entry:
    return Entry(
        seq=int(row.seq),
        at=as_utc(row.at),
        event=row.event,
        username=row.username,
        actor=row.actor,
        address=row.address,
        detail=json.loads(row.detail),
        hash=row.hash,
    )


def check(conn: Connection) -> tuple[int, list[Finding]]:
    """The entries read and, for the log's chain, the first that does not match (edited,
    inserted or deleted) or the head that does not end it; ``(0, [])`` where the database has
    no security log (a store written by ``croupier play``)."""
    if not inspect(conn).has_table(security_log.name):
        return 0, []
    rows = conn.execute(select(security_log).order_by(security_log.c.seq)).all()
    head = conn.execute(select(security_head).where(security_head.c.id == HEAD)).first()
    previous = GENESIS
    for expected, row in enumerate(rows, start=1):
        key = f"entry {row.seq}"
        if row.seq != expected:
            what = f"entry {expected} is missing (the next entry is {row.seq})"
            return len(rows), [Finding(table="security_log", key=f"entry {expected}", what=what)]
        try:
            detail = json.loads(row.detail)
        except ValueError:
            what = "its detail is not JSON"
            return len(rows), [Finding(table="security_log", key=key, what=what)]
        payload = entry_payload(
            seq=int(row.seq),
            at=as_utc(row.at),
            event=row.event,
            username=row.username,
            actor=row.actor,
            address=row.address,
            detail=detail,
        )
        digest = link(previous, payload)
        if digest != row.hash:
            what = f"the {row.event} entry does not match its hash"
            return len(rows), [Finding(table="security_log", key=key, what=what)]
        previous = digest
    last = len(rows)
    head_seq, head_hash = (0, GENESIS) if head is None else (int(head.seq), str(head.hash))
    if (head_seq, head_hash) != (last, previous):
        what = f"the log ends at entry {last}, its head names entry {head_seq}"
        if head_seq == last:
            what = f"the head's hash is not that of entry {last}, the last"
        return last, [Finding(table="security_head", key="head", what=what)]
    return last, []
