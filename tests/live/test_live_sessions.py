"""Sessions end (issue 36): sign-out revokes a token on REST and closes its open streams, in the
server that signed it out and in another server process on the same database (within the token
cache's re-check bound); a session idle past ``--session-idle`` ends, as one past
``--session-lifetime`` does however active; ended sessions are pruned from the database; a
sign-out, a stream it closes and a stream refused are written to the security log."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from croupier.faces.client import ApiError, Client
from croupier.server.sessions import RECHECK_SECONDS, digest
from croupier.server.streams import SESSION_ENDED, STREAM_RECHECK
from croupier.store.database import as_utc
from croupier.store.schema import sessions
from live.live_harness import PASSWORDS, Server

TABLE = "three-card-poker"
MakeServer = Callable[..., Server]
SETTLE = 10.0
"""Seconds more than a bound that a check waits on a loaded two-core machine."""


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[MakeServer]:
    """Servers on one SQLite file (the first sets up the demo floor; the next find it set up),
    with more options."""
    made: list[Server] = []

    def make(*args: str) -> Server:
        url = f"sqlite:///{tmp_path / 'floor.sqlite'}"
        server = Server(url, tmp_path / f"server-{len(made)}.log", args=args)
        server.start()
        made.append(server)
        return server

    yield make
    for server in made:
        server.stop()


def _stream(url: str, token: str, path: str = f"/api/tables/{TABLE}/stream") -> ClientConnection:
    ws = url.replace("http://", "ws://")
    return connect(f"{ws}{path}", additional_headers={"Authorization": f"Bearer {token}"})


def _closed_code(conn: ClientConnection, within: float) -> int | None:
    """The close code the server ends ``conn`` with (its messages read meanwhile), waiting at
    most ``within`` seconds; ``None`` if it is still open."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            conn.recv(timeout=max(0.05, deadline - time.monotonic()))
        except TimeoutError:
            return None
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None
    return None


def _me(url: str, token: str) -> int:
    response = httpx.get(f"{url}/api/me", headers={"Authorization": f"Bearer {token}"})
    return response.status_code


def _until_refused(url: str, token: str, within: float) -> float | None:
    """Seconds until ``token`` is refused (401) at ``url``, asking every 0.2 s; ``None`` if it
    still answers after ``within`` seconds."""
    began = time.monotonic()
    while time.monotonic() - began < within:
        if _me(url, token) == 401:
            return time.monotonic() - began
        time.sleep(0.2)
    return None


def test_logout_revokes_the_token_on_rest_and_closes_its_open_streams(server: Server) -> None:
    live = server  # on SQLite and PostgreSQL
    observer = live.client("observer")
    token = observer.token
    assert token is not None
    other = live.client("observer")  # another session of the same account
    with (
        _stream(live.url, token) as table,
        _stream(live.url, token, "/api/floor/stream") as floor,
    ):
        assert _me(live.url, token) == 200
        observer.logout()
        # Refused at once by the server that signed it out (its cache dropped it with the row)
        assert _me(live.url, token) == 401
        kept = Client(live.url)  # a client that kept the token after the sign-out
        kept.token = token
        with pytest.raises(ApiError) as refused:
            kept.tables()
        kept.close()
        assert refused.value.status == 401
        assert _closed_code(table, STREAM_RECHECK + SETTLE) == SESSION_ENDED
        assert _closed_code(floor, STREAM_RECHECK + SETTLE) == SESSION_ENDED
    # The account's other session lives on, and a stream of the ended token cannot reopen.
    assert _me(live.url, str(other.token)) == 200
    with _stream(live.url, str(other.token)) as still:
        assert _closed_code(still, 0.5) is None
    with pytest.raises(InvalidStatus) as reopened, _stream(live.url, token):
        pass
    assert reopened.value.response.status_code == 401


def test_a_logout_in_one_server_process_ends_the_session_in_another_within_the_bound(
    make_server: MakeServer,
) -> None:
    """Two server processes on one database: a session signed out at one is refused by the
    other (whose cache held it) within ``RECHECK_SECONDS``, and its stream there closes."""
    first = make_server()
    second = make_server()  # a demo floor too: a real one refuses the demo supervisor
    signing = first.client("supervisor")
    token = str(signing.token)
    assert _me(second.url, token) == 200  # now cached by the second process
    with _stream(second.url, token, "/api/floor/stream") as stream:
        stream.recv(timeout=30)  # the floor as it stands: the stream is served
        signing.logout()
        assert _me(first.url, token) == 401
        took = _until_refused(second.url, token, RECHECK_SECONDS + SETTLE)
        assert took is not None
        ended = _closed_code(stream, RECHECK_SECONDS + STREAM_RECHECK + SETTLE)
    assert ended == SESSION_ENDED


def test_an_idle_session_ends_and_its_row_is_pruned(make_server: MakeServer) -> None:
    """``--session-idle 0.05`` (3 s): requests keep a session alive past it; a stream's
    messages do not; left idle, its stream closes (1008), its token is refused and its row is
    deleted by the server's pruning."""
    server = make_server("--session-idle", "0.05")
    observer = server.client("observer")
    token = str(observer.token)
    engine = create_engine(server.db_url)
    row = select(sessions.c.expires_at).where(sessions.c.token_sha256 == digest(token))
    with engine.connect() as conn:
        signed = as_utc(conn.execute(row).scalar_one())
    began = time.monotonic()
    while time.monotonic() - began < 6:  # twice the idle time, a request every half second
        assert _me(server.url, token) == 200
        time.sleep(0.5)
    # the moves of its idle end were written (together, every step: issue 38), not only held
    # in memory: another process reading the session finds it alive
    with engine.connect() as conn:
        written = as_utc(conn.execute(row).scalar_one())
    assert written - signed >= timedelta(seconds=4), (signed, written)
    with _stream(server.url, token) as stream:
        assert _closed_code(stream, 3 + STREAM_RECHECK + SETTLE) == SESSION_ENDED
    assert _me(server.url, token) == 401
    try:
        count = select(func.count()).where(sessions.c.token_sha256 == digest(token))
        deadline = time.monotonic() + 3 + SETTLE
        left = 1
        while left and time.monotonic() < deadline:
            with engine.connect() as conn:
                left = int(conn.execute(count).scalar_one())
            time.sleep(0.2)
    finally:
        engine.dispose()
    assert left == 0


def test_a_session_ends_at_its_lifetime_however_active(make_server: MakeServer) -> None:
    """``--session-lifetime 0.002`` (7.2 s): a request every half second does not carry a
    session past it, nor does it end before it."""
    server = make_server("--session-lifetime", "0.002")
    client = Client(server.url)
    began = time.monotonic()
    client.login("auditor", PASSWORDS["auditor"])
    token = str(client.token)
    ended = None
    while time.monotonic() - began < 7.2 + SETTLE:
        if _me(server.url, token) == 401:
            ended = time.monotonic() - began
            break
        time.sleep(0.5)
    client.close()
    assert ended is not None
    assert ended >= 7.2 - 1.0  # the login's answer came after its session began


def _security_log(url: str, auditor: str, after: int = 0) -> list[dict[str, Any]]:
    """The security log's entries numbered above ``after`` (every page of them)."""
    found: list[dict[str, Any]] = []
    while True:
        page = httpx.get(
            f"{url}/api/security/log",
            params={"after": after, "limit": 1000},
            headers={"Authorization": f"Bearer {auditor}"},
        ).json()
        if not page:
            return found
        found += page
        after = page[-1]["seq"]


def test_a_sign_out_the_stream_it_closes_and_a_refused_stream_are_in_the_security_log(
    sqlite_server: Server,
) -> None:
    """GLI-19: a sign-out and a refused access are logged: ``sign_out`` for the session, an
    ``access_refused`` (1008) for its stream closed, and one (401) for a handshake with the
    ended token."""
    live = sqlite_server
    auditor = str(live.client("auditor").token)
    before = _security_log(live.url, auditor)[-1]["seq"]
    observer = live.client("observer")
    token = str(observer.token)
    with _stream(live.url, token, "/api/floor/stream") as floor:
        floor.recv(timeout=30)
        observer.logout()
        assert _closed_code(floor, STREAM_RECHECK + SETTLE) == SESSION_ENDED
    with pytest.raises(InvalidStatus) as reopened, _stream(live.url, token):
        pass
    assert reopened.value.response.status_code == 401
    deadline = time.monotonic() + SETTLE
    while True:  # the close's entry is written once the stream is closed
        new = _security_log(live.url, auditor, before)
        refused = [
            (e["detail"]["status"], e["detail"]["method"], e["detail"]["path"], e["username"])
            for e in new
            if e["event"] == "access_refused"
        ]
        if len(refused) >= 2 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert [e["username"] for e in new if e["event"] == "sign_out"] == ["observer"]
    assert (SESSION_ENDED, "WS", "/api/floor/stream", "observer") in refused
    assert (401, "WS", f"/api/tables/{TABLE}/stream", None) in refused
