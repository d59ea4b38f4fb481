"""Failover and scale-out on PostgreSQL behind HAProxy (issue 38): kills, and the CPU of two
processes against one.

    python benchmarks/bench_failover.py [--kills 100] [--minutes T] [--seed S]
                                        [--audit-every K] [--tables 6] [--rounds 6]
                                        [--json PATH]

1. **Failover** (:mod:`live.failover_harness`): two ``croupier serve`` processes on one
   throwaway PostgreSQL cluster (scripts/pg-throwaway.sh) behind Debian's HAProxy
   (scripts/haproxy-install.sh); the chaos harness's bots play five tables through HAProxy's
   URL and the process serving the table whose command is in flight is SIGKILLed ``--kills``
   times (fewer where ``--minutes`` run out), at every state of a round in turn.  Prints the
   kills, the most (and median) seconds until every table answered from the other process
   through the same URL (target: 5 s), the acknowledged commands lost (target: 0), the audits
   run and their findings, every other problem the harness found.  Where the command in
   flight stood: ``answered_before_the_kill`` counts the commands answered, by the killed
   process before the kill or by the other one (a request sent after the kill finds its
   connection refused and HAProxy sends it to the other process); ``not_committed_done_on_retry``
   and ``committed_answer_lost`` the kills that landed while the killed process held it.
2. **CPU per command, 2 processes against 1**, in the same run: ``--tables`` tables of three
   players (Three and Four Card Poker, :mod:`croupier.faces.bots`) play ``--rounds`` rounds
   through HAProxy before one process, then before two (a fresh database each), every seat's
   stream open (bench_server.py's ``Watchers``); the servers' own CPU (``/proc/PID/stat``,
   :mod:`proc_cpu`) per command and the ratio of the two against the target (at most 1.1: no
   coordination tax).

Exit 1 on a problem (a target missed is printed, not an exit status: the machine may be shared).
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_server import Watchers
from croupier.faces.bots import enrol, play_tables
from croupier.faces.client import Client
from croupier.server.demo import demo_rules
from croupier.server.haproxy_config import Backend
from live.chaos_harness import ChaosServer
from live.failover_harness import SERVICE_LIMIT, HAProxy, failover, haproxy_binary
from live.live_harness import Cluster
from proc_cpu import cpu_seconds

TARGET_RATIO = 1.1
"""Issue 38: two processes' server CPU per command within 1.1x of one process's."""

LOST = "was acknowledged"
"""How the chaos harness names an acknowledged event missing from the database."""


def kills(cluster: Cluster, workdir: Path, binary: str, args: argparse.Namespace) -> dict[str, Any]:
    workdir.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    seconds = args.minutes * 60 if args.minutes is not None else None
    figures, service = failover(
        cluster.database(),
        workdir,
        binary,
        kills=args.kills,
        seed=args.seed,
        audit_every=args.audit_every,
        seconds=seconds,
    )
    ordered = sorted(service) or [0.0]
    lost = [p for p in figures.problems if LOST in p]
    findings = [p for p in figures.problems if p.startswith("audit:")]
    return {
        "kills": figures.kills,
        "kills_by_state": dict(sorted(figures.by_state.items())),
        "in_flight_command": dict(sorted(figures.landed.items())),
        "max_seconds_to_service": round(ordered[-1], 3),
        "median_seconds_to_service": round(ordered[len(ordered) // 2], 3),
        "ratio_service_to_target": round(ordered[-1] / SERVICE_LIMIT, 3),
        "lost_acknowledged": len(lost),
        "audits": figures.audits,
        "audit": "clean" if not findings else f"{len(findings)} findings",
        "rounds_finished": figures.rounds_finished,
        "wagers_checked_settled_once": figures.wagers_checked,
        "held_rounds_voided": figures.held_voided,
        "rounds_resumed": figures.resumed,
        "events_checked": figures.events_checked,
        "commands": figures.commands,
        "problems": figures.problems[:20],
        "problem_count": len(figures.problems),
        "wall_seconds": round(time.perf_counter() - began, 1),
    }


def cpu_run(
    cluster: Cluster, workdir: Path, binary: str, processes: int, args: argparse.Namespace
) -> dict[str, Any]:
    """``--tables`` tables playing ``--rounds`` rounds through HAProxy before ``processes``
    servers on a fresh database: the servers' CPU per command."""
    workdir.mkdir(parents=True, exist_ok=True)
    url = cluster.database()
    servers = [ChaosServer(url, workdir / f"server-{n}.log") for n in range(processes)]
    haproxy: HAProxy | None = None
    clients: list[Client] = []
    try:
        for server in servers:
            server.start()  # one after the other: the first sets the demo floor up
        haproxy = HAProxy(binary, [Backend("127.0.0.1", s.port) for s in servers], workdir)

        def connect(username: str, password: str) -> Client:
            assert haproxy is not None
            client = Client(haproxy.url, timeout=120)
            client.login(username, password)
            clients.append(client)
            return client

        supervisor = connect("supervisor", "supervisor-demo")
        rules = demo_rules()
        crews = enrol(
            supervisor,
            connect,
            [rules["three-card-poker"], rules["four-card-poker"]],
            tables=args.tables,
            seats=3,
            prefix=f"cpu{processes}",
        )
        # every seat's stream open through HAProxy, as bench_server.py holds them
        watchers = Watchers(
            [
                (c.table_id, p.stream_url(c.table_id), p.stream_headers())
                for c in crews
                for p in c.players.values()
            ]
        )
        watchers.start()
        pids = [s.proc.pid for s in servers if s.proc is not None]
        before = sum(cpu_seconds(pid) for pid in pids)
        began = time.perf_counter()
        play_tables(crews, rounds=args.rounds, supervisor=supervisor)
        elapsed = time.perf_counter() - began
        cpu = sum(cpu_seconds(pid) for pid in pids) - before
        commands = sum(c.commands for c in crews)
        final = {c.table_id: int(supervisor.view(c.table_id)["seq"]) for c in crews}
        caught_up = watchers.caught_up(final)
        watchers.stop()
        audit = supervisor.audit()
        errors = [repr(c.error) for c in crews if c.error is not None]
        return {
            "processes": processes,
            "tables": args.tables,
            "rounds": sum(len(c.rounds) for c in crews),
            "commands": commands,
            "seconds": round(elapsed, 1),
            "server_cpu_s": round(cpu, 2),
            "server_cpu_ms_per_command": round(1000 * cpu / max(1, commands), 3),
            "streams": len(watchers.urls),
            "streams_caught_up": caught_up,
            "stream_gaps": watchers.gaps,
            "ledger_ok": audit["ok"],
            "errors": (errors + watchers.errors)[:5],
        }
    finally:
        for client in clients:
            client.close()
        for server in servers:
            server.close()
        if haproxy is not None:
            haproxy.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100, help="kills (SIGKILL of one process)")
    parser.add_argument("--minutes", type=float, help="stop the kills after this long")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--audit-every", type=int, default=10)
    parser.add_argument("--tables", type=int, default=6, help="tables of the CPU comparison")
    parser.add_argument("--rounds", type=int, default=6, help="rounds each of them plays")
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    if args.kills < 0 or args.tables < 1 or args.rounds < 1 or args.audit_every < 1:
        parser.error("--kills >= 0, --tables, --rounds and --audit-every >= 1")
    binary, why = haproxy_binary()
    if binary is None:
        print(f"bench_failover: HAProxy cannot be installed: {why}", file=sys.stderr)
        return 2
    out: dict[str, Any] = {"load_before": os.getloadavg()}
    with tempfile.TemporaryDirectory(prefix="croupier-failover-") as tmp:
        cluster = Cluster(Path(tmp) / "cluster")
        try:
            if args.kills:
                out["failover"] = kills(cluster, Path(tmp) / "kills", binary, args)
                print(json.dumps({"failover": out["failover"]}, indent=2), flush=True)
            one = cpu_run(cluster, Path(tmp) / "cpu-1", binary, 1, args)
            two = cpu_run(cluster, Path(tmp) / "cpu-2", binary, 2, args)
        finally:
            cluster.stop()
    ratio = two["server_cpu_ms_per_command"] / max(1e-9, one["server_cpu_ms_per_command"])
    out["cpu"] = {
        "one_process": one,
        "two_processes": two,
        "cpu_per_command_ratio_2_to_1": round(ratio, 3),
        "ratio_to_target": round(ratio / TARGET_RATIO, 3),
        "target": f"<= {TARGET_RATIO}x",
    }
    out["load_after"] = os.getloadavg()
    print(json.dumps({"cpu": out["cpu"]}, indent=2), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    failed = out.get("failover", {}).get("problem_count", 0) or one["errors"] or two["errors"]
    missed = one["streams_caught_up"] < one["streams"] or two["streams_caught_up"] < two["streams"]
    return 1 if failed or missed or not (one["ledger_ok"] and two["ledger_ok"]) else 0


if __name__ == "__main__":
    sys.exit(main())
