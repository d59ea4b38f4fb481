"""Sessions in one process (issue 36; :mod:`croupier.server.sessions`): a revoked token is
refused at once though it was cached, and the streams watching it are told; ending an
account's sessions ends every one of them and tells only its streams; a read that a revocation
overtook answers its own request and is not cached; a request moves the idle end (written once
a step), a stream's re-check does not; the limits refuse what is not a positive number; a
session read again as it was held is answered with the one held, and one read changed (its
account's role or tables, changed by another process) is answered as read."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, event, func, select
from sqlalchemy.exc import OperationalError

from croupier.core.errors import InvalidInput
from croupier.server.auth import Account, Auth, AuthError, Role
from croupier.server.db import connect
from croupier.server.sessions import (
    RECHECK_SECONDS,
    Held,
    SessionEnded,
    SessionLimits,
    Tokens,
    digest,
)
from croupier.store import now
from croupier.store.database import as_utc
from croupier.store.schema import account_tables, accounts, sessions

PASSWORD = "a-long-password"


@pytest.fixture
def auth(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Auth]:
    monkeypatch.setenv("CROUPIER_ARGON2_PROFILE", "test")
    engine = connect(f"sqlite:///{tmp_path / 'floor.sqlite'}")
    made = Auth(engine)
    with engine.begin() as conn:
        for name in ("sup1", "sup2"):
            made.create(conn, name, PASSWORD, Role.SUPERVISOR)
    yield made
    engine.dispose()


def _expires(auth: Auth, token: str) -> datetime:
    with auth.engine.connect() as conn:
        found: datetime = conn.execute(
            select(sessions.c.expires_at).where(sessions.c.token_sha256 == digest(token))
        ).scalar_one()
    return found


def test_a_revoked_token_is_refused_at_once_and_its_streams_are_told(auth: Auth) -> None:
    token, _, _ = auth.login("sup1", PASSWORD)
    kept, _, _ = auth.login("sup1", PASSWORD)
    assert auth.verify(token).username == "sup1"  # cached now
    told: list[str] = []
    auth.tokens.watch(token, "sup1", lambda: told.append("revoked"))
    auth.tokens.watch(kept, "sup1", lambda: told.append("kept"))
    assert auth.revoke(token) is True
    with pytest.raises(AuthError):
        auth.verify(token)
    with pytest.raises(AuthError):
        auth.check(token)
    assert told == ["revoked"]
    assert auth.verify(kept).username == "sup1"
    assert auth.revoke(token) is False  # nothing left to end


def test_ending_an_accounts_sessions_ends_each_and_tells_only_its_streams(auth: Auth) -> None:
    first, _, _ = auth.login("sup1", PASSWORD)
    second, _, _ = auth.login("sup1", PASSWORD)
    other, _, _ = auth.login("sup2", PASSWORD)
    for token in (first, second, other):
        auth.verify(token)
    told: list[str] = []
    cancel = auth.tokens.watch(first, "sup1", lambda: told.append("first"))
    auth.tokens.watch(other, "sup2", lambda: told.append("other"))
    cancel()  # a stream closed meanwhile is not told
    auth.tokens.watch(second, "sup1", lambda: told.append("second"))
    with auth.engine.begin() as conn:
        assert auth.end_sessions(conn, "sup1") == 2
    assert told == ["second"]
    for token in (first, second):
        with pytest.raises(AuthError):
            auth.verify(token)
    assert auth.verify(other).username == "sup2"


def test_a_read_a_revocation_overtook_is_not_cached(auth: Auth) -> None:
    """The session read from the database before a sign-out lands answers the request that
    read it (it came first), but is not kept: the next request reads again and is refused."""
    token, _, _ = auth.login("sup1", PASSWORD)
    reads = 0

    def racing(key: str) -> Held[Account] | None:
        nonlocal reads
        reads += 1
        held = auth._session(key)
        if reads == 1:
            tokens.revoke(token)  # lands while the first read is under way
        return held

    tokens: Tokens[Account] = Tokens(auth.engine, auth.tokens.limits, racing)
    assert tokens.verify(token).username == "sup1"
    with pytest.raises(SessionEnded):
        tokens.verify(token)
    assert reads == 2 and tokens.cached() == 0


def test_a_request_moves_the_idle_end_a_streams_recheck_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROUPIER_ARGON2_PROFILE", "test")
    engine = connect(f"sqlite:///{tmp_path / 'floor.sqlite'}")
    auth = Auth(engine, sessions=SessionLimits(idle=timedelta(minutes=10)))
    with engine.begin() as conn:
        auth.create(conn, "sup1", PASSWORD, Role.SUPERVISOR)
    token, _, lifetime_end = auth.login("sup1", PASSWORD)
    signed = _expires(auth, token)
    auth.check(token)
    assert _expires(auth, token) == signed
    # Two minutes on (past one step, a minute at most), a request writes the new idle end.
    signed_at = as_utc(signed) - timedelta(minutes=10)
    monkeypatch.setattr("croupier.server.sessions.now", lambda: signed_at + timedelta(minutes=2))
    auth.verify(token)
    assert _expires(auth, token) == signed  # moved in memory, written with the others
    assert auth.tokens.write_touches() == 1
    moved = as_utc(_expires(auth, token))
    assert moved == as_utc(signed) + timedelta(minutes=2)
    assert moved <= lifetime_end
    assert auth.tokens.write_touches() == 0  # nothing moved since
    engine.dispose()


@pytest.mark.parametrize(
    ("idle", "lifetime", "named"),
    [(0, 12, "--session-idle"), (-1, 12, "--session-idle"), (30, 0, "--session-lifetime"),
     (float("nan"), 12, "--session-idle"), (30, float("inf"), "--session-lifetime")],
)  # fmt: skip
def test_session_limits_refuse_what_is_not_a_positive_number(
    idle: float, lifetime: float, named: str
) -> None:
    with pytest.raises(InvalidInput, match=named):
        SessionLimits.of(idle_minutes=idle, lifetime_hours=lifetime)


def test_the_idle_end_is_written_at_most_once_a_step() -> None:
    limits = SessionLimits(idle=timedelta(minutes=30), lifetime=timedelta(hours=12))
    assert limits.step() == timedelta(minutes=1)
    assert SessionLimits(idle=timedelta(seconds=3)).step() == timedelta(seconds=0.3)
    assert SessionLimits(idle=timedelta(seconds=3)).prune_every() == timedelta(seconds=3)


def test_a_floors_stale_sessions_are_read_again_together(
    auth: Auth, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 38: each of a floor's thousands of open streams re-read its own session from the
    # database every few seconds (two statements each); the first stale one now reads every
    # session due with it, and the others are served from memory
    tokens = [auth.login(name, PASSWORD)[0] for name in ("sup1", "sup2") for _ in range(10)]
    for token in tokens:
        auth.check(token)
    statements: list[str] = []
    listen = "before_cursor_execute"
    record = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(Engine, listen, record)  # every engine (the readers' too)
    later = now() + timedelta(seconds=RECHECK_SECONDS + 1)
    monkeypatch.setattr("croupier.server.sessions.now", lambda: later)
    try:
        assert {auth.check(token).username for token in tokens} == {"sup1", "sup2"}
    finally:
        event.remove(Engine, listen, record)
    assert len([s for s in statements if "FROM sessions" in s]) == 1, statements
    # a session ended meanwhile is still refused at the read that finds it ended
    with auth.engine.begin() as conn:
        auth.end_sessions(conn, "sup2")
    with pytest.raises(AuthError):
        auth.check(tokens[-1])
    assert auth.check(tokens[0]).username == "sup1"


def test_a_streams_recheck_is_answered_from_memory_only_while_fresh(
    auth: Auth, monkeypatch: pytest.MonkeyPatch
) -> None:
    token, _, _ = auth.login("sup1", PASSWORD)
    assert auth.tokens.fresh(token) is None  # never read: the re-check reads it
    auth.check(token)
    fresh = auth.tokens.fresh(token)
    assert fresh is not None and fresh.username == "sup1"
    later = now() + timedelta(seconds=RECHECK_SECONDS + 1)
    monkeypatch.setattr("croupier.server.sessions.now", lambda: later)
    assert auth.tokens.fresh(token) is None  # stale: read again, in a thread
    auth.check(token)
    assert auth.tokens.fresh(token) is not None
    auth.revoke(token)
    assert auth.tokens.fresh(token) is None


def test_one_sweep_rechecks_every_open_stream_and_wakes_those_ended_elsewhere(
    auth: Auth, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 38: one sweep a floor re-checks its open streams' sessions (a timer a stream made
    # thousands of wake-ups a second); fresh ones are not read, stale ones in one statement
    tokens = {name: auth.login(name, PASSWORD)[0] for name in ("sup1", "sup2")}
    told: list[str] = []
    for name, token in tokens.items():
        auth.check(token)
        auth.tokens.watch(token, name, lambda n=name: told.append(n))  # type: ignore[misc]
    assert auth.tokens.recheck_watched() == 0  # both fresh: nothing read
    # another process ends sup2's session: its row is gone, this process's cache holds it
    with auth.engine.begin() as conn:
        conn.execute(sessions.delete().where(sessions.c.token_sha256 == digest(tokens["sup2"])))
    assert auth.tokens.recheck_watched() == 0 and told == []  # fresh: the cache's bound
    statements: list[str] = []
    record = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(Engine, "before_cursor_execute", record)
    later = now() + timedelta(seconds=RECHECK_SECONDS + 1)
    monkeypatch.setattr("croupier.server.sessions.now", lambda: later)
    try:
        assert auth.tokens.recheck_watched() == 2
    finally:
        event.remove(Engine, "before_cursor_execute", record)
    assert told == ["sup2"]
    assert len([s for s in statements if "FROM sessions" in s]) == 1, statements
    assert auth.tokens.fresh(tokens["sup1"]) is not None  # read again: fresh


def _later(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every cached session stale (past :data:`RECHECK_SECONDS`)."""
    later = now() + timedelta(seconds=RECHECK_SECONDS + 1)
    monkeypatch.setattr("croupier.server.sessions.now", lambda: later)


def test_a_session_read_again_as_it_was_is_answered_with_the_one_held(
    auth: Auth, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 38: a floor's thousands of sessions are read again every few seconds; one that has
    # not changed is not built again (its account, its times)
    token, _, _ = auth.login("sup1", PASSWORD)
    held = auth.check(token)
    _later(monkeypatch)
    assert auth.check(token) is held
    assert auth.tokens.fresh(token) is held


def test_an_accounts_role_and_tables_changed_elsewhere_are_read_within_the_recheck(
    auth: Auth, monkeypatch: pytest.MonkeyPatch
) -> None:
    # another process (or the accounts command) changes the account's row and its tables
    # without this process's cache knowing: the re-read session answers with what it read,
    # not with the session held (the access policy decides by the role and the tables)
    token, _, _ = auth.login("sup1", PASSWORD)
    held = auth.check(token)
    assert held.role is Role.SUPERVISOR and held.tables == frozenset()
    with auth.engine.begin() as conn:
        conn.execute(
            accounts.update().where(accounts.c.username == "sup1").values(role=Role.DEALER.value)
        )
        conn.execute(account_tables.insert().values(username="sup1", table_id="tcp-1"))
    assert auth.check(token) is held  # fresh: the cache's bound
    _later(monkeypatch)
    read = auth.check(token)
    assert read.role is Role.DEALER and read.tables == frozenset({"tcp-1"})
    with auth.engine.begin() as conn:
        conn.execute(account_tables.delete().where(account_tables.c.username == "sup1"))
    assert auth.check(token).tables == frozenset({"tcp-1"})  # fresh again
    later = now() + timedelta(seconds=2 * RECHECK_SECONDS + 2)
    monkeypatch.setattr("croupier.server.sessions.now", lambda: later)
    assert auth.check(token).tables == frozenset()


def test_more_sessions_than_one_reads_by_digest_are_read_in_one_statement_of_every_session(
    auth: Auth, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 38: beyond SESSIONS_READ digests, every session is read in one statement, not
    # the digests in pieces: only those asked answer, and a disabled account's or an ended
    # one's still do not
    monkeypatch.setattr("croupier.server.auth.SESSIONS_READ", 3)
    tokens = {name: [auth.login(name, PASSWORD)[0] for _ in range(4)] for name in ("sup1", "sup2")}
    asked = tokens["sup1"][:3] + tokens["sup2"][:2]
    for token in asked:
        auth.check(token)
    with auth.engine.begin() as conn:
        conn.execute(
            accounts.update().where(accounts.c.username == "sup2").values(status="disabled")
        )
        conn.execute(sessions.delete().where(sessions.c.token_sha256 == digest(asked[0])))
    statements: list[str] = []
    record = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(Engine, "before_cursor_execute", record)
    _later(monkeypatch)
    try:
        with pytest.raises(AuthError):
            auth.check(asked[0])  # read with the four others due: five digests, one statement
    finally:
        event.remove(Engine, "before_cursor_execute", record)
    read = [s for s in statements if "FROM sessions" in s]
    assert len(read) == 1 and "WHERE" not in read[0].upper(), read
    assert auth.tokens.cached() == 2  # sup1's other two asked; none of those not asked
    assert {auth.check(token).username for token in asked[1:3]} == {"sup1"}
    for token in asked[3:]:
        with pytest.raises(AuthError):
            auth.check(token)


def _moved_on(monkeypatch: pytest.MonkeyPatch) -> datetime:
    """Two minutes on (past a step, so that a request moves each session's idle end): when."""
    later = now() + timedelta(minutes=2)
    monkeypatch.setattr("croupier.server.sessions.now", lambda: later)
    return later


def test_the_idle_ends_requests_move_are_written_together_in_one_transaction(
    auth: Auth, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 38: a floor's thousands of sessions, each moved once a minute, were as many write
    # transactions a second, each waiting for SQLite's write lock with the floor's commits
    tokens = [auth.login(name, PASSWORD)[0] for name in ("sup1", "sup2") for _ in range(5)]
    later = _moved_on(monkeypatch)
    statements: list[str] = []
    record = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(Engine, "before_cursor_execute", record)
    try:
        for token in tokens:
            auth.verify(token)
        assert not [s for s in statements if s.startswith("UPDATE sessions")]
        statements.clear()
        assert auth.tokens.write_touches() == len(tokens)
    finally:
        event.remove(Engine, "before_cursor_execute", record)
    assert len([s for s in statements if s.startswith("UPDATE sessions")]) == len(tokens)
    assert len([s for s in statements if s.startswith("BEGIN")]) == 1, statements
    for token in tokens:
        assert as_utc(_expires(auth, token)) == later + auth.tokens.limits.idle


def test_a_move_of_a_session_ended_meanwhile_leaves_it_ended_and_tells_its_streams(
    auth: Auth, monkeypatch: pytest.MonkeyPatch
) -> None:
    token, _, _ = auth.login("sup1", PASSWORD)
    kept, _, _ = auth.login("sup1", PASSWORD)
    told: list[str] = []
    auth.tokens.watch(token, "sup1", lambda: told.append("sup1"))
    _moved_on(monkeypatch)
    auth.verify(token)
    auth.verify(kept)
    # another process ends the first session before this one writes its move
    with auth.engine.begin() as conn:
        conn.execute(sessions.delete().where(sessions.c.token_sha256 == digest(token)))
    assert auth.tokens.write_touches() == 1  # the other one
    assert told == ["sup1"]
    with pytest.raises(AuthError):
        auth.verify(token)
    with auth.engine.connect() as conn:
        left = conn.execute(select(func.count()).select_from(sessions)).scalar_one()
    assert left == 1 and auth.verify(kept).username == "sup1"


def test_moves_the_database_refuses_are_written_at_the_next_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROUPIER_ARGON2_PROFILE", "test")
    path = tmp_path / "floor.sqlite"
    engine = connect(f"sqlite:///{path}?timeout=0.2")
    auth = Auth(engine)
    with engine.begin() as conn:
        auth.create(conn, "sup1", PASSWORD, Role.SUPERVISOR)
    token, _, _ = auth.login("sup1", PASSWORD)
    signed = _expires(auth, token)
    later = _moved_on(monkeypatch)
    auth.verify(token)
    holder = sqlite3.connect(path, isolation_level=None)  # another writer holds the lock
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(OperationalError):
            auth.tokens.write_touches()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert _expires(auth, token) == signed
    assert auth.tokens.write_touches() == 1
    assert as_utc(_expires(auth, token)) == later + auth.tokens.limits.idle
    engine.dispose()
