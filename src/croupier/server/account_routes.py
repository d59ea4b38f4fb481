"""The accounts routes: the administrator's accounts, the first administrator's set-up, sign-in
locks and the security log (the operations are :mod:`croupier.server.accounts`'; who may use
each route is its row of the access policy, :func:`croupier.server.policy._account_rows`: the
administrator the accounts, a supervisor too the locks (GLI-19: an authorised person releases a
lock), the auditor and the administrator the security log).

Each change is a command (an ``Idempotency-Key``, committed with its security-log entry before
it is answered); the account's cached tokens are dropped again once it has committed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request

from croupier.core.errors import InvalidInput
from croupier.server import accounts as ops
from croupier.server.api_models import (
    AccountOut,
    LockOut,
    Login,
    NewAccount,
    PasswordIn,
    Problem,
    RoleIn,
    SecurityEntryOut,
    SetupIn,
    TablesIn,
    TokenOut,
    UnlockIn,
)
from croupier.server.auth import Account, AccountStatus, Auth, AuthError, Role
from croupier.server.bearer import client_address
from croupier.server.commands import request_digest
from croupier.server.live_floor import Floor
from croupier.server.live_tables import Txn
from croupier.server.policy import Unauthorized
from croupier.server.security_log import SecurityEvent, append, entries
from croupier.server.signin import address_key

__all__ = ["client_address", "install_accounts", "install_sign_in"]

Key = Annotated[str, Header(alias="Idempotency-Key", min_length=1, max_length=200)]
Op = Callable[..., Callable[[Callable[..., Any]], Callable[..., Any]]]

SETUP_REFUSED = "the set-up token is unknown, expired or spent"


def _change(
    request: Request, key: str, body: Any, username: str, run: Callable[[Txn, str], Any]
) -> dict[str, Any]:
    """Run ``run(txn, actor)`` as the caller's command; ``username``'s tokens are dropped from
    the cache again once it has committed."""
    floor: Floor = request.app.state.floor
    auth: Auth = request.app.state.auth
    account: Account = request.state.account
    digest = request_digest(request.method, request.url.path, body)

    def go(txn: Txn) -> dict[str, Any]:
        out: dict[str, Any] = run(txn, account.username)
        return out

    try:
        return floor.commands.transact(account, key, digest, None, go)
    finally:
        auth.forget(username)


def install_sign_in(app: FastAPI, errors: dict[int | str, dict[str, Any]]) -> None:
    """``POST /api/login``: a token for a name and a password (answered alike for an unknown
    name, a wrong password, a disabled account and a demo account on a real floor; 429 while a
    delay or a lock holds the name or the address back)."""

    @app.post("/api/login", response_model=TokenOut, responses={**errors, 429: errors[401]})
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


def install_accounts(app: FastAPI, op: Op) -> None:
    _install_setup(app)
    _install_admin(op)
    _install_locks(op)

    @op("GET", "/api/security/log", response_model=list[SecurityEntryOut])
    def security_log(
        request: Request,
        after: Annotated[int, Query(ge=0, le=2**62)] = 0,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> list[dict[str, Any]]:
        """The security log from entry ``after`` on, oldest first (``croupier audit verify``
        checks its chain)."""
        floor: Floor = request.app.state.floor
        with floor.reading() as conn:
            return [e.to_json() for e in entries(conn, after=after, limit=limit)]


def _install_setup(app: FastAPI) -> None:
    @app.post(
        "/api/setup",
        response_model=AccountOut,
        responses={s: {"model": Problem} for s in (401, 409, 422, 429)},
    )
    def setup(request: Request, body: SetupIn) -> dict[str, Any]:
        """The floor's first administrator, made with the one-time set-up token printed at
        the start of a floor with none (401 once it is spent)."""
        floor: Floor = request.app.state.floor
        auth: Auth = request.app.state.auth
        address = client_address(request)
        keys = [address_key(address)] if address else []
        with floor.engine.begin() as conn:
            refusal = auth.limiter.admit(conn, keys, address=address)
        if refusal is not None:
            raise refusal
        with floor.engine.begin() as conn:
            made = ops.redeem_setup_token(
                auth, conn, body.token, username=body.username, password=body.password
            )
            if made is not None:
                auth.limiter.succeeded(conn, keys)
                return ops.account_info(conn, made.username).to_json()
        with floor.engine.begin() as conn:
            auth.limiter.failed(conn, keys, address=address)
            detail = {"reason": SETUP_REFUSED}
            append(conn, SecurityEvent.SIGN_IN_FAILED, address=address, detail=detail)
        raise Unauthorized(SETUP_REFUSED)


def _install_admin(op: Op) -> None:
    """The administrator's accounts (a supervisor and an auditor read the list)."""

    @op("GET", "/api/accounts", response_model=list[AccountOut])
    def account_list(request: Request) -> list[dict[str, Any]]:
        floor: Floor = request.app.state.floor
        with floor.reading() as conn:
            return [a.to_json() for a in ops.list_accounts(conn)]

    @op("POST", "/api/accounts", response_model=AccountOut)
    def create(request: Request, body: NewAccount, key: Key) -> dict[str, Any]:
        auth: Auth = request.app.state.auth

        def run(txn: Txn, actor: str) -> dict[str, Any]:
            return ops.create_account(
                auth,
                txn.conn,
                username=body.username,
                password=body.password,
                role=Role(body.role),
                actor=actor,
                player_id=body.player_id,
                player_name=body.player_name,
                tables=body.tables,
            ).to_json()

        return _change(request, key, body.model_dump(), body.username, run)

    def status(name: str, value: AccountStatus) -> None:
        @op(
            "POST",
            f"/api/accounts/{{username}}/{name}",
            response_model=AccountOut,
            name=f"account_{name}",
        )
        def set_status(request: Request, username: str, key: Key) -> dict[str, Any]:
            auth: Auth = request.app.state.auth

            def run(txn: Txn, actor: str) -> dict[str, Any]:
                return ops.set_status(auth, txn.conn, username, value, actor=actor).to_json()

            return _change(request, key, None, _name(username), run)

    status("disable", AccountStatus.DISABLED)
    status("enable", AccountStatus.ACTIVE)

    @op("POST", "/api/accounts/{username}/password", response_model=AccountOut)
    def password(request: Request, username: str, body: PasswordIn, key: Key) -> dict[str, Any]:
        """A new password; every session of the account ends."""
        auth: Auth = request.app.state.auth

        def run(txn: Txn, actor: str) -> dict[str, Any]:
            return ops.set_password(auth, txn.conn, username, body.password, actor=actor).to_json()

        return _change(request, key, body.model_dump(), _name(username), run)

    @op("POST", "/api/accounts/{username}/role", response_model=AccountOut)
    def role(request: Request, username: str, body: RoleIn, key: Key) -> dict[str, Any]:
        """Another staff role; every session of the account ends."""
        auth: Auth = request.app.state.auth

        def run(txn: Txn, actor: str) -> dict[str, Any]:
            return ops.set_role(auth, txn.conn, username, Role(body.role), actor=actor).to_json()

        return _change(request, key, body.model_dump(), _name(username), run)

    @op("POST", "/api/accounts/{username}/tables", response_model=AccountOut)
    def tables(request: Request, username: str, body: TablesIn, key: Key) -> dict[str, Any]:
        """The tables a dealer deals, all of them (none: no table)."""
        auth: Auth = request.app.state.auth

        def run(txn: Txn, actor: str) -> dict[str, Any]:
            return ops.bind_tables(auth, txn.conn, username, body.tables, actor=actor).to_json()

        return _change(request, key, body.model_dump(), _name(username), run)


def _name(username: str) -> str:
    """The normalised name (as given where it cannot be one: the operation refuses it)."""
    from croupier.server.identifiers import normalise_username

    try:
        return normalise_username(username)
    except InvalidInput:
        return username


def _install_locks(op: Op) -> None:
    @op("GET", "/api/sign-in/locks", response_model=list[LockOut])
    def locks(request: Request) -> list[dict[str, Any]]:
        """Every account name and client address with failed sign-ins counted, locked first."""
        floor: Floor = request.app.state.floor
        auth: Auth = request.app.state.auth
        with floor.reading() as conn:
            return [lock.to_json() for lock in auth.limiter.locks(conn)]

    @op("POST", "/api/sign-in/unlock", response_model=LockOut)
    def unlock(request: Request, body: UnlockIn, key: Key) -> dict[str, Any]:
        """Release the lock (and the failures counted) of one account name or one address."""
        auth: Auth = request.app.state.auth

        def run(txn: Txn, actor: str) -> dict[str, Any]:
            lock = ops.unlock(
                auth, txn.conn, actor=actor, username=body.username, address=body.address
            )
            return lock.to_json()

        return _change(request, key, body.model_dump(), "", run)
