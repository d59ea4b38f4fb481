"""The access policy's test, start to end (tests/live/test_live_policy.py): the walk of
:mod:`live.policy_walk` with a sweep (:mod:`live.policy_sweep`) at every stage, then every
answer checked against the rounds' records, and the figures."""

from __future__ import annotations

from typing import Any

from croupier.server.policy import OVER, POLICY, Scope, Stage
from live.chaos_harness import HANDPAY_TABLE
from live.live_harness import Server
from live.policy_calls import Req
from live.policy_walk import HANDPAY_ROUNDS, ORDER, Walk, _at_least, delete_open_shoes

__all__ = ["run_policy"]

BOUND = ("three-card-poker", "ultimate-texas-holdem")
"""The tables of the two bound dealers (each the other's dealer of another table)."""


def sweep_at(walk: Walk, stage: Stage) -> None:
    """One sweep: every route as every caller (every table at its own stage), the bad ids,
    nothing moved, the walk's real commands of the moment, the streams."""
    sweep, tables = walk.sweep, list(walk.sweep.tables.values())
    views = {t.id: walk.view(t) for t in tables}
    stages = {t.id: sweep.stage(t, views[t.id]) for t in tables}
    for t in tables:
        t.stages.add(stages[t.id])
    for n, ((method, _path), row) in enumerate(POLICY.items()):
        if method == "WS":
            continue
        if row.scope in (Scope.DOCUMENT, Scope.FLOOR):
            for caller in walk.floor_callers():
                sweep.call(row, caller, walk.ctx(None, stage, n), None, {})
            continue
        for t in tables:
            for caller in walk.callers_at(t):
                sweep.call(row, caller, walk.ctx(t, stages[t.id], n), t, views[t.id])
    bad_ids(walk, stage)
    for t in tables:
        if walk.view(t)["seq"] != views[t.id]["seq"]:
            sweep.problems.append(f"{t.id} at {stages[t.id]}: the sweep's requests moved it")
    real_commands(walk, stages)
    for t in tables:
        until = int(walk.view(t)["seq"])
        for caller in walk.callers_at(t):
            sweep.table_stream(t, caller, until, stages[t.id])
    for caller in walk.floor_callers():
        sweep.floor_stream(caller, stage)


def bad_ids(walk: Walk, stage: Stage) -> None:
    """Errors of bad ids, a bad login and a bad seat: each answered as expected, no card."""
    s, p, anonymous = walk.supervisor, walk.unseated, walk.sweep.callers["anonymous"]
    t = next(iter(walk.sweep.tables))
    reads = ("", "/view", "/actions", "/rounds", "/seats/1/rounds")
    sent: list[tuple[Any, Req]] = [
        (s, Req("GET", f"/api/tables/no-such-table{r}", expect=frozenset({404}))) for r in reads
    ]
    sent += [
        (s, Req("GET", f"/api/rounds/no-such-round/{r}", expect=frozenset({404})))
        for r in ("scenario", "records", "deal")
    ]
    sent += [
        (
            s,
            Req("POST", "/api/rounds/no-such-round/void", {"reason": "x"}, expect=frozenset({404})),
        ),
        (s, Req("GET", f"/api/tables/{t}/seats/x/rounds", expect=frozenset({422}))),
        (p, Req("GET", f"/api/tables/{t}/seats/x/rounds", expect=frozenset({403}))),
        (s, Req("POST", "/api/handpays/0/approve", expect=frozenset({422}))),
        (
            p,
            Req(
                "POST",
                "/api/tables/no-such-table/wagers",
                {"wager": "ante", "amount": 500},
                expect=frozenset({404}),
            ),
        ),
        (
            anonymous,
            Req(
                "POST",
                "/api/login",
                # an unknown name each sweep: a name's failures are delayed, then locked
                {"username": f"nobody-{stage.value}", "password": "wrong-one"},
                key=False,
                expect=frozenset({401}),
            ),
        ),
        (anonymous, Req("GET", f"/api/tables/{t}/view", expect=frozenset({401}))),
    ]
    for caller, req in sent:
        status, body = walk.sweep.send(caller, req)
        label = f"bad id: {req.method} {req.path} as {caller.name} at {stage}"
        walk.sweep.judge(label, req, status, body, 200)


def real_commands(walk: Walk, stages: dict[str, Stage]) -> None:
    """The commands a sweep's relations make for real (each changes the table): the supervisor
    opens every table; where no round is in play the seat's player leaves and sits again and the
    supervisor closes and opens the table (while one is, closing is refused); a hand-pay
    waiting is approved."""
    s = walk.supervisor
    for t in walk.sweep.tables.values():
        base = f"/api/tables/{t.id}"
        walk.command(s, f"{base}/open", t)
        if stages[t.id] in OVER or t.round_id is None:
            player = t.seats[1]
            walk.command(player, f"{base}/leave", t)
            for seat in sorted(x for x, c in t.seats.items() if c is player):
                walk.command(player, f"{base}/sit", t, {"seat": seat})
            walk.command(s, f"{base}/close", t)
            walk.command(s, f"{base}/open", t)
        else:
            walk.command(s, f"{base}/close", t, expect=409)
    status, listed = walk.sweep.send(s, Req("GET", "/api/handpays"))
    assert status == 200, listed
    for pay in listed:
        if pay["status"] == "pending":
            walk.command(s, f"/api/handpays/{pay['id']}/approve", None)


def _handpay_rounds(walk: Walk) -> int:
    """Rounds at the hand-pay table until a hand-pay waits for the supervisor."""
    t = walk.sweep.tables[HANDPAY_TABLE]
    for played in range(1, HANDPAY_ROUNDS + 1):
        walk.new_round(t)
        walk.act(t, lambda s: False)
        status, listed = walk.sweep.send(walk.supervisor, Req("GET", "/api/handpays"))
        assert status == 200, listed
        pending = [p for p in listed if p["status"] == "pending"]
        if pending:
            walk.handpay = int(pending[0]["id"])
            return played
    raise AssertionError(f"no hand-pay in {HANDPAY_ROUNDS} rounds")


def _setup(server: Server) -> Walk:
    walk = Walk.start(server, BOUND)
    status, tables = walk.sweep.send(walk.supervisor, Req("GET", "/api/tables"))
    assert status == 200, tables
    for table in tables:
        _, detail = walk.sweep.send(walk.supervisor, Req("GET", f"/api/tables/{table['id']}"))
        boxes = ((1, 2), (3, 4)) if table["id"] == HANDPAY_TABLE else ((1,), (2,))
        walk.seat(table["id"], dict(detail["house_wagers"]), boxes)
    return walk


def run_policy(server: Server) -> dict[str, Any]:
    """The whole test on ``server`` (a fresh demo floor); its figures."""
    walk = _setup(server)
    try:
        return _walk(walk, server)
    finally:
        for caller in walk.sweep.callers.values():
            caller.http.close()


def _walk(walk: Walk, server: Server) -> dict[str, Any]:
    handpay_rounds = _handpay_rounds(walk)
    sweep_at(walk, Stage.BETTING)  # before the first round (and a hand-pay waiting)
    tables = list(walk.sweep.tables.values())
    for t in tables:
        walk.new_round(t)
        walk.step(t, walk.view(t)["round"])  # the wagers
    sweep_at(walk, Stage.BETTING)
    for target in ORDER[1:]:
        for t in tables:
            walk.act(t, _at_least(target))
        sweep_at(walk, target)
    for t in tables:  # a round voided by the supervisor after the deal
        walk.new_round(t)
        walk.act(t, _at_least(Stage.DEALT))
        walk.command(walk.supervisor, f"/api/rounds/{t.round_id}/void", t, {"reason": "sweep"})
    sweep_at(walk, Stage.VOIDED)
    for t in tables:  # a round held after a restart that lost its shoe order
        walk.new_round(t)
        walk.act(t, _at_least(Stage.DEALT))
    server.stop()
    held = delete_open_shoes(server.db_url)
    server.start()
    sweep_at(walk, Stage.HELD)
    for t in tables:
        walk.command(walk.supervisor, f"/api/rounds/{t.round_id}/void", t, {"reason": "held"})
    return _finish(walk, handpay_rounds, len(held))


def _finish(walk: Walk, handpay_rounds: int, held: int) -> dict[str, Any]:
    sweep = walk.sweep
    for t in sweep.tables.values():
        walk.view(t)
    for caller in (walk.supervisor, walk.auditor):
        status, audit = sweep.send(caller, Req("GET", "/api/audit/verify"))
        assert status == 200 and audit["ok"], audit
    records = {}
    for rid in walk.history:
        status, records[rid] = sweep.send(walk.auditor, Req("GET", f"/api/rounds/{rid}/records"))
        assert status == 200, records[rid]
    sweep.check(records)
    return {
        "tables": len(sweep.tables),
        "rounds": len(walk.history),
        "handpay_rounds": handpay_rounds,
        "held": held,
        "stages": {t.id: sorted(s.value for s in t.stages) for t in sweep.tables.values()},
        "decisions": sorted(t.id for t in sweep.tables.values() if t.had_decisions),
        "answers_checked": len(sweep.seen),
        "stream_events": sum(len(e) for e in sweep.streams.values()),
        "requests": dict(sorted(sweep.calls.items())),
        "uncovered": sorted(
            f"{m} {p}: {sorted(x.value for x in set(Stage) - sweep.covered.get((m, p), set()))}"
            for (m, p) in POLICY
            if sweep.covered.get((m, p), set()) != set(Stage)
        ),
        "problems": sweep.problems,
    }
