"""The REST routes, thin: each parses its request and calls the read model
(:mod:`croupier.server.read_model`) or the command layer (:mod:`croupier.server.commands`, whose
docstring follows one wager from here to its commit); who may use each is its row of the access
policy (:mod:`croupier.server.policy`)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Header, Path, Query, Request
from starlette.concurrency import run_in_threadpool

from croupier.games.round import Phase
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
from croupier.server.auth import Auth
from croupier.server.bearer import install_logout
from croupier.server.commands import Call, Commands, guard, refusal
from croupier.server.devices import install_devices
from croupier.server.drill_routes import install_drills
from croupier.server.felt import install_felt
from croupier.server.openapi import install_document
from croupier.server.policy import Access, resource
from croupier.server.read_model import ReadModel, committed_out
from croupier.server.streams import install_streams

__all__ = ["committed_out", "guard", "install", "refusal"]

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem, "content": {"application/problem+json": {}}}
    for code in (401, 403, 404, 409, 422)
}

Key = Annotated[str, Header(alias="Idempotency-Key", min_length=1, max_length=200)]


def _reads(request: Request) -> ReadModel:
    reads: ReadModel = request.app.state.floor.reads
    return reads


def _commands(request: Request) -> Commands:
    commands: Commands = request.app.state.floor.commands
    return commands


def _access(request: Request) -> Access:
    access: Access = request.state.access
    return access


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
    install_devices(app, op, ERRORS)  # card readers and the dealer's keypad (issue 39)
    install_drills(op)
    install_felt(app, op)  # winning hands declared where croupier sees no card (issue 39)
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
                _answered_on_loop(fn) if method == "POST" else fn,
                methods=[method],
                dependencies=[Depends(guard(row))],
                openapi_extra={"x-roles": row.roles(), "x-access": row.cells()},
                responses=ERRORS,
                **kw,
            )
            return fn

        return deco

    return op


def _answered_on_loop(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A command route run in a worker thread as before, its answer checked against its
    response model on the event loop.  FastAPI hands a plain route's answer to a worker thread
    again for that check: a second thread hand-off that cost about a tenth of the server's CPU
    a command (``bench_server.py --tables 20``); a command's answer is small.  The signature,
    name and documentation are ``fn``'s (FastAPI reads them through ``__wrapped__``)."""
    if inspect.iscoroutinefunction(fn):
        return fn

    @functools.wraps(fn)
    async def endpoint(*args: Any, **kwargs: Any) -> Any:
        return await run_in_threadpool(fn, *args, **kwargs)

    return endpoint


def _install_login(app: FastAPI, op: Op) -> None:
    """Sign-in (:func:`croupier.server.account_routes.install_sign_in`), who am I and the list
    of tables."""
    install_sign_in(app, ERRORS)

    @op("GET", "/api/me", response_model=WhoAmI)
    def me(request: Request) -> WhoAmI:
        return _reads(request).me(request.state.account)

    @op("GET", "/api/tables", response_model=list[TableOut])
    def tables(request: Request) -> list[TableOut]:
        return _reads(request).tables()


def _install_floor(op: Op) -> None:
    """A table's detail, the meters and a table's view (every role)."""

    @op("GET", "/api/tables/{table_id}", response_model=TableDetail)
    def table_detail(request: Request, table_id: str) -> TableDetail:
        return _reads(request).table_detail(table_id)

    @op("GET", "/api/meters", response_model=list[MeterOut])
    def meters(request: Request) -> list[MeterOut]:
        return _reads(request).meter_list()

    @op("GET", "/api/tables/{table_id}/view", response_model=TableView)
    def view(request: Request, table_id: str) -> dict[str, Any]:
        return _reads(request).view_with_deal(_access(request), table_id)


def _install_player(op: Op) -> None:
    """A player's seat, wagers, decisions and own rounds."""

    @op("POST", "/api/tables/{table_id}/sit", response_model=CommandResult)
    def sit(request: Request, table_id: str, body: Seat, key: Key) -> dict[str, Any]:
        call = Call.of(request, key, body.model_dump())
        return _commands(request).sit(call, table_id, body.seat)

    @op("POST", "/api/tables/{table_id}/leave", response_model=CommandResult)
    def leave(request: Request, table_id: str, key: Key) -> dict[str, Any]:
        return _commands(request).leave(Call.of(request, key, None), table_id)

    @op("POST", "/api/tables/{table_id}/wagers", response_model=CommandResult)
    def wager(request: Request, table_id: str, body: Wager, key: Key) -> dict[str, Any]:
        call = Call.of(request, key, body.model_dump())
        return _commands(request).wager(call, table_id, body.seat, body.wager, body.amount)

    @op("POST", "/api/tables/{table_id}/decisions", response_model=CommandResult)
    def decide(request: Request, table_id: str, body: Decision, key: Key) -> dict[str, Any]:
        call = Call.of(request, key, body.model_dump())
        return _commands(request).decide(call, table_id, body.seat, body.decision)

    @op(
        "GET",
        "/api/tables/{table_id}/seats/{seat}/rounds",
        response_model=list[RecalledRound],
    )
    def seat_rounds(
        request: Request, table_id: str, seat: int, last: Annotated[int, Query(ge=1, le=100)] = 10
    ) -> list[dict[str, Any]]:
        return _reads(request).recall_rounds(table_id, _access(request), last, seat)


def _install_dealer(op: Op) -> None:
    """The dealer's round: a new round, no more bets, the dealer's steps, stub counts and
    irregularities."""

    @op("POST", "/api/tables/{table_id}/rounds", response_model=CommandResult)
    def new_round(request: Request, table_id: str, body: Cut, key: Key) -> dict[str, Any]:
        call = Call.of(request, key, body.model_dump())
        return _commands(request).new_round(call, table_id, body.cut_at, body.stack)

    @op("POST", "/api/tables/{table_id}/no-more-bets", response_model=CommandResult)
    def no_more_bets(
        request: Request, table_id: str, body: NoMoreBetsIn, key: Key
    ) -> dict[str, Any]:
        call = Call.of(request, key, body.model_dump())
        return _commands(request).no_more_bets(call, table_id, body.progressive_chips)

    def steps(name: str, phases: tuple[Phase, ...]) -> None:
        @op(
            "POST",
            f"/api/tables/{{table_id}}/{name}",
            response_model=CommandResult,
            name=name,
        )
        def step(request: Request, table_id: str, key: Key) -> dict[str, Any]:
            return _commands(request).dealer_steps(Call.of(request, key, None), table_id, phases)

    steps("deal", (Phase.DEALING, Phase.DECISIONS))
    steps("reveal", (Phase.REVEAL,))
    steps("settle", (Phase.SETTLEMENT,))

    @op("POST", "/api/tables/{table_id}/stub-count", response_model=CommandResult)
    def stub_count(request: Request, table_id: str, body: StubCount, key: Key) -> dict[str, Any]:
        call = Call.of(request, key, body.model_dump())
        return _commands(request).stub_count(call, table_id, body.count)

    @op("POST", "/api/tables/{table_id}/irregularities", response_model=CommandResult)
    def irregularity(
        request: Request, table_id: str, body: Irregularity, key: Key
    ) -> dict[str, Any]:
        call = Call.of(request, key, body.model_dump())
        return _commands(request).irregularity(call, table_id, body.kind)


def _install_chips(op: Op) -> None:
    """The supervisor's players, chips and hand-pays."""

    def chips(name: str, sign: str) -> None:
        @op("POST", f"/api/players/{{player_id}}/{name}", response_model=Balance, name=name)
        def move(request: Request, player_id: str, body: Amount, key: Key) -> dict[str, Any]:
            call = Call.of(request, key, body.model_dump())
            return _commands(request).chips(call, player_id, body.amount, buy=sign == "+")

    @op("POST", "/api/players", response_model=Balance)
    def new_player(request: Request, body: NewPlayer, key: Key) -> dict[str, Any]:
        auth: Auth = request.app.state.auth
        call = Call.of(request, key, body.model_dump())
        return _commands(request).new_player(
            call, auth, body.player_id, body.name, body.username, body.password
        )

    chips("buy-in", "+")
    chips("cash-out", "-")

    @op("GET", "/api/handpays", response_model=list[HandPayOut])
    def handpay_list(request: Request) -> list[HandPayOut]:
        return _reads(request).handpay_list()

    @op("POST", "/api/handpays/{handpay_id}/approve", response_model=HandPayOut)
    def approve(
        request: Request, handpay_id: Annotated[int, Path(ge=1, le=2**62)], key: Key
    ) -> dict[str, Any]:
        table_id = _reads(request).handpay_table(handpay_id)
        call = Call.of(request, key, None)
        return _commands(request).approve_handpay(call, handpay_id, table_id)


def _install_tables(op: Op) -> None:
    """The supervisor's voids and tables."""

    @op("POST", "/api/rounds/{round_id}/void", response_model=CommandResult)
    def void(request: Request, round_id: str, body: VoidIn, key: Key) -> dict[str, Any]:
        lt = _reads(request).in_play(round_id)
        call = Call.of(request, key, body.model_dump())
        return _commands(request).void(call, lt, body.reason)

    @op("POST", "/api/tables", response_model=TableOut)
    def create_table(request: Request, body: NewTable, key: Key) -> dict[str, Any]:
        call = Call.of(request, key, body.model_dump())
        return _commands(request).create_table(call, body.id, body.name, dict(body.rules))

    def status(name: str, value: str) -> None:
        @op("POST", f"/api/tables/{{table_id}}/{name}", response_model=TableOut, name=name)
        def set_status(request: Request, table_id: str, key: Key) -> dict[str, Any]:
            return _commands(request).set_status(Call.of(request, key, None), table_id, value)

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
        return _reads(request).recall_rounds(table_id, _access(request), last, seat)

    @op(
        "GET",
        "/api/rounds/{round_id}/scenario",
        response_model=ScenarioJson,
    )
    def scenario(request: Request, round_id: str) -> dict[str, Any]:
        return _reads(request).scenario(round_id)

    @op(
        "GET",
        "/api/rounds/{round_id}/records",
        response_model=RoundRecords,
    )
    def records(request: Request, round_id: str) -> dict[str, Any]:
        return _reads(request).records(round_id)

    @op("GET", "/api/rounds/{round_id}/deal", response_model=DealOut)
    def deal(request: Request, round_id: str) -> dict[str, Any]:
        """The round's deal commitment; once it is over (a baccarat coup: once its shoe has
        ended) the cards it dealt as the account may see them, and the order and nonce to
        supervisors and auditors (:mod:`croupier.server.deals`)."""
        return _reads(request).deal(round_id, _access(request).pov)

    @op("GET", "/api/audit/verify", response_model=AuditOut)
    def audit(
        request: Request,
        scope: Annotated[Literal["all", "ledger"], Query()] = "all",
    ) -> dict[str, Any]:
        """The chip ledger (every transaction and the whole ledger sum to zero, every balance
        equals its rows, every meter's account holds the meter) and, for ``scope=all``,
        ``croupier audit verify`` on the database: every record chain intact, every round's
        settlement rebuilt from its records and every seat's chips reconciled with it
        (:func:`croupier.audit.verify`, :mod:`croupier.audit.reconcile`, which checks the
        ledger too)."""
        return _reads(request).audit(scope)
