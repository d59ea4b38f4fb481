"""The money oracle's client: a third party's, written from the public documents only.

What it knows comes from the README ("Live tables", "The web pages") and the server's OpenAPI
document (``/openapi.json``): sign-in for a bearer token, every command a ``POST`` with an
``Idempotency-Key`` (a ``503`` with ``Retry-After`` is sent again with the same key, as the
README says the server expects), every refusal an ``application/problem+json`` document.  It
uses plain ``httpx`` and ``websockets``; nothing of croupier is imported here.

Two things an integrator needs are in neither document, and were taken from the pages the
server itself serves to every browser (``/static/core.js``, ``/static/dealer.js``):

- the table stream's address, ``ws://HOST/api/tables/{id}/stream?since=N`` (its token by the
  ``Authorization`` header, as the README's "Who gets in" now says; when the oracle was
  written the README said only "a WebSocket stream per table of numbered events that resumes
  from ``since=``");
- which endpoint takes each dealer step named by ``GET /api/tables/{id}/actions``
  (``new_round`` is ``POST .../rounds``, ``turn_community_card`` is ``POST .../deal``).
"""

from __future__ import annotations

import itertools
import json
import secrets
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

__all__ = ["STEP_ENDPOINTS", "Account", "Event", "Refused", "Stream", "StreamGap"]

STEP_ENDPOINTS: Mapping[str, str] = {
    "new_round": "rounds",
    "no_more_bets": "no-more-bets",
    "deal": "deal",
    "turn_community_card": "deal",
    "reveal": "reveal",
    "settle": "settle",
    "count_stub": "stub-count",
}
"""A dealer step (as ``/actions`` names it) -> the path after ``/api/tables/{id}/`` (the
dealer's console, ``/static/dealer.js``)."""

RETRIES = 4
"""A ``503`` is sent again, same key, up to this many times (the README's commit model)."""


class Refused(Exception):
    """A request answered with a problem document (any status but 200)."""

    def __init__(self, method: str, path: str, status: int, problem: Any) -> None:
        super().__init__(f"{method} {path} -> {status}: {json.dumps(problem)[:600]}")
        self.status = status
        self.problem = problem


class StreamGap(AssertionError):
    """The stream skipped or repeated a sequence number, or ended early."""


class Account:
    """One signed-in account: its token, role and player id (``POST /api/login``)."""

    def __init__(self, http: httpx.Client, username: str, password: str) -> None:
        self.http = http
        self.username = username
        answer = self._answer(
            "POST", "/api/login", http.post, {"username": username, "password": password}
        )
        self.token: str = answer["token"]
        self.role: str = answer["role"]
        self.player_id: str | None = answer.get("player_id")
        self._keys = itertools.count(1)
        self._nonce = secrets.token_hex(4)  # keys unique across this client's runs
        self.requests = 0

    def _headers(self, key: str | None = None) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.token}"}
        if key is not None:
            headers["Idempotency-Key"] = key
        return headers

    def _answer(self, method: str, path: str, send: Any, body: Any = None, **kw: Any) -> Any:
        for attempt in range(RETRIES + 1):
            response: httpx.Response = (
                send(path, **kw) if body is None else send(path, json=body, **kw)
            )
            if response.status_code == 503 and attempt < RETRIES:
                time.sleep(float(response.headers.get("Retry-After", "1")))
                continue
            if response.status_code != 200:
                try:
                    problem = response.json()
                except ValueError:
                    problem = response.text
                raise Refused(method, path, response.status_code, problem)
            return response.json()
        raise AssertionError("unreachable")

    def get(self, path: str, **params: Any) -> Any:
        self.requests += 1
        return self._answer(
            "GET", path, self.http.get, headers=self._headers(), params=params or None
        )

    def post(self, path: str, body: Mapping[str, Any] | None = None) -> Any:
        """A command, with a fresh ``Idempotency-Key`` (kept across its retries)."""
        self.requests += 1
        key = f"oracle-{self.username}-{self._nonce}-{next(self._keys)}"
        return self._answer(
            "POST", path, self.http.post, dict(body or {}), headers=self._headers(key)
        )

    @contextmanager
    def stream(self, table_id: str, since: int) -> Iterator[Stream]:
        """The table's stream as this account sees it, from the event after ``since``."""
        base = str(self.http.base_url).rstrip("/").replace("http://", "ws://", 1)
        url = f"{base}/api/tables/{table_id}/stream?since={since}"
        # The README: a stream's token by its Authorization header (a client that can set
        # one) or its first message, never in its address.
        auth = {"Authorization": f"Bearer {self.token}"}
        with connect(url, open_timeout=30, max_size=None, additional_headers=auth) as ws:
            yield Stream(ws, since)


@dataclass(frozen=True)
class Event:
    """One stream message: ``{"seq": n, "type": ..., "data": {...}}``."""

    seq: int
    type: str
    data: dict[str, Any]


class Stream:
    """A table's numbered events; each must follow the one before it (``seq`` + 1)."""

    def __init__(self, ws: ClientConnection, since: int) -> None:
        self.ws = ws
        self.seq = since
        self.events: list[Event] = []

    def until(self, seq: int, timeout: float = 60.0) -> list[Event]:
        """Read until the event numbered ``seq`` has arrived; the events read."""
        got: list[Event] = []
        deadline = time.monotonic() + timeout
        while self.seq < seq:
            left = deadline - time.monotonic()
            try:
                message = self.ws.recv(timeout=max(left, 0.001))
            except TimeoutError:
                raise StreamGap(f"no event {self.seq + 1} of {seq} in {timeout} s") from None
            except ConnectionClosed as closed:
                raise StreamGap(f"the stream closed at {self.seq} of {seq}: {closed}") from None
            raw = json.loads(message)
            event = Event(int(raw["seq"]), str(raw["type"]), dict(raw["data"]))
            if event.seq != self.seq + 1:
                raise StreamGap(f"event {event.seq} came after {self.seq}")
            self.seq = event.seq
            got.append(event)
        self.events.extend(got)
        return got
