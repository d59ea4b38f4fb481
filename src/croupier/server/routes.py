"""The REST and WebSocket routes (thin: each calls the floor; see ``/work/coord/API.md``)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from functools import partial
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Header, Path, Query, Request
from sqlalchemy import select

from croupier.audit import verify
from croupier.errors import IllegalAction, InvalidInput
from croupier.games.records import IrregularityKind, NoMoreBets, PlaceWager, ReportIrregularity
from croupier.games.round import Phase, Round
from croupier.server.account_routes import install_accounts, install_sign_in
from croupier.server.api_models import (
    Amount,
    AuditOut,
    Balance,
    CommandResult,
    Cut,
    DealOut,
    Decision,
    HandPayOut,
    Irregularity,
    MeterOut,
    NewPlayer,
    NewTable,
    NoMoreBetsIn,
    Problem,
    RecalledRound,
    RoundRecords,
    ScenarioJson,
    Seat,
    StubCount,
    TableDetail,
    TableOut,
    TableView,
    VoidIn,
    Wager,
    WhoAmI,
)
from croupier.server.auth import Account, Auth, Role
from croupier.server.bearer import authenticate, install_logout
from croupier.server.deals import deal_for
from croupier.server.ledger import player_account
from croupier.server.openapi import install_document
from croupier.server.policy import (
    Access,
    Resource,
    Rule,
    Scope,
    Stage,
    decide,
    resource,
    round_seats,
    stage_of,
    table_seats,
)
from croupier.server.round_recall import recall, scenario_of
from croupier.server.round_service import (
    Floor,
    LiveTable,
    Refused,
    Txn,
    Unauthorized,
    request_digest,
    rules_json,
)
from croupier.server.shoe_floor import owed as commission_owed
from croupier.server.streams import install_streams
from croupier.server.views import redact_json, round_view
from croupier.store.schema import handpays, live_rounds

__all__ = ["committed_out", "guard", "install", "refusal"]

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem, "content": {"application/problem+json": {}}}
    for code in (401, 403, 404, 409, 422)
}

Key = Annotated[str, Header(alias="Idempotency-Key", min_length=1, max_length=200)]


def _floor(request: Request) -> Floor:
    floor: Floor = request.app.state.floor
    return floor


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
    floor = _floor(request)
    params = request.path_params
    if row.scope in (Scope.TABLE, Scope.SEAT):
        lt = floor.table(str(params["table_id"]))
        seats = table_seats(account, lt)
        if row.scope is Scope.SEAT:
            # The player of the seat holds it now (their rounds at it are theirs to recall).
            seat = str(params["seat"])
            now = lt.seats()
            seats = frozenset(s for s in now if str(s) == seat and now[s] == account.player_id)
        return decide(
            row,
            account,
            table_id=lt.id,
            seats=seats,
            stage=lambda: stage_of(lt.round, lt.held),
            refuse=refusal(account, lt.id, f"table {lt.id}'s round"),
        )
    if row.scope is Scope.ROUND:
        round_id = str(params["round_id"])
        table_id, players, stage = _round_at(floor, round_id)
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


def _stage_at(lt: LiveTable, rnd: Round) -> Stage:
    return stage_of(rnd, lt.held)


def _round_at(
    floor: Floor, round_id: str
) -> tuple[str | None, Mapping[int, str], Callable[[], Stage]]:
    """A round's table, players and stage: the table's round in play from memory, else the
    store's (``LookupError`` where the round is not stored)."""
    for lt in floor.live_tables():
        rnd = lt.round
        if lt.round_id == round_id and rnd is not None:
            return lt.id, rnd.players, partial(_stage_at, lt, rnd)
    try:
        info = floor.store.info(round_id)
    except IllegalAction:
        raise LookupError(f"round {round_id[:80]!r} is not stored") from None
    with floor.reading() as conn:
        table_id = conn.execute(
            select(live_rounds.c.table_id).where(live_rounds.c.round_id == round_id)
        ).scalar()
    status = info.status.value
    if status == "over":
        return table_id, info.players, lambda: Stage.SETTLED
    if status == "void":
        return table_id, info.players, lambda: Stage.VOIDED
    return table_id, info.players, lambda: stage_of(floor.store.rebuild(round_id), None)


def install(app: FastAPI) -> None:
    """Every route, group by group, in the order the OpenAPI document lists them."""
    op = _operations(app)
    _install_login(app, op)
    install_logout(op)
    _install_floor(op)
    _install_player(op)
    _install_dealer(op)
    _install_chips(op)
    _install_tables(op)
    _install_recall(op)
    install_accounts(app, op)
    install_streams(app)
    install_document(app)


Op = Callable[..., Callable[[Callable[..., Any]], Callable[..., Any]]]
"""``op(method, path, **kw)``: a decorator adding a route guarded by its row of the access
policy."""


def _operations(app: FastAPI) -> Op:
    """The route decorator of ``app``: each route guarded by its row of the access policy
    (:mod:`croupier.server.policy`; a route without one is refused here), the roles it serves
    listed as ``x-roles`` and its row as ``x-access`` in the OpenAPI document, errors answered
    as application/problem+json."""

    def op(method: str, path: str, **kw: Any) -> Callable[[Any], Any]:
        row = resource(method, path)

        def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
            app.add_api_route(
                path,
                fn,
                methods=[method],
                dependencies=[Depends(guard(row))],
                openapi_extra={"x-roles": row.roles(), "x-access": row.cells()},
                responses=ERRORS,
                **kw,
            )
            return fn

        return deco

    return op


def command(
    request: Request,
    key: str,
    table_id: str | None,
    body: Any,
    run: Callable[[Txn, LiveTable | None, Account], dict[str, Any]],
) -> dict[str, Any]:
    floor = _floor(request)
    account: Account = request.state.account
    lt = floor.table(table_id) if table_id is not None else None
    digest = request_digest(request.method, request.url.path, body)

    def go(txn: Txn) -> dict[str, Any]:
        return run(txn, lt, account)

    return floor.command(account, key, digest, table_id, go)


def result(request: Request, lt: LiveTable, records: Any, **data: Any) -> dict[str, Any]:
    """A command's answer: its records redacted as the point of view the access policy gives
    the caller at the table (``request.state.access``)."""
    access: Access = request.state.access
    pov = access.pov_with(table_seats(access.account, lt))
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


def seat_of(lt: LiveTable, account: Account, seat: int | None) -> int:
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


def _install_login(app: FastAPI, op: Op) -> None:
    """Sign-in (:func:`croupier.server.account_routes.install_sign_in`), who am I and the list
    of tables."""
    install_sign_in(app, ERRORS)

    @op("GET", "/api/me", response_model=WhoAmI)
    def me(request: Request) -> WhoAmI:
        account: Account = request.state.account
        floor = _floor(request)
        balance = owed = None
        seats: dict[str, list[int]] = {}
        if account.player_id is not None:
            with floor.reading() as conn:
                value = floor.ledger.balance(conn, player_account(account.player_id))
                owed = commission_owed(floor, conn, account.player_id)
            balance = int(value)
            for lt in floor.live_tables():
                mine = sorted(s for s, p in lt.seats().items() if p == account.player_id)
                if mine:
                    seats[lt.id] = mine
        return WhoAmI(
            username=account.username,
            role=account.role.value,
            player_id=account.player_id,
            table_id=account.sole_table,
            tables=sorted(account.tables),
            demo=account.demo,
            balance=balance,
            commission_owed=owed,
            seats=seats,
        )

    @op("GET", "/api/tables", response_model=list[TableOut])
    def tables(request: Request) -> list[TableOut]:
        floor = _floor(request)
        snapshot = floor.meters.snapshot()
        return [committed_out(lt, snapshot) for lt in floor.live_tables()]


def _install_floor(op: Op) -> None:
    """A table's detail, the meters and a table's view (every role)."""

    @op("GET", "/api/tables/{table_id}", response_model=TableDetail)
    def table_detail(request: Request, table_id: str) -> TableDetail:
        floor = _floor(request)
        lt = floor.table(table_id)
        out = committed_out(lt, floor.meters.snapshot())
        return TableDetail(
            **out.model_dump(),
            title=lt.game.title,
            chapter=lt.game.chapter,
            rules=rules_json(lt.game.rules),
            sign=lt.game.sign(),
            wagers=list(lt.game.offered_wagers()),
            house_wagers=_house_wagers(lt),
        )

    @op("GET", "/api/meters", response_model=list[MeterOut])
    def meters(request: Request) -> list[MeterOut]:
        floor = _floor(request)
        out = []
        for name in floor.meters.snapshot():
            state = floor.meters.state(name)
            linked = [lt.id for lt in floor.live_tables() if name in lt.meters]
            out.append(
                MeterOut(
                    name=name,
                    amount=state.amount,
                    exact=str(state.exact),
                    reset=state.reset,
                    rate=str(state.rate),
                    paid_total=state.paid_total,
                    awards=state.awards,
                    tables=linked,
                )
            )
        return out

    @op("GET", "/api/tables/{table_id}/view", response_model=TableView)
    def view(request: Request, table_id: str) -> dict[str, Any]:
        floor = _floor(request)
        access: Access = request.state.access
        data = floor.view(access.account, floor.table(table_id))
        if data["round_id"] is not None:
            with contextlib.suppress(LookupError):
                data["deal"] = deal_for(floor, data["round_id"], access.pov)
        return data


def _install_player(op: Op) -> None:
    """A player's seat, wagers, decisions and own rounds."""

    @op("POST", "/api/tables/{table_id}/sit", response_model=CommandResult)
    def sit(request: Request, table_id: str, body: Seat, key: Key) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            seats = _floor(request).sit(txn, lt, account, body.seat)
            return result(request, lt, [], seats={str(s): p for s, p in seats.items()})

        return command(request, key, table_id, body.model_dump(), run)

    @op("POST", "/api/tables/{table_id}/leave", response_model=CommandResult)
    def leave(request: Request, table_id: str, key: Key) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            seats = _floor(request).leave(txn, lt, account)
            # § 541.13(g): the baccarat markers collected as the player leaves.
            return result(request, lt, txn.collected, seats={str(s): p for s, p in seats.items()})

        return command(request, key, table_id, None, run)

    @op("POST", "/api/tables/{table_id}/wagers", response_model=CommandResult)
    def wager(request: Request, table_id: str, body: Wager, key: Key) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            seat = seat_of(lt, account, body.seat)
            action = PlaceWager(seat=seat, wager=body.wager, amount=body.amount)
            return result(request, lt, _floor(request).apply(txn, lt, action))

        return command(request, key, table_id, body.model_dump(), run)

    @op("POST", "/api/tables/{table_id}/decisions", response_model=CommandResult)
    def decide(request: Request, table_id: str, body: Decision, key: Key) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            seat = seat_of(lt, account, body.seat)
            if lt.round is None:
                raise IllegalAction(f"table {lt.id} has no round in play")
            action = lt.round.parse_decision(seat, body.decision)
            return result(request, lt, _floor(request).apply(txn, lt, action))

        return command(request, key, table_id, body.model_dump(), run)

    @op(
        "GET",
        "/api/tables/{table_id}/seats/{seat}/rounds",
        response_model=list[RecalledRound],
    )
    def seat_rounds(
        request: Request, table_id: str, seat: int, last: Annotated[int, Query(ge=1, le=100)] = 10
    ) -> list[dict[str, Any]]:
        floor = _floor(request)
        return _recall_rounds(floor, floor.table(table_id), request.state.access, last, seat)


def _install_dealer(op: Op) -> None:
    """The dealer's round: a new round, no more bets, the dealer's steps, stub counts and
    irregularities."""

    @op("POST", "/api/tables/{table_id}/rounds", response_model=CommandResult)
    def new_round(request: Request, table_id: str, body: Cut, key: Key) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            _floor(request).begin_round(txn, lt, body.cut_at, body.stack)
            assert lt.round is not None
            return result(request, lt, lt.round.records)

        return command(request, key, table_id, body.model_dump(), run)

    @op("POST", "/api/tables/{table_id}/no-more-bets", response_model=CommandResult)
    def no_more_bets(
        request: Request, table_id: str, body: NoMoreBetsIn, key: Key
    ) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            action = NoMoreBets(progressive_chips=body.progressive_chips)
            return result(request, lt, _floor(request).apply(txn, lt, action))

        return command(request, key, table_id, body.model_dump(), run)

    def steps(name: str, phases: tuple[Phase, ...]) -> None:
        @op(
            "POST",
            f"/api/tables/{{table_id}}/{name}",
            response_model=CommandResult,
            name=name,
        )
        def step(request: Request, table_id: str, key: Key) -> dict[str, Any]:
            def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
                assert lt is not None
                return result(request, lt, _floor(request).dealer_steps(txn, lt, phases))

            return command(request, key, table_id, None, run)

    steps("deal", (Phase.DEALING, Phase.DECISIONS))
    steps("reveal", (Phase.REVEAL,))
    steps("settle", (Phase.SETTLEMENT,))

    @op("POST", "/api/tables/{table_id}/stub-count", response_model=CommandResult)
    def stub_count(request: Request, table_id: str, body: StubCount, key: Key) -> dict[str, Any]:
        from croupier.games.records import CountStub

        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            return result(request, lt, _floor(request).apply(txn, lt, CountStub(count=body.count)))

        return command(request, key, table_id, body.model_dump(), run)

    @op("POST", "/api/tables/{table_id}/irregularities", response_model=CommandResult)
    def irregularity(
        request: Request, table_id: str, body: Irregularity, key: Key
    ) -> dict[str, Any]:
        try:
            kind = IrregularityKind(body.kind)
        except ValueError:
            known = ", ".join(k.value for k in IrregularityKind)
            raise InvalidInput(f"irregularity {body.kind!r} is not one of {known}") from None

        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            return result(
                request, lt, _floor(request).apply(txn, lt, ReportIrregularity(kind=kind))
            )

        return command(request, key, table_id, body.model_dump(), run)


def _install_chips(op: Op) -> None:
    """The supervisor's players, chips and hand-pays."""

    def chips(name: str, sign: str) -> None:
        @op("POST", f"/api/players/{{player_id}}/{name}", response_model=Balance, name=name)
        def move(request: Request, player_id: str, body: Amount, key: Key) -> dict[str, Any]:
            def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
                floor = _floor(request)
                fn = floor.buy_in if sign == "+" else floor.cash_out
                return Balance(
                    player_id=player_id, balance=int(fn(txn, player_id, body.amount))
                ).model_dump()

            return command(request, key, None, body.model_dump(), run)

    @op("POST", "/api/players", response_model=Balance)
    def new_player(request: Request, body: NewPlayer, key: Key) -> dict[str, Any]:
        floor = _floor(request)
        auth: Auth = request.app.state.auth

        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            if auth.exists(txn.conn, body.username):
                raise IllegalAction(f"username {body.username!r} is taken")
            floor.create_player(txn.conn, body.player_id, body.name)
            auth.create(
                txn.conn,
                body.username,
                body.password,
                Role.PLAYER,
                player_id=body.player_id,
                actor=account.username,
            )
            return Balance(player_id=body.player_id, balance=0).model_dump()

        return command(request, key, None, body.model_dump(), run)

    chips("buy-in", "+")
    chips("cash-out", "-")

    @op("GET", "/api/handpays", response_model=list[HandPayOut])
    def handpay_list(request: Request) -> list[HandPayOut]:
        with _floor(request).reading() as conn:
            rows = conn.execute(select(handpays).order_by(handpays.c.id)).all()
        return [HandPayOut.model_validate(dict(r._mapping)) for r in rows]

    @op("POST", "/api/handpays/{handpay_id}/approve", response_model=HandPayOut)
    def approve(
        request: Request, handpay_id: Annotated[int, Path(ge=1, le=2**62)], key: Key
    ) -> dict[str, Any]:
        floor = _floor(request)
        with floor.reading() as conn:
            row = conn.execute(
                select(handpays.c.table_id).where(handpays.c.id == handpay_id)
            ).first()
        if row is None:
            raise LookupError(f"hand-pay {handpay_id} does not exist")

        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            floor.approve_handpay(txn, handpay_id, account.username)
            found = txn.conn.execute(select(handpays).where(handpays.c.id == handpay_id)).one()
            return HandPayOut.model_validate(dict(found._mapping)).model_dump()

        return command(request, key, row.table_id, None, run)


def _install_tables(op: Op) -> None:
    """The supervisor's voids and tables."""

    @op("POST", "/api/rounds/{round_id}/void", response_model=CommandResult)
    def void(request: Request, round_id: str, body: VoidIn, key: Key) -> dict[str, Any]:
        floor = _floor(request)
        lt = next((t for t in floor.live_tables() if t.round_id == round_id), None)
        if lt is None:
            raise LookupError(f"round {round_id!r} is not in play at any table")

        def run(txn: Txn, live: LiveTable | None, account: Account) -> dict[str, Any]:
            assert live is not None
            return result(request, live, floor.void(txn, live, account.username, body.reason))

        return command(request, key, lt.id, body.model_dump(), run)

    @op("POST", "/api/tables", response_model=TableOut)
    def create_table(request: Request, body: NewTable, key: Key) -> dict[str, Any]:
        floor = _floor(request)

        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            rules = dict(body.rules)
            made = floor.create_table(txn.conn, body.id, body.name, rules)
            return _table_out(made, {}).model_dump()

        return command(request, key, None, body.model_dump(), run)

    def status(name: str, value: str) -> None:
        @op("POST", f"/api/tables/{{table_id}}/{name}", response_model=TableOut, name=name)
        def set_status(request: Request, table_id: str, key: Key) -> dict[str, Any]:
            floor = _floor(request)

            def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
                assert lt is not None
                floor.set_status(txn, lt, value)
                return _table_out(lt, {}).model_dump()

            return command(request, key, table_id, None, run)

    status("open", "open")
    status("close", "closed")


def _install_recall(op: Op) -> None:
    """Recall and audit (the readers)."""

    @op("GET", "/api/tables/{table_id}/rounds", response_model=list[RecalledRound])
    def table_rounds(
        request: Request,
        table_id: str,
        last: Annotated[int, Query(ge=1, le=100)] = 10,
        seat: Annotated[int | None, Query(ge=1, le=7)] = None,
    ) -> list[dict[str, Any]]:
        floor = _floor(request)
        return _recall_rounds(floor, floor.table(table_id), request.state.access, last, seat)

    @op(
        "GET",
        "/api/rounds/{round_id}/scenario",
        response_model=ScenarioJson,
    )
    def scenario(request: Request, round_id: str) -> dict[str, Any]:
        floor = _floor(request)
        info = _finished(floor, round_id)
        return scenario_of(info, floor.store.load(round_id))

    @op(
        "GET",
        "/api/rounds/{round_id}/records",
        response_model=RoundRecords,
    )
    def records(request: Request, round_id: str) -> dict[str, Any]:
        floor = _floor(request)
        _finished(floor, round_id)
        return recall(floor.store, round_id)

    @op("GET", "/api/rounds/{round_id}/deal", response_model=DealOut)
    def deal(request: Request, round_id: str) -> dict[str, Any]:
        """The round's deal commitment; once it is over (a baccarat coup: once its shoe has
        ended) the cards it dealt as the account may see them, and the order and nonce to
        supervisors and auditors (:mod:`croupier.server.deals`)."""
        access: Access = request.state.access
        return deal_for(_floor(request), round_id, access.pov)

    @op("GET", "/api/audit/verify", response_model=AuditOut)
    def audit(
        request: Request,
        scope: Annotated[Literal["all", "ledger"], Query()] = "all",
    ) -> dict[str, Any]:
        """The chip ledger (every transaction and the whole ledger sum to zero, every balance
        equals its rows, every meter's account holds the meter) and, for ``scope=all``,
        ``croupier audit verify`` on the database: every record chain intact, every round's
        settlement rebuilt from its records and every seat's chips reconciled with it
        (:func:`croupier.audit.verify`, :mod:`croupier.reconcile`, which checks the ledger
        too)."""
        floor = _floor(request)
        chains = verify(floor.engine) if scope == "all" else None
        with floor.reading() as conn:
            problems = floor.ledger.check(conn) if chains is None else []
            balances = floor.ledger.balances(conn)
        for name in floor.meters.snapshot():
            exact = floor.meters.exact(name)
            held = balances.get(f"meter:{name}")
            if held != exact:
                problems.append(f"meter {name} holds {exact} but its ledger account {held}")
        if chains is not None:
            problems += [str(f) for f in chains.findings]
        return {
            "ok": not problems,
            "problems": problems,
            "balances": {k: str(v) for k, v in sorted(balances.items())},
            "audit": None if chains is None else chains.to_json(),
        }


# -- helpers -------------------------------------------------------------------------------------


def _house_wagers(lt: LiveTable) -> dict[str, int]:
    from croupier.progressive import MemoryMeters
    from croupier.shoe import SecureShuffler, Shoe

    shoe = Shoe.shuffled(SecureShuffler(), decks=lt.game.deck_count)
    probe = lt.game.new_round(shoe=shoe, meters=MemoryMeters(), players={1: "house"})
    return {w.wager: w.amount for w in probe.house_wagers(1)}


def committed_out(lt: LiveTable, snapshot: dict[str, int]) -> TableOut:
    """The table as committed (read under its lock, which a command holds until it commits;
    never from inside a command, which holds it already)."""
    with lt.lock:
        return _table_out(lt, snapshot)


def _table_out(lt: LiveTable, snapshot: dict[str, int]) -> TableOut:
    rnd = lt.round
    seats: dict[str, str | None] = {str(s): None for s in range(1, 8)}
    for s, p in lt.seats().items():
        seats[str(s)] = p
    return TableOut(
        id=lt.id,
        name=lt.name,
        game=lt.game.slug,
        status=lt.status,
        phase=rnd.phase.value if rnd is not None else None,
        round_id=lt.round_id,
        held=lt.held,
        seats=seats,
        meters={m: snapshot[m] for m in lt.meters if m in snapshot},
        training=lt.game.rules.table.training,
        limits=lt.game.posted_limits(),
    )


def _finished(floor: Floor, round_id: str) -> Any:
    try:
        info = floor.store.info(round_id)
    except IllegalAction:
        raise LookupError(f"round {round_id!r} is not stored") from None
    if info.status.value == "open":
        raise IllegalAction(f"round {round_id!r} is still in play; it is recalled once over")
    return info


def _recall_rounds(
    floor: Floor, lt: LiveTable, access: Access, last: int, seat: int | None
) -> list[dict[str, Any]]:
    """The table's last finished rounds (at ``seat`` where given), each as the access policy
    lets the caller see it; a player: only the rounds they played at the seat, each from every
    seat they held in it."""
    account = access.account
    with floor.reading() as conn:
        ids = (
            conn.execute(
                select(live_rounds.c.round_id)
                .where(live_rounds.c.table_id == lt.id, live_rounds.c.state != "open")
                .order_by(live_rounds.c.number.desc())
                .limit(last if seat is None else last * 20)
            )
            .scalars()
            .all()
        )
    out: list[dict[str, Any]] = []
    for rid in ids:
        info = floor.store.info(rid)
        if seat is not None and seat not in info.players:
            continue
        if account.role is Role.PLAYER and (
            seat is None or info.players[seat] != account.player_id
        ):
            # A player recalls the seat's rounds they played: never a round an earlier
            # occupant of the seat played.
            continue
        pov = access.pov_with(round_seats(account, info.players))
        rnd = floor.store.rebuild(rid)
        view = round_view(rnd, pov)
        view["round_id"] = rid
        view["mode"] = info.mode.value  # the record header's (a rebuilt round is a replay)
        out.append(view)
        if len(out) >= last:
            break
    return out
