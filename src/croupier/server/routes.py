"""The REST and WebSocket routes (thin: each calls the floor; see ``/work/coord/API.md``)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Header, Path, Query, Request
from sqlalchemy import select

from croupier.audit import verify
from croupier.errors import IllegalAction, InvalidInput
from croupier.games.records import IrregularityKind, NoMoreBets, PlaceWager, ReportIrregularity
from croupier.games.round import Phase
from croupier.server.account_routes import client_address, install_accounts
from croupier.server.auth import Account, Auth, AuthError, Role
from croupier.server.deals import deal_for
from croupier.server.floor import (
    Floor,
    LiveTable,
    Refused,
    Txn,
    Unauthorized,
    pov_of,
    request_digest,
    rules_json,
)
from croupier.server.ledger import player_account
from croupier.server.models import (
    Amount,
    AuditOut,
    Balance,
    CommandResult,
    Cut,
    DealOut,
    Decision,
    HandPayOut,
    Irregularity,
    Login,
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
    TokenOut,
    VoidIn,
    Wager,
    WhoAmI,
)
from croupier.server.openapi import install_document
from croupier.server.recall import recall, scenario_of
from croupier.server.schema import handpays, live_rounds
from croupier.server.streams import install_streams
from croupier.server.views import ViewPov, redact_json, round_view

__all__ = ["ALL", "READERS", "committed_out", "install"]

ALL = (Role.PLAYER, Role.DEALER, Role.SUPERVISOR, Role.OBSERVER, Role.AUDITOR)
"""Every role of the floor (the administrator manages accounts, not the floor)."""
READERS = (Role.OBSERVER, Role.SUPERVISOR, Role.AUDITOR)
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem, "content": {"application/problem+json": {}}}
    for code in (401, 403, 404, 409, 422)
}

Key = Annotated[str, Header(alias="Idempotency-Key", min_length=1, max_length=200)]


def _floor(request: Request) -> Floor:
    floor: Floor = request.app.state.floor
    return floor


def authenticate(auth: Auth, header: str | None) -> Account:
    scheme, _, token = (header or "").partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise Unauthorized("a bearer token is required (POST /api/login)")
    try:
        return auth.verify(token.strip())
    except AuthError as exc:
        raise Unauthorized(str(exc)) from None


def _guard(roles: tuple[Role, ...]) -> Callable[[Request], Account]:
    def check(request: Request) -> Account:
        account = authenticate(request.app.state.auth, request.headers.get("authorization"))
        request.state.account = account  # a refusal names it in the security log
        if account.role not in roles:
            allowed = ", ".join(r.value for r in roles)
            raise Refused(f"the {account.role.value} role may not use this endpoint ({allowed})")
        table_id = request.path_params.get("table_id")
        if table_id is not None and account.role is Role.DEALER and not account.deals(table_id):
            bound = ", ".join(sorted(account.tables)) or "no table"
            raise Refused(f"dealer {account.username} deals {bound}, not {table_id}")
        return account

    return check


def install(app: FastAPI) -> None:
    """Every route, group by group, in the order the OpenAPI document lists them."""
    op = _operations(app)
    _install_login(app, op)
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
"""``op(method, path, roles, **kw)``: a decorator adding a route guarded by ``roles``."""


def _operations(app: FastAPI) -> Op:
    """The route decorator of ``app``: each route guarded by its roles (listed as ``x-roles``
    in the OpenAPI document) and answering errors as application/problem+json."""

    def op(method: str, path: str, roles: tuple[Role, ...], **kw: Any) -> Callable[[Any], Any]:
        def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
            app.add_api_route(
                path,
                fn,
                methods=[method],
                dependencies=[Depends(_guard(roles))],
                openapi_extra={"x-roles": [r.value for r in roles]},
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


def result(lt: LiveTable, account: Account, records: Any, **data: Any) -> dict[str, Any]:
    pov = pov_of(account, lt)
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
    """Login, who am I and the list of tables."""

    @app.post("/api/login", response_model=TokenOut, responses={**ERRORS, 429: ERRORS[401]})
    def login(request: Request, body: Login) -> TokenOut:
        auth: Auth = request.app.state.auth
        try:
            token, account, expires = auth.login(
                body.username, body.password, address=client_address(request)
            )
        except AuthError as exc:
            raise Unauthorized(str(exc)) from None
        return TokenOut(
            token=token,
            username=account.username,
            role=account.role.value,
            expires_at=expires,
            player_id=account.player_id,
            table_id=account.sole_table,
            tables=sorted(account.tables),
            demo=account.demo,
        )

    @op("GET", "/api/me", (*ALL, Role.ADMIN), response_model=WhoAmI)
    def me(request: Request) -> WhoAmI:
        account: Account = request.state.account
        floor = _floor(request)
        balance = None
        seats: dict[str, list[int]] = {}
        if account.player_id is not None:
            with floor.reading() as conn:
                value = floor.ledger.balance(conn, player_account(account.player_id))
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
            seats=seats,
        )

    @op("GET", "/api/tables", ALL, response_model=list[TableOut])
    def tables(request: Request) -> list[TableOut]:
        floor = _floor(request)
        snapshot = floor.meters.snapshot()
        return [committed_out(lt, snapshot) for lt in floor.live_tables()]


def _install_floor(op: Op) -> None:
    """A table's detail, the meters and a table's view (every role)."""

    @op("GET", "/api/tables/{table_id}", ALL, response_model=TableDetail)
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

    @op("GET", "/api/meters", ALL, response_model=list[MeterOut])
    def meters(request: Request) -> list[MeterOut]:
        floor = _floor(request)
        out = []
        for name in floor.meters.snapshot():
            state = floor.meters.state(name)
            linked = [lt.id for lt in floor.live_tables() if name in _meters_of(lt)]
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

    @op("GET", "/api/tables/{table_id}/view", ALL, response_model=TableView)
    def view(request: Request, table_id: str) -> dict[str, Any]:
        floor = _floor(request)
        account: Account = request.state.account
        data = floor.view(account, floor.table(table_id))
        if data["round_id"] is not None:
            with contextlib.suppress(LookupError):
                data["deal"] = deal_for(floor, account, data["round_id"])
        return data


def _install_player(op: Op) -> None:
    """A player's seat, wagers, decisions and own rounds."""

    @op("POST", "/api/tables/{table_id}/sit", (Role.PLAYER,), response_model=CommandResult)
    def sit(request: Request, table_id: str, body: Seat, key: Key) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            seats = _floor(request).sit(txn, lt, account, body.seat)
            return result(lt, account, [], seats={str(s): p for s, p in seats.items()})

        return command(request, key, table_id, body.model_dump(), run)

    @op("POST", "/api/tables/{table_id}/leave", (Role.PLAYER,), response_model=CommandResult)
    def leave(request: Request, table_id: str, key: Key) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            seats = _floor(request).leave(txn, lt, account)
            return result(lt, account, [], seats={str(s): p for s, p in seats.items()})

        return command(request, key, table_id, None, run)

    @op("POST", "/api/tables/{table_id}/wagers", (Role.PLAYER,), response_model=CommandResult)
    def wager(request: Request, table_id: str, body: Wager, key: Key) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            seat = seat_of(lt, account, body.seat)
            action = PlaceWager(seat=seat, wager=body.wager, amount=body.amount)
            return result(lt, account, _floor(request).apply(txn, lt, action))

        return command(request, key, table_id, body.model_dump(), run)

    @op("POST", "/api/tables/{table_id}/decisions", (Role.PLAYER,), response_model=CommandResult)
    def decide(request: Request, table_id: str, body: Decision, key: Key) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            seat = seat_of(lt, account, body.seat)
            if lt.round is None:
                raise IllegalAction(f"table {lt.id} has no round in play")
            action = lt.round.parse_decision(seat, body.decision)
            return result(lt, account, _floor(request).apply(txn, lt, action))

        return command(request, key, table_id, body.model_dump(), run)

    @op(
        "GET",
        "/api/tables/{table_id}/seats/{seat}/rounds",
        (Role.PLAYER, *READERS),
        response_model=list[RecalledRound],
    )
    def seat_rounds(
        request: Request, table_id: str, seat: int, last: Annotated[int, Query(ge=1, le=100)] = 10
    ) -> list[dict[str, Any]]:
        floor = _floor(request)
        lt = floor.table(table_id)
        account: Account = request.state.account
        if account.role is Role.PLAYER and lt.seats().get(seat) != account.player_id:
            raise Refused(f"seat {seat} at table {table_id} is not {account.player_id}'s")
        return _recall_rounds(floor, lt, account, last, seat)


def _install_dealer(op: Op) -> None:
    """The dealer's round: a new round, no more bets, the dealer's steps, stub counts and
    irregularities."""
    dealer = (Role.DEALER,)

    @op("POST", "/api/tables/{table_id}/rounds", dealer, response_model=CommandResult)
    def new_round(request: Request, table_id: str, body: Cut, key: Key) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            _floor(request).begin_round(txn, lt, body.cut_at)
            assert lt.round is not None
            return result(lt, account, lt.round.records)

        return command(request, key, table_id, body.model_dump(), run)

    @op("POST", "/api/tables/{table_id}/no-more-bets", dealer, response_model=CommandResult)
    def no_more_bets(
        request: Request, table_id: str, body: NoMoreBetsIn, key: Key
    ) -> dict[str, Any]:
        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            action = NoMoreBets(progressive_chips=body.progressive_chips)
            return result(lt, account, _floor(request).apply(txn, lt, action))

        return command(request, key, table_id, body.model_dump(), run)

    def steps(name: str, phases: tuple[Phase, ...]) -> None:
        @op(
            "POST",
            f"/api/tables/{{table_id}}/{name}",
            dealer,
            response_model=CommandResult,
            name=name,
        )
        def step(request: Request, table_id: str, key: Key) -> dict[str, Any]:
            def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
                assert lt is not None
                return result(lt, account, _floor(request).dealer_steps(txn, lt, phases))

            return command(request, key, table_id, None, run)

    steps("deal", (Phase.DEALING, Phase.DECISIONS))
    steps("reveal", (Phase.REVEAL,))
    steps("settle", (Phase.SETTLEMENT,))

    @op("POST", "/api/tables/{table_id}/stub-count", dealer, response_model=CommandResult)
    def stub_count(request: Request, table_id: str, body: StubCount, key: Key) -> dict[str, Any]:
        from croupier.games.records import CountStub

        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            assert lt is not None
            return result(lt, account, _floor(request).apply(txn, lt, CountStub(count=body.count)))

        return command(request, key, table_id, body.model_dump(), run)

    @op("POST", "/api/tables/{table_id}/irregularities", dealer, response_model=CommandResult)
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
                lt, account, _floor(request).apply(txn, lt, ReportIrregularity(kind=kind))
            )

        return command(request, key, table_id, body.model_dump(), run)


def _install_chips(op: Op) -> None:
    """The supervisor's players, chips and hand-pays."""
    sup = (Role.SUPERVISOR,)

    def chips(name: str, sign: str) -> None:
        @op("POST", f"/api/players/{{player_id}}/{name}", sup, response_model=Balance, name=name)
        def move(request: Request, player_id: str, body: Amount, key: Key) -> dict[str, Any]:
            def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
                floor = _floor(request)
                fn = floor.buy_in if sign == "+" else floor.cash_out
                return Balance(
                    player_id=player_id, balance=int(fn(txn, player_id, body.amount))
                ).model_dump()

            return command(request, key, None, body.model_dump(), run)

    @op("POST", "/api/players", sup, response_model=Balance)
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

    @op("GET", "/api/handpays", (Role.SUPERVISOR, Role.AUDITOR), response_model=list[HandPayOut])
    def handpay_list(request: Request) -> list[HandPayOut]:
        with _floor(request).reading() as conn:
            rows = conn.execute(select(handpays).order_by(handpays.c.id)).all()
        return [HandPayOut.model_validate(dict(r._mapping)) for r in rows]

    @op("POST", "/api/handpays/{handpay_id}/approve", sup, response_model=HandPayOut)
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
    sup = (Role.SUPERVISOR,)

    @op("POST", "/api/rounds/{round_id}/void", sup, response_model=CommandResult)
    def void(request: Request, round_id: str, body: VoidIn, key: Key) -> dict[str, Any]:
        floor = _floor(request)
        lt = next((t for t in floor.live_tables() if t.round_id == round_id), None)
        if lt is None:
            raise LookupError(f"round {round_id!r} is not in play at any table")

        def run(txn: Txn, live: LiveTable | None, account: Account) -> dict[str, Any]:
            assert live is not None
            return result(live, account, floor.void(txn, live, account.username, body.reason))

        return command(request, key, lt.id, body.model_dump(), run)

    @op("POST", "/api/tables", sup, response_model=TableOut)
    def create_table(request: Request, body: NewTable, key: Key) -> dict[str, Any]:
        floor = _floor(request)

        def run(txn: Txn, lt: LiveTable | None, account: Account) -> dict[str, Any]:
            rules = dict(body.rules)
            made = floor.create_table(txn.conn, body.id, body.name, rules)
            return _table_out(made, {}).model_dump()

        return command(request, key, None, body.model_dump(), run)

    def status(name: str, value: str) -> None:
        @op("POST", f"/api/tables/{{table_id}}/{name}", sup, response_model=TableOut, name=name)
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

    @op("GET", "/api/tables/{table_id}/rounds", READERS, response_model=list[RecalledRound])
    def table_rounds(
        request: Request,
        table_id: str,
        last: Annotated[int, Query(ge=1, le=100)] = 10,
        seat: Annotated[int | None, Query(ge=1, le=7)] = None,
    ) -> list[dict[str, Any]]:
        floor = _floor(request)
        return _recall_rounds(floor, floor.table(table_id), request.state.account, last, seat)

    @op("GET", "/api/rounds/{round_id}/scenario", READERS, response_model=ScenarioJson)
    def scenario(request: Request, round_id: str) -> dict[str, Any]:
        floor = _floor(request)
        info = _finished(floor, round_id)
        return scenario_of(info, floor.store.load(round_id))

    @op(
        "GET",
        "/api/rounds/{round_id}/records",
        (Role.SUPERVISOR, Role.AUDITOR),
        response_model=RoundRecords,
    )
    def records(request: Request, round_id: str) -> dict[str, Any]:
        floor = _floor(request)
        _finished(floor, round_id)
        return recall(floor.store, round_id)

    @op("GET", "/api/rounds/{round_id}/deal", ALL, response_model=DealOut)
    def deal(request: Request, round_id: str) -> dict[str, Any]:
        """The round's deal commitment; once it is over the cards it dealt as the account
        may see them, and the order and nonce to supervisors and auditors
        (:mod:`croupier.server.deals`)."""
        return deal_for(_floor(request), request.state.account, round_id)

    @op("GET", "/api/audit/verify", (Role.SUPERVISOR, Role.AUDITOR), response_model=AuditOut)
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


def _meters_of(lt: LiveTable) -> list[str]:
    return list(lt.meters)


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
        meters={m: snapshot[m] for m in _meters_of(lt) if m in snapshot},
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
    floor: Floor, lt: LiveTable, account: Account, last: int, seat: int | None
) -> list[dict[str, Any]]:
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
        if account.role is Role.PLAYER:
            # A player recalls the seat's rounds they played, from all the seats they held in
            # each: never a round an earlier occupant of the seat played.
            if seat is None or info.players[seat] != account.player_id:
                continue
            held = frozenset(s for s, p in info.players.items() if p == account.player_id)
            pov = ViewPov("player", held)
        else:
            pov = pov_of(account, lt, finished=True)
        rnd = floor.store.rebuild(rid)
        view = round_view(rnd, pov)
        view["round_id"] = rid
        out.append(view)
        if len(out) >= last:
            break
    return out
