"""The chaos harness: bots at several tables of a real server, ``kill -9`` at every moment of a
round, a restart, and the books checked after every kill (tests/live/test_chaos_kill.py runs a
short version, benchmarks/bench_chaos.py the long one).

Each kill aims at a round state, in turn: ``betting``, ``no_more_bets`` (bets closed, no card
out), ``mid_deal`` (the deal command in flight, or a street game between deals), ``decisions``,
``reveal``, ``settlement`` and ``handpay`` (a 100% progressive award waiting for its approval;
the harness adds a Let It Ride table whose Three-Card Progressive pays 100% of its meter on a
straight or better, so hand-pays come often).  The bots play until a table is in the aimed
state, send that table's next command on a thread and SIGKILL the server after a random
fraction of a command's latency: the kill lands before the command reaches the server, during
its transaction, or after its commit.  The server restarts (:mod:`live.server_zygote`: a fork,
not a new interpreter) and every check below runs before play goes on:

- the command in flight is sent again with the same Idempotency-Key: it takes effect exactly
  once (its wager is staked once, its round moved once);
- every acknowledged response is still there: each table's event sequence number and each
  round's record count are at least what the bots were told;
- every round the kill left open is resumed or held for a supervisor's void (the current
  behaviour of :meth:`croupier.server.live_floor.Floor.load`): a held round is voided and returns
  every wager exactly once;
- the chip ledger: every transaction and the whole ledger sum to zero to the cent, every balance
  equals its rows, every meter's account holds the meter (``GET /api/audit/verify``); every
  player's balance equals the demo buy-in plus the net of each finished round and the hand-pays
  approved, less the stakes of the rounds in play (computed here from the records);
- every finished round settles each staked wager exactly once (one ``wager_settled`` a wager);
- every ``--audit-every`` kills and at the end, :func:`croupier.audit.verify` over the whole
  database: every record chain intact (none lost, none half-written), every round's settlement
  rebuilt from its records, every meter equal to reset + contributions - awards exactly;
- an observer's WebSocket stream per table, reconnected after each restart from the last
  event it saw, receives every event once, in order, with no gap, and at the end exactly the
  events the database holds.
"""

from __future__ import annotations

import gc
import json
import os
import random
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, select

from croupier.faces.client import ApiError, Client
from croupier.server.demo import DEMO_BUY_IN
from live.live_harness import PASSWORDS, SRC, ServerProcess, free_port

__all__ = ["STATES", "Chaos", "ChaosFigures", "ChaosServer"]

STATES = (
    "betting",
    "no_more_bets",
    "mid_deal",
    "decisions",
    "reveal",
    "settlement",
    "handpay",
)
HANDPAY_TABLE = "chaos-handpay"
HANDPAY_RULES: dict[str, Any] = {
    # Let It Ride whose Three-Card Progressive pays 100% of its meter on a straight or better
    # (the lowest line § 643a.1 allows): a hand-pay about one hand in 27, each waiting for a
    # supervisor's approval before the next round (§ 641a.11(c)(5)(iv)).
    "game": "let-it-ride",
    "paytables": {"base": "1000-200-50-11-8-5-3-2-1"},
    "custom_paytables": {
        "three_card_progressive": {
            "meter": "chaos-three-card",
            "wager": 100,
            "reset": 100000,
            "rate": "0.15",
            "lines": {
                "mini_royal": "100% of meter",
                "straight_flush": "100% of meter",
                "three_of_a_kind": "100% of meter",
                "straight": "100% of meter",
            },
            "envy": {"mini_royal": 5000},
        }
    },
    "table": {"deal": "automated_shoe", "shuffle": "automated", "decks": 1, "adjacent_boxes": 2},
    # A live table posts every wager's limits; the three equal bets post the same ones.
    "limits": {bet: {"min": 500, "max": 50_000} for bet in ("bet1", "bet2", "bet3")},
}
TABLES = {
    # table id -> the demo players seated there (a player sits at one table at a time)
    "three-card-poker": ("player1", "player2"),
    "ultimate-texas-holdem": ("player3",),
    "mini-baccarat": ("player4",),
    "mississippi-stud": ("player5",),
    HANDPAY_TABLE: ("player6", "player6", "player7", "player7"),  # two boxes each
}
DECISIONS = ("check", "play 1", "ride", "play", "bet 1", "fold")


class ChaosServer:
    """One server process at a time (``python -m croupier.server``, forked by the process's
    :mod:`live.server_zygote`); :meth:`kill` is SIGKILL."""

    def __init__(self, db_url: str, log: Path) -> None:
        self.db_url, self.log = db_url, log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: ServerProcess | None = None

    def start(self) -> float:
        """Start the server; returns the seconds until it answered."""
        began = time.perf_counter()
        env = {**os.environ, "PYTHONPATH": str(SRC), "CROUPIER_ARGON2_PROFILE": "test"}
        args = ["--db", self.db_url, "--port", str(self.port)]
        self.proc = ServerProcess(args, self.log, env)
        self.proc.wait_listening(self.port, self.log, timeout=120)
        return time.perf_counter() - began

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(timeout=30)
        self.proc = None

    def close(self) -> None:
        if self.proc is not None:
            self.kill()

    def client(self, username: str, password: str | None = None) -> Client:
        client = Client(self.url)
        client.login(username, password or PASSWORDS[username])
        return client


class Observer:
    """An observer's stream of one table, on a thread; reconnects from the last event seen."""

    def __init__(self, server: ChaosServer, token: str, table_id: str) -> None:
        self.server, self.token, self.table_id = server, token, table_id
        self.events: list[dict[str, Any]] = []
        self.problems: list[str] = []
        self.reconnects = 0
        """Times the observer itself opened its stream again from the last event: after a
        dropped connection, and (most of them) while the killed server was down, before the
        harness's own reconnect after the restart."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def last(self) -> int:
        return int(self.events[-1]["seq"]) if self.events else 0

    def connect(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        """Read the stream; a connection that ends while the server runs (a keepalive ping
        unanswered on a loaded machine, a connect refused during a restart) is opened again
        from the last event seen, as a client does (counted in :attr:`reconnects`)."""
        from websockets.sync.client import connect

        ws = self.server.url.replace("http://", "ws://")
        first = True
        while not self._stop.is_set():
            if not first:
                self.reconnects += 1
                self._stop.wait(0.1)
            first = False
            url = f"{ws}/api/tables/{self.table_id}/stream?since={self.last}"
            bearer = {"Authorization": f"Bearer {self.token}"}
            try:
                with connect(url, additional_headers=bearer, open_timeout=30) as conn:
                    while not self._stop.is_set():
                        try:
                            raw = conn.recv(timeout=0.2)
                        except TimeoutError:
                            continue
                        event = json.loads(raw)
                        if int(event["seq"]) != self.last + 1:
                            self.problems.append(
                                f"{self.table_id}: event {event['seq']} after {self.last}"
                            )
                        self.events.append(event)
            except Exception:  # killed, or dropped: opened again from the last event
                continue

    def wait_for(self, seq: int, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while self.last < seq and time.monotonic() < deadline:
            time.sleep(0.02)
        if self.last < seq:
            self.problems.append(f"{self.table_id}: stream at {self.last}, the table at {seq}")

    def stop(self) -> None:
        """Ask the stream's thread to end (at its next read's timeout): :meth:`disconnect`
        waits for it."""
        self._stop.set()

    def disconnect(self) -> None:
        self.stop()
        if self._thread is not None:
            self._thread.join(timeout=30)


@dataclass
class ChaosFigures:
    kills: int = 0
    by_state: Counter[str] = field(default_factory=Counter)
    landed: Counter[str] = field(default_factory=Counter)
    """Where the in-flight command stood at the kill: ``committed`` (its response was lost or
    sent), ``not_committed`` (rolled back or never arrived)."""
    commands: int = 0
    rounds_finished: int = 0
    held_voided: int = 0
    resumed: int = 0
    handpays_approved: int = 0
    wagers_checked: int = 0
    audits: int = 0
    events_checked: int = 0
    stream_reconnects: int = 0
    restart_seconds: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        restarts = sorted(self.restart_seconds) or [0.0]
        return {
            "kills": self.kills,
            "kills_by_state": dict(sorted(self.by_state.items())),
            "in_flight_command": dict(sorted(self.landed.items())),
            "commands": self.commands,
            "rounds_finished": self.rounds_finished,
            "interrupted_rounds_voided": self.held_voided,
            "interrupted_rounds_resumed": self.resumed,
            "handpays_approved": self.handpays_approved,
            "wagers_checked_settled_once": self.wagers_checked,  # each staked wager once
            "full_audits": self.audits,
            "events_checked": self.events_checked,
            "stream_reopened_by_the_observer": self.stream_reconnects,
            "restart_seconds_median": restarts[len(restarts) // 2],
            "problems": self.problems,
        }


@dataclass
class Pending:
    """The next command of a table: who sends it, where, and its Idempotency-Key."""

    state: str
    client: Client
    path: str
    body: dict[str, Any] | None
    key: str = field(default_factory=lambda: uuid.uuid4().hex)
    street: tuple[str, int] | None = None
    """A decision's table and the cards out before it (where the bots learn which one it
    takes)."""


class Chaos:
    """The bots, the kills and the checks (see the module docstring)."""

    def __init__(self, server: ChaosServer, seed: int, *, audit_every: int = 10) -> None:
        self.server = server
        self.rng = random.Random(seed)
        self.audit_every = audit_every
        self.figures = ChaosFigures()
        self.latency = 0.05
        self.acked_seq: dict[str, int] = {}
        self.acked_records: dict[str, int] = {}
        self.engine = create_engine(server.db_url)
        self._others: list[Client] = []
        self.finished: dict[str, tuple[int, dict[str, Fraction]]] = {}
        """Each finished round's record count and moves (player -> net), as last read."""
        self.active = list(TABLES)
        self.learned: dict[tuple[str, int], str] = {}
        """The decision each table took last at each street (cards out): tried first."""
        """The tables in play (a table left stuck by a kill is taken out, with a problem)."""

    # -- set-up and clients ------------------------------------------------------------------

    def setup(self) -> None:
        self.figures.restart_seconds.append(self.server.start())
        supervisor = self.server.client("supervisor")
        self._others.append(supervisor)
        if HANDPAY_TABLE not in {t["id"] for t in supervisor.tables()}:
            supervisor.new_table(HANDPAY_TABLE, "Chaos hand-pay", HANDPAY_RULES)
        self._login()
        for table_id, names in TABLES.items():
            for seat, name in enumerate(names, start=1):
                self.players[name].sit(table_id, seat)
        self.details = {t: self.dealer.table(t) for t in TABLES}
        observer = self.server.client("observer")
        self._others.append(observer)
        self.observers = {t: Observer(self.server, str(observer.token), t) for t in TABLES}
        for obs in self.observers.values():
            obs.connect()

    def _login(self) -> None:
        self.dealer = self.server.client("dealer")
        self.supervisor = self.server.client("supervisor")
        names = [n for ns in TABLES.values() for n in ns]
        self.players = {name: self.server.client(name) for name in names}

    def _disconnect(self) -> None:
        """Every observer's stream ended, all asked at once (each may wait out a read)."""
        observers = list(getattr(self, "observers", {}).values())
        for obs in observers:
            obs.stop()
        for obs in observers:
            obs.disconnect()

    def close(self) -> None:
        self._disconnect()
        for client in [getattr(self, "dealer", None), getattr(self, "supervisor", None)]:
            if client is not None:
                client.close()
        for client in getattr(self, "players", {}).values():
            client.close()
        for client in self._others:
            client.close()
        self.engine.dispose()

    # -- the bots ----------------------------------------------------------------------------

    def _seats(self, table_id: str) -> dict[int, Client]:
        return {s: self.players[n] for s, n in enumerate(TABLES[table_id], start=1)}

    def next_command(self, table_id: str) -> Pending:
        view = self.dealer.view(table_id)
        rnd = view.get("round")
        if rnd is None or rnd["phase"] in ("over", "void"):
            mine = []
            if table_id == HANDPAY_TABLE:
                pending = self.supervisor.handpays()
                mine = [
                    h for h in pending if h["status"] == "pending" and h["table_id"] == table_id
                ]
            if mine:
                return Pending(
                    "handpay", self.supervisor, f"/api/handpays/{mine[0]['id']}/approve", None
                )
            return Pending("settlement", self.dealer, f"/api/tables/{table_id}/rounds", {})
        phase = rnd["phase"]
        shown = ("card_dealt", "card_hidden", "card_discarded")
        cards = sum(1 for r in rnd["records"] if r["kind"] in shown)
        if phase == "betting":
            wagers = self.details[table_id]["house_wagers"]
            for seat, player in self._seats(table_id).items():
                staked = rnd["stakes"].get(str(seat), {})
                for wager, amount in wagers.items():
                    if wager not in staked:
                        body = {"wager": wager, "amount": amount, "seat": seat}
                        return Pending("betting", player, f"/api/tables/{table_id}/wagers", body)
            chips = sum(w.endswith("progressive") for w in wagers) * len(self._seats(table_id))
            body = {"progressive_chips": chips}
            return Pending("betting", self.dealer, f"/api/tables/{table_id}/no-more-bets", body)
        if phase == "stub_count":
            decks = int(self.details[table_id]["rules"].get("table", {}).get("decks", 1))
            body = {"count": 52 * decks - cards}
            return Pending("mid_deal", self.dealer, f"/api/tables/{table_id}/stub-count", body)
        seat = rnd["to_act_seat"]
        if phase == "decisions" and seat is not None:
            player = self._seats(table_id)[int(seat)]
            street = (table_id, cards)
            body = {"decision": self._decision(street, rnd), "seat": int(seat)}
            path = f"/api/tables/{table_id}/decisions"
            return Pending("decisions", player, path, body, street=street)
        if phase in ("dealing", "decisions"):
            state = "no_more_bets" if cards == 0 else "mid_deal"
            return Pending(state, self.dealer, f"/api/tables/{table_id}/deal", None)
        if phase == "reveal":
            return Pending("reveal", self.dealer, f"/api/tables/{table_id}/reveal", None)
        if phase == "settlement":
            return Pending("settlement", self.dealer, f"/api/tables/{table_id}/settle", None)
        raise AssertionError(f"{table_id}: no command for phase {phase}")

    def _decision(self, street: tuple[str, int], rnd: dict[str, Any]) -> str:
        """The decision the table took last at this street (the first of :data:`DECISIONS`
        before it took one): each refused one costs a request."""
        legal = [str(a) for a in rnd.get("legal", [])] if "legal" in rnd else []
        learned = self.learned.get(street)
        for decision in (learned, *DECISIONS) if learned else DECISIONS:
            if not legal or decision in legal:
                return decision
        return DECISIONS[-1]

    def send(self, pending: Pending) -> dict[str, Any] | ApiError:
        """Send ``pending`` (refusals are answers: a decision the round does not take)."""
        try:
            data = pending.client.request("POST", pending.path, pending.body, key=pending.key)
        except ApiError as exc:
            if exc.status >= 500:
                self.figures.problems.append(f"{pending.path}: {exc}")
            return exc
        self.figures.commands += 1
        self.figures.handpays_approved += pending.path.endswith("/approve")
        self._ack(data)
        return dict(data)

    def _ack(self, data: Any) -> None:
        if isinstance(data, dict) and "table_id" in data:
            table = str(data["table_id"])
            self.acked_seq[table] = max(self.acked_seq.get(table, 0), int(data.get("seq") or 0))
            rid = data.get("round_id")
            if rid:
                self.acked_records[str(rid)] = self.acked_records.get(str(rid), 0)

    def step(self, table_id: str, pending: Pending | None = None) -> None:
        pending = pending or self.next_command(table_id)
        answer = self.send(pending)
        if pending.street is not None and not isinstance(answer, ApiError):
            assert pending.body is not None
            self.learned[pending.street] = str(pending.body["decision"])
        if isinstance(answer, ApiError) and pending.state == "decisions":
            # That decision is not this game's: try the others (a refusal changes nothing).
            for decision in DECISIONS:
                assert pending.body is not None
                if decision == pending.body["decision"]:
                    continue
                again = Pending("decisions", pending.client, pending.path, {**pending.body})
                again.body = {**pending.body, "decision": decision}
                if not isinstance(self.send(again), ApiError):
                    if pending.street is not None:
                        self.learned[pending.street] = decision
                    return
            self.figures.problems.append(f"{table_id}: no decision accepted")
        elif isinstance(answer, ApiError):
            self.figures.problems.append(f"{table_id} {pending.path}: {answer}")
        elif pending.path.endswith("/settle") or pending.path.endswith("/rounds"):
            self.figures.rounds_finished += pending.path.endswith("/settle")

    # -- one kill ----------------------------------------------------------------------------

    def kill_once(self, aim: str) -> None:
        """Play until a table is in state ``aim`` (bounded), send its next command and kill the
        server a random moment later; restart and check."""
        pending: Pending | None = None
        # A hand-pay comes up at its table only: play there alone until one does.
        tables = [HANDPAY_TABLE] if aim == "handpay" and HANDPAY_TABLE in self.active else None
        for _ in range(1500 if tables else 400):
            table_id = self.rng.choice(tables or self.active)
            candidate = self.next_command(table_id)
            if candidate.state == aim:
                pending = candidate
                break
            self.step(table_id, candidate)
        if pending is None:  # the state did not come up: kill at the next command
            pending = self.next_command(self.rng.choice(self.active))
        self.figures.by_state[pending.state] += 1
        answers: list[Any] = []

        def fire() -> None:
            try:
                answers.append(
                    pending.client.request("POST", pending.path, pending.body, key=pending.key)
                )
            except (ApiError, httpx.HTTPError) as exc:
                answers.append(exc)

        self._aim(pending)
        sender = threading.Thread(target=fire, daemon=True)
        began = time.perf_counter()
        sender.start()
        time.sleep(self.rng.uniform(0, 1.5 * self.latency))
        self._kill(pending)
        sender.join(timeout=60)
        self.figures.kills += 1
        if answers and isinstance(answers[0], dict):
            self.latency = 0.8 * self.latency + 0.2 * (time.perf_counter() - began)
        self._recover(pending, answers[0] if answers else None)

    def _aim(self, pending: Pending) -> None:
        """Before ``pending`` is sent: what to kill (one server here: it)."""

    def _kill(self, pending: Pending) -> None:
        """SIGKILL the server (``pending`` is in flight)."""
        self.server.kill()

    def _restart(self) -> None:
        """The server started again, the observers' streams opened again from their last
        event."""
        self._disconnect()
        self.figures.restart_seconds.append(self.server.start())
        for obs in self.observers.values():
            obs.connect()

    def _recover(self, pending: Pending, answer: Any) -> None:
        self._restart()
        self._resolve_interrupted()
        table_id = pending.path.split("/")[3] if pending.path.startswith("/api/tables/") else None
        seq_before = int(self.dealer.view(table_id)["seq"]) if table_id else 0
        again = self.send(pending)  # the same key: it takes effect at most once in all
        if isinstance(answer, dict):
            self.figures.landed["answered_before_the_kill"] += 1
            if isinstance(again, dict) and again != answer:
                self.figures.problems.append(f"{pending.path}: a retry answered differently")
        elif not isinstance(again, dict):
            self.figures.landed["refused_on_retry"] += 1
        elif table_id is None or int(again.get("seq") or 0) > seq_before:
            self.figures.landed["not_committed_done_on_retry"] += 1
        else:
            self.figures.landed["committed_answer_lost"] += 1
        self.check(full=self.figures.kills % self.audit_every == 0)

    def _resolve_interrupted(self) -> None:
        for table_id in list(self.active):
            view = self.dealer.view(table_id)
            if view.get("held"):
                rid = str(view["round_id"])
                try:
                    self.supervisor.void(rid, "chaos: the server was killed", key=f"void-{rid}")
                except ApiError as exc:
                    # Held, and its void refused: the table can never deal again.
                    self.figures.problems.append(f"{table_id}: {rid} held ({view['held']}): {exc}")
                    self.active.remove(table_id)
                    continue
                again = self.supervisor.void(rid, "chaos: the server was killed", key=f"void-{rid}")
                assert again["round_id"] == rid
                self.figures.held_voided += 1
            elif view.get("round") and view["round"]["phase"] not in ("over", "void"):
                self.figures.resumed += 1

    # -- the checks --------------------------------------------------------------------------

    def check(self, *, full: bool) -> None:
        problems = self.figures.problems
        audit = self.supervisor.audit(scope="ledger")  # the chains: full_audit()
        if not audit["ok"]:
            problems += [f"kill {self.figures.kills}: {p}" for p in audit["problems"]]
        if sum(Fraction(v) for v in audit["balances"].values()) != 0:
            problems.append(f"kill {self.figures.kills}: the balances do not sum to zero")
        # Each table read once: nothing moves between here and the books' check (the bots
        # wait, the observers only read).
        views = {table_id: self.dealer.view(table_id) for table_id in TABLES}
        for table_id, view in views.items():
            if int(view["seq"]) < self.acked_seq.get(table_id, 0):
                problems.append(
                    f"{table_id}: event {self.acked_seq[table_id]} was acknowledged, "
                    f"the table is at {view['seq']}"
                )
            self.observers[table_id].wait_for(int(view["seq"]))
        self._check_books(audit["balances"], views, reread=full)
        if full:
            self.full_audit()

    def _check_books(
        self, balances: dict[str, str], views: dict[str, dict[str, Any]], *, reread: bool
    ) -> None:
        """Each player's balance from the records alone; each staked wager settled once.

        A finished round's records never change, so its moves are kept (:attr:`finished`)
        and each check reads only the rounds whose record count moved; the check of every
        ``--audit-every`` kills (``reread``) reads every round again and compares it with
        what was kept: a lost record (a finished round with fewer records than it had) or a
        changed one is a problem either way."""
        from sqlalchemy import func

        from croupier.store.database import round_records, rounds
        from croupier.store.schema import handpays, live_rounds

        with self.engine.connect() as conn:
            players_of = {
                r.id: json.loads(r.players)
                for r in conn.execute(select(rounds.c.id, rounds.c.players))
            }
            live = {r.round_id for r in conn.execute(select(live_rounds.c.round_id))}
            counts = {
                str(rid): int(n)
                for rid, n in conn.execute(
                    select(round_records.c.round_id, func.count()).group_by(
                        round_records.c.round_id
                    )
                )
            }
            for rid, (n, _) in self.finished.items():
                if counts.get(rid, 0) < n:
                    self.figures.problems.append(
                        f"kill {self.figures.kills}: finished round {rid} had {n} records, "
                        f"now {counts.get(rid, 0)}"
                    )
            wanted = [
                rid
                for rid in counts
                if rid in live and (reread or self.finished.get(rid, (-1, {}))[0] != counts[rid])
            ]
            records: dict[str, list[dict[str, Any]]] = {}
            for chunk in (wanted[i : i + 500] for i in range(0, len(wanted), 500)):
                for row in conn.execute(
                    select(round_records.c.round_id, round_records.c.data)
                    .where(round_records.c.round_id.in_(chunk))
                    .order_by(round_records.c.round_id, round_records.c.seq)
                ):
                    records.setdefault(row.round_id, []).append(json.loads(row.data))
            approved = conn.execute(
                select(handpays.c.player_id, handpays.c.amount).where(
                    handpays.c.status == "approved"
                )
            ).all()
        for rid, recs in records.items():
            moves = self._round_books(rid, recs, players_of[rid])
            if moves is None:
                continue
            kept = self.finished.get(rid)
            if kept is not None and kept[0] == len(recs) and kept[1] != moves:
                self.figures.problems.append(f"kill {self.figures.kills}: round {rid} changed")
            self.finished[rid] = (len(recs), moves)
        want: dict[str, Fraction] = {}
        for _, moves in self.finished.values():
            for player, amount in moves.items():
                want[player] = want.get(player, Fraction(0)) + amount
        for view in views.values():
            rnd = view.get("round") or {}
            if rnd and rnd["phase"] not in ("over", "void"):
                seated = players_of[str(view["round_id"])]
                for seat, wagers in rnd["stakes"].items():
                    player = str(seated[str(seat)])
                    want[player] = want.get(player, Fraction(0)) - sum(
                        int(v) for v in wagers.values()
                    )
        for player_id, amount in approved:
            want[str(player_id)] = want.get(str(player_id), Fraction(0)) + amount
        for name in (n for ns in TABLES.values() for n in ns):
            player = str(self.players[name].player_id)
            held = Fraction(balances.get(f"player:{player}", "0")) + Fraction(
                balances.get(f"commission:{player}", "0")
            )
            expected = Fraction(DEMO_BUY_IN) + want.get(player, Fraction(0))
            if held != expected:
                self.figures.problems.append(
                    f"kill {self.figures.kills}: {player} holds {held}, the records give {expected}"
                )

    def _round_books(
        self, rid: str, recs: list[dict[str, Any]], seated: dict[str, Any]
    ) -> dict[str, Fraction] | None:
        """A finished round's moves for its players (player -> net), each staked wager checked
        settled exactly once; None for a round still open (its stakes are counted from the
        table's view)."""
        if not any(r["kind"] == "wager_settled" for r in recs) and not any(
            r["kind"] == "round_voided" for r in recs
        ):
            return None
        staked = {(int(r["seat"]), str(r["wager"])) for r in recs if r["kind"] == "wager_placed"}
        settled = Counter(
            (int(r["seat"]), str(r["wager"])) for r in recs if r["kind"] == "wager_settled"
        )
        if rid not in self.finished:
            self.figures.wagers_checked += len(staked)
        for k in staked:
            if settled[k] != 1:
                self.figures.problems.append(f"{rid}: wager {k} settled {settled[k]} times")
        moves: dict[str, Fraction] = {}

        def add(seat: Any, amount: int) -> None:
            player = str(seated[str(int(seat))])
            moves[player] = moves.get(player, Fraction(0)) + amount

        for rec in recs:
            kind = rec["kind"]
            if kind == "wager_settled":
                add(rec["seat"], int(rec["paid"]) + int(rec["returned"]) - int(rec["stake"]))
            elif kind == "envy_paid":
                add(rec["seat"], int(rec["amount"]))
            elif kind == "progressive_paid" and rec["from_meter"]:
                add(rec["seat"], -int(rec["amount"]))  # a hand-pay, once approved
            elif kind in ("vig_collected", "vig_marked"):
                # A marked vigorish is owed from the coup on (contract 1: the player's chips
                # and commission accounts together move by the seat's net).
                add(rec["seat"], -int(rec["amount"]))
        return moves

    def full_audit(self) -> None:
        from croupier.audit.chains import verify

        report = verify(self.engine)
        self.figures.audits += 1
        self.figures.problems += [f"audit: {f}" for f in report.findings]

    def final_check(self) -> None:
        """Every event each observer received is the database's, none missing."""
        from croupier.store.schema import table_events

        self.check(full=True)
        with self.engine.connect() as conn:
            for table_id, obs in self.observers.items():
                stored = conn.execute(
                    select(table_events.c.seq, table_events.c.type)
                    .where(table_events.c.table_id == table_id)
                    .order_by(table_events.c.seq)
                ).all()
                got = [(int(e["seq"]), str(e["type"])) for e in obs.events]
                if got != [(int(s), str(t)) for s, t in stored]:
                    self.figures.problems.append(
                        f"{table_id}: the stream gave {len(got)} events, the database holds "
                        f"{len(stored)}"
                    )
                self.figures.events_checked += len(got)
                self.figures.stream_reconnects += obs.reconnects
                self.figures.problems += obs.problems

    def run(self, kills: int, *, seconds: float | None = None) -> ChaosFigures:
        """``kills`` kills, or fewer when ``seconds`` run out first (the figures count them);
        a progress line on stderr every 25 kills."""
        began = time.monotonic()
        for n in range(kills):
            if not self.active or (seconds is not None and time.monotonic() - began > seconds):
                break
            self.kill_once(STATES[n % len(STATES)])
            if self.figures.kills % 25 == 0:
                print(
                    f"chaos: {self.figures.kills} kills in {time.monotonic() - began:.0f} s, "
                    f"{len(self.figures.problems)} problems",
                    file=sys.stderr,
                    flush=True,
                )
        self.final_check()
        return self.figures


def chaos(
    db_url: str,
    workdir: Path,
    *,
    kills: int,
    seed: int,
    audit_every: int,
    seconds: float | None = None,
) -> ChaosFigures:
    """Run the harness: ``kills`` kills on a fresh database at ``db_url`` (fewer when
    ``seconds`` of kills run out first)."""
    server = ChaosServer(db_url, workdir / "server.log")
    harness = Chaos(server, seed, audit_every=audit_every)
    try:
        harness.setup()
        return harness.run(kills, seconds=seconds)
    finally:
        harness.close()
        server.close()
        # A connection the HTTP client held to a server killed mid-request can be dropped
        # without a close; collect it now, inside the chaos test that expects its
        # ResourceWarning (its filterwarnings), not at a later test's garbage collection (which
        # then fails under -W error: CI saw test_cli's numba compile trip over one).
        gc.collect()
