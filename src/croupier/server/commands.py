"""The command layer: who may ask (authentication, sessions, the access policy), once only
(the ``Idempotency-Key``), committed before it is answered (the group commit).

A route (:mod:`croupier.server.routes`) parses the request and calls one method of
:class:`Commands`; the method runs the command in a transaction through
:meth:`Commands.transact`, which calls the service that does the work: the round service
(:mod:`croupier.server.round_service`) for a round, the table registry
(:mod:`croupier.server.table_registry`) for seats, status and new tables, the cage
(:mod:`croupier.server.cage`) for chips and hand-pays.

The path of one wager, ``POST /api/tables/T1/wagers`` ``{"wager": "ante", "amount": 500}``,
top to bottom:

1. The route's dependency :func:`guard` authenticates the bearer token (its session checked
   and kept alive, :mod:`croupier.server.bearer`, :mod:`croupier.server.sessions`) and asks the
   access policy (:func:`croupier.server.policy.decide`) whether this account may place a
   wager at T1: a player, seated there (403 otherwise).  The answer, an
   :class:`~croupier.server.policy.Access`, carries the point of view the answer is redacted as.
2. ``routes.wager`` calls :meth:`Commands.wager` with a :class:`Call` (the access, the key, the
   request's digest), the table id and the body.
3. :meth:`Commands.transact` hands the command to the group committer
   (:mod:`croupier.server.commit`) and waits.  On the writer thread, holding T1's lock, in a
   savepoint of the batch's transaction (PostgreSQL: a transaction of its own), it takes a
   :class:`~croupier.server.snapshot.Snapshot` of what the command may change in memory, then
   looks the key up: a key seen before answers its stored response (a different request under
   it is refused) and changes nothing.
4. Else the command's body runs: the seat is the caller's (:func:`seat_of`), the action is
   ``PlaceWager``, and :meth:`RoundService.apply <croupier.server.round_service.RoundService.apply>`
   verifies it (the engine's rules, the player's chips), applies it, and writes what it moved in
   the transaction: the round's records, the meter moves, the ledger rows, the hand-pays and the
   table's events (each record in every form a point of view may see it).
5. Back here: the events are numbered and inserted (:meth:`EventLog.write
   <croupier.server.event_log.EventLog.write>`), the answer (the records as the caller may see
   them) is stored under the key, and the batch commits: one fsync for every command in it.
   A command refused by a rule rolls back to its savepoint and its snapshot is restored (and
   the tables it placed, :attr:`Txn.placed <croupier.server.live_tables.Txn.placed>`, taken
   off: only those, as PostgreSQL's writers place other commands' tables meanwhile); a
   failed commit restores every command of the batch and runs each alone.
6. After the commit, :meth:`EventLog.publish <croupier.server.event_log.EventLog.publish>`
   gives the events to T1's recent events and to the read model's pit summary, and wakes the
   streams, which send each connection the event as its point of view may see it.  The route
   returns the answer.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from fastapi import Request
from sqlalchemy import Connection, bindparam, insert, select

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games.records import (
    Action,
    CountStub,
    IrregularityKind,
    NoMoreBets,
    PlaceWager,
    Record,
    ReportIrregularity,
)
from croupier.games.round import Phase
from croupier.server.api_models import Balance, CommandResult, HandPayOut
from croupier.server.auth import Account, Auth, Role
from croupier.server.bearer import authenticate
from croupier.server.cage import Cage
from croupier.server.commit import GroupCommitter, Work
from croupier.server.event_log import EventLog
from croupier.server.live_tables import LiveTable, Txn
from croupier.server.policy import (
    Access,
    Refused,
    Resource,
    Rule,
    Scope,
    Stage,
    Unauthorized,
    decide,
    round_seats,
    stage_of,
    table_seats,
)
from croupier.server.read_model import ReadModel, table_out
from croupier.server.round_service import RoundService
from croupier.server.snapshot import Snapshot
from croupier.server.table_registry import TableRegistry
from croupier.server.table_sync import TableSync
from croupier.server.views import redact_json
from croupier.store import RoundStore, SqlMeters, now
from croupier.store.prepared import Prepared
from croupier.store.schema import handpays, idempotency

__all__ = ["Call", "Commands", "guard", "refusal", "request_digest", "seat_of"]

# The statements every command runs, built once (their compiled form is cached).
_PRIOR = Prepared(
    select(idempotency.c.request, idempotency.c.response).where(
        idempotency.c.key == bindparam("i_key"), idempotency.c.username == bindparam("i_user")
    )
)
_REMEMBER = Prepared(insert(idempotency))

MAX_KEY = 200
"""The longest ``Idempotency-Key``."""


def request_digest(method: str, path: str, body: Any) -> str:
    """What a request asked, to tell a retry (the same) from a reuse of its key."""
    text = json.dumps([method, path, body], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


# -- who may ask -----------------------------------------------------------------------------


def guard(row: Resource) -> Callable[[Request], Account]:
    """The dependency that answers a request as the access policy's ``row`` says
    (:mod:`croupier.server.policy`): 401 without a valid token, 403 for a role or relation the
    row refuses, 409 where it answers only once the round is over; else the request's
    :class:`~croupier.server.policy.Access` (``request.state.access``: the point of view its
    answer is redacted as)."""

    def check(request: Request) -> Account:
        account = authenticate(request.app.state.auth, request.headers.get("authorization"))
        request.state.account = account  # a refusal names it in the security log
        if row.refuses(account.role):
            allowed = ", ".join(row.roles())
            raise Refused(f"the {account.role.value} role may not use this endpoint ({allowed})")
        request.state.access = _access(request, row, account)
        return account

    return check


def refusal(account: Account, table_id: str | None, what: str) -> Callable[[Rule, str], Exception]:
    """The error of a refused rule: 401, 403 (a dealer of another table told which table is
    theirs) or 409 (``what`` exists only once the round is over)."""

    def make(rule: Rule, why: str) -> Exception:
        if rule.status == 401:
            return Unauthorized("a bearer token is required (POST /api/login)")
        if rule.status == 409:
            return IllegalAction(f"{what} is still in play; it is given once the round is over")
        if account.role is Role.DEALER and table_id is not None and not account.deals(table_id):
            bound = ", ".join(sorted(account.tables)) or "no table"
            return Refused(f"dealer {account.username} deals {bound}, not {table_id}")
        return Refused(f"the {why} may not use this endpoint")

    return make


def _access(request: Request, row: Resource, account: Account) -> Access:
    """The caller's relation to what the path names, and the stage of its round."""
    reads: ReadModel = request.app.state.floor.reads
    params = request.path_params
    if row.scope in (Scope.TABLE, Scope.SEAT):
        lt = reads.registry.table(str(params["table_id"]))
        # Another server process may have moved the table: a read checks its version (one row);
        # a command the notifications heard, and its version only before a refusal (the command
        # itself checks it under the table's lock).
        sync: TableSync = request.app.state.floor.sync
        if request.method == "GET":
            return _table_access(row, account, sync.fresh(lt), params)
        try:
            return _table_access(row, account, sync.current(lt), params)
        except (Refused, IllegalAction):
            return _table_access(row, account, sync.fresh(lt), params)
    if row.scope is Scope.ROUND:
        round_id = str(params["round_id"])
        table_id, players, stage = reads.round_at(round_id)
        return decide(
            row,
            account,
            table_id=table_id,
            seats=round_seats(account, players),
            stage=stage,
            refuse=refusal(account, table_id, f"round {round_id!r}"),
        )
    return decide(
        row,
        account,
        table_id=None,
        seats=frozenset(),
        stage=lambda: Stage.BETTING,
        refuse=refusal(account, None, "the round"),
    )


def _table_access(
    row: Resource, account: Account, lt: LiveTable, params: Mapping[str, Any]
) -> Access:
    """The policy's decision for ``account`` at ``lt`` (a seat's row: the seat it names)."""
    seats = table_seats(account, lt)
    if row.scope is Scope.SEAT:
        # The player of the seat holds it now (their rounds at it are theirs to recall).
        seat = str(params["seat"])
        held = lt.seats()
        seats = frozenset(s for s in held if str(s) == seat and held[s] == account.player_id)
    return decide(
        row,
        account,
        table_id=lt.id,
        seats=seats,
        stage=lambda: stage_of(lt.round, lt.held),
        refuse=refusal(account, lt.id, f"table {lt.id}'s round"),
    )


@dataclass(frozen=True)
class Call:
    """One request for a command: the access policy's answer for its caller, its
    ``Idempotency-Key`` and the digest of what it asked (:func:`request_digest`)."""

    access: Access
    key: str
    digest: str

    @classmethod
    def of(cls, request: Request, key: str, body: Any) -> Call:
        return cls(
            request.state.access, key, request_digest(request.method, request.url.path, body)
        )

    @property
    def account(self) -> Account:
        return self.access.account


def seat_of(lt: LiveTable, account: Account, seat: int | None) -> int:
    """The seat a player's command is for: ``seat`` where given (theirs), else the one the
    round waits on, else their first."""
    mine = sorted(s for s, p in lt.seats().items() if p == account.player_id)
    if lt.round is not None:
        mine = sorted(
            set(mine) | {s for s, p in lt.round.players.items() if p == account.player_id}
        )
    if seat is not None:
        if seat not in mine:
            raise Refused(f"seat {seat} at table {lt.id} is not {account.player_id}'s")
        return seat
    if not mine:
        raise Refused(f"{account.player_id} has no seat at table {lt.id}")
    rnd = lt.round
    if rnd is not None:
        actor = rnd.to_act()
        if actor.seat in mine:
            return actor.seat
    return mine[0]


def answer(call: Call, lt: LiveTable, records: Any, **data: Any) -> dict[str, Any]:
    """A command's answer: its records redacted as the point of view the access policy gives
    the caller at the table."""
    pov = call.access.pov_with(table_seats(call.account, lt))
    rnd = lt.round
    return CommandResult(
        table_id=lt.id,
        round_id=lt.round_id,
        phase=rnd.phase.value if rnd is not None else None,
        to_act=str(rnd.to_act()) if rnd is not None else None,
        records=[redact_json(r, pov) for r in records],
        seq=lt.seq,
        data=data,
    ).model_dump()


# -- the commands ----------------------------------------------------------------------------


class Commands:
    """Every command of the API, each committed once per key before it is answered."""

    def __init__(
        self,
        committer: GroupCommitter,
        store: RoundStore,
        meters: SqlMeters,
        registry: TableRegistry,
        log: EventLog,
        rounds: RoundService,
        cage: Cage,
        sync: TableSync,
    ) -> None:
        self.sync = sync
        self.committer = committer
        self.store = store
        self.meters = meters
        self.registry = registry
        self.log = log
        self.rounds = rounds
        self.cage = cage

    def transact(
        self,
        account: Account,
        key: str,
        digest: str,
        table_id: str | None,
        run: Callable[[Txn], dict[str, Any]],
    ) -> dict[str, Any]:
        """Run ``run`` once per ``key``: returned only after its transaction committed (a group
        commit with the other commands waiting, :mod:`croupier.server.commit`)."""
        if not key or len(key) > MAX_KEY:
            raise InvalidInput("every command carries an Idempotency-Key header (1-200 characters)")
        lt = self.registry.tables.get(table_id) if table_id else None
        saved: list[Snapshot] = []
        txns: list[Txn] = []

        def work(conn: Connection) -> tuple[dict[str, Any], Callable[[], None] | None]:
            if lt is not None:
                # PostgreSQL: the table's lock in the database, the table rebuilt where another
                # server process moved it (before the snapshot: the rebuild is committed state).
                self.sync.claim(conn, lt)
            saved.append(Snapshot.of(self.registry, lt))
            prior = _PRIOR.first(conn, {"i_key": key, "i_user": account.username})
            if prior is not None:
                request, response = prior
                if request != digest:
                    raise IllegalAction(f"Idempotency-Key {key!r} was used for a different request")
                stored: dict[str, Any] = json.loads(response)
                return stored, None
            txn = Txn(conn, holding=lt.id if lt is not None else None)
            txns.append(txn)
            result = run(txn)
            written = self.log.write(txn)
            if lt is not None and "seq" in result:
                result["seq"] = lt.seq
            _REMEMBER.count(
                conn,
                {
                    "key": key,
                    "username": account.username,
                    "request": digest,
                    "status": 200,
                    "response": json.dumps(result),
                    "at": now(),
                },
            )
            return result, partial(self.log.publish, written)

        def undo(conn: Connection | None = None) -> None:
            if saved:
                saved.pop().restore(self.registry, self.store, self.meters, conn)
            if txns:
                for placed in txns.pop().placed:
                    self.registry.forget(placed)

        locks = (lt.lock,) if lt is not None else ()
        return self.committer.submit(Work(work, undo, locks))

    def _at_table(
        self, call: Call, table_id: str, run: Callable[[Txn, LiveTable], dict[str, Any]]
    ) -> dict[str, Any]:
        lt = self.registry.table(table_id)
        return self.transact(call.account, call.key, call.digest, lt.id, lambda t: run(t, lt))

    def _round_action(
        self, call: Call, table_id: str, action: Callable[[LiveTable], Action]
    ) -> dict[str, Any]:
        """A seat's or the dealer's action in the table's round, answered with its records."""

        def run(txn: Txn, lt: LiveTable) -> dict[str, Any]:
            return answer(call, lt, self.rounds.apply(txn, lt, action(lt)))

        return self._at_table(call, table_id, run)

    # -- a player's ----------------------------------------------------------------------------

    def sit(self, call: Call, table_id: str, seat: int) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable) -> dict[str, Any]:
            # One table a player, across the server processes too.
            self.sync.verify_unseated(txn.conn, lt.id, call.account.player_id)
            seats = self.registry.sit(txn, lt, call.account, seat)
            return answer(call, lt, [], seats={str(s): p for s, p in seats.items()})

        return self._at_table(call, table_id, run)

    def leave(self, call: Call, table_id: str) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable) -> dict[str, Any]:
            seats = self.rounds.leave(txn, lt, call.account.player_id)
            # § 541.13(g): the baccarat markers collected as the player leaves.
            return answer(call, lt, txn.collected, seats={str(s): p for s, p in seats.items()})

        return self._at_table(call, table_id, run)

    def wager(
        self, call: Call, table_id: str, seat: int | None, wager: str, amount: int
    ) -> dict[str, Any]:
        def action(lt: LiveTable) -> Action:
            chosen = seat_of(lt, call.account, seat)
            return PlaceWager(seat=chosen, wager=wager, amount=amount)

        return self._round_action(call, table_id, action)

    def decide(self, call: Call, table_id: str, seat: int | None, decision: str) -> dict[str, Any]:
        def action(lt: LiveTable) -> Action:
            chosen = seat_of(lt, call.account, seat)
            if lt.round is None:
                raise IllegalAction(f"table {lt.id} has no round in play")
            return lt.round.parse_decision(chosen, decision)

        return self._round_action(call, table_id, action)

    # -- the dealer's --------------------------------------------------------------------------

    def new_round(
        self, call: Call, table_id: str, cut_at: int | None, stack: str | None
    ) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable) -> dict[str, Any]:
            self.rounds.begin_round(txn, lt, cut_at, stack)
            assert lt.round is not None
            return answer(call, lt, lt.round.records)

        return self._at_table(call, table_id, run)

    def no_more_bets(self, call: Call, table_id: str, chips: int | None) -> dict[str, Any]:
        return self._round_action(call, table_id, lambda lt: NoMoreBets(progressive_chips=chips))

    def dealer_steps(self, call: Call, table_id: str, phases: tuple[Phase, ...]) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable) -> dict[str, Any]:
            return answer(call, lt, self.rounds.dealer_steps(txn, lt, phases))

        return self._at_table(call, table_id, run)

    def stub_count(self, call: Call, table_id: str, count: int) -> dict[str, Any]:
        return self._round_action(call, table_id, lambda lt: CountStub(count=count))

    def irregularity(self, call: Call, table_id: str, kind: str) -> dict[str, Any]:
        try:
            found = IrregularityKind(kind)
        except ValueError:
            known = ", ".join(k.value for k in IrregularityKind)
            raise InvalidInput(f"irregularity {kind!r} is not one of {known}") from None
        return self._round_action(call, table_id, lambda lt: ReportIrregularity(kind=found))

    # -- a supervisor's ------------------------------------------------------------------------

    def void(self, call: Call, lt: LiveTable, reason: str) -> dict[str, Any]:
        """Void the round in play at ``lt`` (the read model found it by its id)."""

        def run(txn: Txn, live: LiveTable) -> dict[str, Any]:
            records: list[Record] = self.rounds.void(txn, live, call.account.username, reason)
            return answer(call, live, records)

        return self._at_table(call, lt.id, run)

    def chips(self, call: Call, player_id: str, amount: int, *, buy: bool) -> dict[str, Any]:
        """A buy-in (``buy``) or a cash-out."""

        def run(txn: Txn) -> dict[str, Any]:
            move = self.cage.buy_in if buy else self.cage.cash_out
            balance = int(move(txn, player_id, amount))
            return Balance(player_id=player_id, balance=balance).model_dump()

        return self.transact(call.account, call.key, call.digest, None, run)

    def new_player(
        self, call: Call, auth: Auth, player_id: str, name: str, username: str, password: str
    ) -> dict[str, Any]:
        def run(txn: Txn) -> dict[str, Any]:
            if auth.exists(txn.conn, username):
                raise IllegalAction(f"username {username!r} is taken")
            self.cage.create_player(txn.conn, player_id, name)
            auth.create(
                txn.conn,
                username,
                password,
                Role.PLAYER,
                player_id=player_id,
                actor=call.account.username,
            )
            return Balance(player_id=player_id, balance=0).model_dump()

        return self.transact(call.account, call.key, call.digest, None, run)

    def approve_handpay(self, call: Call, handpay_id: int, table_id: str | None) -> dict[str, Any]:
        """Approve the hand-pay, under its table's lock (``table_id``)."""
        if table_id is not None:
            self.registry.table(table_id)

        def run(txn: Txn) -> dict[str, Any]:
            self.cage.approve_handpay(txn, handpay_id, call.account.username)
            found = txn.conn.execute(select(handpays).where(handpays.c.id == handpay_id)).one()
            return HandPayOut.model_validate(dict(found._mapping)).model_dump()

        return self.transact(call.account, call.key, call.digest, table_id, run)

    def create_table(
        self, call: Call, table_id: str, name: str, rules: dict[str, Any]
    ) -> dict[str, Any]:
        def run(txn: Txn) -> dict[str, Any]:
            made = self.registry.create(txn.conn, table_id, name, rules)
            txn.placed.append(made)
            self.sync.made(txn.conn, table_id)  # the other server processes load it
            return table_out(made, {}).model_dump()

        return self.transact(call.account, call.key, call.digest, None, run)

    def set_status(self, call: Call, table_id: str, status: str) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable) -> dict[str, Any]:
            self.registry.set_status(txn, lt, status)
            return table_out(lt, {}).model_dump()

        return self._at_table(call, table_id, run)
