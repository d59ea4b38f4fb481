"""The floor under a command's server CPU on this machine: what any design in this stack pays
before croupier's own logic (issue 38's 1.0 ms target, measured apart).

Run ``python benchmarks/bench_command_floor.py [--requests 3000] [--streams 8] [--events 5]
[--json PATH]``.
Four parts, each the cheapest form of what every command must do, each printed in ms of CPU:

- **HTTP**: a bare FastAPI route under uvicorn, started as ``croupier serve`` starts its server
  (the same options), a JSON body read by a pydantic model and a JSON answer through a response
  model, run on the worker thread pool as a command route is: the server process's CPU a request
  (``/proc``), the requests sent on keep-alive connections by this process.
- **Streams**: the same route where each request also wakes ``--streams`` WebSockets held open
  on the server (a table's dealer and players), each sent one JSON message (a command's events
  in one message), then ``--events`` messages (one an event, as the table stream sends them):
  the CPU added a request, and a message.
- **SQLite commit**: a transaction of the rows a command writes (records, ledger, events,
  idempotency: ``--rows``), WAL and ``synchronous=FULL`` as the server opens the file; the CPU a
  command with one commit each, and with a commit shared by ``--batch`` commands (group commit),
  and the wall time of a commit (its fsync).
- **Engine**: the round engine applying a round of Three Card Poker at seven seats as the bots
  play it (house wagers, "no more bets", the deal, each seat's decision, reveal, settle), each
  record encoded once as JSON, compiled as ``make`` builds it: the CPU a command.

Their sum is a floor: a command in this stack (Python, FastAPI and uvicorn, SQLite) costs at
least that much CPU, whatever the server does between them; it is printed with one message a
stream a command and with one message an event.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from pydantic import BaseModel

from bench_server import _port
from croupier.faces.client import wait_until_up
from croupier.server.run import KEEP_ALIVE
from proc_cpu import cpu_seconds

ROOT = Path(__file__).resolve().parents[1]
TARGET_CPU_MS = 1.0
"""Issue 38: the server's CPU a command."""


class Wager(BaseModel):
    """A command's body (a wager's fields)."""

    seat: int
    wager: str
    amount: int


class Answer(BaseModel):
    """A command's answer (its records, as a command route answers)."""

    table_id: str
    phase: str
    seq: int
    records: list[dict[str, Any]]


def serve(port: int) -> None:
    """The bare server: ``POST /cmd`` (a pydantic body and answer, on the thread pool) waking
    every WebSocket open on ``/stream``, each sent one JSON event."""
    import uvicorn

    app = FastAPI()
    waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Queue[str]]] = []
    seq = [0]

    @app.post("/cmd", response_model=Answer)
    def command(body: Wager, events: int = 1) -> dict[str, Any]:
        record = {"type": "WagerPlaced", "seat": body.seat, "wager": body.wager}
        for _ in range(events):
            seq[0] += 1
            event = json.dumps({"seq": seq[0], "type": "record", "data": record})
            for loop, queue in list(waiters):
                loop.call_soon_threadsafe(queue.put_nowait, event)
        return {"table_id": "t1", "phase": "betting", "seq": seq[0], "records": [record]}

    @app.websocket("/stream")
    async def stream(websocket: WebSocket) -> None:
        await websocket.accept()
        queue: asyncio.Queue[str] = asyncio.Queue()
        held = (asyncio.get_running_loop(), queue)
        waiters.append(held)
        try:
            while True:
                await websocket.send_text(await queue.get())
        except WebSocketDisconnect:
            pass
        finally:
            waiters.remove(held)

    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        timeout_keep_alive=KEEP_ALIVE,
        ws_per_message_deflate=False,
        server_header=False,
    )


def http_cost(requests: int, streams: int, events: int = 1) -> dict[str, float]:
    """The bare server's CPU a request, with ``streams`` WebSockets woken by each, each sent
    ``events`` messages (one an event)."""
    import httpx
    from websockets.sync.client import connect

    port = _port()
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT / 'benchmarks'}"}
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base + "/docs", timeout=60)
        got = [0] * streams
        readers = [connect(f"ws://127.0.0.1:{port}/stream") for _ in range(streams)]

        def read(i: int) -> None:
            with readers[i] as conn:
                for _ in range(requests * events):
                    conn.recv(timeout=120)
                    got[i] += 1

        threads = [threading.Thread(target=read, args=(i,), daemon=True) for i in range(streams)]
        for thread in threads:
            thread.start()
        body, query = {"seat": 3, "wager": "ante", "amount": 500}, {"events": events}
        with httpx.Client(base_url=base) as client:
            client.post("/cmd", json=body, params=query)  # warm (its events are read too)
            cpu = cpu_seconds(server.pid)
            for _ in range(requests - 1):
                client.post("/cmd", json=body, params=query).raise_for_status()
            for thread in threads:
                thread.join(timeout=120)
            time.sleep(0.2)
            cpu = cpu_seconds(server.pid) - cpu
        assert all(n == requests * events for n in got), got
        ms = round(1000 * cpu / (requests - 1), 3)
        return {"streams": streams, "events": events, "ms_per_request": ms}
    finally:
        server.kill()  # a throwaway (a graceful stop waits on its streams' handlers)
        server.wait(timeout=60)


def sqlite_cost(commits: int, rows: int, batch: int, workdir: Path) -> dict[str, float]:
    """CPU and wall time of SQLite commits of ``rows`` rows a command (WAL, ``synchronous=
    FULL``): a commit a command, and a commit a ``batch`` of commands."""
    out: dict[str, float] = {"rows_per_command": rows, "batch": batch}
    for label, per_commit in (("alone", 1), ("batched", batch)):
        path = workdir / f"{label}.sqlite"
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT, seq INTEGER, data TEXT)")
        data = json.dumps({"type": "WagerPlaced", "seat": 3, "wager": "ante", "amount": 500})
        cpu, wall = time.process_time(), time.perf_counter()
        n = 0
        for _ in range(commits):
            db.execute("BEGIN")
            for _ in range(per_commit):
                db.execute("SAVEPOINT c")
                for _ in range(rows):
                    n += 1
                    db.execute("INSERT INTO t (k, seq, data) VALUES (?, ?, ?)", ("t1", n, data))
                db.execute("RELEASE SAVEPOINT c")
            db.execute("COMMIT")
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        db.close()
        out[f"{label}_cpu_ms_per_command"] = round(1000 * cpu / (commits * per_commit), 3)
        out[f"{label}_wall_ms_per_commit"] = round(1000 * wall / commits, 3)
    return out


def engine_cost(rounds: int) -> dict[str, float]:
    """The engine's CPU a command: rounds of Three Card Poker at seven seats, each command's
    records encoded once as JSON (the bots' commands: the round, each wager, "no more bets",
    the dealer's deal, each decision, reveal, settle)."""
    from croupier.games import get_game
    from croupier.games.records import PlaceWager, record_to_json
    from croupier.games.round import ActorKind, Phase
    from croupier.rules.progressive import MemoryMeters
    from croupier.rules.submission import load_rules
    from croupier.server.demo import demo_rules
    from croupier.table.shoe import SecureShuffler, Shoe

    game = get_game(load_rules(demo_rules()["three-card-poker"]))
    shuffler, meters = SecureShuffler(), MemoryMeters()
    players = {seat: f"P{seat}" for seat in range(1, 8)}
    commands = 0
    cpu = time.process_time()
    for _ in range(rounds):
        rnd = game.new_round(
            shoe=Shoe.shuffled(shuffler, decks=game.deck_count), meters=meters, players=players
        )
        commands += 1
        for seat in players:
            for wager in rnd.house_wagers(seat):
                _encoded(record_to_json, rnd.apply(wager))
                commands += 1
        _encoded(record_to_json, rnd.apply(rnd.dealer_no_more_bets()))
        commands += 1
        while not rnd.is_over:
            actor = rnd.to_act()
            if actor.kind is ActorKind.SEAT and rnd.phase is Phase.DECISIONS:
                legal = [a for a in rnd.legal_actions() if getattr(a, "seat", None) == actor.seat]
                move = next(a for a in legal if not isinstance(a, PlaceWager))
                _encoded(record_to_json, rnd.apply(move))
            else:  # the dealer's command: its steps in a row until a seat acts
                _encoded(record_to_json, rnd.run_dealer() or rnd.apply(rnd.dealer_step()))
            commands += 1
    cpu = time.process_time() - cpu
    return {
        "commands_per_round": round(commands / rounds, 1),
        "ms_per_command": round(1000 * cpu / commands, 3),
    }


def _encoded(to_json: Any, records: Any) -> None:
    for record in records:
        json.dumps(to_json(record))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--streams", type=int, default=8, help="a table's dealer and 7 players")
    parser.add_argument(
        "--events", type=int, default=5, help="events a command (bench_server: about 4.5)"
    )
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--rows", type=int, default=6, help="rows a command writes")
    parser.add_argument("--batch", type=int, default=8, help="commands a group commit shares")
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve)
        return
    bare = http_cost(args.requests, 0)
    fanned = http_cost(args.requests, args.streams)
    each = http_cost(args.requests, args.streams, args.events)
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as tmp:
        store = sqlite_cost(args.commits, args.rows, args.batch, Path(tmp))
    engine = engine_cost(args.rounds)
    floor = (
        fanned["ms_per_request"] + store["batched_cpu_ms_per_command"] + engine["ms_per_command"]
    )
    per_event = each["ms_per_request"] + store["batched_cpu_ms_per_command"]
    per_event += engine["ms_per_command"]
    result: dict[str, Any] = {"http": bare, "streams": fanned, "sqlite": store, "engine": engine}
    result["streams_each_event"] = each
    result["floor_ms_per_command"] = round(floor, 3)
    result["ratio_floor_to_target"] = round(floor / TARGET_CPU_MS, 2)
    result["floor_ms_per_command_a_message_an_event"] = round(per_event, 3)
    per_message = (fanned["ms_per_request"] - bare["ms_per_request"]) / max(1, args.streams)
    print(
        f"a command's CPU floor: HTTP {bare['ms_per_request']} ms a request; with "
        f"{args.streams} streams woken {fanned['ms_per_request']} ms "
        f"({per_message:.3f} ms a message); SQLite {store['rows_per_command']} rows a command "
        f"{store['alone_cpu_ms_per_command']} ms with a commit each "
        f"({store['alone_wall_ms_per_commit']} ms wall a commit), "
        f"{store['batched_cpu_ms_per_command']} ms with a commit a {args.batch}; engine "
        f"{engine['ms_per_command']} ms a command ({engine['commands_per_round']} a round); "
        f"sum {result['floor_ms_per_command']} ms ({result['ratio_floor_to_target']}x the "
        f"1.0 ms target) with one message a stream a command; with a message an event "
        f"({args.events} a command) {each['ms_per_request']} ms a request, sum "
        f"{result['floor_ms_per_command_a_message_an_event']} ms"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
