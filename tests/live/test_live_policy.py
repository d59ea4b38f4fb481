"""Every secret, from one policy (issue 35): a test generated from the access policy
(:data:`croupier.server.policy.POLICY`).  On a real server, a round of every game of the demo
floor (and a Let It Ride table whose progressive pays hand-pays) is brought to every stage of
the policy (betting, dealt, decisions, reveal, settled, voided, held), and at each every route
and stream is called as every relation (the player of the seat, a player of another seat, the
dealer of the table, a dealer of another table, supervisor, observer, auditor, no token); each
answer's status is its row's and every card in it (any string that reads as a card) is one that
relation may see at that moment, from the round's records (:mod:`live.policy_truth`).  Errors
are provoked (bad ids, illegal wagers, decisions, steps and bodies) and hold no card.  A route
of the application without a row, or one the sweep cannot call, fails."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from croupier.server.app import create_app
from croupier.server.perimeter import Perimeter
from croupier.server.policy import POLICY, Stage
from live.live_harness import Cluster, Server
from live.policy_calls import known
from live.policy_run import run_policy


def _routes(app: FastAPI) -> set[tuple[str, str]]:
    """Every (method, path) the application answers, read from its routes here (an included
    router's routes, a mount's files, the WebSocket routes as ``WS``)."""
    out: set[tuple[str, str]] = set()
    todo: list[Any] = list(app.routes)
    while todo:
        route = todo.pop()
        inner = getattr(route, "original_router", None)
        if inner is not None:
            todo += list(inner.routes)
        elif type(route).__name__ == "Mount":
            out.add(("GET", f"{route.path}/{{path}}"))
        elif type(route).__name__ in ("APIWebSocketRoute", "WebSocketRoute"):
            out.add(("WS", route.path))
        else:
            out |= {(m, route.path) for m in route.methods if m not in ("HEAD", "OPTIONS")}
    return out


def test_every_route_of_the_server_has_a_policy_row_and_a_call_in_the_sweep(
    tmp_path: Path,
) -> None:
    # with /docs (a demo floor's, or --docs): the page's row is checked with it
    app = create_app(f"sqlite:///{tmp_path / 'floor.sqlite'}", perimeter=Perimeter(docs=True))
    try:
        routes = _routes(app)
    finally:
        app.state.floor.committer.close()
        app.state.floor.engine.dispose()
    assert routes - set(POLICY) == set(), "routes without a row in server/policy.py"
    assert set(POLICY) - routes == set(), "rows of routes the server does not have"
    streams = {key for key in POLICY if key[0] == "WS"}
    assert set(POLICY) - streams - known() == set(), "routes the sweep cannot call"


def _verify(figures: dict[str, Any]) -> None:
    print(json.dumps({k: v for k, v in figures.items() if k != "problems"}, indent=1))
    problems = figures["problems"]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
    assert figures["uncovered"] == [], figures["uncovered"]
    every = set(Stage)
    without_decisions = every - {Stage.DEALT, Stage.DECISIONS}
    for table, stages in figures["stages"].items():
        wanted = every if table in figures["decisions"] else without_decisions
        assert {Stage(s) for s in stages} >= wanted, (table, stages)
    assert len(figures["decisions"]) >= 6  # every poker game has decisions
    # the table streams' carried views and actions were checked as their routes' answers
    assert figures["requests"]["WS carried view"] > 0
    assert figures["requests"]["WS carried actions"] > 0


def test_every_route_stream_relation_and_stage_answers_as_the_policy_says(
    sqlite_server: Server,
) -> None:
    _verify(run_policy(sqlite_server))


@pytest.fixture
def pg_server(pg_cluster: Cluster, tmp_path: Path) -> Iterator[Server]:
    """A real server on a fresh database of a throwaway PostgreSQL cluster, demo floor."""
    server = Server(pg_cluster.database(), tmp_path / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.long
def test_every_route_stream_relation_and_stage_answers_as_the_policy_says_on_postgresql(
    pg_server: Server,
) -> None:
    _verify(run_policy(pg_server))
