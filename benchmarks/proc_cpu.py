"""The processes a benchmark starts: their CPU time from Linux ``/proc``, and their stop.

``cpu_seconds(pid)``: user + system CPU seconds of process ``pid`` so far (bench_server,
bench_locust, bench_command_floor and bench_failover read the server's CPU through it).
``tree_cpu_seconds(pid)``: the same for a process and its children, the ended ones included
(PostgreSQL's server and its backends; HAProxy).
``system_seconds(pid)``: the system (kernel) share of them; ``context_switches(pid)``: the
switches of its living threads so far (voluntary: it waited; involuntary: it was preempted).
``terminate(proc, grace)``: SIGTERM, then SIGKILL if it has not ended within ``grace`` seconds.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

__all__ = [
    "context_switches",
    "cpu_seconds",
    "system_seconds",
    "terminate",
    "tree_cpu_seconds",
]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (fields 14 and 15 of ``/proc/PID/stat``)."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def system_seconds(pid: int) -> float:
    """System CPU seconds of process ``pid`` (field 15 of ``/proc/PID/stat``)."""
    return int(_stat(pid)[12]) / os.sysconf("SC_CLK_TCK")


def context_switches(pid: int) -> int:
    """Voluntary and involuntary context switches of process ``pid``'s living threads
    (``/proc/PID/task/TID/status``; a thread that ended is not counted)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            lines = (task / "status").read_text().splitlines()
        except (FileNotFoundError, ProcessLookupError):
            continue  # the thread ended meanwhile
        for line in lines:
            if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                total += int(line.split()[1])
    return total


def _stat(pid: int) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command's name (field 3 onward)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid``, of its children that ended and were waited
    for (fields 16 and 17), and of its living children: a server that forks a process a
    connection (PostgreSQL) counted whole."""
    ticks = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = _stat(int(entry.name))
        except (FileNotFoundError, ProcessLookupError):
            continue  # ended meanwhile: its CPU is in its parent's fields 16 and 17
        if int(entry.name) == pid:
            ticks += sum(int(f) for f in fields[11:15])
        elif int(fields[1]) == pid:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def terminate(proc: subprocess.Popen[bytes], grace: float) -> None:
    """Stop ``proc`` as a person does (SIGTERM: a server or Locust writes what it holds), and
    kill it if it has not ended within ``grace`` seconds."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=60)
