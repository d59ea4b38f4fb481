"""Typed request and response models of the live table API (the OpenAPI document's schemas).

Money is integer cents everywhere.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from croupier.core.money import MAX_WAGER
from croupier.server.passwords import MIN_LENGTH as PASSWORD_MIN

__all__ = [
    "AccountOut",
    "Amount",
    "AuditOut",
    "Balance",
    "CommandResult",
    "Cut",
    "DealOut",
    "Decision",
    "HandPayOut",
    "Irregularity",
    "LockOut",
    "Login",
    "MeterOut",
    "NewAccount",
    "NewPlayer",
    "NewTable",
    "NoMoreBetsIn",
    "PasswordIn",
    "Problem",
    "RecalledRound",
    "RecordOut",
    "RoleIn",
    "RoundRecords",
    "RoundViewOut",
    "RulesJson",
    "ScenarioJson",
    "Seat",
    "SecurityEntryOut",
    "SetupIn",
    "ShoeOut",
    "StubCount",
    "TableDetail",
    "TableOut",
    "TableView",
    "TablesIn",
    "TokenOut",
    "UnlockIn",
    "VoidIn",
    "Wager",
    "WhoAmI",
]


def _ref(name: str, description: str) -> WithJsonSchema:
    """Stands for the model ``name`` of :mod:`croupier.core.shapes` (the OpenAPI document refers to
    it: :mod:`croupier.server.openapi`)."""
    return WithJsonSchema({"type": "object", "x-model": name, "description": description})


RulesJson = Annotated[
    dict[str, Any],
    _ref("RulesModel", "A Rules Submission (the mapping of a rules TOML file)"),
]
"""A Rules Submission as JSON; its schema is :class:`croupier.core.shapes.RulesModel`'s (the game
validates it, reporting every problem with its section)."""

ScenarioJson = Annotated[
    dict[str, Any], _ref("ScenarioModel", "A scenario: one round that croupier replay settles")
]
"""A scenario as JSON; its schema is :class:`croupier.core.shapes.ScenarioModel`'s."""


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
    username: str
    """The account's name as normalised (``Player1`` signs in as ``player1``)."""
    role: str
    expires_at: datetime
    player_id: str | None = None
    table_id: str | None = None
    """A dealer's table where it is bound to one only."""
    tables: list[str] = []
    """A dealer's tables (none: a demo dealer deals every table of a demo floor)."""
    demo: bool = False
    """A demo account (published password; demo and training floors only)."""


class WhoAmI(BaseModel):
    username: str
    role: str
    player_id: str | None = None
    table_id: str | None = None
    tables: list[str] = []
    demo: bool = False
    """A demo account: every page says so."""
    balance: int | None = None
    commission_owed: int | None = None
    """Baccarat commission marked and not yet collected (cents; § 541.13(g)): the markers on
    the layout and any the player's chips did not cover when it was due (owed at the cage)."""
    seats: dict[str, list[int]] = {}


class Seat(_In):
    seat: int = Field(ge=1, le=7)


class Wager(_In):
    wager: str = Field(min_length=1, max_length=60)
    amount: int = Field(gt=0, le=MAX_WAGER)  # the engine's bound (croupier.core.money.MAX_WAGER)
    seat: int | None = Field(default=None, ge=1, le=7)


class Decision(_In):
    decision: str = Field(min_length=1, max_length=60)
    seat: int | None = Field(default=None, ge=1, le=7)


class Cut(_In):
    cut_at: int | None = Field(default=None, ge=0, le=1000)
    stack: str | None = Field(default=None, min_length=1, max_length=3000)
    """A training table only: the cards the round deals first, top first, in the order they
    leave the shoe (``"As Kd 7c ..."``); a real table refuses it (409)."""


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
    rules: RulesJson
    """A Rules Submission (the same mapping as a rules TOML file)."""


class NewPlayer(_In):
    """A player session with its device account (a supervisor enrols it)."""

    player_id: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9-]+$")
    name: str = Field(min_length=1, max_length=200)
    username: str = Field(min_length=1, max_length=100)
    password: str = Field(min_length=PASSWORD_MIN, max_length=200)
    """At least 12 characters, not a common password, not holding the username
    (:mod:`croupier.server.passwords`)."""


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
    game_name: str = ""
    """The game as people at the table say it ("Ultimate Texas Hold 'Em")."""
    status: str
    phase: str | None
    round_id: str | None
    held: str | None
    seats: dict[str, str | None]
    meters: dict[str, int]
    training: bool = False
    """A training table (``[table] training``): the dealer may stack its cards; its rounds are
    recorded ``training``, never real play."""
    limits: dict[str, dict[str, int]] = {}
    """Each wager placed before the cards and its posted ``min`` and ``max`` (cents; a fixed
    progressive wager's are its amount)."""


class TableDetail(TableOut):
    title: str
    chapter: str
    rules: dict[str, Any]
    sign: str
    wagers: list[str]
    house_wagers: dict[str, int]
    """What the engine's house player wagers at this table (unit $5): a bot's opening bets."""
    names: dict[str, str] = {}
    """Each wager's and hand category's key and its name in words ("bet1": "Bet 1", "royal_flush":
    "royal flush"): the game's own, the one source the pages name them from."""


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


class RecordOut(BaseModel):
    """A record of a round's hand history as JSON: its ``kind`` and its fields; a face-down
    card the caller may not see is ``{"kind": "card_hidden", "to", "was", "note"}``."""

    model_config = ConfigDict(extra="allow")
    kind: str


class SettledOut(BaseModel):
    seat: int
    wager: str
    stake: int
    result: str
    paid: int
    returned: int
    line: str | None = None


class EnvyOut(BaseModel):
    seat: int
    for_seat: int
    line: str
    amount: int


class RoundViewOut(BaseModel):
    """The engine's view of a round for the caller's point of view
    (:meth:`croupier.games.pov.RoundView.to_json`), with its records as that point of view may
    see them, the seat to act and, once over, the settlement."""

    pov: str
    game: str
    mode: str
    phase: str
    to_act: str
    to_act_seat: int | None
    seq: int
    """Records so far."""
    players: dict[str, str]
    stakes: dict[str, dict[str, int]]
    cards: dict[str, list[str | None]]
    """Cards on the layout by recipient; ``null``: a face-down card the caller may not see."""
    meters: dict[str, int]
    cards_left: int
    settled: list[SettledOut]
    envy: list[EnvyOut]
    records: list[RecordOut]
    settlement: dict[str, Any]
    """Per seat (``"1"``..): ``wagers`` (stake, result, paid, returned), ``envy``, ``net``."""
    lights: dict[str, str] = {}
    """A table with progressive sensors (issue 39): each seated position ``lit`` (a progressive
    wager accepted) or ``dark``; empty at a table without sensors."""
    wager_lights: dict[str, dict[str, str]] = {}
    """Each position's light per progressive wager where the game has several (Let It Ride's
    Three- and Five-Card Progressives, § 643a.2(c)(1)); absent otherwise."""


class DealOut(BaseModel):
    """A round's provable deal (:mod:`croupier.table.commitment`): the commitment while the round is
    open; the order and nonce once they are revealed."""

    model_config = ConfigDict(extra="allow")
    round_id: str
    scheme: str
    commitment: str
    revealed: bool
    order: list[str] | None = None
    nonce: str | None = None
    taken: int | None = None
    dealt: list[str | None] | None = None
    """The cards the round dealt, in order (``null``: one the caller may not see)."""
    shoe: str | None = None
    """The shoe a baccarat coup was dealt from: its commitment covers the whole shoe, and the
    order is revealed when the shoe ends."""


class ShoeOut(BaseModel):
    """A baccarat table's shoe, dealt coup after coup down to its cut card."""

    id: str | None
    """``None`` before the table's first shoe is opened."""
    number: int
    commitment: str | None
    """The commitment to the whole shoe's order, published before its first wager."""
    coups: int
    """Coups finished from this shoe."""
    cards_left: int
    cut_card: int
    """Cards under the cut card."""
    stage: str
    """``dealing``, ``last_round`` (the cut card came out) or ``done`` (the next coup opens a
    new shoe)."""
    results: list[str] = []
    """Each finished coup's winning hand, in order (``player``, ``banker``, ``tie``): the
    roads."""


class TableView(BaseModel):
    """``GET /api/tables/{id}/view``: the table and its round as the caller may see them."""

    model_config = ConfigDict(extra="allow")
    table_id: str
    training: bool = False
    """A training table: its cards may be stacked, its rounds are never real play."""
    round_id: str | None
    seq: int
    """The table stream's last event (a stream resumes from it)."""
    held: str | None
    seats: dict[str, str]
    meters: dict[str, int]
    round: RoundViewOut | None = None
    deal: DealOut | None = None
    """The current round's provable deal (its commitment; order and nonce once revealed)."""
    markers: dict[str, int] = {}
    """Baccarat: the vigorish marked and not yet collected, by seat (the marker buttons on the
    layout, § 541.13(g))."""
    shoe: ShoeOut | None = None
    """Baccarat: the shoe the table deals from."""


class RecalledRound(RoundViewOut):
    round_id: str


class RoundRecords(BaseModel):
    """A stored round rebuilt from its records (supervisors and auditors)."""

    round_id: str
    game: str
    mode: str = "real"
    """The round header's play mode: ``real``, ``training`` (a training table's) or
    ``simulation``."""
    training: bool = False
    status: str
    phase: str
    players: dict[str, str]
    settlement: dict[str, Any]
    records: list[RecordOut]


class AuditFinding(BaseModel):
    table: str
    key: str
    what: str


class AuditChains(BaseModel):
    """``croupier audit verify`` on the floor's database (:func:`croupier.audit.verify`): the
    rows it checked by kind, and each row that does not match."""

    ok: bool
    checked: dict[str, int]
    findings: list[AuditFinding]


class AuditOut(BaseModel):
    ok: bool
    problems: list[str]
    balances: dict[str, str]
    """Each chip account's balance, exact (``"p/q"`` where a fraction of a cent)."""
    audit: AuditChains | None = None
    """The record and meter chains, every settlement rebuilt and every seat's chips reconciled
    with it (``scope=all``; none for ``scope=ledger``)."""


# -- accounts (issue 36) --------------------------------------------------------------------------

AccountRole = Literal["player", "dealer", "supervisor", "observer", "auditor", "admin", "trainee"]


class NewAccount(_In):
    """An account an administrator creates: staff of a role, a dealer bound to tables, or a
    player's device account (its player created where it does not exist)."""

    username: str = Field(min_length=1, max_length=100)
    password: str = Field(min_length=PASSWORD_MIN, max_length=200)
    role: AccountRole
    player_id: str | None = Field(
        default=None, min_length=1, max_length=100, pattern=r"^[A-Za-z0-9-]+$"
    )
    player_name: str | None = Field(default=None, min_length=1, max_length=200)
    tables: list[str] = Field(default=[], max_length=100)


class SetupIn(_In):
    """The first administrator, with the one-time set-up token the floor printed."""

    token: str = Field(min_length=1, max_length=200)
    username: str = Field(min_length=1, max_length=100)
    password: str = Field(min_length=PASSWORD_MIN, max_length=200)


class PasswordIn(_In):
    password: str = Field(min_length=PASSWORD_MIN, max_length=200)


class RoleIn(_In):
    role: AccountRole


class TablesIn(_In):
    tables: list[str] = Field(max_length=100)
    """Every table the dealer deals from now on (none: no table)."""


class UnlockIn(_In):
    """One account name or one client address."""

    username: str | None = Field(default=None, min_length=1, max_length=100)
    address: str | None = Field(default=None, min_length=1, max_length=100)


class AccountOut(BaseModel):
    username: str
    role: str
    status: str
    demo: bool
    player_id: str | None
    tables: list[str]
    created_at: datetime


class LockOut(BaseModel):
    """Failed sign-ins counted on an account name or a client address, and its lock."""

    account: str | None = None
    address: str | None = None
    failures: int
    locked_until: datetime | None
    refused: int
    """Attempts refused while locked."""


class SecurityEntryOut(BaseModel):
    """An entry of the security log (:mod:`croupier.server.security_log`)."""

    seq: int
    at: datetime
    event: str
    username: str | None
    actor: str | None
    address: str | None
    detail: dict[str, Any]
    hash: str
