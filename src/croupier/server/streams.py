"""The WebSocket streams: a table's events as each connection may see them, and the floor.

Both are resumable: every message carries ``seq``; a client that reconnects with
``since=<the last seq it received>`` misses nothing.

- ``/api/tables/{id}/stream``: the table's committed events in order (``seq`` 1, 2, ...), each
  round record as the account's point of view may see it (the engine's ``records_for``: a
  face-down card it may not see arrives as ``card_hidden``).  Events live in the database, so a
  stream resumes across reconnects, restarts and server processes.
- ``/api/tables/{id}/stream?carry=state`` (the web pages): the same events, and the last
  message of each batch the server sends carries the connection's state at its ``seq``:
  ``{"seq": 12, "type": "record", "data": {...}, "view": {...}, "actions": {...}}``, where
  ``view`` and ``actions`` are what ``GET /api/tables/{id}/view`` and ``GET
  /api/tables/{id}/actions`` answer the account at that ``seq`` (the same policy decision and
  functions, :mod:`croupier.server.table_state`; a part the policy refuses the account is left
  out), computed once per batch per connection.  A page applies the events and replaces its
  view and actions with the carried ones; it asks the routes only when it (re)connects.
- ``/api/floor/stream``: the pit view, a state stream, at most twice a second
  (:data:`FLOOR_EVERY`).  Each message is the whole floor
  (tables, their phases and rounds, meters) at version ``seq``: the sum of every table's
  committed event count, read from the database, so it only grows, survives a restart and is
  the same in every server process.  ``data.tables_seq`` gives each table's own ``seq``, from
  which its table stream resumes.  A client reconnecting with ``since=N`` receives the current
  floor at once if anything changed after version ``N`` (none of the changes is lost: the
  message holds the state they made), else the next change.

A stream authenticates by its handshake's ``Authorization: Bearer TOKEN`` header, or (a
browser, which cannot set it) by its first message ``{"token": "TOKEN"}``; never by its address
(:mod:`croupier.server.bearer`).  Its session is re-checked while it is open and the stream is
closed with code 1008 when the session ends (:func:`_watch_session`).  The handshake's ``Host``
and ``Origin`` are checked before it gets here (:mod:`croupier.server.perimeter`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Mapping
from enum import StrEnum
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketState

from croupier.server.auth import Account, Auth, Role
from croupier.server.bearer import TokenRefused, UrlToken, stream_token
from croupier.server.event_log import FLOOR
from croupier.server.live_floor import Floor
from croupier.server.live_tables import LiveTable, event_for, event_variant
from croupier.server.policy import (
    Access,
    Refused,
    Rule,
    Stage,
    Unauthorized,
    decide,
    resource,
    round_seats,
    stage_of,
    table_seats,
)
from croupier.server.security_log import record_refusal
from croupier.server.sessions import RECHECK_SECONDS
from croupier.server.table_state import table_state
from croupier.server.views import ViewPov
from croupier.server.wire import compact

log = logging.getLogger("croupier.server.streams")

TABLE_STREAM = resource("WS", "/api/tables/{table_id}/stream")
FLOOR_STREAM = resource("WS", "/api/floor/stream")
TITLES = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found"}
"""A refusal's title; its WebSocket close code, where the handshake is not answered with its
HTTP status (a stream already open to read its token), is 4000 + the status."""

SESSION_ENDED = 1008
"""The close code of a stream whose session ended (policy violation)."""

STREAM_RECHECK = RECHECK_SECONDS / 2
"""Seconds between two checks of an open stream's session."""

__all__ = [
    "SESSION_ENDED",
    "Carried",
    "events_seen",
    "install_streams",
    "messages_in_memory",
    "messages_seen",
    "recheck_streams",
    "stream_access",
    "with_state",
]


class Carried(StrEnum):
    """What a table stream's messages carry: the events only (``events``, the default), or
    with the last event of each batch the connection's view and actions (``state``)."""

    EVENTS = "events"
    STATE = "state"


BATCH = 500
FLOOR_EVERY = 0.5
"""Seconds at least between two messages of one floor stream.  A floor of hundreds of tables
changes with almost every command anywhere; each message is the whole floor at its version, so
the pit misses none of the changes, seen at most twice a second."""
POLL = 30.0
"""Seconds a stream waits for a wake-up before it looks again all the same.  Every event it
may send wakes it: this process's commits, and (several processes on PostgreSQL) the
listener's publication of another process's (:mod:`croupier.server.table_sync`, which
catches up whenever it listens again); a process serving some tables of a SQLite floor
(``croupier serve --tables``) streams only its own.  A short timer a stream woke thousands
of streams a second for nothing (issue 38)."""


def carries_state(carry: Carried, batch: Messages) -> bool:
    """Whether the last message of ``batch`` carries the state (:func:`with_state`): every
    non-empty batch of a ``carry=state`` stream, a full one (:data:`BATCH` events) too.  A
    table whose events end exactly at a full batch's end would otherwise send its view and
    actions only with its next event (the policy sweep met it at event 500)."""
    return carry is Carried.STATE and bool(batch)


def _refused(rule: Rule, why: str) -> Exception:
    return Refused(f"the {why} may not read this stream ({rule.status})")


def stream_access(account: Account, lt: LiveTable | None) -> Access:
    """The access policy's answer to ``account`` for the table stream of ``lt`` (``None``:
    the floor stream); :class:`Refused` where it refuses."""
    if lt is None:
        return decide(
            FLOOR_STREAM, account, table_id=None, seats=frozenset(), stage=_never, refuse=_refused
        )
    return decide(
        TABLE_STREAM,
        account,
        table_id=lt.id,
        seats=table_seats(account, lt),
        stage=lambda: stage_of(lt.round, lt.held),
        refuse=_refused,
    )


def _never() -> Stage:
    raise AssertionError("a stream's row does not depend on the stage")


async def _refuse(websocket: WebSocket, status: int, detail: str) -> None:
    """Refuse the stream: before its connection is accepted, an HTTP ``status`` with its
    problem document (the server's WebSocket protocol answers the handshake with it), else a
    close with code 4000 + ``status`` and ``detail`` as its reason."""
    from croupier.server.app import problem

    if websocket.application_state is WebSocketState.CONNECTING:
        if "websocket.http.response" in websocket.scope.get("extensions", {}):
            await websocket.send_denial_response(problem(status, TITLES[status], detail))
            return
        await websocket.close(code=4000 + status)
        return
    with contextlib.suppress(RuntimeError, WebSocketDisconnect):
        await websocket.close(code=4000 + status, reason=_reason(detail))


def _reason(detail: str) -> str:
    """A close frame's reason: at most 123 bytes of UTF-8."""
    return detail.encode()[:123].decode(errors="ignore")


async def _opened(
    websocket: WebSocket, lt: Callable[[], LiveTable | None]
) -> tuple[Account, str, LiveTable | None] | None:
    """The stream's account, token and table (``lt()``: ``None`` for the floor stream) once
    the token (:func:`croupier.server.bearer.stream_token`) and the access policy let it
    open, the connection accepted; ``None`` where it was refused (and closed)."""
    account: Account | None = None
    try:
        account, token = await stream_token(websocket)
        table = lt()
        stream_access(account, table)
    except UrlToken as exc:
        await _refuse(websocket, 400, str(exc))
        return None
    except LookupError as exc:
        await _refuse(websocket, 404, str(exc.args[0]))
        return None
    except Unauthorized as exc:
        if isinstance(exc, TokenRefused):
            await _log_refusal(websocket, None, 401, exc.message)
        await _refuse(websocket, 401, exc.message)
        return None
    except Refused as exc:
        await _log_refusal(websocket, account, 403, exc.message)
        await _refuse(websocket, 403, exc.message)
        return None
    if websocket.application_state is WebSocketState.CONNECTING:
        await websocket.accept()
    return account, token, table


async def _log_refusal(
    websocket: WebSocket, account: Account | None, status: int, why: str
) -> None:
    """A stream refused with a token, or closed because its session ended (``status``: the
    close code 1008), in the security log (GLI-19: refused access is logged)."""
    floor: Floor = websocket.app.state.floor
    await asyncio.to_thread(
        record_refusal,
        floor.engine,
        username=account.username if account is not None else None,
        address=websocket.client.host if websocket.client is not None else None,
        status=status,
        method="WS",
        path=websocket.url.path,
        why=why,
    )


def install_streams(app: FastAPI) -> None:
    """The table and floor WebSocket streams, each refused as the access policy says (the
    refusal's HTTP status and problem document at the handshake; a close code 4000 + the
    status once a stream authenticating by its first message is open), each closed (1008)
    when its session ends (:func:`_watch_session`)."""

    @app.websocket("/api/tables/{table_id}/stream")
    async def table_stream(
        websocket: WebSocket, table_id: str, since: int = 0, carry: Carried = Carried.EVENTS
    ) -> None:
        floor: Floor = websocket.app.state.floor

        def table() -> LiveTable:
            found = floor.tables.get(table_id)
            if found is None:
                raise LookupError(f"table {table_id[:80]!r} does not exist")
            return found

        opened = await _opened(websocket, table)
        if opened is None:
            return
        account, token, lt = opened
        assert lt is not None
        pump = _pump(websocket, floor, lt, account, max(0, since), carry)
        await _until_closed(websocket, pump, _watch_session(websocket, token, account))

    @app.websocket("/api/floor/stream")
    async def floor_stream(websocket: WebSocket, since: int = 0) -> None:
        floor: Floor = websocket.app.state.floor
        opened = await _opened(websocket, lambda: None)
        if opened is None:
            return
        account, token, _ = opened
        pump = _pump_floor(websocket, floor, max(0, since))
        await _until_closed(websocket, pump, _watch_session(websocket, token, account))


async def recheck_streams(auth: Auth) -> None:
    """Every :data:`STREAM_RECHECK` seconds, the sessions of this process's open streams that
    are not fresh in memory, read together (:meth:`Tokens.recheck_watched
    <croupier.server.sessions.Tokens.recheck_watched>`): a stream whose session ended is
    woken and closes (:func:`_watch_session`).  One task for the floor: a timer a stream made
    thousands of wake-ups a second, and their short-lived objects filled the collector's
    young generations (issue 38)."""
    while True:
        await asyncio.sleep(STREAM_RECHECK)
        try:
            await asyncio.to_thread(auth.tokens.recheck_watched)
        except OperationalError as exc:  # the database busy: the next sweep reads them
            log.warning("the open streams' sessions were not re-checked: %s", exc)


async def _watch_session(websocket: WebSocket, token: str, account: Account) -> None:
    """Return once the stream's session has ended, having closed the stream with code 1008
    (policy violation): at once where this process ended it (sign-out, the account's sessions
    ended), else at the floor's sweep every :data:`STREAM_RECHECK` seconds
    (:func:`recheck_streams`: expired, idle, or ended by another server process: within
    ``RECHECK_SECONDS`` more, the token cache's bound); the close is written to the security
    log."""
    auth: Auth = websocket.app.state.auth
    loop = asyncio.get_running_loop()
    ended = asyncio.Event()

    def wake() -> None:
        loop.call_soon_threadsafe(ended.set)

    cancel = auth.tokens.watch(token, account.username, wake)
    try:
        # ended between the handshake and the watch: the next sweep reads it (not cached)
        await ended.wait()
    finally:
        cancel()
    # Logged first: once the close is sent, the client's answer may end this task (a record
    # begun in its thread is written all the same).
    await _log_refusal(websocket, account, SESSION_ENDED, "the session has ended")
    with contextlib.suppress(RuntimeError, WebSocketDisconnect):
        await websocket.close(code=SESSION_ENDED, reason="the session has ended")


async def _closed(websocket: WebSocket) -> None:
    """Return once the connection is closed: by the client, or by the server's shutdown (which
    hands each stream a disconnect).  A message the client sends is read and dropped."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return


async def _until_closed(
    websocket: WebSocket,
    pump: Coroutine[Any, Any, None],
    watch: Coroutine[Any, Any, None],
) -> None:
    """Run a stream's ``pump`` until it ends, its connection closes or ``watch`` (its
    session's) returns, whichever is first.

    A pump only sends: without a receiving side it would see a closed connection only at its
    next send, so a stream whose table stays quiet would outlive its client, and a server
    shutting down would wait for it for ever."""
    sending = asyncio.ensure_future(pump)
    tasks = (sending, asyncio.ensure_future(_closed(websocket)), asyncio.ensure_future(watch))
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        ended = await asyncio.gather(*tasks, return_exceptions=True)
    error = ended[0]
    if isinstance(error, BaseException) and not isinstance(error, asyncio.CancelledError):
        raise error  # the pump's own failure, as when it ran alone


Events = list[tuple[int, str, dict[str, Any], str | None]]
Messages = list[tuple[int, str]]
"""``(seq, message text)``."""


def _povs(
    account: Account,
    lt: LiveTable,
    events: Events,
    players_of: Callable[[str], Mapping[int, str] | None],
) -> list[ViewPov] | None:
    """Each event's point of view for ``account`` (the access policy's row of the stream): a
    player sees a round's events from the seats they held in *that* round (its stored
    players), so a player who takes a seat later never receives the cards of the seat's
    earlier rounds.  ``None`` where ``players_of`` does not know a round's players."""
    access = stream_access(account, lt)
    if account.role is not Role.PLAYER:
        return [access.pov] * len(events)
    out = []
    by_round: dict[str | None, ViewPov] = {}  # a batch's events are of a round or two
    for _seq, _type, _data, round_id in events:
        pov = by_round.get(round_id)
        if pov is None:
            players = players_of(round_id) if round_id is not None else {}
            if players is None:
                return None
            pov = by_round[round_id] = access.pov_with(round_seats(account, players))
        out.append(pov)
    return out


def events_seen(
    floor: Floor, account: Account, lt: LiveTable, since: int, limit: int = BATCH
) -> list[dict[str, Any]]:
    """The table's committed events after ``since`` as ``account`` may see them."""
    events = floor.events(lt.id, since, limit)
    povs = _povs(account, lt, events, floor.players_of)
    assert povs is not None
    return [
        {"seq": seq, "type": type_, "data": event_for(data, pov)}
        for (seq, type_, data, _rid), pov in zip(events, povs, strict=True)
    ]


def _messages(lt: LiveTable, events: Events, povs: list[ViewPov]) -> Messages:
    """The events as stream messages, each distinct form encoded once for every connection
    (:meth:`LiveTable.encoded`)."""
    out = []
    for (seq, type_, data, _rid), pov in zip(events, povs, strict=True):
        form, seen = event_variant(data, pov)

        def encode(s: int = seq, t: str = type_, d: Mapping[str, Any] = seen) -> str:
            return compact({"seq": s, "type": t, "data": d})

        out.append((seq, lt.encoded(seq, form, encode)))
    return out


def messages_seen(
    floor: Floor, account: Account, lt: LiveTable, since: int, limit: int = BATCH
) -> Messages:
    """:func:`events_seen` as stream messages (may read the database: run it in a thread)."""
    events = floor.events(lt.id, since, limit)
    povs = _povs(account, lt, events, floor.players_of)
    assert povs is not None
    return _messages(lt, events, povs)


def messages_in_memory(
    floor: Floor, account: Account, lt: LiveTable, since: int, limit: int = BATCH
) -> Messages | None:
    """:func:`messages_seen` from what this process holds in memory (the table's recent
    events, the rounds' players it knows), without a database read or a thread; ``None``
    where the database must be read."""
    events = lt.recent_events(since, limit)
    if events is None:
        return []
    povs = _povs(account, lt, events, floor.players_cached) if events else None
    return None if povs is None else _messages(lt, events, povs)


def with_state(
    floor: Floor, account: Account, lt: LiveTable, batch: Messages, *, catch_up: bool = True
) -> Messages:
    """``batch`` with its last message carrying ``"view"`` and ``"actions"``: the answers of
    ``GET /api/tables/{id}/view`` and ``/actions`` to ``account`` at that message's ``seq``
    (:func:`croupier.server.table_state.table_state`: the routes' policy decision and
    functions; a part the policy does not answer the account is left out).  Where commands
    committed after the batch was read, their events (published meanwhile) join it first
    (``catch_up``; a full batch does not take them: the next batch does); where they are not
    yet in memory, the batch goes as it is and the next one carries the state.  Reads the
    database: run it in a thread."""
    floor.sync.current(lt)  # another server process moved it: rebuilt first
    state = table_state(floor, account, lt)
    if state is None:
        return batch
    end = batch[-1][0]
    if state.seq > end:
        if not catch_up:
            return batch
        more = messages_in_memory(floor, account, lt, end, state.seq - end) or []
        if not more or more[-1][0] != state.seq:
            return batch
        batch = [*batch, *more]
    elif state.seq < end:
        return batch
    seq, text = batch[-1]
    carried = {k: v for k, v in (("view", state.view), ("actions", state.actions)) if v is not None}
    extra = compact(carried)
    return [*batch[:-1], (seq, f"{text[:-1]},{extra[1:]}")]


async def _waiter(floor: Floor, stream: str) -> tuple[asyncio.Event, Callable[[], None]]:
    loop = asyncio.get_running_loop()
    event = asyncio.Event()

    def wake() -> None:
        loop.call_soon_threadsafe(event.set)

    return event, floor.notifier.subscribe(stream, wake)


async def _pump(
    websocket: WebSocket,
    floor: Floor,
    lt: LiveTable,
    account: Account,
    since: int,
    carry: Carried,
) -> None:
    """Send every event after ``since`` as the account may see it, then each new one; where
    ``carry`` is :attr:`Carried.STATE`, the last event of each batch carries the connection's
    view and actions at its ``seq`` (:func:`with_state`)."""
    event, cancel = await _waiter(floor, lt.id)
    last = since
    try:
        while True:
            event.clear()
            batch = messages_in_memory(floor, account, lt, last, BATCH)
            if batch is None:
                batch = await asyncio.to_thread(messages_seen, floor, account, lt, last, BATCH)
            if carries_state(carry, batch):
                # a full batch carries the state only where the table's events end with it
                catch_up = len(batch) < BATCH
                batch = await asyncio.to_thread(
                    with_state, floor, account, lt, batch, catch_up=catch_up
                )
            for seq, text in batch:
                await websocket.send_text(text)
                last = seq
            if len(batch) == BATCH:
                continue
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(POLL):
                    await event.wait()
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        cancel()


async def _pump_floor(websocket: WebSocket, floor: Floor, since: int) -> None:
    """The floor at its current version whenever it is past the last one sent, at most one
    message every :data:`FLOOR_EVERY` seconds: the read model's pit message
    (:meth:`croupier.server.read_model.ReadModel.pit_message`), one text for every connection,
    the versions kept by the events."""
    event, cancel = await _waiter(floor, FLOOR)
    sent = since
    try:
        while True:
            event.clear()
            version, text = await asyncio.to_thread(floor.reads.pit_message)
            if version > sent or (since == 0 and sent == 0):
                await websocket.send_text(text)
                sent, since = version, -1
                # the changes meanwhile wait (the event stays set): the next message holds
                # them all
                await asyncio.sleep(FLOOR_EVERY)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(POLL):
                    await event.wait()
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        cancel()
