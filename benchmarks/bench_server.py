"""The live table system under load: 200 tables x 7 bot seats over HTTP against a real server.

Run ``python benchmarks/bench_server.py [--tables 200] [--seats 7] [--seconds 60]
[--backend sqlite|postgresql|both] [--json PATH] [--profile PATH]``.  For each backend a
``croupier serve`` process starts on a free loopback port (SQLite: a file in a temporary
directory, WAL and ``synchronous=FULL``; PostgreSQL: a throwaway cluster made by
``scripts/pg-throwaway.sh``), the tables (Three and Four Card Poker alternately, linked on one
meter) and their players are enrolled, then every table plays rounds at once, one thread per
table, for ``--seconds``: every command is committed before it is answered.

Prints rounds per second, commands per second, p50 and p99 request latency, and the ratio to
the target (at least 50 rounds/s with p99 at most 100 ms: a 400-table floor at five times the
real pace of play), the CPU seconds the server process and the bots spent (the bots share the
machine's cores with the server), and the load average before and after (the machine may be
shared: compare runs made back to back).  ``--profile PATH`` runs the server under
``benchmarks/server_sampler.py`` and writes where its threads spent their CPU time to PATH.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from croupier.bots import enrol, play_tables
from croupier.client import Client, wait_until_up
from croupier.server.demo import demo_rules

ROOT = Path(__file__).resolve().parents[1]
TARGET_ROUNDS = 50.0
TARGET_P99_MS = 100.0


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench(
    backend: str,
    tables: int,
    seats: int,
    seconds: float,
    workdir: Path,
    profile: Path | None = None,
) -> dict[str, Any]:
    cluster = workdir / "pg"
    if backend == "postgresql":
        done = subprocess.run(
            [
                "bash",
                str(ROOT / "scripts" / "pg-throwaway.sh"),
                "start",
                str(cluster),
                str(_port()),
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        )
        url = done.stdout.strip().splitlines()[-1]
    else:
        url = f"sqlite:///{workdir / 'floor.sqlite'}"
    port = _port()
    base = f"http://127.0.0.1:{port}"
    # 1400 bot players log in: the argon2 test profile (logins are not what is measured).
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "CROUPIER_ARGON2_PROFILE": "test"}
    log = (workdir / f"server-{backend}.log").open("wb")
    server = ["-m", "croupier.server"]
    if profile is not None:
        server = [str(ROOT / "benchmarks" / "server_sampler.py"), str(profile)]
    proc = subprocess.Popen(
        [sys.executable, *server, "--db", url, "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    clients: list[Client] = []
    try:
        wait_until_up(base, timeout=120)

        def connect(username: str, password: str) -> Client:
            client = Client(base, timeout=120)
            client.login(username, password)
            clients.append(client)
            return client

        supervisor = connect("supervisor", "supervisor-demo")
        rules = demo_rules()
        started = time.perf_counter()
        crews = enrol(
            supervisor,
            connect,
            [rules["three-card-poker"], rules["four-card-poker"]],
            tables=tables,
            seats=seats,
            prefix="bench",
        )
        enrol_s = time.perf_counter() - started
        for crew in crews:
            for client in crew.clients():
                client.timings = []
        load_before = os.getloadavg()[0]
        server_cpu, bots_cpu = _cpu_seconds(proc.pid), time.process_time()
        started = time.perf_counter()
        play_tables(crews, seconds=seconds)
        elapsed = time.perf_counter() - started
        server_cpu = _cpu_seconds(proc.pid) - server_cpu
        bots_cpu = time.process_time() - bots_cpu
        load_after = os.getloadavg()[0]
        errors = [repr(c.error) for c in crews if c.error is not None]
        rounds = sum(len(c.rounds) for c in crews)
        commands = sum(c.commands for c in crews)
        latencies = [t for c in crews for cl in c.clients() for t in (cl.timings or [])]
        audit = supervisor.audit()
        p50, p99 = _percentile(latencies, 0.50) * 1000, _percentile(latencies, 0.99) * 1000
        return {
            "backend": backend,
            "tables": tables,
            "seats": seats,
            "seconds": round(elapsed, 1),
            "enrol_seconds": round(enrol_s, 1),
            "rounds": rounds,
            "commands": commands,
            "requests": len(latencies),
            "rounds_per_s": round(rounds / elapsed, 2),
            "commands_per_s": round(commands / elapsed, 1),
            "p50_ms": round(p50, 1),
            "p99_ms": round(p99, 1),
            "ratio_rounds_to_target": round(rounds / elapsed / TARGET_ROUNDS, 3),
            "ratio_p99_to_target": round(p99 / TARGET_P99_MS, 2),
            "server_cpu_s": round(server_cpu, 1),
            "bots_cpu_s": round(bots_cpu, 1),
            "server_cpu_ms_per_request": round(1000 * server_cpu / max(1, len(latencies)), 2),
            "load_before": round(load_before, 2),
            "load_after": round(load_after, 2),
            "ledger_ok": audit["ok"],
            "errors": errors[:5],
            "error_count": len(errors),
        }
    finally:
        for client in clients:
            client.close()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=60)
        log.close()
        if backend == "postgresql":
            subprocess.run(
                ["bash", str(ROOT / "scripts" / "pg-throwaway.sh"), "stop", str(cluster)],
                check=False,
                timeout=120,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seats", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--profile", type=Path, default=None, help="server profile report")
    args = parser.parse_args()
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    results = []
    for backend in backends:
        with tempfile.TemporaryDirectory(prefix="bench-server-") as tmp:
            work = Path(tmp)
            os.chmod(work, 0o755)
            profile = args.profile
            if profile is not None and len(backends) > 1:
                profile = profile.with_name(f"{profile.stem}-{backend}{profile.suffix}")
            result = bench(backend, args.tables, args.seats, args.seconds, work, profile)
        results.append(result)
        print(
            f"{backend:>10}: {result['tables']} tables x {result['seats']} seats, "
            f"{result['seconds']} s: {result['rounds']} rounds ({result['rounds_per_s']}/s, "
            f"{result['ratio_rounds_to_target']}x the 50/s target), "
            f"{result['commands']} commands ({result['commands_per_s']}/s), latency p50 "
            f"{result['p50_ms']} ms, p99 {result['p99_ms']} ms "
            f"({result['ratio_p99_to_target']}x the 100 ms target); ledger "
            f"{'balanced' if result['ledger_ok'] else 'NOT balanced'}; "
            f"{result['error_count']} table errors; CPU s: server {result['server_cpu_s']} "
            f"({result['server_cpu_ms_per_request']} ms a request), bots {result['bots_cpu_s']}; "
            f"load average {result['load_before']} -> {result['load_after']}",
            flush=True,
        )
    if args.json is not None:
        payload = {"machine": platform.platform(), "cpus": os.cpu_count(), "results": results}
        args.json.write_text(json.dumps(payload, indent=2) + "\n")


if __name__ == "__main__":
    main()
