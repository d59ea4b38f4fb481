"""Who may read what on the live table system: the access policy, written once, as data.

Every route (method and path template) and every WebSocket stream of the server has one row in
:data:`POLICY`.  A row says, for every relation of the caller to what it asks for and for every
stage of the round concerned, what is answered (:class:`Rule`): a status and what the answer may
show (:class:`Sight`).

The relations (:class:`Relation`), read from the account and the resource:

- **player of the seat**: a player holding a seat concerned: the seat in the path
  (``/seats/{seat}/...``), else any seat at the table or in the round (their own cards are
  theirs);
- **player of another seat**: a player holding none of them (another seat, another table, none);
- **dealer of the table**: a dealer account bound to the table (``account_tables``, by
  ``croupier accounts bind``), or the demo floor's ``dealer``, bound to none, who deals every
  table of a demo floor (:meth:`Account.deals <croupier.server.auth.Account.deals>`, the one
  source of the binding);
- **dealer of another table**: a dealer account not bound to the table (another dealer bound to
  no table deals none);
- **supervisor**, **observer** (the pit view), **auditor**;
- **trainee**: a dealer in training (issue 40): the drills, and the tables' felts as the table
  sees them (face up); no dealer's step, no void, no recall, no face-down card;
- **admin**: the accounts (:mod:`croupier.server.accounts`): no card of any round;
- **device of the table**, **device of another table**: a card reader's token, bound to one
  table (:mod:`croupier.server.devices`, issue 39): it reports for its table and is refused
  everything else (403), whatever a row gives everyone;
- **no token**: no valid bearer token.

The stages (:class:`Stage`) of the round concerned: ``betting`` (wagers open, or bets closed with
no card out; also a table that has dealt no round yet), ``dealt`` (cards out, no seat has
decided), ``decisions`` (a seat has decided), ``reveal`` (the reveal and settlement),
``settled``, ``voided``, and ``held`` (an open round that
:mod:`croupier.server.recovery` holds for a supervisor's void after a restart: its cards
could not be accounted for from the persisted shoe, or an automated shoe stopped mid-deal; or
one whose write failed).

What an answer may show (:class:`Sight`), decided by the engine's points of view
(:mod:`croupier.games.pov`, mapped in :mod:`croupier.server.views`):

- ``every card``: whole: every card dealt, burnt or discarded and, once the round is over, the
  shoe's order and nonce (the supervisor and the auditor, on a finished round);
- ``own seats``: redacted as that player's point of view (``Pov.player(seats)``): the cards of
  the seats they held in the round and every card turned face up; another seat's shown hand as
  its category only;
- ``face up``: redacted as the table sees the layout (``Pov.dealer()`` for a dealer,
  ``Pov.public()`` for the rest): every card turned face up, no face-down card;
- ``no card``: the answer holds no card at all;
- ``document``: a page or document of the game or the API, the same for every caller at every
  stage, nothing of any round.

Refusals are ``401`` (no token), ``403`` (not this relation's), and ``409`` where a full record
exists only once the round is over.  An error's problem document never holds a card.  The routes
read their row (:func:`croupier.server.routes.install`: each route's guard and the point of view
its answer is redacted as); the server refuses to start with a route that has no row
(:func:`unlisted`); ``docs/ACCESS.md`` is :func:`markdown` (a test keeps it current), and
``tests/live/test_live_policy.py`` calls every route and stream as every relation at every stage
of a round of every game and checks every card of every answer against the round's records.

The scenario export (``GET /api/rounds/{id}/scenario``) lists every card in the order it left
the shoe and the scenario format has no way to write a card as hidden: it is whole for the
supervisor and the auditor once the round is over and refused (403) to everyone else, who get
the round as their point of view from the seat or table recall and the deal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from croupier.core.errors import CroupierError
from croupier.games.records import CardDealt, PlaceWager, action_of
from croupier.games.round import Phase, Round
from croupier.server.auth import Account, Role
from croupier.server.views import ViewPov

if TYPE_CHECKING:
    from croupier.server.live_tables import LiveTable

__all__ = [
    "OVER",
    "POLICY",
    "Access",
    "Refused",
    "Relation",
    "Resource",
    "Rule",
    "Scope",
    "Sight",
    "Stage",
    "Unauthorized",
    "app_routes",
    "decide",
    "device_relation",
    "markdown",
    "point_of_view",
    "relation_of",
    "resource",
    "round_seats",
    "stage_of",
    "table_pov",
    "table_seats",
    "unlisted",
]


class Refused(CroupierError):
    """The account's role (or table) may not use this endpoint (HTTP 403)."""


class Unauthorized(CroupierError):
    """No valid credentials (HTTP 401)."""


class Relation(StrEnum):
    PLAYER_OF_SEAT = "player of the seat"
    PLAYER_OF_OTHER_SEAT = "player of another seat"
    DEALER_OF_TABLE = "dealer of the table"
    DEALER_OF_OTHER_TABLE = "dealer of another table"
    SUPERVISOR = "supervisor"
    OBSERVER = "observer"
    AUDITOR = "auditor"
    ADMIN = "admin"
    TRAINEE = "trainee"
    DEVICE_OF_TABLE = "device of the table"
    DEVICE_OF_OTHER_TABLE = "device of another table"
    NO_TOKEN = "no token"


class Stage(StrEnum):
    BETTING = "betting"
    DEALT = "dealt"
    DECISIONS = "decisions"
    REVEAL = "reveal"
    SETTLED = "settled"
    VOIDED = "voided"
    HELD = "held"


OVER = frozenset({Stage.SETTLED, Stage.VOIDED})
"""The stages of a finished round (its records are final)."""


class Sight(StrEnum):
    EVERY_CARD = "every card"
    SEAT = "own seats"
    TABLE = "face up"
    NONE = "no card"
    DOCUMENT = "document"


class Scope(StrEnum):
    """What a route's path names, which the relation and the stage are read from."""

    DOCUMENT = "document"
    """A page or document: no account, no round."""
    FLOOR = "floor"
    """The floor (or a player, a hand-pay): the same answer for every stage."""
    TABLE = "table"
    """``{table_id}``: its current round's stage; a player relates by their seats there."""
    SEAT = "seat"
    """``{table_id}`` and ``{seat}``: a player relates by holding that seat now."""
    ROUND = "round"
    """``{round_id}``: that round's stage and table; a player relates by their seats in it."""


@dataclass(frozen=True, slots=True)
class Rule:
    status: int
    sight: Sight

    @property
    def answered(self) -> bool:
        return self.status == 200

    def __str__(self) -> str:
        return self.sight.value if self.answered else str(self.status)


UNAUTHORIZED = Rule(401, Sight.NONE)
FORBIDDEN = Rule(403, Sight.NONE)
NOT_YET = Rule(409, Sight.NONE)
NO_CARD = Rule(200, Sight.NONE)
OWN_SEATS = Rule(200, Sight.SEAT)
FACE_UP = Rule(200, Sight.TABLE)
WHOLE = Rule(200, Sight.EVERY_CARD)
DOC = Rule(200, Sight.DOCUMENT)

ByStage = Mapping[Stage, Rule]


def once_over(rule: Rule, before: Rule = NOT_YET) -> ByStage:
    """``rule`` once the round is settled or voided, ``before`` while it is open."""
    return {s: rule if s in OVER else before for s in Stage}


@dataclass(frozen=True)
class Resource:
    """One route or stream and its row: relation -> stage -> :class:`Rule`."""

    method: str
    """``GET``, ``POST`` or ``WS`` (a WebSocket stream)."""
    path: str
    scope: Scope
    what: str
    rules: Mapping[Relation, ByStage]
    _staged: frozenset[Relation] = field(init=False, repr=False, compare=False)
    """The relations whose rule depends on the stage (every request and stream batch asks)."""

    def __post_init__(self) -> None:
        staged = frozenset(r for r, by in self.rules.items() if len(set(by.values())) > 1)
        object.__setattr__(self, "_staged", staged)

    def rule(self, relation: Relation, stage: Stage | None) -> Rule:
        """The rule for ``relation`` at ``stage`` (``None``: a row the same at every stage)."""
        by_stage = self.rules[relation]
        if stage is None:
            if self.staged(relation):
                raise ValueError(f"{self.method} {self.path}: {relation} depends on the stage")
            return by_stage[Stage.BETTING]
        return by_stage[stage]

    def staged(self, relation: Relation) -> bool:
        return relation in self._staged

    def refuses(self, role: Role) -> bool:
        """Whether every relation ``role`` can stand in is refused 403 at every stage."""
        return all(rule == FORBIDDEN for r in RELATIONS_OF[role] for rule in self.rules[r].values())

    def roles(self) -> list[str]:
        """The roles that may use the route in some relation at some stage (``x-roles``)."""
        return [role.value for role in Role if not self.refuses(role)]

    def cells(self) -> dict[str, str]:
        """Each relation's rule as text (the OpenAPI document's ``x-access``, the docs)."""
        return {r.value: _cell(self.rules[r]) for r in Relation}


RELATIONS_OF: Mapping[Role, tuple[Relation, ...]] = MappingProxyType(
    {
        Role.PLAYER: (Relation.PLAYER_OF_SEAT, Relation.PLAYER_OF_OTHER_SEAT),
        Role.DEALER: (Relation.DEALER_OF_TABLE, Relation.DEALER_OF_OTHER_TABLE),
        Role.SUPERVISOR: (Relation.SUPERVISOR,),
        Role.OBSERVER: (Relation.OBSERVER,),
        Role.AUDITOR: (Relation.AUDITOR,),
        Role.ADMIN: (Relation.ADMIN,),
        Role.TRAINEE: (Relation.TRAINEE,),
    }
)


def _cell(by_stage: ByStage) -> str:
    groups: dict[Rule, list[str]] = {}
    for stage in Stage:
        groups.setdefault(by_stage[stage], []).append(stage.value)
    if len(groups) == 1:
        return str(next(iter(groups)))
    if len(groups) == 2 and {by_stage[s] for s in OVER} == {by_stage[Stage.SETTLED]}:
        over, before = by_stage[Stage.SETTLED], by_stage[Stage.BETTING]
        if all(by_stage[s] == before for s in Stage if s not in OVER):
            return f"once over: {over}; before: {before}"
    return "; ".join(f"{', '.join(stages)}: {rule}" for rule, stages in groups.items())


_KEYS = {
    "player": Relation.PLAYER_OF_SEAT,
    "other_player": Relation.PLAYER_OF_OTHER_SEAT,
    "dealer": Relation.DEALER_OF_TABLE,
    "other_dealer": Relation.DEALER_OF_OTHER_TABLE,
    "supervisor": Relation.SUPERVISOR,
    "observer": Relation.OBSERVER,
    "auditor": Relation.AUDITOR,
    "admin": Relation.ADMIN,
    "trainee": Relation.TRAINEE,
    "device": Relation.DEVICE_OF_TABLE,
    "other_device": Relation.DEVICE_OF_OTHER_TABLE,
    "anonymous": Relation.NO_TOKEN,
}
DEVICES = frozenset({Relation.DEVICE_OF_TABLE, Relation.DEVICE_OF_OTHER_TABLE})
"""A card reader's relations: never given a row's ``everyone`` (a device only reports)."""


def _row(method: str, path: str, scope: Scope, what: str, **given: Rule | ByStage) -> Resource:
    """A row: the relations named get their rule (one for every stage, or one per stage);
    ``everyone`` names a rule for every relation with a token but a dealer of another table
    where the path names a table or a round (a dealer reads only their tables: 403, as where
    the path names neither they are the dealer of the table); the rest are refused (403), and
    a caller without a token 401 (a document: as everyone)."""
    everyone = given.pop("everyone", None)
    local = scope in (Scope.TABLE, Scope.SEAT, Scope.ROUND)
    rules: dict[Relation, ByStage] = {}
    for key, relation in _KEYS.items():
        value = given.pop(key, None)
        if value is None and relation is Relation.DEALER_OF_OTHER_TABLE:
            value = FORBIDDEN if local else rules[Relation.DEALER_OF_TABLE]
        device = relation in DEVICES and scope is not Scope.DOCUMENT  # documents: anyone's
        if value is None and relation is not Relation.NO_TOKEN and not device:
            value = everyone
        if value is None:
            no_token = everyone if scope is Scope.DOCUMENT else UNAUTHORIZED
            value = FORBIDDEN if relation is not Relation.NO_TOKEN else no_token
        assert value is not None
        rules[relation] = MappingProxyType(
            dict.fromkeys(Stage, value) if isinstance(value, Rule) else dict(value)
        )
    assert not given, f"{method} {path}: unknown relations {sorted(given)}"
    return Resource(method, path, scope, what, MappingProxyType(rules))


def _documents() -> list[Resource]:
    pages = ("/", "/player", "/dealer", "/pit", "/audit", "/accounts", "/par-sheets", "/drills")
    docs = [
        ("/openapi.json", "the OpenAPI document"),
        ("/docs", "the API's Swagger UI page (served on a demo floor or with --docs)"),
        ("/static/{path}", "the web pages' CSS and JavaScript files"),
        ("/api/par", "every game and its pay tables"),
        ("/api/par/{game}", "a game's exact par sheet and strategy"),
        ("/par/{game}.json", "a game's par sheet as a JSON download"),
        ("/par/{game}.html", "a game's par sheet as a self-contained report"),
        *((p, "the single web page (sign in, then the role's page)") for p in pages),
    ]
    return [_row("GET", p, Scope.DOCUMENT, what, everyone=DOC) for p, what in docs]


def _floor_rows() -> list[Resource]:
    return [
        _row("POST", "/api/login", Scope.DOCUMENT, "a token for a name and password",
             everyone=NO_CARD),
        _row("POST", "/api/logout", Scope.FLOOR, "the caller's session ended (sign-out): its "
             "token refused from then on, its streams closed", everyone=NO_CARD),
        _row("GET", "/api/me", Scope.FLOOR, "the account, a player's balance and seats",
             everyone=NO_CARD),
        _row("GET", "/api/tables", Scope.FLOOR, "every table: game, status, phase, round, seats, "
             "meters, why a round is held", everyone=NO_CARD),
        _row("GET", "/api/meters", Scope.FLOOR, "the progressive meters", everyone=NO_CARD),
        _row("WS", "/api/floor/stream", Scope.FLOOR, "the pit view: every table and meter, "
             "again at every change (at most twice a second)", everyone=NO_CARD),
        _row("POST", "/api/players", Scope.FLOOR, "a new player account", supervisor=NO_CARD),
        _row("POST", "/api/players/{player_id}/buy-in", Scope.FLOOR, "chips from the cage",
             supervisor=NO_CARD),
        _row("POST", "/api/players/{player_id}/cash-out", Scope.FLOOR, "chips to the cage",
             supervisor=NO_CARD),
        _row("GET", "/api/handpays", Scope.FLOOR, "the hand-pays: table, round, seat, player, "
             "meter, line, amount, status", supervisor=NO_CARD, auditor=NO_CARD),
        _row("POST", "/api/handpays/{handpay_id}/approve", Scope.FLOOR, "a hand-pay approved",
             supervisor=NO_CARD),
        _row("POST", "/api/tables", Scope.FLOOR, "a new table", supervisor=NO_CARD),
        _row("GET", "/api/pit/shift", Scope.FLOOR, "the shift's figures of every table (drop, "
             "win, hold, theoretical win) and the seated players' ratings",
             supervisor=NO_CARD, observer=NO_CARD, auditor=NO_CARD),
        _row("GET", "/api/audit/verify", Scope.FLOOR, "the chip ledger and audit verify: "
             "findings may quote any record", supervisor=WHOLE, auditor=WHOLE),
    ]  # fmt: skip


def _account_rows() -> list[Resource]:
    """The accounts (issue 36): an administrator's; a supervisor releases sign-in locks and
    reads the list; the auditor reads the list and the security log."""
    admin_only = [
        ("POST", "/api/accounts", "a new account (staff, a dealer's tables, a player's)"),
        ("POST", "/api/accounts/{username}/disable", "an account disabled, its sessions ended"),
        ("POST", "/api/accounts/{username}/enable", "an account enabled"),
        ("POST", "/api/accounts/{username}/password", "a new password, the sessions ended"),
        ("POST", "/api/accounts/{username}/role", "another staff role, the sessions ended"),
        ("POST", "/api/accounts/{username}/tables", "the tables a dealer deals"),
    ]
    return [
        _row("POST", "/api/setup", Scope.DOCUMENT, "the first administrator, with the one-time "
             "set-up token", everyone=NO_CARD),
        _row("GET", "/api/accounts", Scope.FLOOR, "every account: name, role, status, a dealer's "
             "tables, a player's id, demo or not", admin=NO_CARD, supervisor=NO_CARD,
             auditor=NO_CARD),
        *(_row(m, p, Scope.FLOOR, what, admin=NO_CARD) for m, p, what in admin_only),
        _row("GET", "/api/sign-in/locks", Scope.FLOOR, "failed sign-ins counted and the locks",
             admin=NO_CARD, supervisor=NO_CARD),
        _row("POST", "/api/sign-in/unlock", Scope.FLOOR, "a sign-in lock released",
             admin=NO_CARD, supervisor=NO_CARD),
        _row("GET", "/api/security/log", Scope.FLOOR, "the security log (sign-ins, locks, "
             "account changes, refusals)", auditor=NO_CARD, admin=NO_CARD),
    ]  # fmt: skip


def _table_rows() -> list[Resource]:
    table = Scope.TABLE
    seen_at_table: dict[str, Rule] = {
        "player": OWN_SEATS,
        "other_player": OWN_SEATS,
        "dealer": FACE_UP,
        "supervisor": FACE_UP,
        "observer": FACE_UP,
        "auditor": FACE_UP,
        "trainee": FACE_UP,
    }
    dealer_steps = [
        ("rounds", "a new round"),
        ("no-more-bets", "no more bets"),
        ("deal", "the deal (dealer's steps until a seat acts)"),
        ("reveal", "the reveal"),
        ("settle", "the settlement"),
        ("stub-count", "the stub count"),
        ("irregularities", "an irregularity reported"),
        ("keypad", "a card keyed by the dealer at a keypad table"),
    ]
    return [
        _row("GET", "/api/tables/{table_id}", table, "the table: rules, sign, wagers",
             everyone=NO_CARD),
        _row("GET", "/api/tables/{table_id}/view", table, "the table and its round's view "
             "(layout, records, settlement, deal)", **seen_at_table),
        _row("WS", "/api/tables/{table_id}/stream", table, "the table's events, each round's "
             "records as the caller's point of view in that round", **seen_at_table),
        _row("GET", "/api/tables/{table_id}/actions", table, "what the caller may do now "
             "(wagers, decisions, dealer's steps)", everyone=NO_CARD),
        _row("POST", "/api/tables/{table_id}/sit", table, "a seat taken",
             player=NO_CARD, other_player=NO_CARD),
        _row("POST", "/api/tables/{table_id}/leave", table, "a seat left",
             player=NO_CARD, other_player=NO_CARD),
        _row("POST", "/api/tables/{table_id}/wagers", table, "a wager at the player's seat "
             "(the records it made)", player=OWN_SEATS),
        _row("POST", "/api/tables/{table_id}/decisions", table, "a decision at the player's "
             "seat (the records it made)", player=OWN_SEATS),
        *(_row("POST", f"/api/tables/{{table_id}}/{name}", table, f"{what} (the records it "
               "made)", dealer=FACE_UP) for name, what in dealer_steps),
        _row("POST", "/api/tables/{table_id}/reader/messages", table, "a table device's "
             "numbered message: a card, a correction, the stub, a sensor's light, a heartbeat "
             "(acknowledged)", device=NO_CARD),
        _row("POST", "/api/tables/{table_id}/progressive-count", table, "a supervisor's "
             "recount of a progressive count held (the records it made)", supervisor=FACE_UP),
        _row("POST", "/api/tables/{table_id}/declarations", table, "a winning hand declared "
             "by its cards at a table croupier does not see (the records it made)",
             dealer=FACE_UP),
        _row("POST", "/api/tables/{table_id}/declarations/verify", table, "a declared hand "
             "verified against its light (the records it made)", supervisor=FACE_UP),
        _row("POST", "/api/tables/{table_id}/declarations/close", table, "the declarations "
             "closed, the progressive wagers settled (the records it made)", dealer=FACE_UP),
        _row("POST", "/api/tables/{table_id}/devices", table, "a card reader's token for the "
             "table (shown once)", supervisor=NO_CARD),
        _row("GET", "/api/tables/{table_id}/devices", table, "the table's card readers: the "
             "last message, when last heard from, silent or not", dealer=NO_CARD,
             supervisor=NO_CARD, observer=NO_CARD),
        _row("POST", "/api/tables/{table_id}/open", table, "the table opened",
             supervisor=NO_CARD),
        _row("POST", "/api/tables/{table_id}/close", table, "the table closed",
             supervisor=NO_CARD),
        _row("GET", "/api/tables/{table_id}/rounds", table, "the table's recall: its last "
             "finished rounds", supervisor=WHOLE, auditor=WHOLE, observer=FACE_UP),
        _row("GET", "/api/tables/{table_id}/seats/{seat}/rounds", Scope.SEAT, "a seat's "
             "recall: the finished rounds played at the seat (a player: the rounds they "
             "played there)", player=OWN_SEATS, supervisor=WHOLE, auditor=WHOLE,
             observer=FACE_UP),
    ]  # fmt: skip


def _round_rows() -> list[Resource]:
    rnd = Scope.ROUND
    whole_once_over = once_over(WHOLE)
    return [
        _row("GET", "/api/rounds/{round_id}/scenario", rnd, "the round as a scenario: every "
             "card in the order dealt (the format cannot hide one)",
             supervisor=whole_once_over, auditor=whole_once_over),
        _row("GET", "/api/rounds/{round_id}/records", rnd, "the round's records, every card",
             supervisor=whole_once_over, auditor=whole_once_over),
        _row("GET", "/api/rounds/{round_id}/deal", rnd, "the deal's commitment; once over "
             "the cards dealt, and to the whole the order and nonce",
             player=once_over(OWN_SEATS, NO_CARD), other_player=once_over(OWN_SEATS, NO_CARD),
             dealer=once_over(FACE_UP, NO_CARD), observer=once_over(FACE_UP, NO_CARD),
             supervisor=once_over(WHOLE, NO_CARD), auditor=once_over(WHOLE, NO_CARD)),
        _row("POST", "/api/rounds/{round_id}/void", rnd, "a supervisor's void (the records it "
             "made)", supervisor=FACE_UP),
    ]  # fmt: skip


def _drill_rows() -> list[Resource]:
    """Dealer training (issue 40): every staff role drills (a dealer, a supervisor, the pit,
    an auditor, an administrator, a trainee), players do not.  A drill's cards are those of its own
    training deal (:mod:`croupier.server.drills`), never a card of a round of the floor."""
    staff: dict[str, Rule] = dict.fromkeys(
        ("dealer", "supervisor", "observer", "auditor", "admin", "trainee"), NO_CARD
    )
    return [
        _row("GET", "/api/drills", Scope.FLOOR, "the drills of every game and the caller's "
             "scores over time", **staff),
        _row("POST", "/api/drills/questions", Scope.FLOOR, "a payout, commission or decision "
             "drill dealt by the engine (a training deal's cards only)", **staff),
        _row("POST", "/api/drills/questions/{drill_id}/answer", Scope.FLOOR, "the caller's "
             "answer graded against the engine, with its section and time", **staff),
        _row("POST", "/api/drills/procedure", Scope.FLOOR, "a procedure drill's step: "
             "accepted, or the engine's refusal with its section", **staff),
    ]  # fmt: skip


def _verify(rows: Iterable[Resource]) -> dict[tuple[str, str], Resource]:
    """The rows by (method, path); every row total and consistent with its scope."""
    out: dict[tuple[str, str], Resource] = {}
    for row in rows:
        key = (row.method, row.path)
        assert key not in out, f"{key}: two rows"
        for relation in Relation:
            by_stage = row.rules[relation]
            assert set(by_stage) == set(Stage), f"{key}: {relation} misses a stage"
            for rule in by_stage.values():
                assert rule.answered or rule.sight is Sight.NONE, f"{key}: a refusal shows"
            if row.scope in (Scope.FLOOR, Scope.DOCUMENT) or row.method == "WS":
                assert not row.staged(relation), f"{key}: {relation} must not depend on stages"
        if row.scope in (Scope.FLOOR, Scope.DOCUMENT):
            player, dealer = Relation.PLAYER_OF_SEAT, Relation.DEALER_OF_TABLE
            assert row.rules[player] == row.rules[Relation.PLAYER_OF_OTHER_SEAT], key
            assert row.rules[dealer] == row.rules[Relation.DEALER_OF_OTHER_TABLE], key
        documents = {
            rule.sight is Sight.DOCUMENT for s in row.rules.values() for rule in s.values()
        }
        assert documents == {row.scope is Scope.DOCUMENT and row.method == "GET"}, key
        out[key] = row
    return out


POLICY: Mapping[tuple[str, str], Resource] = MappingProxyType(
    _verify(
        [
            *_documents(),
            *_floor_rows(),
            *_account_rows(),
            *_table_rows(),
            *_round_rows(),
            *_drill_rows(),
        ]
    )
)
"""Every route and stream of the server: (method, path template) -> its row."""


def resource(method: str, path: str) -> Resource:
    """The row of a route (``LookupError`` naming it where it has none)."""
    found = POLICY.get((method, path))
    if found is None:
        raise LookupError(f"{method} {path} has no row in the access policy (server/policy.py)")
    return found


# -- reading a request's relation, stage and point of view -----------------------------------


def relation_of(account: Account | None, *, table_id: str | None, seats: bool) -> Relation:
    """The caller's relation: ``table_id`` the table concerned (``None``: none); ``seats``
    whether a player holds a seat concerned."""
    if account is None:
        return Relation.NO_TOKEN
    role = account.role
    if role is Role.PLAYER:
        return Relation.PLAYER_OF_SEAT if seats else Relation.PLAYER_OF_OTHER_SEAT
    if role is Role.DEALER:
        mine = table_id is None or account.deals(table_id)
        return Relation.DEALER_OF_TABLE if mine else Relation.DEALER_OF_OTHER_TABLE
    return {
        Role.SUPERVISOR: Relation.SUPERVISOR,
        Role.OBSERVER: Relation.OBSERVER,
        Role.AUDITOR: Relation.AUDITOR,
        Role.ADMIN: Relation.ADMIN,
        Role.TRAINEE: Relation.TRAINEE,
    }[role]


def device_relation(bound: str, table_id: str | None) -> Relation:
    """A card reader's relation: bound to ``bound``, asking of ``table_id``."""
    return Relation.DEVICE_OF_TABLE if table_id == bound else Relation.DEVICE_OF_OTHER_TABLE


def _decided(rnd: Round) -> bool:
    for record in rnd.records:
        action = action_of(record)
        if isinstance(getattr(action, "seat", None), int) and not isinstance(action, PlaceWager):
            return True
    return False


def stage_of(rnd: Round | None, held: str | None) -> Stage:
    """The stage of a table's round (``None``: the table has dealt no round: betting)."""
    if rnd is None:
        return Stage.BETTING
    if held is not None:
        return Stage.HELD
    phase = rnd.phase
    if phase is Phase.VOID:
        return Stage.VOIDED
    if phase is Phase.OVER:
        return Stage.SETTLED
    if phase in (Phase.REVEAL, Phase.SETTLEMENT):
        return Stage.REVEAL
    if not any(isinstance(r, CardDealt) for r in rnd.records):
        return Stage.BETTING
    return Stage.DECISIONS if _decided(rnd) else Stage.DEALT


def table_seats(account: Account, lt: LiveTable) -> frozenset[int]:
    """The seats a player holds at ``lt``: seated now, or in its round."""
    if account.player_id is None:
        return frozenset()
    seats = {s for s, p in lt.seats().items() if p == account.player_id}
    if lt.round is not None:
        seats |= {s for s, p in lt.round.players.items() if p == account.player_id}
    return frozenset(seats)


def round_seats(account: Account, players: Mapping[int, str]) -> frozenset[int]:
    """The seats a player held in a round (its stored players)."""
    if account.player_id is None:
        return frozenset()
    return frozenset(s for s, p in players.items() if p == account.player_id)


def point_of_view(sight: Sight, account: Account, seats: frozenset[int]) -> ViewPov:
    """The point of view an answer of ``sight`` is redacted as (the engine's, via
    :func:`croupier.server.views.engine_pov`)."""
    if sight is Sight.EVERY_CARD:
        return ViewPov("full")
    if sight is Sight.SEAT:
        return ViewPov("player", seats)
    if sight is Sight.TABLE and account.role is Role.DEALER:
        return ViewPov("dealer")
    return ViewPov("public")


@dataclass(frozen=True, slots=True)
class Access:
    """A request the policy answers: its row, the caller's relation, the stage (``None``
    where the row does not depend on it), the rule and the caller's seats concerned."""

    resource: Resource
    account: Account
    relation: Relation
    stage: Stage | None
    rule: Rule
    seats: frozenset[int] = frozenset()

    @property
    def pov(self) -> ViewPov:
        return point_of_view(self.rule.sight, self.account, self.seats)

    def pov_with(self, seats: frozenset[int]) -> ViewPov:
        """The point of view for a round the caller held ``seats`` in (a recall, a stream)."""
        return point_of_view(self.rule.sight, self.account, seats)


def decide(
    row: Resource,
    account: Account,
    *,
    table_id: str | None,
    seats: frozenset[int],
    stage: Callable[[], Stage],
    refuse: Callable[[Rule, str], Exception],
) -> Access:
    """The caller's :class:`Access` to ``row``, or ``refuse(rule, why)`` raised (the stage
    is read only where the row depends on it)."""
    relation = relation_of(account, table_id=table_id, seats=bool(seats))
    at = stage() if row.staged(relation) else None
    rule = row.rule(relation, at)
    if not rule.answered:
        when = f" while the round is {at.value}" if at is not None else ""
        raise refuse(rule, f"{relation.value}{when}")
    return Access(row, account, relation, at, rule, seats)


def table_pov(row: Resource, account: Account, lt: LiveTable) -> ViewPov:
    """The point of view ``row`` gives ``account`` at ``lt`` now (a row the route's guard
    has answered; ``PermissionError`` where it refuses)."""

    def refused(rule: Rule, why: str) -> Exception:
        return PermissionError(f"{row.method} {row.path}: refused to the {why} ({rule.status})")

    seats = table_seats(account, lt)
    stage = lambda: stage_of(lt.round, lt.held)  # noqa: E731
    return decide(row, account, table_id=lt.id, seats=seats, stage=stage, refuse=refused).pov


# -- the routes of an application and the documentation ---------------------------------------


def app_routes(app: Any) -> list[tuple[str, str]]:
    """Every (method, path template) the application ``app`` answers (``WS`` for a
    WebSocket route, ``{path}`` under a mount), ``HEAD`` and ``OPTIONS`` left out."""
    out: list[tuple[str, str]] = []

    def walk(routes: Iterable[Any], prefix: str) -> None:
        for route in routes:
            original = getattr(route, "original_router", None)
            if original is not None:  # an included router (FastAPI >= 0.120)
                walk(original.routes, prefix + route.include_context.prefix)
                continue
            path = prefix + str(getattr(route, "path", ""))
            methods = getattr(route, "methods", None)
            if type(route).__name__ == "Mount":
                out.append(("GET", path + "/{path}"))
            elif methods is None:
                out.append(("WS", path))
            else:
                out.extend((m, path) for m in sorted(methods) if m not in ("HEAD", "OPTIONS"))

    walk(app.routes, "")
    return out


def unlisted(app: Any) -> list[str]:
    """The routes of ``app`` without a row (a server refuses to start with one)."""
    return [f"{m} {p}" for m, p in app_routes(app) if (m, p) not in POLICY]


def markdown() -> str:
    """The policy as Markdown tables (``docs/ACCESS.md``)."""
    head = (
        "| route | what | " + " | ".join(r.value for r in Relation) + " |\n"
        "|---|---|" + "---|" * len(Relation) + "\n"
    )
    sections: dict[Scope, list[str]] = {}
    for row in POLICY.values():
        cells = " | ".join(row.cells().values())
        sections.setdefault(row.scope, []).append(
            f"| `{row.method} {row.path}` | {row.what} | {cells} |"
        )
    titles = {
        Scope.ROUND: "A round (`{round_id}`)",
        Scope.TABLE: "A table (`{table_id}`)",
        Scope.SEAT: "A seat (`{table_id}`, `{seat}`)",
        Scope.FLOOR: "The floor, the accounts, the players and the hand-pays",
        Scope.DOCUMENT: "Pages, documents and sign-in",
    }
    parts = [f"### {titles[scope]}\n\n{head}" + "\n".join(rows) for scope, rows in
             sorted(sections.items(), key=lambda kv: list(titles).index(kv[0]))]  # fmt: skip
    return "\n\n".join(parts) + "\n"


if __name__ == "__main__":  # ``python -m croupier.server.policy``: the tables of docs/ACCESS.md
    print(markdown(), end="")
