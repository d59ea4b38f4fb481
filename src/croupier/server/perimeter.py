"""The server's perimeter: what every request meets before a route sees it.

:class:`PerimeterMiddleware` (an ASGI middleware around the whole application) answers, in
this order:

- **Host**: a request (or a WebSocket handshake) whose ``Host`` is not one of the allowed
  hosts is refused with 400 (problem+json): a page of another site whose name was made to
  point at this server (DNS rebinding) reaches nothing.  The allowed hosts are the address the
  server listens on and ``localhost``, ``127.0.0.1`` and ``::1``, plus each ``croupier serve
  --allowed-host NAME`` (the name the terminals use, e.g. ``tables.casino.example``);
- **Origin** (WebSocket handshakes): a browser's handshake from a page of another origin is
  refused with 403.  Allowed: the server's own origin (the scheme and ``Host`` of the
  handshake) and each ``--allowed-origin https://NAME[:PORT]`` (the origin of the pages where
  a proxy's scheme or port differs from the server's).  A handshake without ``Origin`` comes
  from a client that is not a browser and is let through (its token authenticates it);
- **body size**: a request body over :data:`MAX_BODY` bytes is refused with 413 before it is
  read: at once from its ``Content-Length``, else (a chunked body) as soon as the bytes
  received pass the bound.  A WebSocket message is bounded by the server (``ws_max_size``,
  :func:`croupier.server.run.serve`);
- **headers** on every answer: a Content-Security-Policy without inline script
  (:data:`CSP`; the API's ``/docs`` page sets its own), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: no-referrer``, ``X-Frame-Options: DENY`` (with ``frame-ancestors
  'none'``: no page of the system can be framed), ``Cross-Origin-Opener-Policy:
  same-origin``, ``Strict-Transport-Security`` when served over TLS, and ``Cache-Control:
  no-store`` on every answer but the static files and the par sheets (an answer may carry a
  balance, a card or a token).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

from croupier.core.errors import InvalidInput

__all__ = [
    "CSP",
    "LOCAL_HOSTS",
    "MAX_BODY",
    "Perimeter",
    "PerimeterMiddleware",
    "docs_page",
    "host_name",
    "public_path",
]

MAX_BODY = 64 * 1024
"""The largest request body read (bytes): the largest command is a few hundred bytes."""

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
WILDCARDS = ("0.0.0.0", "::", "")
"""Addresses that listen on every interface: no name of their own to allow."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The pages' Content-Security-Policy: scripts and styles only from the server's files (no
inline script, handler or style attribute), nothing framed, no plug-in."""

HSTS = "max-age=31536000"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def host_name(value: str) -> str:
    """The host of a ``Host`` header or a name given on the command line, without its port,
    lower case: ``[::1]:8000`` -> ``::1``, ``Tables.Example:443`` -> ``tables.example``."""
    text = value.strip().lower().rstrip(".")
    if text.startswith("["):
        return text[1 : text.find("]")] if "]" in text else text
    if text.count(":") == 1:
        return text.partition(":")[0]
    return text


def _origin(value: str) -> str:
    """An origin as compared: ``scheme://host[:port]``, lower case, no trailing slash."""
    return value.strip().lower().rstrip("/")


def public_path(path: str) -> bool:
    """Whether an answer at ``path`` is the same for everyone and may be cached: the static
    files and the par sheets (every other answer is ``no-store``)."""
    return path.startswith(("/static/", "/api/par/", "/par/")) or path == "/api/par"


@dataclass(frozen=True, slots=True)
class Perimeter:
    """The allowed hosts and origins, the body bound and whether ``/docs`` is served."""

    hosts: frozenset[str] = frozenset(LOCAL_HOSTS)
    origins: frozenset[str] = frozenset()
    max_body: int = MAX_BODY
    docs: bool = False
    """Serve the API's Swagger UI page at ``/docs`` (its scripts come from a CDN: a demo or
    training floor's; ``/openapi.json`` is always served)."""

    @classmethod
    def serving(
        cls,
        bound: str,
        *,
        hosts: Iterable[str] = (),
        origins: Iterable[str] = (),
        docs: bool = False,
        max_body: int = MAX_BODY,
    ) -> Perimeter:
        """The perimeter of a server listening on ``bound``: that address (unless it is every
        interface's) and the loopback names, plus ``hosts``; ``origins`` besides its own."""
        names = {host_name(h) for h in (*LOCAL_HOSTS, *hosts)}
        if host_name(bound) not in WILDCARDS:
            names.add(host_name(bound))
        for name in names:
            if not name or any(c in name for c in "/@ \t"):
                raise InvalidInput(f"--allowed-host {name!r} is not a host name")
        allowed = set()
        for origin in origins:
            scheme, sep, rest = _origin(origin).partition("://")
            if scheme not in ("http", "https") or not sep or not rest or "/" in rest:
                raise InvalidInput(
                    f"--allowed-origin {origin!r} is not an origin (http[s]://HOST[:PORT])"
                )
            allowed.add(_origin(origin))
        if max_body < 1:
            raise InvalidInput(f"the request body bound {max_body} must be positive")
        return cls(frozenset(names), frozenset(allowed), max_body, docs)

    def allows_host(self, header: str | None) -> bool:
        return bool(header) and host_name(header or "") in self.hosts

    def allows_origin(self, origin: str | None, scheme: str, host: str) -> bool:
        """Whether a WebSocket handshake from ``origin`` is allowed (``None``: not a browser);
        ``scheme``, ``host``: the handshake's (its own origin)."""
        if origin is None:
            return True
        own = f"{'https' if scheme in ('wss', 'https') else 'http'}://{host}"
        return _origin(origin) in self.origins | {_origin(own)}


def _problem(status: int, title: str, detail: str) -> bytes:
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail}
    return json.dumps(body).encode()


class PerimeterMiddleware:
    """The perimeter (see the module) around ``app``."""

    def __init__(self, app: App, perimeter: Perimeter) -> None:
        self.app = app
        self.perimeter = perimeter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http":
            await self._http(scope, receive, send)
        elif kind == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = _headers(scope)
        secured = _secure(send, scope)
        if not self.perimeter.allows_host(headers.get("host")):
            await _answer(secured, 400, "Bad Request", _bad_host(headers.get("host")))
            return
        bound = self.perimeter.max_body
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit():
                await _answer(secured, 400, "Bad Request", "Content-Length is not a number")
                return
            if int(length) > bound:
                await _answer(secured, 413, "Content Too Large", _too_large(bound))
                return
        elif "transfer-encoding" in headers:
            body = await _read_bounded(receive, bound)
            if body is None:
                await _answer(secured, 413, "Content Too Large", _too_large(bound))
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, secured)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = _headers(scope)
        host = headers.get("host")
        if not self.perimeter.allows_host(host):
            await _deny(scope, receive, send, 400, "Bad Request", _bad_host(host))
            return
        assert host is not None
        origin = headers.get("origin")
        if origin is not None and not self.perimeter.allows_origin(
            origin, str(scope.get("scheme", "ws")), host
        ):
            detail = f"a stream from a page of origin {origin[:100]!r} is refused"
            await _deny(scope, receive, send, 403, "Forbidden", detail)
            return
        await self.app(scope, receive, send)


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers by lower-case name (the first of each; a second ``Host`` drops
    the first, so that the request names no host to allow: HTTP allows one)."""
    out: dict[str, str] = {}
    for raw_name, raw_value in scope.get("headers", ()):
        name = raw_name.decode("latin-1").lower()
        if name == "host" and name in out:
            out["host"] = ""
        out.setdefault(name, raw_value.decode("latin-1"))
    return out


def _bad_host(host: str | None) -> str:
    shown = "none" if host is None else repr(host[:100])
    return f"the Host {shown} is not one this server answers to (croupier serve --allowed-host)"


def _too_large(bound: int) -> str:
    return f"the request body is over {bound} bytes"


def _secure(send: Send, scope: Scope) -> Send:
    """``send`` with the security headers added to the answer's start (those it sets itself,
    such as ``/docs``'s own CSP, kept)."""
    path = str(scope.get("path", ""))
    tls = scope.get("scheme") == "https"

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            raw = list(message.get("headers", ()))
            have = {name.lower() for name, _ in raw}
            for name, value in _security_headers(path, tls):
                if name not in have:
                    raw.append((name, value))
            message["headers"] = raw
        await send(message)

    return sending


def _security_headers(path: str, tls: bool) -> list[tuple[bytes, bytes]]:
    out = [
        (b"content-security-policy", CSP.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
        (b"cross-origin-opener-policy", b"same-origin"),
    ]
    if not public_path(path):
        out.append((b"cache-control", b"no-store"))
    if tls:
        out.append((b"strict-transport-security", HSTS.encode()))
    return out


async def _answer(send: Send, status: int, title: str, detail: str) -> None:
    body = _problem(status, title, detail)
    headers = [
        (b"content-type", b"application/problem+json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _read_bounded(receive: Receive, bound: int) -> bytes | None:
    """A chunked body read whole while it stays within ``bound`` bytes (``None`` as soon as
    it passes it: the rest is never read)."""
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = bytes(message.get("body", b""))
        size += len(chunk)
        if size > bound:
            return None
        parts.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(parts)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the body already read, then waits on the connection."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _deny(
    scope: Scope, receive: Receive, send: Send, status: int, title: str, detail: str
) -> None:
    """Refuse a WebSocket handshake: its HTTP status and problem document where the server
    can answer the handshake so, else a close with code 4000 + ``status``."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    if "websocket.http.response" in scope.get("extensions", {}):
        body = _problem(status, title, detail)
        headers = [
            (b"content-type", b"application/problem+json"),
            (b"content-length", str(len(body)).encode()),
        ]
        start = {"type": "websocket.http.response.start", "status": status, "headers": headers}
        await send(start)
        await send({"type": "websocket.http.response.body", "body": body})
    else:
        await send({"type": "websocket.close", "code": 4000 + status, "reason": title})


DOCS_CDN = "https://cdn.jsdelivr.net"


def docs_page(openapi_url: str, title: str) -> tuple[bytes, str]:
    """The API's Swagger UI page (FastAPI's: its scripts and styles from :data:`DOCS_CDN`) and
    its own Content-Security-Policy: scripts only from the CDN and the page's inline start-up
    script by its SHA-256, nothing framed.  Served only where ``Perimeter.docs`` says so."""
    from fastapi.openapi.docs import get_swagger_ui_html

    body = bytes(get_swagger_ui_html(openapi_url=openapi_url, title=title).body)
    inline = re.findall(rb"<script>(.*?)</script>", body, re.DOTALL)
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(s).digest()).decode()}'" for s in inline
    )
    csp = (
        f"default-src 'none'; script-src {DOCS_CDN} {hashes}; "
        f"style-src {DOCS_CDN} 'unsafe-inline'; img-src 'self' data: https://fastapi.tiangolo.com; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    return body, csp
