"""Typed request and response models of the live table API (the OpenAPI document's schemas).

Money is integer cents everywhere.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Amount",
    "Balance",
    "CommandResult",
    "Cut",
    "Decision",
    "HandPayOut",
    "Irregularity",
    "Login",
    "MeterOut",
    "NewPlayer",
    "NewTable",
    "NoMoreBetsIn",
    "Problem",
    "Seat",
    "StubCount",
    "TableDetail",
    "TableOut",
    "TokenOut",
    "VoidIn",
    "Wager",
    "WhoAmI",
]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Problem(BaseModel):
    """An error (RFC 9457 application/problem+json): the rule's section where one forbids it."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    section: str | None = None
    input: Any = None


class Login(_In):
    username: str = Field(min_length=1, max_length=100)
    password: str = Field(min_length=1, max_length=200)


class TokenOut(BaseModel):
    token: str
    role: str
    expires_at: datetime
    player_id: str | None = None
    table_id: str | None = None


class WhoAmI(BaseModel):
    username: str
    role: str
    player_id: str | None = None
    table_id: str | None = None
    balance: int | None = None
    seats: dict[str, list[int]] = {}


class Seat(_In):
    seat: int = Field(ge=1, le=7)


class Wager(_In):
    wager: str = Field(min_length=1, max_length=60)
    amount: int = Field(gt=0, le=10**12)
    seat: int | None = Field(default=None, ge=1, le=7)


class Decision(_In):
    decision: str = Field(min_length=1, max_length=60)
    seat: int | None = Field(default=None, ge=1, le=7)


class Cut(_In):
    cut_at: int | None = Field(default=None, ge=0, le=1000)


class NoMoreBetsIn(_In):
    progressive_chips: int | None = Field(default=None, ge=0, le=1000)


class StubCount(_In):
    count: int = Field(ge=0, le=10_000)


class Irregularity(_In):
    kind: str = Field(min_length=1, max_length=60)


class VoidIn(_In):
    reason: str = Field(min_length=1, max_length=500)


class Amount(_In):
    amount: int = Field(gt=0, le=10**12)


class NewTable(_In):
    id: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9-]+$")
    name: str = Field(min_length=1, max_length=200)
    rules: dict[str, Any]
    """A Rules Submission (the same mapping as a rules TOML file)."""


class NewPlayer(_In):
    """A player session with its device account (a supervisor enrols it)."""

    player_id: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9-]+$")
    name: str = Field(min_length=1, max_length=200)
    username: str = Field(min_length=1, max_length=100)
    password: str = Field(min_length=8, max_length=200)


class Balance(BaseModel):
    player_id: str
    balance: int


class CommandResult(BaseModel):
    """What a round command did: the records it added (as the caller may see them)."""

    table_id: str
    round_id: str | None
    phase: str | None
    to_act: str | None
    records: list[dict[str, Any]]
    seq: int
    data: dict[str, Any] = {}


class MeterOut(BaseModel):
    name: str
    amount: int
    exact: str
    reset: int
    rate: str
    paid_total: int
    """§ 605a.7(a)(4): the cumulative progressive payout meter."""
    awards: int
    tables: list[str]


class TableOut(BaseModel):
    id: str
    name: str
    game: str
    status: str
    phase: str | None
    round_id: str | None
    held: str | None
    seats: dict[str, str | None]
    meters: dict[str, int]


class TableDetail(TableOut):
    title: str
    chapter: str
    rules: dict[str, Any]
    sign: str
    wagers: list[str]
    house_wagers: dict[str, int]
    """What the engine's house player wagers at this table (unit $5): a bot's opening bets."""


class HandPayOut(BaseModel):
    id: int
    table_id: str
    round_id: str
    seat: int
    player_id: str
    meter: str
    line: str
    amount: int
    status: str
    approved_by: str | None
