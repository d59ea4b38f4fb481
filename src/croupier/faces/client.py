"""A small typed client of the live table API (``croupier serve``), on httpx and websockets.

::

    with Client("http://127.0.0.1:8000") as dealer:
        dealer.login("dealer", "dealer-demo")
        dealer.new_round("three-card-poker")

Every command sends a fresh ``Idempotency-Key`` unless one is given (a retry with the same key
returns the first response and moves nothing twice).  Errors raise :class:`ApiError` with the
problem document (status, title, detail, section).
"""

from __future__ import annotations

import json
import ssl
import time
import uuid
import weakref
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import httpx

__all__ = ["KEEP_ALIVE", "ApiError", "Client", "Event", "Stream", "tls_context"]

KEEP_ALIVE = 60.0
"""Seconds an idle connection is kept for the next request, as a browser keeps it: under
``croupier serve``'s 75 s (``croupier.server.run.KEEP_ALIVE``), so that a request is never sent
on a connection the server is closing.  httpx's default, 5 s, made a person who acts every few
seconds open a new connection for most of their commands, and the server accept each one (what
that cost the server: docs/performance.md)."""

RETRIES = 2
"""Times a request is sent again after a transport error (same Idempotency-Key)."""

UNAVAILABLE_RETRIES = 4
"""Times a request is sent again after a 503 problem carrying ``Retry-After`` (the database did
not answer in time, or a group commit failed: the server wrote nothing), or a 429 whose
``Retry-After`` is at most :data:`RETRY_AFTER_CAP`, with the same Idempotency-Key, each after the
server's ``Retry-After``."""

RETRY_AFTER_CAP = 2.0
"""Most seconds waited before one such retry, whatever ``Retry-After`` asks."""


_TLS: list[ssl.SSLContext] = []


def _retried(response: httpx.Response) -> bool:
    """Whether to send a request again: a 503 with ``Retry-After``, or a sign-in held back for
    a moment (429, ``Retry-After`` within :data:`RETRY_AFTER_CAP`: sign-ins of one account sent
    at once, :mod:`croupier.server.signin`; a lock's longer wait is the caller's to see)."""
    if "Retry-After" not in response.headers:
        return False
    if response.status_code == 503:
        return True
    if response.status_code != 429:
        return False
    try:
        return float(response.headers["Retry-After"]) <= RETRY_AFTER_CAP
    except ValueError:
        return False


def _retry_after(response: httpx.Response) -> float:
    """Seconds the server asked to wait (``Retry-After`` in seconds), capped."""
    try:
        seconds = float(response.headers["Retry-After"])
    except ValueError:
        seconds = 1.0
    return min(max(seconds, 0.0), RETRY_AFTER_CAP)


def tls_context() -> ssl.SSLContext:
    """httpx's default TLS context (certificate verification on, its CA bundle), made once a
    process and shared by every client: making one reads the CA bundle (some 50 ms of CPU), which
    httpx does for every new client, an ``https`` server or not."""
    if not _TLS:
        _TLS.append(httpx.create_ssl_context())
    return _TLS[0]


class ApiError(Exception):
    """An error response: its problem+json document."""

    def __init__(self, status: int, problem: Mapping[str, Any]) -> None:
        self.status = status
        self.problem = dict(problem)
        self.detail = str(problem.get("detail", ""))
        self.section = problem.get("section")
        super().__init__(f"{status} {problem.get('title', '')}: {self.detail}")


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    type: str
    data: dict[str, Any]


class Stream:
    """A table's event stream (WebSocket); :meth:`next` waits for the next event."""

    def __init__(self, connection: Any) -> None:
        self._conn = connection
        self.last = 0

    def next(self, timeout: float = 10.0) -> Event:
        raw = self._conn.recv(timeout=timeout)
        data = json.loads(raw)
        event = Event(int(data["seq"]), str(data["type"]), dict(data["data"]))
        self.last = event.seq
        return event

    def drain(self, until_seq: int, timeout: float = 10.0) -> list[Event]:
        """Every event up to sequence number ``until_seq``."""
        out: list[Event] = []
        while self.last < until_seq:
            out.append(self.next(timeout))
        return out


class Client:
    """One person's connection: log in once, then call the API as that role."""

    def __init__(
        self, base_url: str, *, timeout: float = 30.0, tls: ssl.SSLContext | None = None
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.tls = tls if tls is not None else tls_context()
        """The TLS context of an ``https`` server (default: the system's CA bundle; a floor's
        own CA: ``ssl.create_default_context(cafile=...)``)."""
        self.http = httpx.Client(
            base_url=self.base_url,
            timeout=timeout,
            verify=self.tls,
            # httpx's default limits, but for how long an idle connection is kept
            limits=httpx.Limits(
                max_connections=100, max_keepalive_connections=20, keepalive_expiry=KEEP_ALIVE
            ),
        )
        # a client dropped without close() closes its connections when it is collected, as a
        # file does: none is left to the garbage collector's ResourceWarning
        weakref.finalize(self, self.http.close)
        self.token: str | None = None
        self.role: str | None = None
        self.player_id: str | None = None
        self.timings: list[float] | None = None
        """Set to a list to keep each request's latency in seconds (the benchmark)."""
        self.sent: list[tuple[str, str, dict[str, Any] | None, str, Any]] | None = None
        """Set to a list to keep each command sent: (method, path, body, key, response)."""

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- plumbing ------------------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        body: Mapping[str, Any] | None = None,
        *,
        key: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> Any:
        headers: dict[str, str] = {}
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        if method == "POST" and path != "/api/login":
            key = key or uuid.uuid4().hex
            headers["Idempotency-Key"] = key
        started = time.perf_counter()
        for attempt in range(UNAVAILABLE_RETRIES + 1):
            response = self._send(method, path, body, headers, params)
            if not _retried(response) or attempt == UNAVAILABLE_RETRIES:
                break
            # Nothing was written (the server's contract for a 503; a 429 read nothing): the
            # same request, same Idempotency-Key, once the server's Retry-After has passed.
            time.sleep(_retry_after(response))
        if self.timings is not None:
            self.timings.append(time.perf_counter() - started)
        if response.status_code >= 400:
            try:
                problem = response.json()
            except ValueError:
                problem = {"title": "error", "detail": response.text}
            raise ApiError(response.status_code, problem)
        data = response.json()
        if self.sent is not None and key is not None:
            self.sent.append((method, path, dict(body) if body is not None else None, key, data))
        return data

    def _send(
        self,
        method: str,
        path: str,
        body: Mapping[str, Any] | None,
        headers: dict[str, str],
        params: Mapping[str, Any] | None,
    ) -> httpx.Response:
        for attempt in range(RETRIES):
            try:
                return self.http.request(method, path, json=body, headers=headers, params=params)
            except httpx.TransportError:
                # A dropped connection: the same Idempotency-Key makes the retry safe.
                time.sleep(0.05 * (attempt + 1))
        return self.http.request(method, path, json=body, headers=headers, params=params)

    def post(
        self, path: str, body: Mapping[str, Any] | None = None, *, key: str | None = None
    ) -> Any:
        return self.request("POST", path, body, key=key)

    def get(self, path: str, **params: Any) -> Any:
        return self.request("GET", path, params={k: v for k, v in params.items() if v is not None})

    # -- the API -------------------------------------------------------------------------------

    def login(self, username: str, password: str) -> dict[str, Any]:
        data: dict[str, Any] = self.request(
            "POST", "/api/login", {"username": username, "password": password}
        )
        self.token, self.role, self.player_id = data["token"], data["role"], data.get("player_id")
        return data

    def me(self) -> dict[str, Any]:
        return dict(self.get("/api/me"))

    def tables(self) -> list[dict[str, Any]]:
        return list(self.get("/api/tables"))

    def table(self, table_id: str) -> dict[str, Any]:
        return dict(self.get(f"/api/tables/{table_id}"))

    def meters(self) -> list[dict[str, Any]]:
        return list(self.get("/api/meters"))

    def view(self, table_id: str) -> dict[str, Any]:
        return dict(self.get(f"/api/tables/{table_id}/view"))

    def sit(self, table_id: str, seat: int) -> dict[str, Any]:
        return dict(self.post(f"/api/tables/{table_id}/sit", {"seat": seat}))

    def leave(self, table_id: str) -> dict[str, Any]:
        return dict(self.post(f"/api/tables/{table_id}/leave"))

    def wager(
        self,
        table_id: str,
        wager: str,
        amount: int,
        *,
        seat: int | None = None,
        key: str | None = None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"wager": wager, "amount": amount}
        if seat is not None:
            body["seat"] = seat
        return dict(self.post(f"/api/tables/{table_id}/wagers", body, key=key))

    def decide(
        self, table_id: str, decision: str, *, seat: int | None = None, key: str | None = None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"decision": decision}
        if seat is not None:
            body["seat"] = seat
        return dict(self.post(f"/api/tables/{table_id}/decisions", body, key=key))

    def new_round(
        self,
        table_id: str,
        *,
        cut_at: int | None = None,
        stack: str | None = None,
        key: str | None = None,
    ) -> dict[str, Any]:
        """The dealer opens the next round; ``stack`` (a training table only): the cards it
        deals first, top first."""
        body: dict[str, Any] = {"cut_at": cut_at} if cut_at is not None else {}
        if stack is not None:
            body["stack"] = stack
        return dict(self.post(f"/api/tables/{table_id}/rounds", body, key=key))

    def no_more_bets(
        self, table_id: str, progressive_chips: int | None = None, *, key: str | None = None
    ) -> dict[str, Any]:
        return dict(
            self.post(
                f"/api/tables/{table_id}/no-more-bets",
                {"progressive_chips": progressive_chips},
                key=key,
            )
        )

    def step(self, table_id: str, name: str, *, key: str | None = None) -> dict[str, Any]:
        """A dealer step: ``deal``, ``reveal`` or ``settle``."""
        return dict(self.post(f"/api/tables/{table_id}/{name}", key=key))

    def stub_count(self, table_id: str, count: int, *, key: str | None = None) -> dict[str, Any]:
        return dict(self.post(f"/api/tables/{table_id}/stub-count", {"count": count}, key=key))

    def new_player(
        self, player_id: str, name: str, username: str, password: str, *, key: str | None = None
    ) -> dict[str, Any]:
        body = {"player_id": player_id, "name": name, "username": username, "password": password}
        return dict(self.post("/api/players", body, key=key))

    def new_table(
        self, table_id: str, name: str, rules: Mapping[str, Any], *, key: str | None = None
    ) -> dict[str, Any]:
        body = {"id": table_id, "name": name, "rules": dict(rules)}
        return dict(self.post("/api/tables", body, key=key))

    def buy_in(self, player_id: str, amount: int, *, key: str | None = None) -> dict[str, Any]:
        return dict(self.post(f"/api/players/{player_id}/buy-in", {"amount": amount}, key=key))

    def cash_out(self, player_id: str, amount: int, *, key: str | None = None) -> dict[str, Any]:
        return dict(self.post(f"/api/players/{player_id}/cash-out", {"amount": amount}, key=key))

    def handpays(self) -> list[dict[str, Any]]:
        return list(self.get("/api/handpays"))

    def approve(self, handpay_id: int, *, key: str | None = None) -> dict[str, Any]:
        return dict(self.post(f"/api/handpays/{handpay_id}/approve", key=key))

    def void(self, round_id: str, reason: str, *, key: str | None = None) -> dict[str, Any]:
        return dict(self.post(f"/api/rounds/{round_id}/void", {"reason": reason}, key=key))

    def rounds(
        self, table_id: str, *, last: int = 10, seat: int | None = None
    ) -> list[dict[str, Any]]:
        return list(self.get(f"/api/tables/{table_id}/rounds", last=last, seat=seat))

    def seat_rounds(self, table_id: str, seat: int, *, last: int = 10) -> list[dict[str, Any]]:
        """The last ``last`` finished rounds played at ``seat`` (a player: their own seat's
        rounds, as they saw them), newest first."""
        return list(self.get(f"/api/tables/{table_id}/seats/{seat}/rounds", last=last))

    def scenario(self, round_id: str) -> dict[str, Any]:
        return dict(self.get(f"/api/rounds/{round_id}/scenario"))

    def records(self, round_id: str) -> dict[str, Any]:
        return dict(self.get(f"/api/rounds/{round_id}/records"))

    def audit(self, *, scope: str = "all") -> dict[str, Any]:
        """``GET /api/audit/verify``: ``scope="ledger"`` checks the chip ledger only."""
        return dict(self.get("/api/audit/verify", scope=scope))

    def stream_url(self, table_id: str, *, since: int = 0) -> str:
        """The WebSocket address of the table's event stream (for an asynchronous client, with
        :meth:`stream_headers`; :meth:`stream` connects to it).  It holds no token: the server
        refuses a token in an address (logs keep addresses)."""
        ws_url = self.base_url.replace("http://", "ws://").replace("https://", "wss://")
        return f"{ws_url}/api/tables/{table_id}/stream?since={since}"

    def stream_headers(self) -> dict[str, str]:
        """The handshake's headers: this account's token."""
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def logout(self) -> None:
        """``POST /api/logout``: the session ends (its token refused from now on)."""
        self.request("POST", "/api/logout", key=uuid.uuid4().hex)
        self.token = None

    @contextmanager
    def stream(self, table_id: str, *, since: int = 0) -> Iterator[Stream]:
        """The table's event stream from sequence number ``since`` (exclusive)."""
        from websockets.sync.client import connect

        tls = self.tls if self.base_url.startswith("https://") else None
        with connect(
            self.stream_url(table_id, since=since),
            additional_headers=self.stream_headers(),
            open_timeout=10,
            ssl=tls,
        ) as conn:
            stream = Stream(conn)
            stream.last = since
            yield stream


def wait_until_up(base_url: str, *, timeout: float = 30.0) -> None:
    """Wait until a server answers at ``base_url`` (for scripts that start one): any HTTP
    answer to ``GET /`` (one client for every attempt)."""
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=base_url.rstrip("/"), timeout=2.0, verify=tls_context()) as http:
        while True:
            try:
                http.get("/")
                return
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
