"""Par sheets over HTTP: computed on demand in a worker process of their own (never in the
server's: a computation cannot slow a table) and kept for the life of the server.

Some exact sheets take a minute or more cold (the block solvers of Four Card Poker and Ultimate
Texas Hold 'Em), so a request never waits for one: the first request starts the computation and
answers ``202`` with ``{"status": "computing"}``; the page polls until the sheet is ready.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response

from croupier.core.errors import CroupierError, InvalidInput
from croupier.games import GAMES, Game, game_class, get_game

__all__ = ["ParSheets", "RulesKey", "SheetKey", "game_catalogue", "par_router"]

PROBLEM = "application/problem+json"


@dataclass(frozen=True, slots=True)
class SheetKey:
    """One par sheet: a game slug and the pay tables chosen (wager, letter), sorted."""

    game: str
    paytables: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, game: str, paytables: Sequence[str]) -> SheetKey:
        """The key for ``game`` (slug or alias) and ``WAGER=LETTER`` items; raises
        :class:`InvalidInput` naming the bad item."""
        slug = game_class(game).slug
        chosen: dict[str, str] = {}
        for item in paytables:
            wager, sep, letter = item.partition("=")
            if not sep or not wager or not letter:
                raise InvalidInput(f"paytable {item!r} must be WAGER=LETTER")
            chosen[wager] = letter
        return cls(game=slug, paytables=tuple(sorted(chosen.items())))

    def game_object(self) -> Game:
        """The game under its default rules with these pay tables (validated by the game)."""
        if not self.paytables:
            return get_game(self.game)
        return get_game({"game": self.game, "paytables": dict(self.paytables)})

    @property
    def stem(self) -> str:
        """A file name for downloads: ``three-card-poker`` or ``three-card-poker_pair_plus-B``."""
        parts = [self.game, *(f"{w}-{letter}" for w, letter in self.paytables)]
        return "_".join(parts).replace("/", "-")


@dataclass(frozen=True, slots=True)
class RulesKey:
    """A live table's own Rules Submission (JSON, as the table registry stores it): the pit's
    theoretical win prices its wagers with the par sheet of exactly these rules."""

    rules: str


def _edges(key: RulesKey) -> dict[str, str]:
    """In the worker: each sheet's exact house edge (``"p/q"``) of the table's par sheet."""
    from croupier.analysis import par_sheet
    from croupier.analysis.par import exact
    from croupier.rules.submission import load_rules

    sheet = par_sheet(get_game(load_rules(json.loads(key.rules))))
    return {name: exact(ws.house_edge) for name, ws in sheet.sheets.items()}


def game_catalogue() -> list[dict[str, Any]]:
    """Every game with its title, chapter, wagers and the pay tables each wager may use."""
    out: list[dict[str, Any]] = []
    for slug, cls in GAMES.items():
        game = cls()
        out.append(
            {
                "game": slug,
                "title": cls.title,
                "chapter": cls.chapter,
                "wagers": list(cls.wagers),
                "paytables": {w: list(tables) for w, tables in cls.paytables.items()},
                "current": {
                    w: t.letter for w in cls.paytables if (t := game.paytable(w)) is not None
                },
                "progressive_paytables": list(cls.progressive_paytables),
                "sign": game.sign(),
            }
        )
    return out


def _sheet_payload(key: SheetKey) -> dict[str, Any]:
    from croupier.analysis import par_sheet, strategy_text

    game = key.game_object()
    sheet = par_sheet(game)
    try:
        strategy = strategy_text(game)
    except CroupierError as exc:
        strategy = str(exc)
    return {
        "title": game.title,
        "chapter": game.chapter,
        "sign": game.sign(),
        "strategy": strategy,
        "sheet": sheet.to_json(),
        "_sheet": sheet,
    }


MAX_PENDING = 8
"""Par sheets waiting or under way at most: a request for another is answered 503 (Retry-After)
until one is done."""

MAX_KEPT = 64
"""Par sheets and reports kept (the oldest finished ones are dropped past it)."""

WORKER_NICENESS = 10
"""The worker process's scheduling niceness: a computation yields the CPU to the tables."""


class ParBusy(Exception):
    """Too many par sheets waiting (HTTP 503)."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """A par sheet the game refused to compute (its error, carried back from the worker)."""

    title: str
    message: str
    section: str | None


def _compute(kind: str, key: SheetKey | RulesKey, sheets: dict[SheetKey, Any]) -> Any:
    """In the worker: the sheet's public payload, or its HTML report (from the sheet it has
    computed, else computed now), or a table's edges (``RulesKey``)."""
    from croupier.analysis import par_sheet

    if isinstance(key, RulesKey):
        return _edges(key)
    if kind == "sheet":
        payload = _sheet_payload(key)
        sheets[key] = payload.pop("_sheet")
        return payload
    from croupier.analysis.report import render_report

    game = key.game_object()
    sheet = sheets.get(key)
    if sheet is None:
        sheet = sheets[key] = par_sheet(game)
    return render_report(game, sheet)


def _work(inbox: Connection, outbox: Connection) -> None:
    """The worker: one job after another from ``inbox``, each answered on ``outbox``, until
    the server closes ``inbox`` (or ends)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C stops the server
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    sheets: dict[SheetKey, Any] = {}
    while True:
        try:
            ident, kind, key = inbox.recv()
        except (EOFError, OSError):
            return
        try:
            outcome: tuple[str, Any] = ("ok", _compute(kind, key, sheets))
        except CroupierError as exc:
            outcome = ("refused", Refusal(type(exc).__name__, exc.message, exc.section))
        except Exception as exc:  # handed to the request that reads the job
            outcome = ("failed", f"{type(exc).__name__}: {exc}")
        outbox.send((ident, outcome))


def worker_main(argv: Sequence[str]) -> None:
    """``python -m croupier.server.par_worker IN_FD OUT_FD``: the worker process on the pipes the
    server passed it."""
    _work(Connection(int(argv[0]), writable=False), Connection(int(argv[1]), readable=False))


@dataclass(eq=False)
class _Worker:
    process: subprocess.Popen[bytes]
    inbox: Connection
    """The server's end: jobs sent to the worker."""
    outbox: Connection
    """The server's end: the worker's answers."""
    running: dict[int, Future[Any]] = field(default_factory=dict)


class ParSheets:
    """The cache of par sheets (JSON payload and HTML report), computed one at a time in a
    worker process of its own, started at the first request and run at a lower priority
    (:data:`WORKER_NICENESS`): a computation never runs in the server's process, so it never
    holds the server's interpreter or its event loop, and a table's commands go first on the
    CPU.  At most :data:`MAX_PENDING` wait (:class:`ParBusy` past it), :data:`MAX_KEPT` are
    kept.  A worker that dies fails its jobs (asked again, they start again in a new one)."""

    def __init__(self, *, pending: int = MAX_PENDING, kept: int = MAX_KEPT) -> None:
        self.pending = pending
        self.kept = kept
        self._lock = threading.Lock()
        self._jobs: OrderedDict[tuple[str, SheetKey | RulesKey], Future[Any]] = OrderedDict()
        self._ids = itertools.count(1)
        self._worker: _Worker | None = None
        self._closed = False

    def worker_pid(self) -> int | None:
        """The worker process's id (``None`` before the first job)."""
        with self._lock:
            return self._worker.process.pid if self._worker is not None else None

    def _start(self) -> _Worker:
        """A worker process of its own (``python -m croupier.server.par_worker``: a new
        interpreter, not a fork of the threaded server) on two pipes."""
        jobs_in, jobs_out = os.pipe()
        answers_in, answers_out = os.pipe()
        process = subprocess.Popen(
            [sys.executable, "-m", "croupier.server.par_worker", str(jobs_in), str(answers_out)],
            pass_fds=(jobs_in, answers_out),
            stdin=subprocess.DEVNULL,
        )
        os.close(jobs_in)
        os.close(answers_out)
        worker = _Worker(
            process,
            Connection(jobs_out, readable=False),
            Connection(answers_in, writable=False),
        )
        threading.Thread(
            target=self._collect, args=(worker,), name="par-sheets-results", daemon=True
        ).start()
        return worker

    def _collect(self, worker: _Worker) -> None:
        """Settle each job the worker answers; fail the rest once it has ended (its end of
        the pipe closed)."""
        while True:
            try:
                ident, (status, value) = worker.outbox.recv()
            except (EOFError, OSError):
                break
            with self._lock:
                job = worker.running.pop(ident, None)
            if job is None:
                continue
            if status in ("ok", "refused"):
                job.set_result(value)  # a refusal is answered as the game's error (422)
            else:
                job.set_exception(RuntimeError(str(value)))
        self._lost(worker)

    def _lost(self, worker: _Worker) -> None:
        with self._lock:
            failed = list(worker.running.values())
            worker.running.clear()
            for key in [k for k, j in self._jobs.items() if j in failed]:
                del self._jobs[key]  # asked again, it starts again
            if self._worker is worker:
                self._worker = None
        for job in failed:
            job.set_exception(RuntimeError("the par-sheet worker stopped"))
        worker.inbox.close()
        worker.outbox.close()
        worker.process.wait()

    def _job(self, kind: str, key: SheetKey | RulesKey) -> Future[Any]:
        with self._lock:
            job = self._jobs.get((kind, key))
            if job is not None:
                self._jobs.move_to_end((kind, key))
                return job
            if self._closed:
                raise ParBusy("the server is stopping")
            if sum(not j.done() for j in self._jobs.values()) >= self.pending:
                raise ParBusy(f"{self.pending} par sheets are being computed; ask again soon")
            if self._worker is None:
                self._worker = self._start()
            job = Future()
            ident = next(self._ids)
            self._worker.running[ident] = job
            self._worker.inbox.send((ident, kind, key))
            self._jobs[(kind, key)] = job
            done = [k for k, j in self._jobs.items() if j.done()]
            for old in done[: max(0, len(self._jobs) - self.kept)]:
                del self._jobs[old]
            return job

    def sheet(self, key: SheetKey) -> Future[Any]:
        """The JSON payload of ``key`` (title, sign, strategy, sheet), started if new."""
        return self._job("sheet", key)

    def report(self, key: SheetKey) -> Future[Any]:
        """The self-contained HTML report of ``key``, started if new."""
        return self._job("html", key)

    def edges(self, key: RulesKey) -> Future[Any]:
        """A live table's exact house edges by sheet (``{"base": "p/q", ...}``), started if
        new (the game's refusal: a :class:`Refusal`)."""
        return self._job("edges", key)

    def close(self) -> None:
        """Stop the worker process (a computation under way is abandoned)."""
        with self._lock:
            self._closed = True
            worker = self._worker
        if worker is not None:
            worker.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                worker.process.wait(timeout=5)


def _problem(status: int, title: str, detail: str, **extra: Any) -> JSONResponse:
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail, **extra}
    return JSONResponse(body, status_code=status, media_type=PROBLEM)


def _error(exc: CroupierError) -> JSONResponse:
    extra = {"section": exc.section} if exc.section else {}
    return _problem(422, type(exc).__name__, exc.message, **extra)


def _computing(key: SheetKey) -> JSONResponse:
    return JSONResponse({"status": "computing", "game": key.game}, status_code=202)


def _ready(ask: Callable[[], Future[Any]]) -> tuple[Any, JSONResponse | None]:
    """The job's value once it is done (``None`` while it is computing), or the problem to
    answer: the game's refusal (422), a failure (503) or too many waiting (503)."""
    try:
        job = ask()
    except ParBusy as exc:
        busy = _problem(503, "par sheets busy", str(exc))
        busy.headers["Retry-After"] = "5"
        return None, busy
    if not job.done():
        return None, None
    failure = job.exception()
    if failure is not None:
        return None, _problem(503, "par sheet failed", str(failure))
    value = job.result()
    if isinstance(value, Refusal):
        extra = {"section": value.section} if value.section else {}
        return None, _problem(422, value.title, value.message, **extra)
    return value, None


def _public(payload: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if not k.startswith("_")}


PaytableQuery = Annotated[list[str] | None, Query(description="WAGER=LETTER, repeatable")]


def par_router(cache: ParSheets) -> APIRouter:
    """The par-sheet routes over ``cache``."""
    router = APIRouter(tags=["par sheets"])

    def key_or_problem(game: str, paytable: list[str] | None) -> SheetKey | JSONResponse:
        if game not in GAMES and all(game not in c.aliases for c in GAMES.values()):
            return _problem(404, "unknown game", f"game {game!r} is unknown", input=game)
        try:
            key = SheetKey.parse(game, paytable or ())
            key.game_object()
        except CroupierError as exc:
            return _error(exc)
        return key

    def ready(
        game: str, paytable: list[str] | None, fetch: Callable[[SheetKey], Future[Any]]
    ) -> tuple[SheetKey, Any] | JSONResponse:
        """The sheet's key and what ``fetch`` has ready for it; else the answer to give (the
        refusal of the game or pay tables, the computation's problem, or "computing")."""
        key = key_or_problem(game, paytable)
        if isinstance(key, JSONResponse):
            return key
        payload, problem = _ready(partial(fetch, key))
        if problem is not None:
            return problem
        if payload is None:
            return _computing(key)
        return key, payload

    @router.get("/api/par", summary="Every game and its pay tables")
    def catalogue() -> list[dict[str, Any]]:
        return game_catalogue()

    @router.get("/api/par/{game}", summary="The exact par sheet and strategy of a game")
    def sheet(game: str, paytable: PaytableQuery = None) -> Response:
        got = ready(game, paytable, cache.sheet)
        if isinstance(got, JSONResponse):
            return got
        key, payload = got
        return JSONResponse({"status": "ready", "game": key.game, **_public(payload)})

    @router.get("/par/{game}.json", summary="Download the par sheet as JSON")
    def sheet_json(game: str, paytable: PaytableQuery = None) -> Response:
        got = ready(game, paytable, cache.sheet)
        if isinstance(got, JSONResponse):
            return got
        key, payload = got
        body = json.dumps(payload["sheet"], indent=2) + "\n"
        disposition = f'attachment; filename="par-{key.stem}.json"'
        return Response(
            body, media_type="application/json", headers={"Content-Disposition": disposition}
        )

    @router.get("/par/{game}.html", summary="Download the par sheet as a self-contained report")
    def sheet_html(game: str, paytable: PaytableQuery = None) -> Response:
        got = ready(game, paytable, cache.report)
        if isinstance(got, JSONResponse):
            return got
        key, report = got
        disposition = f'attachment; filename="par-{key.stem}.html"'
        return Response(
            report, media_type="text/html", headers={"Content-Disposition": disposition}
        )

    return router
