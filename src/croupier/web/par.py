"""Par sheets over HTTP: computed on demand in one background worker and kept for the life of
the process.

Some exact sheets take a minute or more cold (the block solvers of Four Card Poker and Ultimate
Texas Hold 'Em), so a request never waits for one: the first request starts the computation and
answers ``202`` with ``{"status": "computing"}``; the page polls until the sheet is ready.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response

from croupier.errors import CroupierError, InvalidInput
from croupier.games import GAMES, Game, game_class, get_game

__all__ = ["ParSheets", "SheetKey", "game_catalogue", "par_router"]

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


class ParSheets:
    """The cache of par sheets (JSON payload and HTML report), computed one at a time by a
    daemon worker thread (so a computation under way never holds up the server's exit)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: dict[tuple[str, SheetKey], Future[Any]] = {}
        self._queue: queue.Queue[tuple[Future[Any], Callable[[], Any]] | None] = queue.Queue()
        self._worker = threading.Thread(target=self._work, name="par-sheets", daemon=True)
        self._worker.start()

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            job, work = item
            if not job.set_running_or_notify_cancel():
                continue
            try:
                job.set_result(work())
            except BaseException as exc:  # handed to the request that reads the job
                job.set_exception(exc)

    def _job(self, kind: str, key: SheetKey, work: Callable[[], Any]) -> Future[Any]:
        with self._lock:
            job = self._jobs.get((kind, key))
            if job is None:
                job = Future()
                self._jobs[(kind, key)] = job
                self._queue.put((job, work))
            return job

    def sheet(self, key: SheetKey) -> Future[Any]:
        """The JSON payload of ``key`` (title, sign, strategy, sheet), started if new."""
        return self._job("sheet", key, lambda: _sheet_payload(key))

    def report(self, key: SheetKey) -> Future[Any]:
        """The self-contained HTML report of ``key``, started if new (after its sheet, which
        the one worker computes first)."""
        sheet_job = self.sheet(key)

        def work() -> str:
            from croupier.analysis.report import render_report

            payload = sheet_job.result()
            return render_report(key.game_object(), payload["_sheet"])

        return self._job("html", key, work)

    def close(self) -> None:
        """Stop the worker after the computation under way."""
        self._queue.put(None)


def _problem(status: int, title: str, detail: str, **extra: Any) -> JSONResponse:
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail, **extra}
    return JSONResponse(body, status_code=status, media_type=PROBLEM)


def _error(exc: CroupierError) -> JSONResponse:
    extra = {"section": exc.section} if exc.section else {}
    return _problem(422, type(exc).__name__, exc.message, **extra)


def _computing(key: SheetKey) -> JSONResponse:
    return JSONResponse({"status": "computing", "game": key.game}, status_code=202)


def _ready(job: Future[Any]) -> tuple[Any, JSONResponse | None]:
    if not job.done():
        return None, None
    exc = job.exception()
    if exc is None:
        return job.result(), None
    if isinstance(exc, CroupierError):
        return None, _error(exc)
    return None, _problem(503, "par sheet failed", f"{type(exc).__name__}: {exc}")


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

    @router.get("/api/par", summary="Every game and its pay tables")
    def catalogue() -> list[dict[str, Any]]:
        return game_catalogue()

    @router.get("/api/par/{game}", summary="The exact par sheet and strategy of a game")
    def sheet(game: str, paytable: PaytableQuery = None) -> Response:
        key = key_or_problem(game, paytable)
        if isinstance(key, JSONResponse):
            return key
        payload, problem = _ready(cache.sheet(key))
        if problem is not None:
            return problem
        if payload is None:
            return _computing(key)
        return JSONResponse({"status": "ready", "game": key.game, **_public(payload)})

    @router.get("/par/{game}.json", summary="Download the par sheet as JSON")
    def sheet_json(game: str, paytable: PaytableQuery = None) -> Response:
        key = key_or_problem(game, paytable)
        if isinstance(key, JSONResponse):
            return key
        payload, problem = _ready(cache.sheet(key))
        if problem is not None:
            return problem
        if payload is None:
            return _computing(key)
        body = json.dumps(payload["sheet"], indent=2) + "\n"
        disposition = f'attachment; filename="par-{key.stem}.json"'
        return Response(
            body, media_type="application/json", headers={"Content-Disposition": disposition}
        )

    @router.get("/par/{game}.html", summary="Download the par sheet as a self-contained report")
    def sheet_html(game: str, paytable: PaytableQuery = None) -> Response:
        key = key_or_problem(game, paytable)
        if isinstance(key, JSONResponse):
            return key
        report, problem = _ready(cache.report(key))
        if problem is not None:
            return problem
        if report is None:
            return _computing(key)
        disposition = f'attachment; filename="par-{key.stem}.html"'
        return Response(
            report, media_type="text/html", headers={"Content-Disposition": disposition}
        )

    return router
