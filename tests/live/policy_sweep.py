"""The access policy's sweep on a real server (tests/live/test_live_policy.py): every route and
stream called as every relation at the stage each table's round stands in, each answer checked
against its row of :data:`croupier.server.policy.POLICY` (the status) and, card by card, against
what that relation may see at that moment (:mod:`live.policy_truth`, from the auditor's records
of the round once it is over: the checks wait for the records).

A table's stage is read here from the dealer's view and the walk's own log (a seat decided in
this round), not from the server's policy; the relation of each caller from what the walk seated
and bound.  Refused requests are well formed (:mod:`live.policy_calls`) and must change nothing:
the table's stream stands still over a sweep's requests.  Documents must be the same for every
caller at every stage.  Every error is read for cards too, the streams' refusals included.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from croupier.server.auth import Role
from croupier.server.policy import POLICY, Relation, Resource, Scope, Sight, Stage
from live.policy_calls import Ctx, Req, provoked, valid
from live.policy_truth import cards_in, visible

__all__ = ["Caller", "Seen", "Sweep", "TableState"]


@dataclass(eq=False)
class Caller:
    """One account (or none: ``role`` None) with its HTTP connection and token."""

    name: str
    role: Role | None
    http: httpx.Client
    password: str = ""
    token: str | None = None
    player_id: str | None = None
    bound: str | None = None
    """A dealer's table (``None``: every table)."""

    def headers(self, key: bool) -> dict[str, str]:
        out = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        if key:
            out["Idempotency-Key"] = uuid.uuid4().hex
        return out


@dataclass
class TableState:
    id: str
    wagers: dict[str, int]
    seats: dict[int, Caller] = field(default_factory=dict)
    round_id: str | None = None
    decided: bool = False
    had_decisions: bool = False
    stages: set[Stage] = field(default_factory=set)


@dataclass
class Seen:
    """An answer to check once its rounds are over: what the row lets it show, for whom."""

    label: str
    sight: Sight
    player_id: str | None
    body: Any
    context: str | None
    prefix: dict[str, int]
    """Round id -> the records that round had when the answer was given (else all)."""


@dataclass
class Sweep:
    url: str
    callers: dict[str, Caller]
    tables: dict[str, TableState]
    seen: list[Seen] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    documents: dict[str, tuple[int, str]] = field(default_factory=dict)
    streams: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)
    calls: Counter[str] = field(default_factory=Counter)
    covered: dict[tuple[str, str], set[Stage]] = field(default_factory=dict)

    # -- sending and judging one request ------------------------------------------------------

    def send(self, caller: Caller, req: Req) -> tuple[int, Any]:
        headers = caller.headers(req.key and req.method == "POST")
        fresh = self.fresh_token(caller) if req.fresh_session and caller.token else None
        if fresh is not None:
            headers["Authorization"] = f"Bearer {fresh}"
        response = caller.http.request(
            req.method, req.path, json=req.body, params=dict(req.params), headers=headers
        )
        self.calls[f"{req.method} {response.status_code}"] += 1
        if fresh is not None and response.status_code < 300:
            after = caller.http.get("/api/me", headers={"Authorization": f"Bearer {fresh}"})
            if after.status_code != 401:
                self.problems.append(f"{req.path} as {caller.name}: the token still answers")
        text = response.text
        try:
            return response.status_code, json.loads(text) if text else None
        except ValueError:
            return response.status_code, text

    def fresh_token(self, caller: Caller) -> str:
        """A new session of ``caller``'s account (its own token is kept for the sweep)."""
        body = {"username": caller.name, "password": caller.password}
        response = caller.http.post("/api/login", json=body)
        assert response.status_code == 200, response.text
        token: str = response.json()["token"]
        return token

    def judge(self, label: str, req: Req, status: int, body: Any, rule_status: int) -> bool:
        """Whether the status is the one expected; an error must hold no card."""
        expected = req.expect if rule_status == 200 else frozenset({rule_status})
        ok = status in expected
        if not ok:
            self.problems.append(f"{label}: {status} (expected {sorted(expected)}): {body!r:.300}")
        if status >= 400:
            found = cards_in(body)
            if found:
                self.problems.append(f"{label}: an error holds cards {found[:5]}: {body!r:.300}")
        return ok and status == 200

    # -- relations and stages, read independently of the server -------------------------------

    @staticmethod
    def relation(
        caller: Caller, scope: Scope, t: TableState | None, players: Mapping[str, str]
    ) -> Relation:
        if caller.role is None:
            return Relation.NO_TOKEN
        if caller.role is Role.PLAYER:
            if t is None or scope in (Scope.FLOOR, Scope.DOCUMENT):
                held = False
            elif scope is Scope.SEAT:
                held = t.seats.get(1) is caller
            elif scope is Scope.TABLE:
                held = caller in t.seats.values() or caller.player_id in players.values()
            else:
                held = caller.player_id in players.values()
            return Relation.PLAYER_OF_SEAT if held else Relation.PLAYER_OF_OTHER_SEAT
        if caller.role is Role.DEALER:
            local = t is not None and scope in (Scope.TABLE, Scope.SEAT, Scope.ROUND)
            other = local and t is not None and caller.bound not in (None, t.id)
            return Relation.DEALER_OF_OTHER_TABLE if other else Relation.DEALER_OF_TABLE
        return {
            Role.SUPERVISOR: Relation.SUPERVISOR,
            Role.OBSERVER: Relation.OBSERVER,
            Role.AUDITOR: Relation.AUDITOR,
            Role.ADMIN: Relation.ADMIN,
            Role.TRAINEE: Relation.TRAINEE,
        }[caller.role]

    @staticmethod
    def stage(t: TableState, view: Mapping[str, Any]) -> Stage:
        """The stage of the table's round from the dealer's view and the walk's log."""
        if view.get("held"):
            return Stage.HELD
        rnd = view.get("round")
        if rnd is None:
            return Stage.BETTING
        phase = rnd["phase"]
        by_phase = {"void": Stage.VOIDED, "over": Stage.SETTLED, "reveal": Stage.REVEAL}
        if phase in by_phase or phase == "settlement":
            return by_phase.get(phase, Stage.REVEAL)
        if not any(rnd["cards"].values()):
            return Stage.BETTING
        return Stage.DECISIONS if t.decided else Stage.DEALT

    # -- one request as one caller -------------------------------------------------------------

    def call(
        self,
        row: Resource,
        caller: Caller,
        ctx: Ctx,
        t: TableState | None,
        view: Mapping[str, Any],
    ) -> None:
        rnd = view.get("round") or {}
        players = rnd.get("players", {})
        relation = self.relation(caller, row.scope, t, players)
        rule = row.rule(relation, ctx.stage)
        make = valid if not rule.answered else provoked
        # (a caller without a token logs in as the observer)
        name, password = (
            (caller.name, caller.password) if caller.role else ("observer", "observer-demo")
        )
        req = make(row.method, row.path)(
            Ctx(**{**ctx.__dict__, "username": name, "password": password})
        )
        if req is None:
            return
        self.covered.setdefault((row.method, row.path), set()).add(ctx.stage)
        label = f"{row.method} {row.path} as {caller.name} ({relation}) at {ctx.stage}"
        if t is not None:
            label += f" [{t.id}]"
        status, body = self.send(caller, req)
        answered = self.judge(label, req, status, body, rule.status)
        if rule.sight is Sight.DOCUMENT:
            self.document(label, req.path, status, body)
            return
        if not answered or rule.status != 200:
            return
        prefix = {} if view.get("round_id") is None else {view["round_id"]: rnd.get("seq", 0)}
        self.seen.append(
            Seen(label, rule.sight, caller.player_id, body, view.get("round_id"), prefix)
        )

    def document(self, label: str, path: str, status: int, body: Any) -> None:
        digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
        first = self.documents.setdefault(path, (status, digest))
        if first != (status, digest):
            self.problems.append(f"{label}: the document differs from its first answer")

    # -- the streams ---------------------------------------------------------------------------

    @contextmanager
    def ws(
        self, path: str, caller: Caller, since: int, carry: str = ""
    ) -> Iterator[ClientConnection]:
        """The stream opened as ``caller``: a token in the handshake's header; without one,
        the first message holds none (the server then closes the stream 4401).  ``carry``:
        the table stream's ``carry`` parameter (``state``: the view and actions carried)."""
        base = self.url.replace("http://", "ws://")
        headers = caller.headers(key=False)
        query = f"?since={since}" + (f"&carry={carry}" if carry else "")
        with connect(f"{base}{path}{query}", additional_headers=headers) as conn:
            if not headers:
                conn.send(json.dumps({}))
            yield conn

    def table_stream(self, t: TableState, caller: Caller, until: int, stage: Stage) -> None:
        row = POLICY[("WS", "/api/tables/{table_id}/stream")]
        relation = self.relation(caller, Scope.TABLE, t, {})
        rule = row.rule(relation, stage)
        label = f"WS stream of {t.id} as {caller.name} ({relation}) at {stage}"
        self.covered.setdefault((row.method, row.path), set()).add(stage)
        got = self.streams.setdefault((caller.name, t.id), [])
        since = got[-1]["seq"] if got else 0
        start = len(got)
        try:
            with self.ws(f"/api/tables/{t.id}/stream", caller, since, "state") as conn:
                while since < until:
                    event = json.loads(conn.recv(timeout=30))
                    got.append(event)
                    since = int(event["seq"])
                if len(got) > start and got[-1]["seq"] == until:
                    self.carried(label, caller, relation, stage, got[-1])
        except InvalidStatus as refused:
            self.refused_stream(label, refused, rule.status)
            return
        except ConnectionClosed as closed:
            self.closed_stream(label, closed, rule.status)
            return
        if rule.status != 200:
            self.problems.append(f"{label}: opened, the row says {rule.status}")
        self.calls["WS 101"] += 1

    def carried(
        self, label: str, caller: Caller, relation: Relation, stage: Stage, event: dict[str, Any]
    ) -> None:
        """The view and actions the last message of a table stream's batch carries, each kept
        to be checked as its route's answer to ``caller`` (its row's sight) once the round is
        over; a part the row answers must be carried, a part it refuses must not."""
        for part, path in (("view", "/view"), ("actions", "/actions")):
            row = POLICY[("GET", f"/api/tables/{{table_id}}{path}")]
            rule = row.rule(relation, stage)
            body = event.get(part)
            if body is None:
                if rule.status == 200:
                    self.problems.append(f"{label}: event {event['seq']} carries no {part}")
                continue
            if rule.status != 200:
                self.problems.append(f"{label}: carries the {part} its row refuses")
            rid = event.get("view", {}).get("round_id")
            rnd = event.get("view", {}).get("round") or {}
            prefix = {} if rid is None else {rid: rnd.get("seq", 0)}
            self.calls[f"WS carried {part}"] += 1
            what = f"{label}: the {part} carried at {event['seq']}"
            self.seen.append(Seen(what, rule.sight, caller.player_id, body, rid, prefix))

    def refused_stream(self, label: str, refused: InvalidStatus, expected: int) -> None:
        status = refused.response.status_code
        self.calls[f"WS {status}"] += 1
        body = refused.response.body.decode("utf-8", "replace") if refused.response.body else ""
        if status != expected:
            self.problems.append(f"{label}: refused {status}, the row says {expected}: {body}")
        if cards_in(body):
            self.problems.append(f"{label}: the refusal holds cards: {body:.300}")

    def closed_stream(self, label: str, closed: ConnectionClosed, expected: int) -> None:
        """A stream refused once open (its token looked for in its first message): close code
        4000 + the status."""
        code = closed.rcvd.code if closed.rcvd is not None else None
        self.calls[f"WS close {code}"] += 1
        if code != 4000 + expected:
            self.problems.append(f"{label}: closed {code}, the row says {expected}")
        if closed.rcvd is not None and cards_in(closed.rcvd.reason):
            self.problems.append(f"{label}: the close reason holds cards: {closed.rcvd.reason}")

    def floor_stream(self, caller: Caller, stage: Stage) -> None:
        row = POLICY[("WS", "/api/floor/stream")]
        relation = self.relation(caller, Scope.FLOOR, None, {})
        rule = row.rule(relation, stage)
        label = f"WS floor stream as {caller.name} ({relation}) at {stage}"
        self.covered.setdefault((row.method, row.path), set()).add(stage)
        try:
            with self.ws("/api/floor/stream", caller, 0) as conn:
                message = json.loads(conn.recv(timeout=30))
        except InvalidStatus as refused:
            self.refused_stream(label, refused, rule.status)
            return
        except ConnectionClosed as closed:
            self.closed_stream(label, closed, rule.status)
            return
        self.calls["WS 101"] += 1
        if rule.status != 200:
            self.problems.append(f"{label}: opened, the row says {rule.status}")
        self.seen.append(Seen(label, rule.sight, caller.player_id, message, None, {}))

    # -- the checks, once every round is over --------------------------------------------------

    def check(self, records: Mapping[str, Mapping[str, Any]]) -> None:
        """Every answer kept against its rounds' records (``records``: round id -> the
        auditor's ``/records`` of it), and every stream's events."""
        for seen in self.seen:
            self.check_one(seen, records)
        for (name, table_id), events in self.streams.items():
            self.check_stream(self.callers[name], table_id, events, records)

    def _seats(self, player_id: str | None, recalled: Mapping[str, Any]) -> set[int]:
        return {int(s) for s, p in recalled["players"].items() if p == player_id}

    def check_one(self, seen: Seen, records: Mapping[str, Mapping[str, Any]]) -> None:
        for rid, card in cards_in(seen.body, seen.context):
            if seen.sight is Sight.EVERY_CARD:
                continue
            if rid is None or rid not in records:
                self.problems.append(f"{seen.label}: card {card} outside any round ({rid})")
                continue
            recalled = records[rid]
            full = recalled["records"][: seen.prefix.get(rid, len(recalled["records"]))]
            allowed = visible(seen.sight, full, self._seats(seen.player_id, recalled))
            if allowed is not None and card not in allowed:
                self.problems.append(
                    f"{seen.label}: {card} of round {rid} (after {len(full)} records) "
                    f"is not {seen.sight.value}"
                )

    def check_stream(
        self,
        caller: Caller,
        table_id: str,
        events: list[dict[str, Any]],
        records: Mapping[str, Mapping[str, Any]],
    ) -> None:
        """Each record event against its round's records up to it; other events hold none."""
        row = POLICY[("WS", "/api/tables/{table_id}/stream")]
        relation = self.relation(caller, Scope.TABLE, self.tables[table_id], {})
        sight = row.rule(relation, None).sight
        label = f"stream of {table_id} as {caller.name}"
        rid, at = None, 0
        for event in events:
            data = event["data"]
            if event["type"] == "round":
                rid, at = data["round_id"], 0
            if event["type"] != "record":
                if cards_in(_public_shoe_card_removed(event["type"], data)):
                    self.problems.append(f"{label}: event {event['seq']} holds cards: {data}")
                continue
            at += 1
            assert rid is not None, label
            recalled = records[rid]
            full = recalled["records"][:at]
            if full and full[-1]["kind"] != data.get("was", data["kind"]):
                self.problems.append(f"{label}: event {event['seq']} is not record {at}")
            allowed = visible(sight, full, self._seats(caller.player_id, recalled))
            extra = {c for _, c in cards_in(data)} - (allowed or set())
            if allowed is not None and extra:
                self.problems.append(f"{label}: event {event['seq']} shows {sorted(extra)}")


def _public_shoe_card_removed(kind: str, data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A baccarat shoe's opening turns its first card face up for everyone (casino practice,
    server/live_shoe.py): that one card of a ``shoe_opened`` event is public; any other card in
    a non-record event is a finding."""
    record = data.get("record")
    if kind != "shoe" or not isinstance(record, Mapping) or record.get("kind") != "shoe_opened":
        return data
    return {**data, "record": {k: v for k, v in record.items() if k != "first_card"}}
