"""API fuzzing: schemathesis generates requests from ``/openapi.json`` for every operation (a
small budget each), as a supervisor and as a player, against a real server.  No request gives a
500; every refusal is ``application/problem+json`` with its status; and a refused request
changes nothing: the chip ledger's balances, every table's event sequence and the rounds stored
are the same after it as before (a state digest read before and after each refused case).
The document has no OpenAPI links, so the generation is per operation, not stateful."""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

import httpx
import schemathesis
from hypothesis import HealthCheck, given, settings

from live.live_harness import PASSWORDS, Server


def _token(url: str, username: str) -> str:
    return str(
        httpx.post(
            f"{url}/api/login", json={"username": username, "password": PASSWORDS[username]}
        ).json()["token"]
    )


def _state(url: str, token: str) -> tuple[Any, ...]:
    """What a refused request must not change: the balances, the tables (status, seats, round,
    phase) and the hand-pays."""
    headers = {"Authorization": f"Bearer {token}"}
    audit = httpx.get(f"{url}/api/audit/verify", headers=headers).json()
    tables = httpx.get(f"{url}/api/tables", headers=headers).json()
    handpays = httpx.get(f"{url}/api/handpays", headers=headers).json()
    return (
        tuple(sorted(audit["balances"].items())),
        tuple(
            sorted(
                (t["id"], t["status"], t["round_id"], t["phase"], str(t["seats"])) for t in tables
            )
        ),
        str(handpays),
    )


def test_no_generated_request_gives_a_500_and_a_refused_one_changes_nothing(
    sqlite_server: Server,
) -> None:
    url = sqlite_server.url
    supervisor = _token(url, "supervisor")
    tokens = {"supervisor": supervisor, "player1": _token(url, "player1")}
    schema = schemathesis.openapi.from_url(f"{url}/openapi.json")
    operations = []
    for result in schema.get_all_operations():
        ok = getattr(result, "ok", None)
        assert ok is not None, result  # the document itself is valid
        operations.append(ok())
    assert len(operations) >= 25
    seen: Counter[int] = Counter()
    for operation in operations:
        for who, token in tokens.items():
            _fuzz(operation, url, who, token, supervisor, seen)
    assert seen and max(seen) < 500
    assert any(400 <= s < 500 for s in seen)  # refusals were generated and checked


def _fuzz(
    operation: Any, url: str, who: str, token: str, supervisor: str, seen: Counter[int]
) -> None:
    """A few generated cases of one operation as one account."""

    @settings(
        max_examples=2,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy())
    def check(case: Any) -> None:
        headers = dict(case.headers or {})
        headers["Authorization"] = f"Bearer {token}"
        headers["Idempotency-Key"] = uuid.uuid4().hex
        case.headers = headers
        before = _state(url, supervisor) if case.method != "GET" else None
        response = case.call(base_url=url)
        seen[response.status_code] += 1
        where = (who, case.method, case.path, response.text[:300])
        assert response.status_code < 500, where
        if response.status_code >= 400:
            kind = response.headers.get("content-type") or ""
            kind = kind[0] if isinstance(kind, list) else kind
            assert kind.startswith("application/problem+json"), where
            problem = response.json()
            assert problem["status"] == response.status_code, where
            assert problem["title"] and "detail" in problem, where
            if before is not None:
                assert _state(url, supervisor) == before, where

    check()
