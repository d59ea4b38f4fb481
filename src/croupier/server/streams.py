"""The WebSocket streams: a table's events as each connection may see them, and the floor.

Both are resumable: every message carries ``seq``; a client that reconnects with
``since=<the last seq it received>`` misses nothing.

- ``/api/tables/{id}/stream``: the table's committed events in order (``seq`` 1, 2, ...), each
  round record as the account's point of view may see it (the engine's ``records_for``: a
  face-down card it may not see arrives as ``card_hidden``).  Events live in the database, so a
  stream resumes across reconnects, restarts and server processes.
- ``/api/floor/stream``: the pit view, a state stream.  Each message is the whole floor
  (tables, their phases and rounds, meters) at version ``seq``: the sum of every table's
  committed event count, read from the database, so it only grows, survives a restart and is
  the same in every server process.  ``data.tables_seq`` gives each table's own ``seq``, from
  which its table stream resumes.  A client reconnecting with ``since=N`` receives the current
  floor at once if anything changed after version ``N`` (none of the changes is lost: the
  message holds the state they made), else the next change.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from sqlalchemy import func, select

from croupier.server.auth import Account, Role
from croupier.server.floor import FLOOR, Floor, LiveTable, Unauthorized, event_for, pov_of
from croupier.server.schema import table_events
from croupier.server.views import ViewPov

__all__ = ["events_seen", "floor_versions", "install_streams"]

BATCH = 500
POLL = 2.0
"""Seconds between two reads of the database while no commit of this process wakes a stream
(other server processes commit to the same database)."""


def floor_versions(floor: Floor) -> dict[str, int]:
    """Each table's committed event count (its stream's last ``seq``), from the database."""
    with floor.reading() as conn:
        rows = conn.execute(
            select(table_events.c.table_id, func.max(table_events.c.seq)).group_by(
                table_events.c.table_id
            )
        ).all()
    return {str(t): int(n) for t, n in rows}


def install_streams(app: FastAPI) -> None:
    """The table and floor WebSocket streams."""
    from croupier.server.routes import authenticate

    @app.websocket("/api/tables/{table_id}/stream")
    async def table_stream(
        websocket: WebSocket, table_id: str, token: str = "", since: int = 0
    ) -> None:
        floor: Floor = websocket.app.state.floor
        try:
            account = authenticate(websocket.app.state.auth, f"Bearer {token}")
        except Unauthorized:
            await websocket.close(code=4401)
            return
        lt = floor.tables.get(table_id)
        if lt is None:
            await websocket.close(code=4404)
            return
        await websocket.accept()
        await _pump(websocket, floor, lt, account, max(0, since))

    @app.websocket("/api/floor/stream")
    async def floor_stream(websocket: WebSocket, token: str = "", since: int = 0) -> None:
        floor: Floor = websocket.app.state.floor
        try:
            authenticate(websocket.app.state.auth, f"Bearer {token}")
        except Unauthorized:
            await websocket.close(code=4401)
            return
        await websocket.accept()
        await _pump_floor(websocket, floor, max(0, since))


def events_seen(
    floor: Floor, account: Account, lt: LiveTable, since: int, limit: int = BATCH
) -> list[dict[str, Any]]:
    """The table's committed events after ``since`` as ``account`` may see them.  A player
    sees a round's events from the seats they held in *that* round (its stored players), so
    a player who takes a seat later never receives the cards of the seat's earlier rounds."""
    role_pov = None if account.role is Role.PLAYER else pov_of(account, lt)
    out = []
    for seq, type_, data, round_id in floor.events(lt.id, since, limit):
        pov = role_pov
        if pov is None:
            players = floor.players_of(round_id) if round_id is not None else {}
            seats = frozenset(s for s, p in players.items() if p == account.player_id)
            pov = ViewPov("player", seats)
        out.append({"seq": seq, "type": type_, "data": event_for(data, pov)})
    return out


async def _waiter(floor: Floor, stream: str) -> tuple[asyncio.Event, Callable[[], None]]:
    loop = asyncio.get_running_loop()
    event = asyncio.Event()

    def wake() -> None:
        loop.call_soon_threadsafe(event.set)

    return event, floor.notifier.subscribe(stream, wake)


async def _pump(
    websocket: WebSocket, floor: Floor, lt: LiveTable, account: Account, since: int
) -> None:
    """Send every event after ``since`` as the account may see it, then each new one."""
    event, cancel = await _waiter(floor, lt.id)
    last = since
    try:
        while True:
            event.clear()
            batch = await asyncio.to_thread(events_seen, floor, account, lt, last, BATCH)
            for message in batch:
                await websocket.send_json(message)
                last = message["seq"]
            if len(batch) == BATCH:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout=POLL)
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        cancel()


async def _pump_floor(websocket: WebSocket, floor: Floor, since: int) -> None:
    """The floor at its current version whenever it is past the last one sent."""
    from croupier.server.routes import committed_out

    event, cancel = await _waiter(floor, FLOOR)
    sent = since
    try:
        while True:
            event.clear()
            versions = await asyncio.to_thread(floor_versions, floor)
            version = sum(versions.values())
            if version > sent or (since == 0 and sent == 0):

                def tables_now(snapshot: dict[str, int]) -> list[dict[str, Any]]:
                    return [
                        committed_out(lt, snapshot).model_dump()
                        for lt in list(floor.tables.values())
                    ]

                snapshot = await asyncio.to_thread(floor.meters.snapshot)
                tables = await asyncio.to_thread(tables_now, snapshot)
                data = {"tables": tables, "meters": snapshot, "tables_seq": versions}
                await websocket.send_json({"seq": version, "type": "floor", "data": data})
                sent, since = version, -1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout=POLL)
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        cancel()
