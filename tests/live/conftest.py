"""Fixtures: a real server on SQLite and on a throwaway PostgreSQL cluster; a floor in this
process."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.server.auth import Auth
from croupier.server.db import connect
from croupier.server.demo import setup_demo
from croupier.server.live_floor import Floor
from live.live_harness import Cluster, Server, close_zygote


@pytest.fixture(scope="session", autouse=True)
def server_zygote() -> Iterator[None]:
    """The process's server launcher (:mod:`live.server_zygote`, started at the first server)
    closed at the session's end, not at the interpreter's: its own CPU (its imports and warm-up)
    is then counted, on the line of the fixtures torn down after the last test."""
    yield
    close_zygote()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    # A directory of our own, outside pytest's numbered temporary directories (which other
    # pytest sessions on the machine prune).
    directory = Path(tempfile.mkdtemp(prefix="croupier-pg-"))
    try:
        cluster = Cluster(directory / "cluster")
        try:
            yield cluster
        finally:
            cluster.stop()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def database_url(request: pytest.FixtureRequest, tmp_path: Path, backend: str) -> str:
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'floor.sqlite'}"
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    return cluster.database()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database on each backend."""
    return database_url(request, tmp_path, str(request.param))


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[Server]:
    """A real server on a fresh database of each backend, with the demo floor."""
    server = Server(db_url, tmp_path / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[Server]:
    server = Server(f"sqlite:///{tmp_path / 'floor.sqlite'}", tmp_path / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def floor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Floor]:
    """A demo floor in this process on a SQLite file (no server: the floor's own commands)."""
    monkeypatch.setenv("CROUPIER_ARGON2_PROFILE", "test")
    engine = connect(f"sqlite:///{tmp_path / 'floor.sqlite'}")
    floor = Floor(engine)
    floor.load()
    setup_demo(floor, Auth(engine))
    try:
        yield floor
    finally:
        floor.committer.close()
        engine.dispose()
