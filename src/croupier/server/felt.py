"""Winning hands declared at a table whose cards croupier does not see (issue 39).

At a ``[table] cards = "felt"`` table the round waits in phase ``declaring`` after the count
(:mod:`croupier.games.declared`):

- ``POST /api/tables/{table_id}/declarations`` (the dealer): ``{"seat": 3, "cards": "As Ks Qs
  Js 10s"}``, a winning hand declared by its cards (§ 641a.11(c)(5)(i)); ``"wager"`` names
  its progressive where a position has several and the cards do not say which;
- ``POST /api/tables/{table_id}/declarations/verify`` (a supervisor): ``{"seat": 3}``, the
  declared hand verified against the seat's light; a lit light pays from the meter
  (§ 641a.11(c)(5)(ii)-(iv));
- ``POST /api/tables/{table_id}/declarations/close`` (the dealer): the rest of the progressive
  wagers lose, the Envy Bonuses are paid, the round is over (§ 641a.11(c)(5)(v)).

Each is a command as the dealer's others (an ``Idempotency-Key``, one transaction, its records
in the answer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, Field

from croupier.core.cards import parse_cards
from croupier.games.declared import CloseDeclarations, DeclareHand, VerifyDeclared
from croupier.games.records import Action
from croupier.server.account_routes import Key
from croupier.server.api_models import CommandResult
from croupier.server.commands import Call, Commands, answer
from croupier.server.live_tables import LiveTable, Txn

__all__ = ["Declaration", "SeatVerified", "install_felt"]


class Declaration(BaseModel):
    """A winning hand declared by its cards."""

    seat: int = Field(ge=1, le=7)
    cards: str = Field(max_length=40, description='the hand: "As Ks Qs Js 10s"')
    wager: str = Field(
        default="",
        max_length=40,
        description="the progressive wager it is declared for (default: the sensed wager whose "
        "hand has as many cards: Let It Ride's three cards its Three-Card Progressive)",
    )


class SeatVerified(BaseModel):
    """The seat whose declared hand the supervisor verified against its light."""

    seat: int = Field(ge=1, le=7)
    wager: str = Field(
        default="",
        max_length=40,
        description="the declared wager verified (default: the seat's next hand awaiting it)",
    )


def _apply(commands: Commands, call: Call, table_id: str, action: Action) -> dict[str, Any]:
    lt = commands.registry.table(table_id)

    def run(txn: Txn, live: LiveTable = lt) -> dict[str, Any]:
        return answer(call, live, commands.rounds.apply(txn, live, action))

    return commands.transact(call.account, call.key, call.digest, lt.id, run)


def _commands(request: Request) -> Commands:
    commands: Commands = request.app.state.floor.commands
    return commands


Op = Callable[..., Callable[[Callable[..., Any]], Callable[..., Any]]]


def install_felt(app: FastAPI, op: Op) -> None:
    """The routes of declared hands (each guarded by its access policy row)."""

    @op("POST", "/api/tables/{table_id}/declarations", response_model=CommandResult)
    def declare(request: Request, table_id: str, body: Declaration, key: Key) -> dict[str, Any]:
        call = Call.of(request, key, body.model_dump())
        action = DeclareHand(seat=body.seat, cards=parse_cards(body.cards), wager=body.wager)
        return _apply(_commands(request), call, table_id, action)

    @op("POST", "/api/tables/{table_id}/declarations/verify", response_model=CommandResult)
    def verify(request: Request, table_id: str, body: SeatVerified, key: Key) -> dict[str, Any]:
        call = Call.of(request, key, body.model_dump())
        action = VerifyDeclared(seat=body.seat, by=call.account.username, wager=body.wager)
        return _apply(_commands(request), call, table_id, action)

    @op("POST", "/api/tables/{table_id}/declarations/close", response_model=CommandResult)
    def close(request: Request, table_id: str, key: Key) -> dict[str, Any]:
        call = Call.of(request, key, None)
        return _apply(_commands(request), call, table_id, CloseDeclarations())
