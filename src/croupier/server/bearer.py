"""Bearer tokens on requests and streams, and signing out (``POST /api/logout``).

A request carries its token in ``Authorization: Bearer TOKEN``.  A stream carries it in the
same header at its handshake, or, where the client cannot set a header (a browser's
``WebSocket``), as its first message ``{"token": "TOKEN"}``, sent within
:data:`FIRST_MESSAGE_WAIT` seconds of the connection opening.  A token is never taken from a
URL (where access logs and proxies would record it): a stream whose address holds ``token=``
is refused (400).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from fastapi import Request, WebSocket
from pydantic import BaseModel

from croupier.server.auth import Account, Auth, AuthError
from croupier.server.policy import Refused, Unauthorized
from croupier.store import now

__all__ = [
    "DEVICE_PREFIX",
    "FIRST_MESSAGE_WAIT",
    "SignedOut",
    "TokenRefused",
    "UrlToken",
    "authenticate",
    "bearer",
    "client_address",
    "install_logout",
    "stream_token",
]

FIRST_MESSAGE_WAIT = 10.0
"""Seconds a stream opened without an ``Authorization`` header waits for its first message."""

LOGIN_FIRST = "a bearer token is required (POST /api/login)"
DEVICE_PREFIX = "reader-"
"""A card reader's token begins so (:mod:`croupier.server.devices`): it reports for its own
table and is refused every other route (403, the access policy's device relations)."""


class UrlToken(Exception):
    """A stream whose address carries a token (HTTP 400)."""


class TokenRefused(Unauthorized):
    """A stream's token that does not answer (unknown, ended, its account disabled): a refusal
    the security log records, unlike a stream that sent no token."""


def bearer(header: str | None) -> str:
    """The token of an ``Authorization: Bearer TOKEN`` header (:class:`Unauthorized`
    without one)."""
    scheme, _, token = (header or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized(LOGIN_FIRST)
    return token.strip()


def client_address(request: Request) -> str | None:
    """The address the request came from (the peer of the connection; behind a proxy, the
    proxy's)."""
    return request.client.host if request.client is not None else None


def authenticate(auth: Auth, header: str | None) -> Account:
    """The account of a request's ``Authorization`` header (:class:`Unauthorized` without a
    valid token)."""
    token = bearer(header)
    if token.startswith(DEVICE_PREFIX):
        raise Refused(
            "a card reader's token reports for its own table only "
            "(POST /api/tables/{table_id}/reader/messages)"
        )
    try:
        return auth.verify(token)
    except AuthError as exc:
        raise Unauthorized(str(exc)) from None


async def stream_token(websocket: WebSocket) -> tuple[Account, str]:
    """The account and token of a stream: from its ``Authorization`` header (checked before
    the connection is accepted), else from its first message (the connection accepted to
    read it).  :class:`UrlToken` where the address holds a token, :class:`Unauthorized`
    where no token comes, :class:`TokenRefused` where the token does not answer."""
    if "token" in websocket.query_params:
        raise UrlToken(
            "a token in the stream's address is refused (address logs keep it): send it in "
            'the Authorization header or as the first message {"token": ...}'
        )
    auth: Auth = websocket.app.state.auth
    header = websocket.headers.get("authorization")
    if header is None:
        await websocket.accept()
        token = await _first_message(websocket)
    else:
        token = bearer(header)
    if token.startswith(DEVICE_PREFIX):
        raise Refused("a card reader's token reads no stream: it reports for its own table")
    try:
        account = await asyncio.to_thread(auth.verify, token)
    except AuthError as exc:
        raise TokenRefused(str(exc)) from None
    return account, token


async def _first_message(websocket: WebSocket) -> str:
    try:
        async with asyncio.timeout(FIRST_MESSAGE_WAIT):
            message = await websocket.receive()
    except TimeoutError:
        raise Unauthorized(f"no token within {FIRST_MESSAGE_WAIT:g} s: {LOGIN_FIRST}") from None
    text = message.get("text")
    try:
        data: Any = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        data = None
    token = data.get("token") if isinstance(data, dict) else None
    if not isinstance(token, str) or not token:
        raise Unauthorized('the first message must be {"token": "<bearer token>"}')
    return token


class SignedOut(BaseModel):
    """The answer to ``POST /api/logout``: whose session ended, and when."""

    username: str
    ended_at: datetime


def install_logout(op: Callable[..., Callable[[Callable[..., Any]], Callable[..., Any]]]) -> None:
    """``POST /api/logout`` on the route decorator ``op`` (:func:`croupier.server.routes`'s,
    guarded by the access policy): the caller's session ends (:meth:`Auth.revoke`)."""

    @op("POST", "/api/logout", response_model=SignedOut)
    def logout(request: Request) -> SignedOut:
        """End the session of the request's token: the token is refused from now on, by
        every server process of the floor (in this one at once), and its open streams
        close (code 1008); the security log records the sign-out."""
        auth: Auth = request.app.state.auth
        account: Account = request.state.account
        address = client_address(request)
        auth.revoke(bearer(request.headers.get("authorization")), address=address)
        return SignedOut(username=account.username, ended_at=now())
