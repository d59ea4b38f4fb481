"""The processes a benchmark starts: their CPU time from Linux ``/proc``, and their stop.

``cpu_seconds(pid)``: user + system CPU seconds of process ``pid`` so far (bench_server,
bench_locust, bench_command_floor and bench_failover read the server's CPU through it).
``terminate(proc, grace)``: SIGTERM, then SIGKILL if it has not ended within ``grace`` seconds.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

__all__ = ["cpu_seconds", "terminate"]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (fields 14 and 15 of ``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def terminate(proc: subprocess.Popen[bytes], grace: float) -> None:
    """Stop ``proc`` as a person does (SIGTERM: a server or Locust writes what it holds), and
    kill it if it has not ended within ``grace`` seconds."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=60)
