"""The soak: bots play every game's table of a real server for 30 minutes (``--minutes``);
the server's memory and the command latency are printed for the first and the last window.

    python benchmarks/bench_soak.py [--minutes 30] [--window 60] [--tables 8] [--json PATH]

One table of each demo game (``--tables`` of them, cycling), two bot seats each, one thread per
table; a supervisor approves each 100% award's hand-pay when the next round waits for it.
Every ``--window`` seconds: rounds played, p50 and p99 command latency in that window,
the server's resident memory (VmRSS), its CPU seconds and CPU milliseconds per command, and the
bots' CPU seconds.  Flat means the last window's RSS, p99 and CPU per command are within a
small factor of the first's (printed as ratios; the machine's load average is printed too,
since other work on the machine moves latency, not CPU per command).  Exit 1 when a bot
hits an error or the audit of the books at the end is not clean.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from croupier.faces.bots import enrol, play_tables
from croupier.faces.client import Client
from croupier.server.demo import demo_rules
from live.live_harness import Server


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def _slope(windows: list[dict[str, Any]]) -> float:
    """RSS growth in MiB a minute from the first of ``windows`` to the last."""
    if len(windows) < 2 or windows[-1]["minute"] <= windows[0]["minute"]:
        return 0.0
    rise = float(windows[-1]["server_rss_mib"]) - float(windows[0]["server_rss_mib"])
    return round(rise / (float(windows[-1]["minute"]) - float(windows[0]["minute"])), 3)


def soak(minutes: float, window: float, tables: int, workdir: Path) -> dict[str, Any]:
    server = Server(f"sqlite:///{workdir / 'floor.sqlite'}", workdir / "server.log")
    server.start()
    try:
        assert server.proc is not None
        pid = server.proc.pid

        def connect(username: str, password: str) -> Client:
            client = Client(server.url, timeout=120)
            client.login(username, password)
            server.clients.append(client)
            return client

        supervisor = connect("supervisor", "supervisor-demo")
        rules = list(demo_rules().values())
        crews = enrol(supervisor, connect, rules, tables=tables, seats=2, prefix="soak")
        windows: list[dict[str, Any]] = []
        deadline = time.monotonic() + minutes * 60
        while time.monotonic() < deadline:
            for crew in crews:
                for client in crew.clients():
                    client.timings = []
            before = sum(len(c.rounds) for c in crews)
            cpu, bots_cpu = _cpu(pid), time.process_time()
            play_tables(
                crews,
                seconds=min(window, max(1.0, deadline - time.monotonic())),
                supervisor=supervisor,  # a 100% award's hand-pay approved, as in the pit
            )
            errors = [repr(c.error) for c in crews if c.error is not None]
            lat = [t for c in crews for cl in c.clients() for t in (cl.timings or [])]
            served = len(lat)  # requests the bots timed in this window
            server_cpu = _cpu(pid) - cpu
            windows.append(
                {
                    "minute": round((minutes * 60 - (deadline - time.monotonic())) / 60, 1),
                    "rounds": sum(len(c.rounds) for c in crews) - before,
                    "p50_ms": round(_pct(lat, 0.5), 1),
                    "p99_ms": round(_pct(lat, 0.99), 1),
                    "server_rss_mib": round(_rss_mib(pid), 1),
                    "server_cpu_s": round(server_cpu, 1),
                    # CPU per command: what latency measures, without the machine's load
                    "server_cpu_ms_per_command": round(1000 * server_cpu / max(served, 1), 2),
                    "bots_cpu_s": round(time.process_time() - bots_cpu, 1),
                    "commands": served,
                    "load_average": round(os.getloadavg()[0], 1),
                    "errors": errors,
                }
            )
            print(json.dumps(windows[-1]), flush=True)
            if errors:
                break
        audit = supervisor.audit()
    finally:
        server.stop()
    first, last = windows[0], windows[-1]
    return {
        "minutes": minutes,
        "tables": tables,
        "windows": len(windows),
        "start": first,
        "end": last,
        "rss_ratio_end_to_start": round(last["server_rss_mib"] / first["server_rss_mib"], 2),
        # growth per minute in each half of the run: a table or cache still filling shows as
        # growth that slows down; a leak as growth that does not
        "rss_mib_per_minute_first_half": _slope(windows[: len(windows) // 2 + 1]),
        "rss_mib_per_minute_second_half": _slope(windows[len(windows) // 2 :]),
        "p99_ratio_end_to_start": round(last["p99_ms"] / max(first["p99_ms"], 0.1), 2),
        "cpu_per_command_ratio_end_to_start": round(
            last["server_cpu_ms_per_command"] / max(first["server_cpu_ms_per_command"], 0.01), 2
        ),
        "rounds": sum(w["rounds"] for w in windows),
        "handpays_approved": sum(c.handpays for c in crews),
        "audit_ok": audit["ok"],
        "problems": [e for w in windows for e in w["errors"]] + list(audit["problems"]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--window", type=float, default=60.0, help="seconds per window")
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="croupier-soak-") as tmp:
        out = soak(args.minutes, args.window, args.tables, Path(tmp))
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text)
    return 1 if out["problems"] or not out["audit_ok"] else 0


if __name__ == "__main__":
    sys.exit(main())
