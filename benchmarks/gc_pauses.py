"""``croupier serve`` with its garbage collector's pauses written down (for ``bench_locust.py``).

Run ``python benchmarks/gc_pauses.py REPORT [server options]``: each collection's start (wall
clock, seconds), generation and length (milliseconds) are appended to REPORT as a tab-separated
line, at most a second after it ran.  A collection holds the GIL while it walks the objects,
so every thread of the server waits for it, and every command in flight then takes the pause
(the finalizers and weakref callbacks it then runs are Python code, during which other threads
may run: a collection's length is the most it stopped them).  The lengths come from CPython's
``gc.callbacks`` (called at the start and the end of each automatic or explicit collection);
:func:`pauses` reads a window of them back.
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


class Recorder:
    """The collections seen since the last flush: ``(start, generation, ms)``."""

    def __init__(self, report: Path) -> None:
        self.report = report
        self.seen: deque[tuple[float, int, float]] = deque()
        self._started = (0.0, 0.0)

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

    def flush_forever(self) -> None:
        while True:
            time.sleep(FLUSH_EVERY)
            self.flush()


def pauses(reports: Iterable[Path], started: float, ended: float) -> dict[str, Any]:
    """The collections that started within ``[started, ended)`` (wall clock) in ``reports``:
    by generation, their count, total and longest milliseconds; and the longest of all."""
    by_gen: dict[str, dict[str, float]] = {}
    for report in reports:
        if not report.exists():
            continue
        for line in report.read_text().splitlines():
            start, generation, ms = line.split("\t")
            if not started <= float(start) < ended:
                continue
            gen = by_gen.setdefault(
                f"gen{generation}", {"count": 0, "total_ms": 0.0, "max_ms": 0.0}
            )
            gen["count"] += 1
            gen["total_ms"] += float(ms)
            gen["max_ms"] = max(gen["max_ms"], float(ms))
    out: dict[str, Any] = {
        name: {k: round(v, 1) if k != "count" else int(v) for k, v in gen.items()}
        for name, gen in sorted(by_gen.items())
    }
    out["total_ms"] = round(sum(g["total_ms"] for g in by_gen.values()), 1)
    out["max_ms"] = round(max((g["max_ms"] for g in by_gen.values()), default=0.0), 1)
    return out


def main() -> None:
    report = Path(sys.argv[1])
    recorder = Recorder(report)
    gc.callbacks.append(recorder.callback)
    threading.Thread(target=recorder.flush_forever, daemon=True).start()
    sys.argv = ["croupier.server", *sys.argv[2:]]
    from croupier.server.__main__ import main as serve

    serve()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
