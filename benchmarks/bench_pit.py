"""What the pit's floor streams cost a large floor: the same play with and without them.

Run ``python benchmarks/bench_pit.py [--tables 400] [--playing 2] [--seats 3] [--pit 4]
[--seconds 15] [--json PATH]``.  A ``croupier serve`` process starts on a SQLite file (as
``bench_server.py`` starts it) with ``--tables`` tables on its floor; ``--playing`` of them play
rounds as fast as their bots answer, ``--seconds`` each run, first with no floor stream open,
then with ``--pit`` pit viewers holding ``/api/floor/stream`` (each message the whole floor).
Prints each run's commands a second, the server's CPU a command and p50/p99 latency, the floor
messages the pit received, and the ratio of the two runs' commands a second: how much of the
server the pit's streams take at that floor size (1.0: nothing).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_server import PIT, Served, Watchers, _percentile
from croupier.faces.bots import Crew, enrol, play_tables
from croupier.faces.client import Client
from croupier.server.demo import demo_rules
from proc_cpu import cpu_seconds

ROOT = Path(__file__).resolve().parents[1]


def _run(
    pid: int, crews: list[Crew], watchers: Watchers | None, seconds: float, supervisor: Client
) -> dict[str, Any]:
    """One run of the playing tables: commands, the server's CPU, latency, floor messages."""
    for crew in crews:
        for client in crew.clients():
            client.timings = []
    commands_before = sum(c.commands for c in crews)
    messages_before = watchers.floor_messages if watchers is not None else 0
    cpu, started = cpu_seconds(pid), time.perf_counter()
    # a progressive award paid by hand waits for the supervisor (§ 641a.11(c)(5)(iv))
    play_tables(crews, seconds=seconds, supervisor=supervisor)
    elapsed, cpu = time.perf_counter() - started, cpu_seconds(pid) - cpu
    commands = sum(c.commands for c in crews) - commands_before
    latencies = [t for c in crews for cl in c.clients() for t in (cl.timings or [])]
    return {
        "pit_streams": 0 if watchers is None else len(watchers.urls),
        "seconds": round(elapsed, 1),
        "commands": commands,
        "commands_per_s": round(commands / elapsed, 1),
        "server_cpu_s": round(cpu, 2),
        "server_cpu_ms_per_command": round(1000 * cpu / max(1, commands), 2),
        "p50_ms": round(_percentile(latencies, 0.50) * 1000, 1),
        "p99_ms": round(_percentile(latencies, 0.99) * 1000, 1),
        "floor_messages": (watchers.floor_messages - messages_before) if watchers else 0,
        "errors": [repr(c.error) for c in crews if c.error is not None][:3],
    }


def bench(tables: int, playing: int, seats: int, pit: int, seconds: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-pit-") as tmp:
        served = Served(f"sqlite:///{Path(tmp) / 'floor.sqlite'}", subprocess.DEVNULL)
        try:
            proc, base, connect = served.proc, served.base, served.connect
            supervisor = connect("supervisor", "supervisor-demo")
            rules = demo_rules()
            idle = rules["three-card-poker"]
            for n in range(max(0, tables - len(supervisor.tables()) - playing)):
                supervisor.new_table(f"quiet-{n + 1}", f"Quiet {n + 1}", idle)
            game = [rules["three-card-poker"], rules["four-card-poker"]]
            crews = enrol(supervisor, connect, game, tables=playing, seats=seats, prefix="play")
            on_floor = len(supervisor.tables())
            alone = _run(proc.pid, crews, None, seconds, supervisor)
            ws = base.replace("http://", "ws://")
            streams = [(PIT, f"{ws}/api/floor/stream", supervisor.stream_headers())] * pit
            watchers = Watchers(streams)
            watchers.start()
            try:
                watched = _run(proc.pid, crews, watchers, seconds, supervisor)
            finally:
                watchers.stop()
            return {
                "tables": on_floor,
                "playing": playing,
                "seats": seats,
                "without_pit": alone,
                "with_pit": watched,
                "pit_gaps": watchers.gaps,
                "ratio_commands_with_pit": round(
                    watched["commands_per_s"] / max(alone["commands_per_s"], 1e-9), 2
                ),
                "audit_ok": supervisor.audit()["ok"],
            }
        finally:
            served.close()


def _line(run: dict[str, Any]) -> str:
    return (
        f"{run['pit_streams']} pit streams: {run['commands']} commands in {run['seconds']} s "
        f"({run['commands_per_s']}/s), server {run['server_cpu_ms_per_command']} ms of CPU a "
        f"command, p50 {run['p50_ms']} ms, p99 {run['p99_ms']} ms, "
        f"{run['floor_messages']} floor messages"
        + (f"; first error: {run['errors'][0]}" if run["errors"] else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument("--playing", type=int, default=2)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--pit", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    result = bench(args.tables, args.playing, args.seats, args.pit, args.seconds)
    print(
        f"pit streams on a floor of {result['tables']} tables, {result['playing']} playing "
        f"({result['seats']} seats):\n  {_line(result['without_pit'])}\n  "
        f"{_line(result['with_pit'])}\n  with the pit's streams the server answered "
        f"{result['ratio_commands_with_pit']}x the commands a second; {result['pit_gaps']} "
        f"floor versions out of order; ledger "
        f"{'balanced' if result['audit_ok'] else 'NOT balanced'}",
        flush=True,
    )
    if args.json is not None:
        payload = {"machine": platform.platform(), "cpus": os.cpu_count(), "result": result}
        args.json.write_text(json.dumps(payload, indent=2) + "\n")


if __name__ == "__main__":
    main()
