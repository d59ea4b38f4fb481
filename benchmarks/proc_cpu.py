"""The processes a benchmark starts: their CPU time from Linux ``/proc``, and their stop.

``cpu_seconds(pid)``: user + system CPU seconds of process ``pid`` so far (bench_server,
bench_locust, bench_command_floor and bench_failover read the server's CPU through it).
``tree_cpu_seconds(pid)``: the same for a process and its children, the ended ones included
(PostgreSQL's server and its backends; HAProxy).
``system_seconds(pid)``: the system (kernel) share of them; ``context_switches(pid)``: the
switches of each of its living threads so far (voluntary: it waited; involuntary: it was
preempted), and ``switches_between(before, after)`` the switches made between two such reads.
``Usage.read(pids)``: the three of some processes at one moment; ``later.since(earlier)`` what
they used between two reads (bench_server and bench_locust measure their window through it).
``terminate(proc, grace)``: SIGTERM, then SIGKILL if it has not ended within ``grace`` seconds.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "Usage",
    "Used",
    "context_switches",
    "cpu_seconds",
    "switches_between",
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


def context_switches(pid: int) -> dict[int, int]:
    """Voluntary and involuntary context switches of each of process ``pid``'s living
    threads so far, by thread id (``/proc/PID/task/TID/status``)."""
    counts: dict[int, int] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            lines = (task / "status").read_text().splitlines()
        except (FileNotFoundError, ProcessLookupError):
            continue  # the thread ended meanwhile
        counts[int(task.name)] = sum(
            int(line.split()[1])
            for line in lines
            if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:"))
        )
    return counts


def switches_between(before: dict[int, int], after: dict[int, int]) -> int:
    """The switches made between two reads of :func:`context_switches`: a thread's since the
    first read (all of them for a thread started since).  A thread that ended between the two
    is left out, so the count is at least what it says, never less than nothing."""
    return sum(n - before.get(tid, 0) for tid, n in after.items())


@dataclass(frozen=True, slots=True)
class Used:
    """What some processes used between two reads: CPU seconds, the kernel's share of them, and
    their threads' context switches (at least: :func:`switches_between`)."""

    cpu: float
    system: float
    switches: int


@dataclass(frozen=True, slots=True)
class Usage:
    """Some processes' CPU seconds, system seconds and threads' switches so far, read at one
    moment (:meth:`read`)."""

    cpu: float
    system: float
    threads: Mapping[int, dict[int, int]]
    """Each process's :func:`context_switches`, by pid."""

    @classmethod
    def read(cls, pids: Iterable[int]) -> Usage:
        pids = list(pids)
        return cls(
            sum(map(cpu_seconds, pids)),
            sum(map(system_seconds, pids)),
            {pid: context_switches(pid) for pid in pids},
        )

    def since(self, earlier: Usage) -> Used:
        """What the processes used between ``earlier`` and this read."""
        switches = sum(
            switches_between(earlier.threads.get(pid, {}), now) for pid, now in self.threads.items()
        )
        return Used(self.cpu - earlier.cpu, self.system - earlier.system, switches)


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
