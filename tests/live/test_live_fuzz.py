"""Bad input never gives a 500: schemathesis generates requests from ``/openapi.json`` for every
operation (a small budget each), as a supervisor, against a real server."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import schemathesis
from hypothesis import HealthCheck, given, settings

from live.live_harness import PASSWORDS, Server


def test_no_request_generated_from_the_openapi_document_gives_a_500(sqlite_server: Server) -> None:
    url = sqlite_server.url
    token = httpx.post(
        f"{url}/api/login", json={"username": "supervisor", "password": PASSWORDS["supervisor"]}
    ).json()["token"]
    schema = schemathesis.openapi.from_url(f"{url}/openapi.json")
    operations = []
    for result in schema.get_all_operations():
        ok = getattr(result, "ok", None)
        assert ok is not None, result  # the document itself is valid
        operations.append(ok())
    assert len(operations) >= 25
    seen: dict[int, int] = {}
    for operation in operations:

        @settings(
            max_examples=4,
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
            response = case.call(base_url=url)
            seen[response.status_code] = seen.get(response.status_code, 0) + 1
            assert response.status_code < 500, (case.method, case.path, response.text)

        check()
    assert seen and max(seen) < 500
