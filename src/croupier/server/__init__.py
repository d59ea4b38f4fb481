"""``croupier serve``: the live table system (FastAPI on Uvicorn) on the Game protocol.

::

    from croupier.server import FloorMode, create_app
    app = create_app("sqlite:///floor.sqlite", mode=FloorMode.DEMO)

See :mod:`croupier.server.app` (the application), :mod:`croupier.server.live_floor` (the
floor's collaborators), :mod:`croupier.server.commands` (the command layer: the access policy,
idempotency, the group commit; its docstring follows one wager through),
:mod:`croupier.server.round_service` (an action's records, ledger rows and events),
:mod:`croupier.server.read_model` (views, recall, the pit summary),
:mod:`croupier.server.ledger` (the double-entry chip ledger),
:mod:`croupier.server.live_shoe` and :mod:`croupier.server.shoe_floor` (a baccarat table's
shoe over many coups, its commitment and its deferred commission),
:mod:`croupier.server.auth` (roles, argon2 passwords, tokens), :mod:`croupier.server.sessions`
(idle and lifetime ends, sign-out, the token cache, streams closed when their session ends),
:mod:`croupier.server.bearer` (a request's or a stream's token), :mod:`croupier.server.perimeter`
(allowed hosts and origins, the body bound, the security headers), :mod:`croupier.server.db`
(engines and migrations) and ``/work/coord/API.md`` / ``/openapi.json`` for the API.
"""

from __future__ import annotations

from croupier.server.app import create_app
from croupier.server.auth import FloorMode
from croupier.server.run import serve

__all__ = ["FloorMode", "create_app", "serve"]
