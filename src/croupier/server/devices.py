"""Card readers and the dealer's keypad: the cards of a table of real cards (issue 39).

A table whose Rules Submission says ``[table] cards = "reader"`` or ``"keypad"`` deals from a
:class:`~croupier.table.reported.ReportedShoe`: the server does not know the order, and each card
comes in as it leaves the shoe (the engine's moves: :mod:`croupier.games.reported_cards`).

- ``POST /api/tables/{table_id}/devices`` (a supervisor): a reader's token, bound to that one
  table, shown once (the store keeps its SHA-256).  A reader's token is refused every other
  route (403, :func:`croupier.server.bearer.authenticate`) and every other table's.
- ``POST /api/tables/{table_id}/reader/messages`` (the reader): one numbered message, ``seq``
  1, 2, 3, ... : a card, a card found face up, a correction, the stub, a heartbeat.  Each is
  answered once, in the transaction that moves the round (the group commit,
  :mod:`croupier.server.commit`), and its answer is kept: the same ``seq`` again is answered the
  same (idempotent), a different message under a ``seq`` already used is refused, and a ``seq``
  beyond the next is refused naming the one expected (a gap: nothing is guessed).  A message the
  round refuses (a card before "no more bets") is still answered, ``accepted: false``.
- ``GET /api/tables/{table_id}/devices``: each reader's last ``seq``, when it was last heard
  from and whether it is silent (no message for :data:`SILENT_AFTER` seconds).  A silent reader
  holds the round: nothing moves until it speaks again, or the dealer keys the cards.
- A ``shoe`` message (a baccarat table: the reader's or the dealer's) says the shoe was
  changed, naming the first card turned up (:func:`croupier.server.shoe_floor.change_shoe`):
  the cards reported are counted against one shoe across coups until the next.
- ``POST /api/tables/{table_id}/keypad`` (the dealer): the same messages but the heartbeat, keyed
  by the dealer, at a keypad table or at a reader table whose readers are all silent.

A table with a progressive table game system's sensors (``[table] progressive_wagers =
"sensors"``, :mod:`croupier.games.sensors`) has devices by the same token and numbering: a
``wager`` message reports a chip recognised (``lit``) or taken off (``dark``) at a betting
position (§ 641a.2(c)(1)); after the dealer's "no more bets" (the lock-out, § 641a.2(c)(2)) it
is refused and recorded in the round.  A supervisor resolves a progressive count held for a
mismatch (§ 641a.8(b)): ``POST /api/tables/{table_id}/progressive-count``.

The protocol is docs/reader-protocol.md; the emulator is ``croupier device shoe``.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Request
from pydantic import BaseModel, Field
from sqlalchemy import Connection, func, insert, select, update

from croupier.core.cards import Card
from croupier.core.errors import CroupierError, IllegalAction, InvalidInput
from croupier.core.money import MAX_WAGER
from croupier.core.shapes import CardSource, ProgressiveWagers
from croupier.games.records import Action, Record
from croupier.games.reported_cards import CardFound, CorrectCard, ReportCard, ReportStub
from croupier.games.sensors import (
    SENSED_WAGER,
    ChipsRefused,
    Light,
    ReadChips,
    ResolveCount,
    SenseWager,
    SensorRefused,
)
from croupier.server.account_routes import Key
from croupier.server.api_models import CommandResult
from croupier.server.auth import Account, Role
from croupier.server.bearer import DEVICE_PREFIX, authenticate, bearer
from croupier.server.commands import Call, Commands, answer, request_digest
from croupier.server.commit import Work
from croupier.server.live_tables import LiveTable, Txn
from croupier.server.policy import (
    Refused,
    Unauthorized,
    device_relation,
    relation_of,
    resource,
)
from croupier.server.shoe_floor import change_shoe
from croupier.store import now
from croupier.store.database import as_utc
from croupier.store.schema import card_devices

__all__ = [
    "HEARTBEAT_SECONDS",
    "SILENT_AFTER",
    "DeviceIssued",
    "DeviceStatus",
    "KeyedCard",
    "ReaderAck",
    "ReaderMessage",
    "Recount",
    "install_devices",
    "message_action",
]

HEARTBEAT_SECONDS = 5
"""A reader sends a heartbeat at least this often when it has nothing else to say."""
SILENT_AFTER = 3 * HEARTBEAT_SECONDS
"""Seconds without a message after which a reader is silent (its table's round is held)."""
READER_PATH = "/api/tables/{table_id}/reader/messages"

MessageType = Literal["card", "face_up", "correct", "stub", "shoe", "wager", "heartbeat"]
CARD_MESSAGES = frozenset({"card", "face_up", "correct", "stub", "shoe"})
"""The messages of a card reader (a ``wager`` is a sensor's, a ``heartbeat`` anyone's)."""


class KeyedCard(BaseModel):
    """A card (or the stub) the dealer keys."""

    type: Literal["card", "face_up", "correct", "stub", "shoe"]
    card: str | None = Field(
        default=None,
        max_length=3,
        description='a card: "As", "10h"; a shoe message: the first card turned up',
    )
    count: int | None = Field(default=None, ge=0, le=416, description="the stub, in cards")


class ReaderMessage(BaseModel):
    """One numbered message of a reader."""

    seq: int = Field(ge=1, le=2**62, description="1 for the first message, then 2, 3, ...")
    type: MessageType
    card: str | None = Field(
        default=None,
        max_length=3,
        description='a card: "As", "10h"; a shoe message: the first card turned up',
    )
    count: int | None = Field(default=None, ge=0, le=416, description="the stub, in cards")
    seat: int | None = Field(default=None, ge=1, le=7, description="a sensor's betting position")
    light: Light | None = Field(default=None, description="a sensor's light: lit or dark")
    wager: str | None = Field(
        default=None,
        max_length=40,
        pattern="^[a-z0-9_]+$",
        description="a sensor's progressive wager where the game has several "
        '(Let It Ride: "three_card_progressive", "five_card_progressive"); none: "progressive"; '
        "a chip-reading layout's wager (with its amount)",
    )
    amount: int | None = Field(
        default=None,
        ge=0,
        le=MAX_WAGER,
        description="a chip-reading layout: the cents of chips on the wager (0: taken off); "
        "the message then names its wager and no light",
    )


class Recount(BaseModel):
    """A supervisor's recount of the progressive chips collected (a count held)."""

    count: int = Field(ge=0, le=1000, description="progressive chips counted")


class ReaderAck(BaseModel):
    """A reader's message answered: no card (the reader knows the cards it read)."""

    device: str
    ack: int
    """The number of the message answered (``seq``)."""
    next_seq: int
    accepted: bool
    refused: str | None = None
    table_id: str
    round_id: str | None
    phase: str | None
    to_act: str | None = None
    due: int = 0
    """Cards the stage being dealt still owes (0 outside the deal)."""
    records: list[str] = []
    """The kinds of the records the message made (``card_dealt``, ``card_refused``, ...)."""


class DeviceIssued(BaseModel):
    device: str
    table_id: str
    token: str
    heartbeat_seconds: int = HEARTBEAT_SECONDS


class DeviceStatus(BaseModel):
    device: str
    table_id: str
    last_seq: int
    last_seen: str | None
    silent: bool
    lights: dict[str, str] = {}
    """The table's lights (a table with sensors): each seated position ``lit`` or ``dark``."""
    wager_lights: dict[str, dict[str, str]] = {}
    """Each position's light per progressive wager where a position has several devices (Let
    It Ride's Three- and Five-Card Progressives, § 643a.2(c)(1)); empty otherwise."""


def message_action(
    kind: str,
    card: str | None,
    count: int | None,
    sensed: tuple[int | None, Light | None, str | None] = (None, None, None),
) -> Action | None:
    """The round action of a message (``None``: a heartbeat); ``sensed``: a ``wager``
    message's seat, light and wager (``None``: the game's one ``progressive``)."""
    if kind in ("heartbeat", "shoe"):
        return None  # a shoe changed is the table's (shoe_message), not a round's move
    if kind == "wager":
        seat, light, wager = sensed
        if seat is None or light is None:
            raise InvalidInput("a wager message names its seat and its light (lit or dark)")
        return SenseWager(seat=seat, light=light, wager=wager or SENSED_WAGER)
    if kind == "stub":
        if count is None:
            raise InvalidInput("a stub message names its count of cards")
        return ReportStub(count=count)
    if card is None:
        raise InvalidInput(f"a {kind} message names its card")
    parsed = Card.parse(card)
    if kind == "correct":
        return CorrectCard(card=parsed)
    found = CardFound.FACE_UP_IN_DECK if kind == "face_up" else CardFound.DEALT
    return ReportCard(card=parsed, found=found)


def shoe_message(
    txn: Txn, lt: LiveTable, card: str | None, apply: Callable[[Action], tuple[Record, ...]]
) -> tuple[Record, ...]:
    """A ``shoe`` message: the dealer changed the baccarat shoe, ``card`` turned up first
    (``apply``: the round's action, for the coup in play before its first card)."""
    if card is None:
        raise InvalidInput("a shoe message names the first card turned up")
    return change_shoe(txn, lt, Card.parse(card), apply)


def read_chips(seat: int | None, wager: str | None, amount: int, light: Light | None) -> Action:
    """A chip-reading layout's ``wager`` message: the amount of chips on a seat's wager."""
    if seat is None or not wager or light is not None:
        raise InvalidInput("a chip reading names its seat, its wager and its amount (no light)")
    return ReadChips(seat=seat, wager=wager, amount=amount)


def _sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _verify_source(lt: LiveTable, *sources: CardSource) -> None:
    cards = lt.game.rules.table.cards
    if cards not in sources:
        wanted = " or ".join(s.value for s in sources)
        raise IllegalAction(
            f"table {lt.id}'s cards come from {cards.value}, not a {wanted} ([table] cards)"
        )


def _sensed(lt: LiveTable) -> bool:
    return lt.game.rules.table.progressive_wagers is ProgressiveWagers.SENSORS


def _verify_message(lt: LiveTable, kind: str) -> None:
    """A card reader's message at a reader table, a sensor's at a table with sensors."""
    if kind in CARD_MESSAGES:
        _verify_source(lt, CardSource.READER)
    elif kind == "wager" and not _sensed(lt):
        raise IllegalAction(
            f"table {lt.id} has no progressive sensors ([table] progressive_wagers)"
        )


def lights_of(lt: LiveTable) -> dict[str, str]:
    """The lights of ``lt``'s round (empty: no sensors, or no round yet)."""
    rnd = lt.round
    if rnd is None:
        return {}
    return {str(seat): light.value for seat, light in rnd.lights().items()}


def wager_lights_of(lt: LiveTable) -> dict[str, dict[str, str]]:
    """The lights of ``lt``'s round per wager where a position has several progressive devices
    (empty otherwise, as the round's view)."""
    rnd = lt.round
    if rnd is None or len(rnd.sensed_wagers()) < 2:
        return {}
    lights = rnd.wager_lights().items()
    return {str(s): {w: x.value for w, x in by.items()} for s, by in lights}


def _silent(last_seen: Any) -> bool:
    if last_seen is None:
        return True
    return bool(now() - as_utc(last_seen) > timedelta(seconds=SILENT_AFTER))


def _statuses(
    conn: Connection,
    table_id: str,
    lights: dict[str, str] | None = None,
    wager_lights: dict[str, dict[str, str]] | None = None,
) -> list[DeviceStatus]:
    rows = conn.execute(
        select(card_devices).where(card_devices.c.table_id == table_id).order_by(card_devices.c.id)
    ).all()
    return [
        DeviceStatus(
            device=r.id,
            table_id=r.table_id,
            last_seq=r.last_seq,
            last_seen=as_utc(r.last_seen).isoformat() if r.last_seen is not None else None,
            silent=_silent(r.last_seen),
            lights=lights or {},
            wager_lights=wager_lights or {},
        )
        for r in rows
    ]


class Devices:
    """The readers of the floor's tables, over the command layer (its transactions, its
    idempotency store: a reader's answers are kept under the name ``device:<id>``)."""

    def __init__(self, commands: Commands) -> None:
        self.commands = commands

    def issue(self, account: Account, table_id: str) -> DeviceIssued:
        lt = self.commands.registry.table(table_id)
        kind = "sensors"
        if not _sensed(lt) or lt.game.rules.table.cards is CardSource.READER:
            _verify_source(lt, CardSource.READER)  # a reader, or sensors: a table has one
            kind = "reader"
        token = DEVICE_PREFIX + secrets.token_urlsafe(32)

        def work(conn: Connection) -> tuple[DeviceIssued, None]:
            count = conn.execute(
                select(func.count())
                .select_from(card_devices)
                .where(card_devices.c.table_id == lt.id)
            ).scalar_one()
            device = f"{lt.id}-{kind}-{count + 1}"
            conn.execute(
                insert(card_devices).values(
                    id=device,
                    table_id=lt.id,
                    token_sha256=_sha(token),
                    created_by=account.username,
                    created_at=now(),
                    last_seq=0,
                    last_seen=None,
                )
            )
            return DeviceIssued(device=device, table_id=lt.id, token=token), None

        issued: DeviceIssued = self.commands.committer.submit(Work(work, _nothing_to_undo))
        return issued

    def device_of(self, token: str) -> tuple[str, str]:
        """The reader (id, table) of ``token`` (:class:`Unauthorized` for none)."""
        with self.commands.store.engine.connect() as conn:
            row = conn.execute(
                select(card_devices.c.id, card_devices.c.table_id).where(
                    card_devices.c.token_sha256 == _sha(token)
                )
            ).first()
        if row is None:
            raise Unauthorized("the card reader's token is unknown")
        return str(row.id), str(row.table_id)

    def statuses(self, table_id: str) -> list[DeviceStatus]:
        lt = self.commands.registry.table(table_id)
        with self.commands.store.engine.connect() as conn:
            return _statuses(conn, lt.id, lights_of(lt), wager_lights_of(lt))

    def message(self, device: str, table_id: str, body: ReaderMessage, digest: str) -> Any:
        """One numbered message, answered once (the same ``seq`` again: the same answer)."""
        lt = self.commands.registry.table(table_id)
        _verify_message(lt, body.type)
        if body.type == "wager" and body.amount is not None:
            action: Action | None = read_chips(body.seat, body.wager, body.amount, body.light)
        else:
            action = message_action(
                body.type, body.card, body.count, (body.seat, body.light, body.wager)
            )
        # the idempotency store keys answers by a name: a reader's is device:<id>
        name = Account(f"device:{device}", Role.OBSERVER)

        def run(txn: Txn) -> dict[str, Any]:
            last = txn.conn.execute(
                select(card_devices.c.last_seq).where(card_devices.c.id == device)
            ).scalar_one()
            if body.seq != last + 1:
                raise IllegalAction(
                    f"reader {device}: message {body.seq} out of order; {last + 1} is expected "
                    "(a gap or an old message: send the one expected)"
                )
            txn.conn.execute(
                update(card_devices)
                .where(card_devices.c.id == device)
                .values(last_seq=body.seq, last_seen=now())
            )
            if body.type == "shoe":
                records, refused = self._shoe(txn, lt, body.card)
            else:
                records, refused = self._play(txn, lt, action)
            rnd = lt.round
            return ReaderAck(
                device=device,
                ack=body.seq,
                next_seq=body.seq + 1,
                accepted=refused is None,
                refused=refused,
                table_id=lt.id,
                round_id=lt.round_id,
                phase=rnd.phase.value if rnd is not None else None,
                to_act=str(rnd.to_act()) if rnd is not None else None,
                due=rnd.cards_due if rnd is not None and not rnd.is_over else 0,
                records=[r.kind for r in records],
            ).model_dump()

        return self.commands.transact(name, f"seq:{body.seq}", digest, lt.id, run)

    def _shoe(
        self, txn: Txn, lt: LiveTable, card: str | None
    ) -> tuple[tuple[Record, ...], str | None]:
        """A reader's ``shoe`` message; a refusal is the answer (nothing changed)."""
        try:
            return shoe_message(txn, lt, card, self._applier(txn, lt)), None
        except CroupierError as exc:
            return (), str(exc)

    def _applier(self, txn: Txn, lt: LiveTable) -> Callable[[Action], tuple[Record, ...]]:
        return lambda action: self.commands.rounds.apply(txn, lt, action)

    def _play(
        self, txn: Txn, lt: LiveTable, action: Action | None
    ) -> tuple[tuple[Record, ...], str | None]:
        """The message's action applied; a refusal is the answer (the round unchanged)."""
        if action is None:
            return (), None
        try:
            records = self.commands.rounds.apply(txn, lt, action)
        except CroupierError as exc:
            return (), str(exc)
        late = next((r for r in records if isinstance(r, SensorRefused | ChipsRefused)), None)
        if late is not None:  # the lock-out: refused, and recorded in the round
            return records, f'locked out: "no more bets" was called ({late.section})'
        return records, None

    def keyed(self, call: Call, table_id: str, body: KeyedCard) -> dict[str, Any]:
        """The dealer keys a card: at a keypad table, or a reader table whose readers are all
        silent (the dealer takes over; nothing was guessed)."""
        action = message_action(body.type, body.card, body.count)
        assert action is not None or body.type == "shoe"

        def run(txn: Txn, lt: LiveTable) -> dict[str, Any]:
            if lt.game.rules.table.cards is CardSource.READER:
                heard = [s for s in _statuses(txn.conn, lt.id) if not s.silent]
                if heard:
                    raise IllegalAction(
                        f"table {lt.id}'s reader {heard[0].device} is reporting; the dealer "
                        f"keys cards only when every reader is silent ({SILENT_AFTER} s)"
                    )
            else:
                _verify_source(lt, CardSource.KEYPAD)
            if action is None:
                return answer(call, lt, shoe_message(txn, lt, body.card, self._applier(txn, lt)))
            return answer(call, lt, self.commands.rounds.apply(txn, lt, action))

        lt = self.commands.registry.table(table_id)
        account, key, digest = call.account, call.key, call.digest
        return self.commands.transact(account, key, digest, lt.id, lambda t: run(t, lt))

    def recount(self, call: Call, table_id: str, body: Recount) -> dict[str, Any]:
        """A supervisor's recount of a progressive count held (§ 641a.8(b)): equal to the
        wagers the sensors accepted, the round goes on; else it is void."""
        lt = self.commands.registry.table(table_id)
        action = ResolveCount(count=body.count, by=call.account.username)

        def run(txn: Txn) -> dict[str, Any]:
            return answer(call, lt, self.commands.rounds.apply(txn, lt, action))

        return self.commands.transact(call.account, call.key, call.digest, lt.id, run)


def _nothing_to_undo(conn: Connection | None) -> None:
    """A reader's row is all an issue writes (in the transaction): nothing in memory."""


def _devices(request: Request) -> Devices:
    return Devices(request.app.state.floor.commands)


def _device_guard(request: Request) -> tuple[str, str]:
    """A reader's token, for its own table only (the access policy's row)."""
    header = request.headers.get("authorization")
    token = bearer(header)
    row = resource("POST", READER_PATH)
    table_id = str(request.path_params["table_id"])
    if token.startswith(DEVICE_PREFIX):
        device, bound = _devices(request).device_of(token)
        relation = device_relation(bound, table_id)
        if not row.rule(relation, None).answered:
            raise Refused(f"reader {device} reports for table {bound}, not {table_id}")
        return device, bound
    account = authenticate(request.app.state.auth, header)
    request.state.account = account
    relation = relation_of(account, table_id=table_id, seats=False)
    raise Refused(f"the {relation.value} may not report cards: a reader's token does")


Op = Callable[..., Callable[[Callable[..., Any]], Callable[..., Any]]]


def install_devices(app: FastAPI, op: Op, errors: dict[int | str, Any]) -> None:
    """The routes of readers and the keypad; the reader's is guarded by its own token (the
    access policy's row for it, :func:`_device_guard`)."""
    devices = _devices

    @op("POST", "/api/tables/{table_id}/devices", response_model=DeviceIssued)
    def issue(request: Request, table_id: str) -> DeviceIssued:
        return devices(request).issue(request.state.account, table_id)

    @op("GET", "/api/tables/{table_id}/devices", response_model=list[DeviceStatus])
    def statuses(request: Request, table_id: str) -> list[DeviceStatus]:
        return devices(request).statuses(table_id)

    @op("POST", "/api/tables/{table_id}/progressive-count", response_model=CommandResult)
    def recount(request: Request, table_id: str, body: Recount, key: Key) -> dict[str, Any]:
        call = Call.of(request, key, body.model_dump())
        return devices(request).recount(call, table_id, body)

    @op("POST", "/api/tables/{table_id}/keypad", response_model=CommandResult)
    def keypad(request: Request, table_id: str, body: KeyedCard, key: Key) -> dict[str, Any]:
        call = Call.of(request, key, body.model_dump())
        return devices(request).keyed(call, table_id, body)

    row = resource("POST", READER_PATH)

    def report(
        request: Request,
        table_id: str,
        body: ReaderMessage,
        reader: Annotated[tuple[str, str], Depends(_device_guard)],
    ) -> Any:
        digest = request_digest(request.method, request.url.path, body.model_dump())
        return devices(request).message(reader[0], table_id, body, digest)

    app.add_api_route(
        READER_PATH,
        report,
        methods=["POST"],
        response_model=ReaderAck,
        openapi_extra={"x-roles": row.roles(), "x-access": row.cells()},
        responses=errors,
        name="reader_message",
    )
