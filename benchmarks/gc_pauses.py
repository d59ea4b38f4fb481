"""``croupier serve`` with its garbage collector's pauses and its threads' stalls written down
(for ``bench_locust.py``).

Run ``python benchmarks/gc_pauses.py REPORT [server options]``: each collection's start (wall
clock, seconds), generation and length (milliseconds) are appended to REPORT as a tab-separated
line, at most a second after it ran.  A collection holds the GIL while it walks the objects,
so every thread of the server waits for it, and every command in flight then takes the pause
(the finalizers and weakref callbacks it then runs are Python code, during which other threads
may run: a collection's length is the most it stopped them).  The lengths come from CPython's
``gc.callbacks`` (called at the start and the end of each automatic or explicit collection);
:func:`pauses` reads a window of them back.

A heartbeat thread sleeps :data:`BEAT` at a time and writes down each gap over
:data:`STALL_MS` between two of its wake-ups (a line ``start, "stall", ms``): the time no Python
thread of the server could run it, whatever held the GIL.  A stall that overlaps no collection is
the server's other work; :func:`pauses` prints the longest of those apart.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import Any

FLUSH_EVERY = 1.0
"""Seconds between two appends of the collections seen to the report."""

STALL_MS = 30.0
"""The shortest gap between two heartbeats written down as a stall."""

BEAT = 0.005
"""Seconds the heartbeat sleeps (it needs the GIL to wake: a few hundred times a second)."""


class Recorder:
    """What was seen since the last flush, each ``(start, generation, ms)``: the collections
    (:meth:`callback`) and the heartbeat's stalls (:meth:`heartbeat`, generation ``"stall"``)."""

    def __init__(self, report: Path) -> None:
        self.report = report
        self.seen: deque[tuple[float, int | str, float]] = deque()
        self._started = (0.0, 0.0)
        self._stopped = threading.Event()

    def callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = (time.time(), time.perf_counter())
        else:
            wall, clock = self._started
            self.seen.append((wall, int(info["generation"]), 1000 * (time.perf_counter() - clock)))

    def flush(self) -> None:
        """Append the collections seen since the last flush to the report."""
        lines = []
        while self.seen:
            start, generation, ms = self.seen.popleft()
            lines.append(f"{start:.3f}\t{generation}\t{ms:.2f}\n")
        if lines:
            with self.report.open("a") as out:
                out.writelines(lines)

    def heartbeat(self) -> None:
        """Until :meth:`stop`: a wake-up every :data:`BEAT`, each gap over :data:`STALL_MS`
        seen."""
        last = time.perf_counter()
        while not self._stopped.is_set():
            time.sleep(BEAT)
            now = time.perf_counter()
            if now - last > STALL_MS / 1000:
                self.seen.append((time.time() - (now - last), "stall", 1000 * (now - last)))
            last = now

    def stop(self) -> None:
        """The heartbeat's loop ends at its next wake-up."""
        self._stopped.set()

    def flush_forever(self) -> None:
        while True:
            time.sleep(FLUSH_EVERY)
            self.flush()


def pauses(reports: Iterable[Path], started: float, ended: float) -> dict[str, Any]:
    """The collections that started within ``[started, ended)`` (wall clock) in ``reports``:
    by generation, their count, total and longest milliseconds; the longest of all; and the
    heartbeat's stalls in the window (``stalls``: their count, the longest, and the longest
    that overlaps no collection of its server)."""
    by_gen: dict[str, dict[str, float]] = {}
    stalls = {"count": 0, "max_ms": 0.0, "max_ms_outside_collections": 0.0}
    for report in reports:
        if not report.exists():
            continue
        rows = [line.split("\t") for line in report.read_text().splitlines()]
        spans = [(float(s), float(s) + float(ms) / 1000) for s, kind, ms in rows if kind != "stall"]
        for start, kind, ms in rows:
            if not started <= float(start) < ended:
                continue
            if kind == "stall":
                begin, end = float(start), float(start) + float(ms) / 1000
                stalls["count"] += 1
                stalls["max_ms"] = max(stalls["max_ms"], float(ms))
                if not any(a < end and begin < b for a, b in spans):
                    stalls["max_ms_outside_collections"] = max(
                        stalls["max_ms_outside_collections"], float(ms)
                    )
                continue
            gen = by_gen.setdefault(f"gen{kind}", {"count": 0, "total_ms": 0.0, "max_ms": 0.0})
            gen["count"] += 1
            gen["total_ms"] += float(ms)
            gen["max_ms"] = max(gen["max_ms"], float(ms))
    out: dict[str, Any] = {
        name: {k: round(v, 1) if k != "count" else int(v) for k, v in gen.items()}
        for name, gen in sorted(by_gen.items())
    }
    out["total_ms"] = round(sum(g["total_ms"] for g in by_gen.values()), 1)
    out["max_ms"] = round(max((g["max_ms"] for g in by_gen.values()), default=0.0), 1)
    out["stalls"] = {k: round(v, 1) if k != "count" else int(v) for k, v in stalls.items()}
    return out


def main() -> None:
    report = Path(sys.argv[1])
    recorder = Recorder(report)
    gc.callbacks.append(recorder.callback)
    threading.Thread(target=recorder.flush_forever, daemon=True).start()
    threading.Thread(target=recorder.heartbeat, daemon=True).start()
    sys.argv = ["croupier.server", *sys.argv[2:]]
    from croupier.server.__main__ import main as serve

    serve()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
