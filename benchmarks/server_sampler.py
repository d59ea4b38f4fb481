"""``croupier serve`` under a sampling profiler over every thread (for ``bench_server.py
--profile``).

Run ``python benchmarks/server_sampler.py REPORT [server options]``: every 5 ms each thread's
stack is weighed by the CPU time the thread used since the last sample (Linux
``/proc/self/task/<tid>/schedstat``, nanoseconds), so a thread waiting for a lock, the disk or
the network counts for nothing; every 5 s the report is rewritten: the innermost functions, then
every function by its share of the CPU time while it was on the stack.  Sampling, not tracing:
it does not slow the server down the way cProfile does, and it sees the thread pool's threads.
Its bias: the sampler thread needs the GIL, so it samples a busy thread where that thread gives
the GIL up (a SQLite statement, a commit, a socket write) and charges there the pure-Python work
done since; ``perf record -g -p PID`` shows the split by library (docs/performance.md).
The writer thread, which runs every command (:mod:`croupier.server.commit`), is also traced
with cProfile: ``REPORT.writer`` lists its functions by cumulative time.
"""

from __future__ import annotations

import collections
import os
import sys
import threading
import time
import traceback
from pathlib import Path


def _short(filename: str) -> str:
    return filename.rsplit("site-packages/", maxsplit=1)[-1].rsplit("/src/", maxsplit=1)[-1]


def _cpu_ns(native_id: int | None) -> int:
    try:
        return int(Path(f"/proc/self/task/{native_id}/schedstat").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0


def _sample(leaf: collections.Counter[str], within: collections.Counter[str]) -> None:
    me = threading.get_ident()
    last: dict[int, int] = {}
    while True:
        time.sleep(0.005)
        natives = {t.ident: t.native_id for t in threading.enumerate()}
        for tid, frame in sys._current_frames().items():
            if tid == me:
                continue
            used = _cpu_ns(natives.get(tid))
            weight, last[tid] = (used - last.get(tid, used)) // 1000, used
            if weight <= 0:
                continue
            stack = traceback.extract_stack(frame)
            leaf[f"{_short(stack[-1].filename)}:{stack[-1].name}"] += weight
            leaf["<total>"] += weight
            for name in {f"{_short(fr.filename)}:{fr.name}" for fr in stack}:
                within[name] += weight


def _report(path: Path, leaf: collections.Counter[str], within: collections.Counter[str]) -> None:
    while True:
        time.sleep(5.0)
        total = max(1, leaf["<total>"])
        lines = [f"CPU sampled: {total / 1e6:.1f} s (every 5 ms, all threads)", "== innermost"]
        lines += [
            f"{n:7d} {100 * n / total:5.1f}% {k}" for k, n in leaf.most_common(61) if k != "<total>"
        ]
        lines.append("== on the stack")
        lines += [f"{n:7d} {100 * n / total:5.1f}% {k}" for k, n in within.most_common(200)]
        path.write_text("\n".join(lines) + "\n")


def _trace_writer(report: Path) -> None:
    """cProfile the writer's batches; the stats rewritten every 5 s."""
    import cProfile
    import pstats

    from croupier.server.commit import GroupCommitter

    profile = cProfile.Profile()
    lock = threading.Lock()
    run_batch = GroupCommitter._run_batch

    def traced(self: GroupCommitter, batch: list[object]) -> None:
        with lock:
            profile.enable()
            try:
                run_batch(self, batch)  # type: ignore[arg-type]
            finally:
                profile.disable()

    GroupCommitter._run_batch = traced  # type: ignore[method-assign,assignment]

    def dump() -> None:
        while True:
            time.sleep(5.0)
            with lock, Path(f"{report}.writer").open("w") as out:
                try:
                    stats = pstats.Stats(profile, stream=out)
                except TypeError:  # no batch yet
                    continue
                stats.sort_stats("cumulative").print_stats(80)
                stats.sort_stats("tottime").print_stats(40)

    threading.Thread(target=dump, daemon=True).start()


def main() -> None:
    report = Path(sys.argv[1])
    _trace_writer(report)
    sys.argv = ["croupier.server", *sys.argv[2:]]
    leaf: collections.Counter[str] = collections.Counter()
    within: collections.Counter[str] = collections.Counter()
    threading.Thread(target=_sample, args=(leaf, within), daemon=True).start()
    threading.Thread(target=_report, args=(report, leaf, within), daemon=True).start()
    from croupier.server.__main__ import main as serve

    serve()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
