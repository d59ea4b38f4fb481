"""The FastAPI application: ``create_app(db_url)``; errors as application/problem+json.

Every route and stream has a row in the access policy (:mod:`croupier.server.policy`; the
application refuses to start with a route that has none): the roles that may use it are its
``x-roles`` in the OpenAPI document, the row its ``x-access``; a request without a valid bearer
token is refused with 401, a role or relation the row refuses with 403.  A refusal of a request
or a stream that carried a token (401 for a token that does not answer, 403), and a stream
closed because its session ended, is written to the security log
(:mod:`croupier.server.security_log`); a sign-in held back by a delay or a lock is 429 with
``Retry-After`` (:mod:`croupier.server.signin`).

Every request first meets the perimeter (:mod:`croupier.server.perimeter`: allowed hosts, a
stream's origin, the body bound, the security headers); sessions end idle, at their lifetime's
end and at sign-out (:mod:`croupier.server.sessions`), their ended rows pruned while the server
runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import importlib.util
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException

from croupier.core.errors import CroupierError, IllegalAction, InvalidInput, RulesViolation
from croupier.server.auth import Account, Auth, FloorMode
from croupier.server.commit import BatchFailed
from croupier.server.db import DEFAULT_SERVER_URL, connect
from croupier.server.live_floor import Floor
from croupier.server.perimeter import Perimeter, PerimeterMiddleware, docs_page
from croupier.server.policy import Refused, Unauthorized
from croupier.server.security_log import record_refusal
from croupier.server.sessions import SessionLimits
from croupier.server.signin import SignInLimits, Throttled
from croupier.server.streams import recheck_streams

__all__ = ["create_app", "prepare_app", "problem"]

log = logging.getLogger("croupier.server")

GC_YOUNG = 20_000
"""The youngest generation's threshold while the server runs (CPython's default is 700): a
command allocates thousands of short-lived objects, and with the default a full floor spent
about 7% of the server's CPU in the collector (``perf`` on ``bench_server.py --tables 20``).
CPython counts allocations less deaths of tracked objects against it, so where old objects die
as fast as new ones are made the young generation grows far past it before a collection,
which stops every thread (``benchmarks/gc_pauses.py``, docs/performance.md)."""

WORKER_THREADS = 512
"""Threads serving requests (Starlette's default is 40): each command waits in one for its
group commit (:mod:`croupier.server.commit`)."""

PROBLEM = "application/problem+json"

_HEADERS: dict[int, dict[str, str]] = {
    401: {"WWW-Authenticate": "Bearer"},
    # A 503 wrote nothing: the client may send the same request again after a second.
    503: {"Retry-After": "1"},
}
"""Headers a problem of that status carries."""


def problem(
    status: int,
    title: str,
    detail: str,
    *,
    section: str | None = None,
    input_: Any = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": title,
        "status": status,
        "detail": detail,
    }
    if section:
        body["section"] = section
    if input_ is not None:
        body["input"] = input_
    sent = {**_HEADERS.get(status, {}), **(headers or {})}
    return JSONResponse(body, status_code=status, media_type=PROBLEM, headers=sent or None)


def _croupier_status(exc: CroupierError) -> tuple[int, str]:
    if isinstance(exc, Throttled):
        return 429, "Too Many Requests"
    if isinstance(exc, Unauthorized):
        return 401, "Unauthorized"
    if isinstance(exc, Refused):
        return 403, "Forbidden"
    if isinstance(exc, InvalidInput | RulesViolation):
        return 422, type(exc).__name__
    if isinstance(exc, IllegalAction):
        return 409, "IllegalAction"
    return 409, type(exc).__name__


def _install_errors(app: FastAPI) -> None:
    @app.exception_handler(CroupierError)
    async def croupier_error(request: Request, exc: CroupierError) -> JSONResponse:
        status, title = _croupier_status(exc)
        if isinstance(exc, Throttled):
            headers = {"Retry-After": str(exc.retry_after)}
            return problem(status, title, exc.message, headers=headers)
        if isinstance(exc, Refused | Unauthorized):
            await anyio.to_thread.run_sync(_log_refusal, request, status, exc.message)
        return problem(status, title, exc.message, section=exc.section)

    @app.exception_handler(LookupError)
    async def not_found(_: Request, exc: LookupError) -> JSONResponse:
        return problem(404, "Not Found", str(exc.args[0]) if exc.args else "not found")

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", ""))}
            for e in exc.errors()
        ]
        detail = "; ".join(f"{'.'.join(e['loc'])}: {e['msg']}" for e in errors)
        return problem(422, "InvalidInput", detail or "invalid request", input_=errors)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        return problem(exc.status_code, "HTTP error", str(exc.detail))

    @app.exception_handler(BatchFailed)
    async def not_committed(_: Request, exc: BatchFailed) -> JSONResponse:
        return problem(503, "Service Unavailable", str(exc))

    @app.exception_handler(OperationalError)
    @app.exception_handler(PoolTimeout)
    async def database_busy(_: Request, exc: OperationalError | PoolTimeout) -> JSONResponse:
        # The database refused or timed out (SQLite's write lock held past its timeout, a
        # PostgreSQL connection lost), or no connection to it came free in time (the pool's
        # timeout): the transaction rolled back or never began, so nothing was written.
        log.warning("database unavailable: %s", getattr(exc, "orig", None) or exc)
        return problem(
            503,
            "Service Unavailable",
            "the database did not answer in time; nothing was written or acknowledged: "
            "retry the request (with the same Idempotency-Key for a command)",
        )

    @app.exception_handler(Exception)
    async def unexpected(_: Request, exc: Exception) -> JSONResponse:  # pragma: no cover
        log.exception("unexpected error", exc_info=exc)
        return problem(
            500, "Internal Server Error", "an unexpected error; nothing was acknowledged"
        )


def _log_refusal(request: Request, status: int, why: str) -> None:
    """A refused request that carried a token, in the security log (GLI-19: refused access is
    logged); a request without one (anyone's probe) and a refused sign-in (logged by
    :meth:`Auth.login`) are not."""
    if request.url.path in UNLOGGED or not request.headers.get("authorization"):
        return
    account: Account | None = getattr(request.state, "account", None)
    floor: Floor = request.app.state.floor
    record_refusal(
        floor.engine,
        username=account.username if account is not None else None,
        address=request.client.host if request.client is not None else None,
        status=status,
        method=request.method,
        path=request.url.path,
        why=why,
    )


UNLOGGED = frozenset({"/api/login", "/api/setup"})
"""Routes whose refusals their own code logs."""


def create_app(
    db_url: str = DEFAULT_SERVER_URL,
    *,
    mode: FloorMode = FloorMode.REAL,
    limits: SignInLimits | None = None,
    floor: Floor | None = None,
    web: bool = True,
    tables: frozenset[str] | None = None,
    perimeter: Perimeter | None = None,
    sessions: SessionLimits | None = None,
) -> FastAPI:
    """The live table system on the database at ``db_url`` (migrated on start).

    ``mode``: a demo floor (its tables and demo accounts set up where missing), a training
    floor (the same, every demo table a training table) or a real one (demo accounts refused;
    a one-time set-up token issued while it has no administrator, ``app.state.setup_token``).
    ``limits``: the sign-in delays and locks.  ``web``: mount the browser pages of
    :mod:`croupier.web` where that package is installed.  ``tables``: serve only these tables
    (one of several processes on one PostgreSQL database: each table is served by one process;
    the demo floor and the set-up token are then left to the process serving every table).
    ``perimeter``: the allowed hosts and origins, the body bound and ``/docs`` (default: the
    loopback names, ``/docs`` on a demo or training floor).  ``sessions``: the idle time and
    lifetime of a session (default 30 minutes, 12 hours).
    """
    if floor is None:
        engine = connect(db_url)
        floor = Floor(engine, tables=tables)
        floor.load()
    shield = perimeter if perimeter is not None else Perimeter(docs=mode is not FloorMode.REAL)
    app = _PREPARED.pop() if _PREPARED else _routed_app()
    app.state.floor = floor
    app.state.auth = Auth(floor.engine, mode=mode, limits=limits, sessions=sessions)
    app.state.demo_credentials = {}
    app.state.setup_token = None
    app.state.par_sheets = None
    if floor.serves is None:
        _set_up(app, floor, mode)
    if shield.docs:
        _install_docs(app)
    if web:
        app.state.par_sheets = _mount_web(app)
    app.add_middleware(PerimeterMiddleware, perimeter=shield)
    from croupier.server.policy import unlisted

    missing = unlisted(app)
    if missing:
        raise RuntimeError(f"routes without a row in the access policy: {', '.join(missing)}")
    return app


def _set_up(app: FastAPI, floor: Floor, mode: FloorMode) -> None:
    """The demo floor and its accounts (a training floor: its tables training tables), or a
    real floor's one-time set-up token while it has no administrator."""
    from croupier.core.modes import PlayMode
    from croupier.server.demo import setup_demo

    if mode is FloorMode.DEMO:
        app.state.demo_credentials = setup_demo(floor, app.state.auth)
    elif mode is FloorMode.TRAINING:
        app.state.demo_credentials = setup_demo(floor, app.state.auth, PlayMode.TRAINING)
    else:
        from croupier.server.accounts import issue_setup_token

        with floor.engine.begin() as conn:
            app.state.setup_token = issue_setup_token(conn)


_PREPARED: list[FastAPI] = []


def prepare_app() -> None:
    """Build the application and its routes of the next :func:`create_app` of this process now
    (their building is most of a server's start on a database that needs no migration): a
    launcher that forks servers calls it once before the forks, so that each server inherits
    them built.  The routes do not depend on the database or the floor (they read
    ``request.app.state``); the web pages, ``/docs`` and the perimeter are still added by
    :func:`create_app` (the perimeter is the server's own; the par sheets' cache belongs to
    the server that mounts it)."""
    _PREPARED[:] = [_routed_app()]


def _routed_app() -> FastAPI:
    """The application with its error handlers and its API routes, before its floor."""
    from croupier.server import routes

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Every waiting command holds a worker thread until its batch commits: enough threads
        # for a full floor's commands to share one commit.
        limiter = anyio.to_thread.current_default_thread_limiter()
        limiter.total_tokens = max(limiter.total_tokens, WORKER_THREADS)
        # The GIL's switch interval stays CPython's 5 ms: a tenth of it (for the writer to get
        # the GIL back sooner after each statement) cost more server CPU a command and more
        # context switches, and played fewer rounds (docs/performance.md, issue 38).
        pruning = asyncio.create_task(_prune_sessions(app.state.auth))
        touching = asyncio.create_task(_write_touches(app.state.auth))
        rechecking = asyncio.create_task(recheck_streams(app.state.auth))
        # What the server loaded (games, rules, the floor) lives as long as it does: out of
        # the collector's scans; the young generation collected less often.
        thresholds = gc.get_threshold()
        gc.collect()
        gc.freeze()
        gc.set_threshold(max(thresholds[0], GC_YOUNG), *thresholds[1:])
        yield
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        for task in (pruning, touching, rechecking):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        # the idle ends moved since the last write (lost in a crash: those sessions end sooner)
        with contextlib.suppress(OperationalError):
            await asyncio.to_thread(app.state.auth.tokens.write_touches)
        if app.state.par_sheets is not None:
            app.state.par_sheets.close()
        floor: Floor = app.state.floor
        floor.close()

    app = FastAPI(
        title="croupier live tables",
        version="1",
        description="The table game system: rounds, chips, meters and views by role.",
        lifespan=lifespan,
        docs_url=None,  # served only where the perimeter says (_install_docs)
        redoc_url=None,
    )
    _install_errors(app)
    routes.install(app)
    return app


def _mount_web(app: FastAPI) -> Any:
    """The web pages mounted where :mod:`croupier.web` is installed; their par-sheet cache
    (closed with the application), else ``None``."""
    if importlib.util.find_spec("croupier.web") is None:
        return None
    from croupier.server.pages import mount

    return mount(app)


def _install_docs(app: FastAPI) -> None:
    """``/docs``: the API's Swagger UI page with its own Content-Security-Policy."""
    body, csp = docs_page("/openapi.json", f"{app.title} - API")

    async def docs() -> HTMLResponse:
        return HTMLResponse(body, headers={"Content-Security-Policy": csp})

    app.add_api_route("/docs", docs, methods=["GET"], include_in_schema=False)


async def _write_touches(auth: Auth) -> None:
    """Write the idle ends the requests moved every ``write_every()``, together
    (:meth:`Tokens.write_touches <croupier.server.sessions.Tokens.write_touches>`)."""
    every = auth.tokens.limits.write_every().total_seconds()
    while True:
        await asyncio.sleep(every)
        try:
            await asyncio.to_thread(auth.tokens.write_touches)
        except OperationalError as exc:  # the database busy: kept for the next round
            log.warning("the sessions' idle ends not written yet: %s", exc.orig)


async def _prune_sessions(auth: Auth) -> None:
    """Delete the ended sessions and the stale cache entries every ``prune_every()``."""
    every = auth.tokens.limits.prune_every().total_seconds()
    while True:
        await asyncio.sleep(every)
        try:
            pruned = await asyncio.to_thread(auth.tokens.prune)
        except OperationalError as exc:  # the database busy: the next round prunes them
            log.warning("sessions not pruned: %s", exc.orig)
        else:
            log.debug("%d ended sessions pruned", pruned)
