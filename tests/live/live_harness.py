"""The test harness: a real ``croupier serve`` process on a free loopback port; a throwaway
PostgreSQL cluster made by ``scripts/pg-throwaway.sh``."""

from __future__ import annotations

import atexit
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

from cpu_durations import count_reaped_cpu
from croupier.faces.client import Client

SRC = Path(__file__).resolve().parents[2] / "src"
PASSWORDS = {
    "dealer": "dealer-demo",
    "supervisor": "supervisor-demo",
    "observer": "observer-demo",
    "auditor": "auditor-demo",
    "admin": "admin-demo",
    "trainee": "trainee-demo",
    **{f"player{n}": f"player{n}-demo" for n in range(1, 8)},
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


ZYGOTE = Path(__file__).resolve().parent / "server_zygote.py"


class _Zygote:
    """The test process's one :mod:`live.server_zygote`: started at the first server, it forks
    every server of the process after it; closed when the process exits."""

    _lock = threading.Lock()
    _proc: subprocess.Popen[str] | None = None
    counted = 0.0
    """The CPU seconds of its servers counted so far (:meth:`ServerProcess.poll`): they are in
    the zygote's own children's times too, counted again when this process reaps it."""

    @classmethod
    def ask(cls, command: dict[str, object]) -> object:
        with cls._lock:
            proc = cls._proc
            if proc is None or proc.poll() is not None:
                env = {**os.environ, "PYTHONPATH": str(SRC), "CROUPIER_ARGON2_PROFILE": "test"}
                proc = cls._proc = subprocess.Popen(
                    [sys.executable, str(ZYGOTE)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    env=env,
                    text=True,
                )
                atexit.register(cls.close)
            stdin: IO[str] | None = proc.stdin
            stdout: IO[str] | None = proc.stdout
            assert stdin is not None and stdout is not None
            stdin.write(json.dumps(command) + "\n")
            stdin.flush()
            answer = stdout.readline()
            if not answer:
                raise AssertionError(f"the server zygote ended ({proc.wait(timeout=30)})")
            return json.loads(answer)

    @classmethod
    def close(cls) -> None:
        with cls._lock:
            proc, cls._proc = cls._proc, None
        if proc is not None and proc.stdin is not None and proc.stdout is not None:
            proc.stdin.close()
            proc.wait(timeout=60)
            proc.stdout.close()
            # this process's children's times now hold the zygote's own CPU and every server's
            count_reaped_cpu(-cls.counted)
            cls.counted = 0.0


def close_zygote() -> None:
    """Close the process's server launcher (if one was started), killing its servers still up;
    the next server starts a new one."""
    _Zygote.close()


class ServerProcess:
    """A server forked by the zygote: its pid, signals, and a wait that reaps it."""

    def __init__(self, args: list[str], log: Path, env: dict[str, str]) -> None:
        answer = _Zygote.ask({"start": args, "log": str(log), "env": env})
        assert isinstance(answer, int), answer
        self.pid = answer
        self.returncode: int | None = None

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def poll(self, timeout: float = 0.0) -> int | None:
        """Its exit code once it has exited (reaped), None while it runs (after ``timeout``)."""
        if self.returncode is None:
            reaped = _Zygote.ask({"poll": self.pid, "timeout": timeout})
            if reaped is None:
                return None
            assert isinstance(reaped, dict), reaped
            self.returncode = os.waitstatus_to_exitcode(int(reaped["status"]))
            # a child of the zygote, not of this process: its CPU is counted here
            count_reaped_cpu(float(reaped["cpu"]))
            _Zygote.counted += float(reaped["cpu"])
        return self.returncode

    def wait(self, timeout: float) -> int:
        code = self.poll(timeout)
        if code is None:
            raise subprocess.TimeoutExpired(f"server {self.pid}", timeout)
        return code

    def wait_listening(self, port: int, log: Path, *, timeout: float) -> None:
        """Wait until it accepts connections on ``port`` (Uvicorn listens once the app has
        started: a connection means it is up), trying every 10 ms; its log in the error if it
        exits or ``timeout`` seconds pass first."""
        deadline = time.monotonic() + timeout
        checked = time.monotonic()
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=5).close()
                return
            except OSError:
                now = time.monotonic()
                if now > deadline:
                    raise AssertionError(log.read_text()[-4000:]) from None
                if now - checked > 0.25:
                    checked = now
                    if self.poll() is not None:
                        raise AssertionError(
                            f"the server exited ({self.returncode}): {log.read_text()[-4000:]}"
                        ) from None
                time.sleep(0.01)


class Server:
    """One server process (``python -m croupier.server``, forked by the test process's
    :mod:`live.server_zygote`); :meth:`kill` is ``kill -9``, :meth:`start` starts it (again)."""

    def __init__(self, db_url: str, log: Path, *, args: tuple[str, ...] = ()) -> None:
        self.db_url = db_url
        self.args = args
        """More options of ``python -m croupier.server`` (``--tables A,B``, ``--no-demo``)."""
        self.log = log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: ServerProcess | None = None
        self.clients: list[Client] = []

    def start(self) -> None:
        # Bot players by the hundred: the argon2 test profile (see croupier.server.auth).
        env = {**os.environ, "PYTHONPATH": str(SRC), "CROUPIER_ARGON2_PROFILE": "test"}
        args = ["--db", self.db_url, "--port", str(self.port), *self.args]
        self.proc = ServerProcess(args, self.log, env)
        try:
            self.proc.wait_listening(self.port, self.log, timeout=240)  # a loaded 2-core machine
        except AssertionError:
            self.stop()
            raise

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.proc = None

    def stop(self) -> None:
        for client in self.clients:
            client.close()
        self.clients.clear()
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
            self.proc = None

    def client(self, username: str) -> Client:
        client = Client(self.url)
        client.login(username, PASSWORDS[username])
        self.clients.append(client)
        return client


SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "pg-throwaway.sh"


class Cluster:
    """A throwaway PostgreSQL cluster (``scripts/pg-throwaway.sh``); one database per test."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        done = subprocess.run(
            ["bash", str(SCRIPT), "start", str(directory), str(self.port)],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if done.returncode != 0:
            logs = "".join(
                f"\n{log.name}: {log.read_text()[-2000:]}" for log in directory.rglob("*.log")
            )
            raise RuntimeError(
                f"pg-throwaway.sh failed ({done.returncode}): {done.stderr.strip()} "
                f"{done.stdout.strip()}{logs}"
            )
        self.url = done.stdout.strip().splitlines()[-1]
        self.count = 0

    def database(self) -> str:
        import psycopg

        self.count += 1
        name = f"croupier_{self.count}"
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=croupier dbname=croupier", autocommit=True
        ) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url.rsplit("/", 1)[0] + f"/{name}"

    def stop(self) -> None:
        subprocess.run(["bash", str(SCRIPT), "stop", str(self.directory)], timeout=120, check=False)
