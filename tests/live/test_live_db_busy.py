"""A database that does not answer in time is a 503 problem, never a 500, and writes nothing.

Found by ``benchmarks/bench_meters.py`` on SQLite under a heavily loaded machine: a write that
waited for SQLite's write lock past its timeout came back as an unexpected error (500).  Here
another connection holds the write lock (``BEGIN IMMEDIATE``) while a client signs in, which
writes a session row; the server's lock timeout is a fraction of a second (``?timeout=``).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from croupier.faces.client import Client, tls_context
from croupier.server.auth import Auth, Role
from croupier.server.db import connect

from .live_harness import Server

PASSWORD = "a long password for the pit"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[httpx.Client, Path]]:
    db = tmp_path / "floor.sqlite"
    url = f"sqlite:///{db}?timeout=0.2"
    engine = connect(url)
    with engine.begin() as conn:
        Auth(engine).create(conn, "supervisor", PASSWORD, Role.SUPERVISOR)
    engine.dispose()
    server = Server(url, tmp_path / "server.log", args=("--no-demo",))
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=60, verify=tls_context()) as client:
            yield client, db
    finally:
        server.stop()


def _sessions(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        (count,) = conn.execute("SELECT count(*) FROM sessions").fetchone()
    return int(count)


def test_a_write_lock_held_past_the_timeout_is_a_503_problem_and_writes_nothing(
    served: tuple[httpx.Client, Path],
) -> None:
    client, db = served
    before = _sessions(db)
    holder = sqlite3.connect(db, isolation_level=None, timeout=5)
    holder.execute("BEGIN IMMEDIATE")
    try:
        answer = client.post("/api/login", json={"username": "supervisor", "password": PASSWORD})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert answer.status_code == 503
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.headers["retry-after"] == "1"
    body = answer.json()
    assert body["status"] == 503 and "nothing was written" in body["detail"]
    assert _sessions(db) == before
    # The lock released, the same request succeeds and writes its one session.
    again = client.post("/api/login", json={"username": "supervisor", "password": PASSWORD})
    assert again.status_code == 200 and again.json()["role"] == "supervisor"
    assert _sessions(db) == before + 1


def test_the_sqlite_timeout_query_is_the_lock_wait_and_not_a_file_name(tmp_path: Path) -> None:
    db = tmp_path / "floor.sqlite"
    engine = connect(f"sqlite:///{db}?timeout=0.2")
    try:
        assert engine.url.database == str(db)
        with engine.begin() as conn:
            Auth(engine).create(conn, "auditor", PASSWORD, Role.AUDITOR)
    finally:
        engine.dispose()
    assert db.exists() and not Path(f"{db}?timeout=0.2").exists()


def _release_after_a_503(holder: sqlite3.Connection, log: Path, seen: list[bool]) -> None:
    """Hold the write lock until the server has answered a 503 (its log says so), at most 60 s."""
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            if "database unavailable" in log.read_text(errors="replace"):
                seen.append(True)
                return
            time.sleep(0.02)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_the_client_sends_a_503_request_again_after_retry_after_and_it_writes_once(
    served: tuple[httpx.Client, Path],
) -> None:
    http, db = served
    log = db.parent / "server.log"
    before = _sessions(db)
    holder = sqlite3.connect(db, isolation_level=None, timeout=5, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    seen: list[bool] = []
    releaser = threading.Thread(target=_release_after_a_503, args=(holder, log, seen))
    releaser.start()
    try:
        with Client(str(http.base_url)) as client:
            data = client.login("supervisor", PASSWORD)
    finally:
        releaser.join()
    # The first answer was a 503 (the lock was held until then); the retry signed in, once.
    assert seen == [True]
    assert data["role"] == "supervisor"
    assert _sessions(db) == before + 1
