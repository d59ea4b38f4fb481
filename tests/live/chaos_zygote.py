"""A server launcher that has already imported the server: each ``start DB PORT LOG`` line on
stdin forks a real ``croupier serve`` process (Uvicorn on 127.0.0.1:PORT) and answers its pid;
``wait PID`` reaps it once it is killed.  Forking after the imports makes a restart cost the
server's own start (migrations check, floor load), not the interpreter's: the chaos harness
(:mod:`live.chaos_harness`) restarts the server after every ``kill -9``.

Before a fork the zygote has only imported modules and built (and closed) one app on a
throwaway database: no thread, no open database connection.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("CROUPIER_ARGON2_PROFILE", "test")

import uvicorn

from croupier.server.app import create_app


def _serve(db_url: str, port: int, log: str) -> None:
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    out = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(out, 1)
    os.dup2(out, 2)
    try:
        began = time.perf_counter()
        app = create_app(db_url, demo=True)
        print(f"chaos_zygote: app in {time.perf_counter() - began:.2f} s", flush=True)
        uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
    finally:
        os._exit(0)


def _warm_up() -> None:
    """Build an app once on a throwaway database (every lazy import done before the forks),
    then close it: no connection or thread outlives it."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="croupier-zygote-") as tmp:
        app = create_app(f"sqlite:///{tmp}/warm.sqlite", demo=True)
        app.state.floor.engine.dispose()


def main() -> None:
    _warm_up()
    for line in sys.stdin:
        command, *args = line.split()
        if command == "start":
            db_url, port, log = args
            pid = os.fork()
            if pid == 0:
                _serve(db_url, int(port), log)
            print(pid, flush=True)
        elif command == "wait":
            os.waitpid(int(args[0]), 0)
            print("ok", flush=True)


if __name__ == "__main__":
    main()
