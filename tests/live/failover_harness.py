"""The failover harness: two ``croupier serve`` processes on one PostgreSQL database behind
Debian's HAProxy (:mod:`croupier.server.haproxy_config`), the chaos harness's bots and checks
(:mod:`live.chaos_harness`) playing through HAProxy's one URL, and ``kill -9`` of the process
serving the table whose command is in flight, at every state of a round.

After each kill, before the killed process is started again: every table is served through
the same URL by the other process (each table's view read through HAProxy answers, and the
answer names the surviving server), within :data:`SERVICE_LIMIT` seconds (the time it took is
kept, :attr:`Failover.service_seconds`).  Then the killed process starts again (HAProxy's
consistent hashing gives it its tables back: they move a second time, rebuilt from the
database) and the chaos harness's checks run through HAProxy: the command in flight sent again
with its Idempotency-Key takes effect once, every acknowledged event is still there, rounds
left open are resumed or held and voided, every wager is settled exactly once, the chip ledger
balances, the audit (:func:`croupier.audit.chains.verify`) is clean, and the observers' streams
(which reconnect on their own through HAProxy from their last event) miss nothing.

tests/live/test_live_failover.py runs a few kills, benchmarks/bench_failover.py many.
"""

from __future__ import annotations

import gc
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from croupier.faces.client import ApiError
from croupier.server.haproxy_config import Backend, haproxy_config
from live.chaos_harness import HANDPAY_TABLE, TABLES, Chaos, ChaosFigures, ChaosServer, Pending
from live.live_harness import free_port

__all__ = [
    "SERVICE_LIMIT",
    "Failover",
    "FailoverFloor",
    "HAProxy",
    "ensure_haproxy",
    "failover",
    "haproxy_binary",
]

SERVICE_LIMIT = 5.0
"""Seconds within which every table is served by the surviving process (issue 38)."""

INSTALL = Path(__file__).resolve().parents[2] / "scripts" / "haproxy-install.sh"


def haproxy_binary() -> tuple[str | None, str]:
    """HAProxy's binary, installed by ``scripts/haproxy-install.sh`` where missing; ``None``
    and the script's reason where it cannot be (not root)."""
    done = subprocess.run(
        ["bash", str(INSTALL)], capture_output=True, text=True, timeout=600, check=False
    )
    if done.returncode != 0:
        return None, (done.stderr.strip() or done.stdout.strip())[-500:]
    path = subprocess.run(
        ["bash", str(INSTALL), "--path"], capture_output=True, text=True, timeout=60, check=True
    ).stdout.strip()
    return path, ""


def ensure_haproxy() -> str:
    """HAProxy's binary for a test, installed where missing; a test that cannot have it fails
    (as the browser tests do without Chromium): CI installs it (``.ci/run``), so a missing
    HAProxy is a broken set-up, never a test quietly not run."""
    binary, why = haproxy_binary()
    if binary is None:
        pytest.fail(f"HAProxy is not installed and cannot be ({INSTALL.name}): {why}")
    return binary


class HAProxy:
    """One HAProxy process (foreground, ``-db``) on a free loopback port before ``backends``."""

    def __init__(self, binary: str, backends: list[Backend], workdir: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.config = workdir / "haproxy.cfg"
        self.config.write_text(haproxy_config(backends, listen_port=self.port))
        self.log = workdir / "haproxy.log"
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                [binary, "-db", "-f", str(self.config)], stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{self.url}/api/par", timeout=2)
                return
            except httpx.HTTPError as exc:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise AssertionError(f"haproxy did not start: {self.log.read_text()}") from exc
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


class FailoverFloor:
    """Two servers on one database behind HAProxy: the chaos harness's server (``url`` is
    HAProxy's), whose :meth:`kill` kills one of the two and :meth:`start` starts whichever is
    down."""

    def __init__(self, db_url: str, workdir: Path, binary: str) -> None:
        self.db_url = db_url
        self.workdir = workdir
        self.binary = binary
        self.servers = [ChaosServer(db_url, workdir / f"server-{n}.log") for n in (1, 2)]
        self.log = self.servers[0].log
        self.haproxy: HAProxy | None = None
        self.url = ""
        self.victim = 0
        """The server :meth:`kill` kills (0 or 1: HAProxy's ``s1`` or ``s2``)."""

    def start(self) -> float:
        """Start every server that is down (one after the other: the first sets the demo
        floor up) and HAProxy; the seconds it took."""
        began = time.perf_counter()
        for server in self.servers:
            if server.proc is None:
                server.start()
        if self.haproxy is None:
            backends = [Backend("127.0.0.1", s.port) for s in self.servers]
            self.haproxy = HAProxy(self.binary, backends, self.workdir)
            self.url = self.haproxy.url
        return time.perf_counter() - began

    def kill(self) -> None:
        self.servers[self.victim].kill()

    def serving(self, token: str, table_id: str) -> int | None:
        """The server that answered ``table_id``'s view through HAProxy (``None``: no
        answer)."""
        try:
            answer = httpx.get(
                f"{self.url}/api/tables/{table_id}/view",
                headers={"Authorization": f"Bearer {token}"},
                timeout=5,
            )
        except httpx.HTTPError:
            return None
        name = answer.headers.get("x-croupier-server", "")
        if answer.status_code != 200 or not name.startswith("s"):
            return None
        return int(name[1:]) - 1

    def close(self) -> None:
        for server in self.servers:
            server.close()
        if self.haproxy is not None:
            self.haproxy.stop()

    def client(self, username: str, password: str | None = None) -> Any:
        from croupier.faces.client import Client
        from live.live_harness import PASSWORDS

        client = Client(self.url)
        client.login(username, password or PASSWORDS[username])
        return client


class Failover(Chaos):
    """The chaos harness on :class:`FailoverFloor`: the kill aims at the process serving the
    command's table; service is checked through HAProxy before that process starts again."""

    def __init__(self, floor: FailoverFloor, seed: int, *, audit_every: int = 10) -> None:
        super().__init__(floor, seed, audit_every=audit_every)  # type: ignore[arg-type]
        self.floor = floor
        self.latencies: list[float] = []
        """Each command's latency through HAProxy."""
        self.service_seconds: list[float] = []
        """Per kill: the seconds until every table answered through HAProxy from the other
        process."""

    def send(self, pending: Pending) -> dict[str, Any] | ApiError:
        began = time.perf_counter()
        try:
            return super().send(pending)
        finally:
            self.latencies.append(time.perf_counter() - began)

    def _aim(self, pending: Pending) -> None:
        """The process serving the command's table (a hand-pay's approval: the hand-pay
        table's) is the one to kill; the kill comes a random fraction (up to 1.5) of the
        recent commands' median latency through HAProxy after the command is sent: before it
        reaches the server (HAProxy then sends it to the other one), during its transaction,
        or after its commit."""
        parts = pending.path.split("/")
        table_id = parts[3] if pending.path.startswith("/api/tables/") else HANDPAY_TABLE
        served = self.floor.serving(str(self.dealer.token), table_id)
        self.floor.victim = served if served is not None else self.figures.kills % 2
        recent = sorted(self.latencies[-50:])
        if recent:
            self.latency = recent[len(recent) // 2]

    def _kill(self, pending: Pending) -> None:
        self.floor.kill()

    def _restart(self) -> None:
        """Every table served by the survivor through HAProxy (timed), then the killed
        process started again; the observers reconnect on their own (through HAProxy, from
        their last event)."""
        survivor = 1 - self.floor.victim
        token = str(self.dealer.token)
        began = time.perf_counter()
        waiting = set(TABLES)
        while waiting and time.perf_counter() - began < 3 * SERVICE_LIMIT:
            waiting = {t for t in waiting if self.floor.serving(token, t) != survivor}
            if waiting:
                time.sleep(0.02)
        took = time.perf_counter() - began
        self.service_seconds.append(took)
        if waiting or took > SERVICE_LIMIT:
            self.figures.problems.append(
                f"kill {self.figures.kills}: {sorted(waiting)} not served by s{survivor + 1} "
                f"through HAProxy within {SERVICE_LIMIT} s ({took:.2f} s)"
            )
        self.figures.restart_seconds.append(self.floor.start())


def failover(
    db_url: str,
    workdir: Path,
    binary: str,
    *,
    kills: int,
    seed: int,
    audit_every: int,
    seconds: float | None = None,
) -> tuple[ChaosFigures, list[float]]:
    """``kills`` kills (fewer when ``seconds`` run out) on a fresh database: the figures and
    each kill's seconds to service through HAProxy."""
    floor = FailoverFloor(db_url, workdir, binary)
    harness = Failover(floor, seed, audit_every=audit_every)
    try:
        harness.setup()
        figures = harness.run(kills, seconds=seconds)
        return figures, harness.service_seconds
    finally:
        harness.close()
        floor.close()
        gc.collect()  # connections to a killed server: their ResourceWarning here (see chaos)
