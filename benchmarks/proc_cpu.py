"""A process's CPU time from Linux ``/proc`` (the benchmarks that measure a server's own CPU).

``cpu_seconds(pid)``: user + system CPU seconds of process ``pid`` so far (bench_server,
bench_locust, bench_command_floor and bench_failover read the server's CPU through it).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cpu_seconds"]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (fields 14 and 15 of ``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
