"""``GET /api/pit/shift``: the pit's shift figures of every table and the seated players'
ratings (:mod:`croupier.server.pit_figures`, kept by the read model), for the pit page.

The theoretical win prices each wager with the exact par sheet of the table's own rules,
computed in the par sheets' worker process (:class:`~croupier.server.par_routes.ParSheets`,
never in the server's): until a table's sheet is ready its ``theo`` is ``null`` and the answer
says ``theo_status: "computing"``; the page asks again.  A priced answer is given again to every
pit page while the floor's event counts stand still (at most :data:`KEPT_FOR` seconds).
"""

from __future__ import annotations

import json
import threading
import time
from datetime import datetime
from fractions import Fraction
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel

from croupier.server.live_tables import LiveTable
from croupier.server.par_routes import ParBusy, ParSheets, Refusal, RulesKey
from croupier.server.pit_figures import Edges, PitFigures, shift_at
from croupier.server.policy import resource
from croupier.server.table_registry import rules_json
from croupier.store.database import now

__all__ = ["PIT_SHIFT", "PlayerRatingOut", "ShiftOut", "TableShiftOut", "pit_router"]

PIT_SHIFT = "/api/pit/shift"

MAX_BACK = 3 * 31
"""The oldest shift asked for: a month of shifts back."""

KEPT_FOR = 5.0
"""Seconds an answer is given again to every pit page while the floor has not moved (its
event counts unchanged): many pages, one computation (the time seated and the pace move on
at the next)."""


class TableShiftOut(BaseModel):
    """One table's figures for the shift (money in integer cents, the exact value beside)."""

    table_id: str
    name: str
    game_name: str
    rounds: int
    voids: int
    hands: int
    drop: int
    win: int
    win_exact: str
    hold_percent: float | None
    hold_exact: str | None
    hands_per_hour: float | None
    average_wager: int | None
    theo: int | None
    theo_exact: str | None
    unpriced: list[str]
    first_opened: datetime | None
    last_ended: datetime | None


class PlayerRatingOut(BaseModel):
    """A seated player's session at the table."""

    player_id: str
    name: str
    username: str | None
    table_id: str
    table_name: str
    seats: list[int]
    balance: int
    seated_since: datetime | None
    minutes_seated: int | None
    hands: int
    wagered: int
    average_bet: int | None
    theo: int | None
    theo_exact: str | None


class ShiftOut(BaseModel):
    shift: str
    """``graveyard``, ``day`` or ``swing``."""
    start: datetime
    end: datetime
    zone: str
    theo_status: Literal["ready", "computing", "unavailable"]
    tables: list[TableShiftOut]
    players: list[PlayerRatingOut]


class _Pricing:
    """Each table's edges from the par sheets' worker, as far as they are ready."""

    def __init__(self, sheets: ParSheets | None) -> None:
        self.sheets = sheets
        self.status: Literal["ready", "computing", "unavailable"] = "ready"
        self._seen: dict[str, Edges | None] = {}

    def __call__(self, lt: LiveTable) -> Edges | None:
        if lt.id in self._seen:
            return self._seen[lt.id]
        found = self._edges(lt)
        self._seen[lt.id] = found
        return found

    def _edges(self, lt: LiveTable) -> Edges | None:
        if self.sheets is None:
            self.status = "unavailable"
            return None
        try:
            job = self.sheets.edges(RulesKey(json.dumps(rules_json(lt.game.rules), sort_keys=True)))
        except ParBusy:
            self.status = "computing"
            return None
        if not job.done():
            self.status = "computing"
            return None
        value = None if job.exception() is not None else job.result()
        if value is None or isinstance(value, Refusal):
            self.status = "unavailable" if self.status == "ready" else self.status
            return None
        return {name: Fraction(edge) for name, edge in value.items()}


def _guarded(request: Request) -> None:
    from croupier.server.commands import guard

    guard(resource("GET", PIT_SHIFT))(request)


def pit_router(sheets: ParSheets | None) -> APIRouter:
    """The pit's figures over the server's floor, priced by ``sheets``."""
    row = resource("GET", PIT_SHIFT)
    router = APIRouter(tags=["pit"])
    lock = threading.Lock()
    kept: dict[int, tuple[int, float, dict[str, Any]]] = {}

    @router.get(
        PIT_SHIFT,
        summary="The shift's figures of every table and the seated players' ratings",
        response_model=ShiftOut,
        dependencies=[Depends(_guarded)],
        openapi_extra={"x-roles": row.roles(), "x-access": row.cells()},
    )
    def shift(
        request: Request,
        back: Annotated[int, Query(ge=0, le=MAX_BACK, description="shifts before now")] = 0,
    ) -> dict[str, Any]:
        reads = request.app.state.floor.reads
        version = reads.pit.version()
        with lock:
            found = kept.get(back)
        if found is not None and found[0] == version and time.monotonic() - found[1] < KEPT_FOR:
            return found[2]
        answer = _answer(reads.figures, sheets, back)
        if answer["theo_status"] == "ready":
            with lock:
                kept[back] = (version, time.monotonic(), answer)
        return answer

    return router


def _answer(figures: PitFigures, sheets: ParSheets | None, back: int) -> dict[str, Any]:
    """The shift ``back`` shifts before now, computed now."""
    at = now()
    window = shift_at(at, back)
    pricing = _Pricing(sheets)
    tables = figures.shift(window, pricing, at)
    players = figures.players(pricing) if back == 0 else []
    return {
        "shift": window.name,
        "start": window.start,
        "end": window.end,
        "zone": str(window.start.tzinfo),
        "theo_status": pricing.status,
        "tables": [t.to_json() for t in tables],
        "players": [p.to_json(at) for p in players],
    }
