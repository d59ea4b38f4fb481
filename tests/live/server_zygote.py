"""A launcher of ``python -m croupier.server`` processes that has already imported the server
(:class:`live.live_harness.Server` and the chaos harness's restarts,
:class:`live.chaos_harness.ChaosServer`, start their servers through one per test process).

Each line on stdin is a JSON command, each answer one line:

- ``{"start": [ARGS...], "log": PATH, "env": {...}}`` forks a real server process, as
  ``python -m croupier.server ARGS...`` with that environment, its output appended to PATH; the
  answer is its pid;
- ``{"poll": PID, "timeout": SECONDS}`` waits up to SECONDS for the process to exit (reaping
  it): the answer is ``{"status": its wait status, "cpu": the CPU seconds it used}``, or
  ``null`` while it still runs.

Forking after the imports makes a start cost the server's own start (migrations check, floor
load, routes), not the interpreter's and its imports' (about two CPU seconds a start; the chaos
kills alone restart a server 50 times): about 0.14 CPU-s a restart, 0.21 when Uvicorn's modules
were still imported after each fork.  Before a fork the launcher has only imported modules and
built (and closed) one app on a throwaway database: no thread, no open database connection.  At
the end of its input it kills and reaps every server it started that is still running.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time

os.environ.setdefault("CROUPIER_ARGON2_PROFILE", "test")

from croupier.server.__main__ import main as server_main
from croupier.server.app import create_app, prepare_app
from croupier.server.auth import FloorMode


def _serve(args: list[str], log: str, env: dict[str, str]) -> None:
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    out = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(out, 1)
    os.dup2(out, 2)
    code = 0
    try:
        os.environ.clear()
        os.environ.update(env)
        sys.argv = ["python -m croupier.server", *args]
        server_main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # the server's own start failed: its traceback goes to its log
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


LATE_IMPORTS = (
    "anyio._backends._asyncio",  # at the lifespan's start
    "anyio._core._fileio",
    "encodings.idna",  # a host name's encoding
    "fastapi.telemetry._runtime",
    "croupier.server.pages",  # the web pages, mounted by each server (not here: see _warm_up)
)
"""Modules a server imports after its start (the rest are imported with the app)."""


def _warm_up() -> None:
    """Do before the forks every import a server's start and its first requests would do: build
    an app on a throwaway database, then close it (its engine disposed, no thread started: the
    web pages are imported, not mounted: each server's par sheets are its own), and load the
    Uvicorn configuration ``serve`` runs (its event loop, HTTP, WebSocket and lifespan modules;
    no socket, no loop).  A fork imports nothing then (each import a few stat calls per path
    entry: a third of a start's CPU when each server did them)."""
    import importlib
    import tempfile

    import uvicorn

    for name in LATE_IMPORTS:
        importlib.import_module(name)
    with tempfile.TemporaryDirectory(prefix="croupier-zygote-") as tmp:
        app = create_app(f"sqlite:///{tmp}/warm.sqlite", mode=FloorMode.DEMO, web=False)
        app.state.floor.engine.dispose()
        config = uvicorn.Config(app, log_level="warning", ws_per_message_deflate=False)
        config.load()
        config.get_loop_factory()
    prepare_app()  # the next app's routes, built once: each fork's server takes them


def _poll(pid: int, timeout: float) -> dict[str, float] | None:
    deadline = time.monotonic() + timeout
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            return {"status": status, "cpu": usage.ru_utime + usage.ru_stime}
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.005)


def main() -> None:
    _warm_up()
    running: set[int] = set()
    for line in sys.stdin:
        command = json.loads(line)
        if "start" in command:
            pid = os.fork()
            if pid == 0:
                _serve(list(command["start"]), str(command["log"]), dict(command["env"]))
            running.add(pid)
            print(pid, flush=True)
        else:
            pid = int(command["poll"])
            reaped = _poll(pid, float(command["timeout"]))
            if reaped is not None:
                running.discard(pid)
            print(json.dumps(reaped), flush=True)
    for pid in running:  # the test process ended without stopping them
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


if __name__ == "__main__":
    main()
