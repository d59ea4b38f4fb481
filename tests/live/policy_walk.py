"""The walk of the access policy's test (tests/live/test_live_policy.py): a real server's demo
floor and a Let It Ride table whose Three-Card Progressive pays hand-pays, two seats a table,
each table's rounds brought to every stage in turn, the sweep (:mod:`live.policy_sweep`) at
each.

1. Accounts: the demo staff, a dealer bound to each of two tables (written to the database
   with :class:`croupier.server.auth.Auth`, as issue 36's accounts management will), the
   players enrolled by the supervisor (two a table, one seated nowhere).
2. Hand-pay rounds until one waits for the supervisor (bounded); the first sweep sees it (and
   the other tables before their first round), the supervisor then approves it.
3. A round at every table: betting (wagers down), dealt, decisions (a seat decided; the first
   seat folds where it may, so a folded hand is never turned up), reveal, settled: a sweep at
   each.  Games without decisions stand in the reveal from the deal on.
4. A round voided by the supervisor after the deal: a sweep.
5. A round dealt, the server stopped and every open round's shoe order deleted, the server
   started: each round is held for a supervisor's void (§ 641a.13(c)); a sweep; the voids.

The real commands of the walk are checked like the sweep's answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from sqlalchemy import create_engine, delete, select

from croupier.faces.client import tls_context
from croupier.server.auth import Auth, Role
from croupier.server.policy import OVER, POLICY, Sight, Stage
from croupier.store.database import round_shoes, rounds
from live.chaos_harness import HANDPAY_RULES, HANDPAY_TABLE
from live.live_harness import PASSWORDS, Server
from live.policy_calls import Ctx, Req
from live.policy_sweep import Caller, Seen, Sweep, TableState

__all__ = ["Walk"]

ORDER = (Stage.BETTING, Stage.DEALT, Stage.DECISIONS, Stage.REVEAL, Stage.SETTLED)
BUY_IN = 2_000_000
SWEEP_PASSWORD = "the sweep's own long passphrase"
STAFF = ("dealer", "supervisor", "observer", "auditor", "admin", "trainee")
"""The demo floor's staff accounts, one of every staff role (the trainee's too, issue 40)."""
"""The password of the accounts the walk makes (strong enough: croupier.server.passwords)."""
HANDPAY_ROUNDS = 100
"""Rounds played at most for a hand-pay: four boxes, each about one hand in 27 (a straight
or better in three cards), miss in 100 rounds about once in 10^6."""


def _at_least(target: Stage) -> Callable[[Stage], bool]:
    return lambda s: s not in ORDER or ORDER.index(s) >= ORDER.index(target)


@dataclass
class Walk:
    server: Server
    sweep: Sweep
    dealer: Caller
    supervisor: Caller
    auditor: Caller
    unseated: Caller
    others: dict[str, Caller]
    """Each table's dealer of another table (a dealer bound elsewhere)."""
    handpay: int = 999_999
    rounds_played: int = 0
    history: list[str] = field(default_factory=list)
    pending: list[tuple[str | None, Seen]] = field(default_factory=list)

    # -- accounts ------------------------------------------------------------------------------

    @staticmethod
    def login(url: str, name: str, password: str, role: Role | None) -> Caller:
        http = httpx.Client(base_url=url, timeout=60, verify=tls_context())
        caller = Caller(name, role, http, password)
        if role is not None:
            answer = http.post("/api/login", json={"username": name, "password": password})
            assert answer.status_code == 200, answer.text
            caller.token, caller.player_id = answer.json()["token"], answer.json()["player_id"]
            caller.bound = answer.json()["table_id"]
        return caller

    @classmethod
    def start(cls, server: Server, bound: tuple[str, str]) -> Walk:
        """The staff's callers, two dealers bound to the tables ``bound``, an unseated
        player, and the hand-pay table."""
        engine = create_engine(server.db_url)
        auth = Auth(engine)
        with engine.begin() as conn:
            for name, table in zip(("dealer-a", "dealer-b"), bound, strict=True):
                auth.create(conn, name, SWEEP_PASSWORD, Role.DEALER, tables=(table,))
        engine.dispose()

        def login(name: str, role: Role) -> Caller:
            return cls.login(server.url, name, PASSWORDS.get(name, SWEEP_PASSWORD), role)

        staff = {n: login(n, Role(n)) for n in STAFF}
        a, b = login("dealer-a", Role.DEALER), login("dealer-b", Role.DEALER)
        callers = {**staff, "dealer-a": a, "dealer-b": b}
        callers["anonymous"] = cls.login(server.url, "anonymous", "", None)
        sweep = Sweep(server.url, callers, {})
        walk = cls(
            server,
            sweep,
            staff["dealer"],
            staff["supervisor"],
            staff["auditor"],
            staff["observer"],  # (the unseated player, enrolled just below)
            {},
        )
        walk.others = {bound[0]: b}
        walk.unseated = walk.enrol("pol-unseated")
        walk.command(
            walk.supervisor,
            "/api/tables",
            None,
            {"id": HANDPAY_TABLE, "name": "Hand-pay", "rules": HANDPAY_RULES},
        )
        return walk

    def enrol(self, name: str) -> Caller:
        body = {"player_id": name, "name": name, "username": name, "password": SWEEP_PASSWORD}
        self.command(self.supervisor, "/api/players", None, body)
        self.command(self.supervisor, f"/api/players/{name}/buy-in", None, {"amount": BUY_IN})
        caller = self.login(self.sweep.url, name, SWEEP_PASSWORD, Role.PLAYER)
        self.sweep.callers[name] = caller
        return caller

    def seat(
        self, table_id: str, wagers: dict[str, int], boxes: tuple[tuple[int, ...], ...]
    ) -> None:
        t = self.sweep.tables[table_id] = TableState(table_id, wagers)
        for n, seats in enumerate(boxes):
            player = self.enrol(f"pol-{table_id}-{n + 1}")
            for s in seats:
                self.command(player, f"/api/tables/{table_id}/sit", t, {"seat": s})
                t.seats[s] = player
        self.others.setdefault(table_id, self.sweep.callers["dealer-a"])

    # -- real commands, checked ----------------------------------------------------------------

    def command(
        self, caller: Caller, path: str, t: TableState | None, body: Any = None, expect: int = 200
    ) -> Any:
        """A real command of the walk: answered ``expect``; its answer kept for the checks
        (its round's records counted at the next dealer view of the table)."""
        row = next(r for (m, p), r in POLICY.items() if m == "POST" and _matches(p, path))
        view = self.view(t) if t is not None else {}
        relation = self.sweep.relation(
            caller, row.scope, t, (view.get("round") or {}).get("players", {})
        )
        stage = Sweep.stage(t, view) if t is not None else Stage.BETTING
        rule = row.rule(relation, stage)
        req = Req("POST", path, body, expect=frozenset({expect}))
        status, answer = self.sweep.send(caller, req)
        label = f"walk: POST {path} as {caller.name} at {stage}"
        answered = self.sweep.judge(label, req, status, answer, rule.status)
        assert status == expect, (label, status, answer)
        if answered:
            seen = Seen(label, rule.sight, caller.player_id, answer, None, {})
            self.pending.append((t.id if t else None, seen))
        return answer

    def view(self, t: TableState) -> dict[str, Any]:
        """The dealer's view of the table; the answers waiting for their round's count of
        records at this moment get it."""
        status, view = self.sweep.send(self.dealer, Req("GET", f"/api/tables/{t.id}/view"))
        assert status == 200, view
        rid, rnd = view.get("round_id"), view.get("round") or {}
        keep: list[tuple[str | None, Seen]] = []
        for table_id, seen in self.pending:
            if table_id not in (None, t.id):
                keep.append((table_id, seen))
                continue
            if rid is not None:
                seen.prefix[rid] = int(rnd.get("seq", 0))
                seen.context = seen.context or rid
            self.sweep.seen.append(seen)
        self.pending = keep
        return dict(view)

    # -- rounds --------------------------------------------------------------------------------

    def new_round(self, t: TableState) -> None:
        answer = self.command(self.dealer, f"/api/tables/{t.id}/rounds", t, {"cut_at": None})
        t.round_id, t.decided = str(answer["round_id"]), False
        self.history.append(t.round_id)

    def act(self, t: TableState, until: Callable[[Stage], bool]) -> Stage:
        """Play the table's round one command at a time until its stage satisfies ``until``
        or the round is over."""
        for _ in range(300):
            view = self.view(t)
            stage = Sweep.stage(t, view)
            if until(stage) or stage in OVER or stage is Stage.HELD:
                return stage
            self.step(t, view["round"])
        raise AssertionError(f"{t.id}: the round did not reach its stage")

    def step(self, t: TableState, rnd: dict[str, Any]) -> None:
        phase, seat, base = rnd["phase"], rnd["to_act_seat"], f"/api/tables/{t.id}"
        if phase == "betting" and not rnd["stakes"]:
            for s, player in sorted(t.seats.items()):
                for wager, amount in t.wagers.items():
                    body = {"wager": wager, "amount": amount, "seat": s}
                    self.command(player, f"{base}/wagers", t, body)
        elif phase == "betting":
            chips = sum(1 for s in t.seats for w in t.wagers if w.endswith("progressive"))
            self.command(self.dealer, f"{base}/no-more-bets", t, {"progressive_chips": chips})
        elif phase == "stub_count":
            self.command(self.dealer, f"{base}/stub-count", t, {"count": rnd["cards_left"]})
        elif phase == "decisions" and seat is not None:
            self.decide(t, int(seat))
        elif phase in ("dealing", "decisions"):
            self.command(self.dealer, f"{base}/deal", t)
        else:
            self.command(self.dealer, f"{base}/{phase.replace('settlement', 'settle')}", t)

    def decide(self, t: TableState, seat: int) -> None:
        """The seat's player asks what it may do (the page's actions) and decides: the first
        seat folds where it may, the others take the first decision offered but a fold."""
        player = t.seats[seat]
        status, offered = self.sweep.send(player, Req("GET", f"/api/tables/{t.id}/actions"))
        assert status == 200, offered
        # (the actions hold no card for anyone: the row's sight for every relation)
        self.sweep.seen.append(Seen("walk: actions", Sight.NONE, None, offered, t.round_id, {}))
        words = [d["decision"] for d in offered["decisions"] if d["seat"] == seat]
        assert words, (t.id, seat, offered)
        folds = [w for w in words if w == "fold"]
        choice = (
            folds[0]
            if folds and seat == min(t.seats)
            else next((w for w in words if w != "fold"), words[0])
        )
        self.command(player, f"/api/tables/{t.id}/decisions", t, {"decision": choice, "seat": seat})
        t.decided = t.had_decisions = True

    # -- the sweeps ----------------------------------------------------------------------------

    def ctx(self, t: TableState | None, stage: Stage, n: int) -> Ctx:
        wager = next(iter(t.wagers)) if t is not None else "ante"
        return Ctx(
            table_id=t.id if t is not None else HANDPAY_TABLE,
            round_id=t.round_id if t is not None else None,
            stage=stage,
            wager=wager,
            unique=f"pol-new-{n}",
            player_id=self.unseated.player_id or "",
            handpay_id=self.handpay,
        )

    def callers_at(self, t: TableState) -> list[Caller]:
        c = self.sweep.callers
        seated = list(dict.fromkeys(t.seats.values()))
        bound = [b for b in (c["dealer-a"], c["dealer-b"]) if b.bound == t.id]
        staff = [c[n] for n in STAFF]
        staff.append(c["anonymous"])
        return [*seated, self.unseated, *bound, self.others[t.id], *staff]

    def floor_callers(self) -> list[Caller]:
        c = self.sweep.callers
        names = ("dealer-a", *STAFF, "anonymous")
        first = next(iter(self.sweep.tables.values())).seats[1]
        return [first, self.unseated, *(c[n] for n in names)]


def _matches(template: str, path: str) -> bool:
    a, b = template.strip("/").split("/"), path.strip("/").split("/")
    return len(a) == len(b) and all(x == y or x.startswith("{") for x, y in zip(a, b, strict=True))


def delete_open_shoes(db_url: str) -> list[str]:
    """Delete the persisted shoe order of every open round (while the server is down)."""
    engine = create_engine(db_url)
    with engine.begin() as conn:
        ids = list(conn.execute(select(rounds.c.id).where(rounds.c.status == "open")).scalars())
        conn.execute(delete(round_shoes).where(round_shoes.c.round_id.in_(ids)))
    engine.dispose()
    return [str(i) for i in ids]
