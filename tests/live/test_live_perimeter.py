"""The perimeter of a real server (issue 36): a stream authenticates by its handshake's header or
its first message, never by a token in its address; a handshake from a page of another origin
and a request for another ``Host`` are refused; every answer carries the security headers and
every private one ``Cache-Control: no-store``; a body over the bound is refused before it is
read; ``/docs`` is served on a demo floor only (or with ``--docs``)."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from croupier.server.perimeter import MAX_BODY
from live.live_harness import Server

TABLE = "three-card-poker"
PROBLEM = "application/problem+json"


@pytest.fixture
def real_floor(tmp_path: Path) -> Iterator[Server]:
    """A server started without the demo floor, answering to one more host name and page
    origin (``--allowed-host``, ``--allowed-origin``)."""
    server = Server(
        f"sqlite:///{tmp_path / 'floor.sqlite'}",
        tmp_path / "server.log",
        args=(
            "--no-demo",
            "--allowed-host",
            "tables.casino.example",
            "--allowed-origin",
            "https://pit.casino.example",
        ),
    )
    server.start()
    yield server
    server.stop()


def _ws(server: Server, path: str) -> str:
    return server.url.replace("http://", "ws://") + path


def test_a_token_in_the_stream_address_is_refused(sqlite_server: Server) -> None:
    token = sqlite_server.client("observer").token
    for query in (f"?token={token}", f"?since=0&token={token}", "?token="):
        with (
            pytest.raises(InvalidStatus) as refused,
            connect(_ws(sqlite_server, "/api/floor/stream" + query)),
        ):
            pass
        assert refused.value.response.status_code == 400
        body = json.loads(refused.value.response.body or b"{}")
        assert "address" in body["detail"]


def test_a_stream_authenticates_by_its_first_message(sqlite_server: Server) -> None:
    """The browsers' way: the token as the first message; the stream then sends as the header
    way does.  A first message without a valid token closes the stream with 4401."""
    observer = sqlite_server.client("observer")
    seq = observer.view(TABLE)["seq"]
    sqlite_server.client("player1").sit(TABLE, 1)
    with connect(_ws(sqlite_server, f"/api/tables/{TABLE}/stream?since={seq}")) as conn:
        conn.send(json.dumps({"token": observer.token}))
        event = json.loads(conn.recv(timeout=30))
    assert event["seq"] == seq + 1 and event["type"] == "seats"
    for first in (json.dumps({"token": "not-a-token"}), json.dumps({}), "not json"):
        with connect(_ws(sqlite_server, "/api/floor/stream")) as conn:
            conn.send(first)
            with pytest.raises(ConnectionClosed) as closed:
                conn.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


def test_a_handshake_from_a_page_of_another_origin_is_refused(real_floor: Server) -> None:
    server = real_floor
    path = "/api/floor/stream"
    with (
        pytest.raises(InvalidStatus) as refused,
        connect(_ws(server, path), origin=Origin("http://attacker.example")),
    ):
        pass
    assert refused.value.response.status_code == 403
    assert json.loads(refused.value.response.body or b"{}")["status"] == 403
    # The server's own origin and the allowed one reach the stream (which then asks for a
    # token: no token, closed 4401); a client that is no browser sends no Origin.
    own = server.url
    for origin in (Origin(own), Origin("https://pit.casino.example"), None):
        with connect(_ws(server, path), origin=origin) as conn:
            conn.send(json.dumps({}))
            with pytest.raises(ConnectionClosed) as closed:
                conn.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401, origin


def test_a_request_for_another_host_is_refused(real_floor: Server) -> None:
    server = real_floor
    port = server.port
    for host in ("attacker.example", f"attacker.example:{port}", "127.0.0.2", "[::2]"):
        response = httpx.get(f"{server.url}/api/par", headers={"Host": host})
        assert response.status_code == 400, host
        assert response.headers["content-type"] == PROBLEM
        assert "Host" in response.json()["detail"]
    # a page of attacker.example whose name was made to point at the server (DNS rebinding)
    rebound = f"ws://attacker.example:{port}/api/floor/stream"
    with (
        pytest.raises(InvalidStatus) as refused,
        connect(rebound, sock=socket.create_connection(("127.0.0.1", port))),
    ):
        pass
    assert refused.value.response.status_code == 400
    # a second Host (HTTP allows one) names no host to allow
    twice = _raw(port, f"GET /api/par HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()
                 + b"Host: attacker.example\r\nConnection: close\r\n\r\n")  # fmt: skip
    assert twice.startswith(b"HTTP/1.1 400"), twice[:200]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "tables.casino.example", "[::1]"):
        assert httpx.get(f"{server.url}/api/par", headers={"Host": host}).status_code == 200


def _raw(port: int, request: bytes) -> bytes:
    """Send ``request`` on a socket of its own and read the answer the server gives, until it
    closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
        return out


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_body_over_the_bound_is_refused_before_it_is_read(sqlite_server: Server) -> None:
    """A 30 MiB sign-in is refused 413 on its Content-Length alone: the server answers while
    none of its body has been sent; a chunked body as soon as its chunks pass the bound (the
    rest is never waited for); the server's memory does not grow by the body's size."""
    server = sqlite_server
    assert server.proc is not None
    port, pid = server.port, server.proc.pid
    head = f"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    before = _rss_kib(pid)
    size = 30 * 1024 * 1024
    answer = _raw(
        port,
        f"{head}Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n".encode(),
    )
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert PROBLEM.encode() in answer and b"no-store" in answer
    # chunks past the bound, and no last chunk: answered without waiting for the rest
    chunk = b"x" * 4096
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(MAX_BODY // 4096 + 2))
    answer = _raw(port, f"{head}Transfer-Encoding: chunked\r\n\r\n".encode() + chunks)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert f"over {MAX_BODY} bytes".encode() in answer
    assert _rss_kib(pid) - before < 20 * 1024  # well under the 30 MiB announced
    # A body within the bound is read as ever.
    fine = httpx.post(f"{server.url}/api/login", json={"username": "x" * 50, "password": "y"})
    assert fine.status_code == 401
    at_bound = httpx.post(f"{server.url}/api/login", content=b" " * MAX_BODY)
    assert at_bound.status_code == 422


PAGES = ("/", "/player", "/dealer", "/pit", "/audit", "/par-sheets")


def test_every_answer_carries_the_security_headers(sqlite_server: Server) -> None:
    server = sqlite_server
    token = server.client("player1").token
    bearer = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=server.url) as http:
        answers = {
            path: http.get(path)
            for path in (*PAGES, "/static/core.js", "/api/par", "/openapi.json")
        }
        answers["/api/me"] = http.get("/api/me", headers=bearer)
        answers["/api/tables/x/view"] = http.get(f"/api/tables/{TABLE}/view", headers=bearer)
        answers["401"] = http.get("/api/me")
        answers["404"] = http.get("/api/tables/no-such-table", headers=bearer)
        answers["login"] = http.post(
            "/api/login", json={"username": "player2", "password": "player2-demo"}
        )
        answers["413"] = http.post("/api/login", content=b" " * (MAX_BODY + 1))
    for name, answer in answers.items():
        csp = answer.headers.get("content-security-policy", "")
        directives = dict(d.strip().partition(" ")[::2] for d in csp.split(";"))
        assert directives.get("script-src") == "'self'", (name, csp)
        assert directives.get("frame-ancestors") == "'none'", (name, csp)
        assert "unsafe-inline" not in csp, (name, csp)
        assert answer.headers.get("x-content-type-options") == "nosniff", name
        assert answer.headers.get("referrer-policy") == "no-referrer", name
        assert answer.headers.get("x-frame-options") == "DENY", name
    private = ("/api/me", "/api/tables/x/view", "401", "404", "login", *PAGES)
    for name in private:  # a balance, a card, a token, or a page of them
        assert answers[name].headers.get("cache-control") == "no-store", name
    for name in ("/static/core.js", "/api/par"):  # the same for everyone
        assert "no-store" not in answers[name].headers.get("cache-control", ""), name


def test_docs_are_served_on_a_demo_floor_only(sqlite_server: Server, real_floor: Server) -> None:
    """``/docs`` loads Swagger UI from a CDN: served on a demo floor (its own CSP: scripts from
    the CDN and its start-up script by hash only), off on a real floor, where
    ``/openapi.json`` is still served."""
    demo = httpx.get(f"{sqlite_server.url}/docs")
    assert demo.status_code == 200
    csp = demo.headers["content-security-policy"]
    assert "script-src https://cdn.jsdelivr.net 'sha256-" in csp and "frame-ancestors 'none'" in csp
    assert "'unsafe-inline'" not in csp.split("script-src", 1)[1].split(";", 1)[0]
    assert httpx.get(f"{real_floor.url}/docs").status_code == 404
    assert httpx.get(f"{real_floor.url}/openapi.json").status_code == 200
