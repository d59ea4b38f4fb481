"""What re-reading a floor's sessions costs the server: the sweep that re-checks every open
stream's session (``Tokens.recheck_watched``), at a 400-table floor's 3,200 sessions.

Run ``python benchmarks/bench_sessions.py [--sessions 3200] [--repeat 3] [--json PATH]``.  A
SQLite file (WAL, as the server opens it) holds ``--sessions`` signed-in accounts, one in eight
a dealer, the others players, each with one session and one open stream watched.  Every
:data:`~croupier.server.sessions.RECHECK_SECONDS` each process reads its cached sessions again
(a session ended by another process answers nowhere within that bound, ``docs/security.md``).
Timed on this thread's CPU clock, the median of ``--repeat`` sweeps of each kind:

- a sweep by a process holding none of them (its first): every session read and made;
- a sweep once they are held and stale: every session read again, and those read as they were
  held answered with the one held.

Prints each sweep's CPU, a session's, and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, insert

from croupier.server.auth import Auth, Role
from croupier.server.db import connect
from croupier.server.sessions import RECHECK_SECONDS, SessionLimits, open_session
from croupier.store import now
from croupier.store.schema import players

PASSWORD = "a-long-bench-password"


def _floor(engine: Engine, auth: Auth, count: int) -> dict[str, str]:
    """``count`` accounts signed in once each: their tokens, by username."""
    tokens: dict[str, str] = {}
    with engine.begin() as conn:
        for i in range(count):
            name = f"dealer{i:05d}" if i % 8 == 0 else f"player{i:05d}"
            if i % 8 == 0:
                auth.create(conn, name, PASSWORD, Role.DEALER)
            else:
                conn.execute(insert(players).values(id=f"P{i}", name=name, created_at=now()))
                auth.create(conn, name, PASSWORD, Role.PLAYER, player_id=f"P{i}")
            tokens[name], _ = open_session(conn, name, SessionLimits())
    return tokens


def _sweep(auth: Auth, expected: int) -> float:
    """One re-check of every watched session: its CPU milliseconds."""
    started = time.thread_time()
    read = auth.tokens.recheck_watched()
    spent = 1000 * (time.thread_time() - started)
    if read != expected:
        raise SystemExit(f"the sweep read {read} sessions, not {expected}")
    return spent


def bench(count: int, repeat: int, workdir: Path) -> dict[str, Any]:
    os.environ.setdefault("CROUPIER_ARGON2_PROFILE", "test")  # enrols thousands of accounts
    engine = connect(f"sqlite:///{workdir / 'floor.sqlite'}")
    try:
        tokens = _floor(engine, Auth(engine), count)
        first: list[float] = []
        held: list[float] = []
        for _ in range(repeat):
            auth = Auth(engine)  # a process holding none of them
            for username, token in tokens.items():
                auth.tokens.watch(token, username, lambda: None)
            first.append(_sweep(auth, count))
            time.sleep(RECHECK_SECONDS + 0.2)  # every one stale
            held.append(_sweep(auth, count))
    finally:
        engine.dispose()
    ms_first, ms_held = statistics.median(first), statistics.median(held)
    return {
        "sessions": count,
        "recheck_seconds": RECHECK_SECONDS,
        "first_sweep_ms": round(ms_first, 2),
        "held_sweep_ms": round(ms_held, 2),
        "us_per_session_first": round(1000 * ms_first / count, 2),
        "us_per_session_held": round(1000 * ms_held / count, 2),
        "held_to_first": round(ms_held / ms_first, 3),
        "cpu_share_of_a_core_held": round(ms_held / (1000 * RECHECK_SECONDS), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=3200, help="400 tables x 8 people")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-sessions-") as tmp:
        out = bench(args.sessions, args.repeat, Path(tmp))
    out["python"] = platform.python_version()
    print(
        f"{out['sessions']} sessions re-checked: {out['first_sweep_ms']} ms of CPU a sweep by a "
        f"process holding none of them ({out['us_per_session_first']} us a session), "
        f"{out['held_sweep_ms']} ms once held ({out['us_per_session_held']} us a session; "
        f"{out['held_to_first']}x); every {out['recheck_seconds']} s: "
        f"{100 * out['cpu_share_of_a_core_held']:.2f}% of a core"
    )
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
