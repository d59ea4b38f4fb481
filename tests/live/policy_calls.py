"""The requests the policy sweep (:mod:`live.policy_sweep`) sends to each route: for a relation
the row refuses, a request that would otherwise be answered (the refusal must be the row's
status and change nothing); for one it answers, a read as it is, and for a command an error the
caller provokes (an illegal wager, decision, step, body or id: its problem must hold no card)
while the real commands are the walk's own (:mod:`live.policy_walk`).  A route of the policy
without a request here fails the sweep."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from croupier.server.policy import OVER, Stage

__all__ = ["Ctx", "Req", "provoked", "valid"]


@dataclass(frozen=True)
class Ctx:
    """Where a request goes: the table, its round, the stage, a free name, existing ids."""

    table_id: str
    round_id: str | None
    stage: Stage
    wager: str
    unique: str
    player_id: str
    handpay_id: int
    username: str = ""
    password: str = ""


@dataclass(frozen=True)
class Req:
    method: str
    path: str
    body: Any = None
    params: Mapping[str, Any] = field(default_factory=dict)
    key: bool = True
    expect: frozenset[int] = frozenset({200})
    fresh_session: bool = False
    """Sent with a new session of the caller's (a sign-out: the sweep's own token lives on)."""


Make = Callable[[Ctx], Req | None]

_ERRORS = frozenset({404, 409, 422})
STRONG = "a sweep's long passphrase"
"""A password strong enough (croupier.server.passwords)."""
_OK = frozenset({200})
_HELD = frozenset({200, 404})


def _post(path: str, body: Any = None, *, key: bool = True, expect: int | None = None) -> Req:
    return Req("POST", path, body, key=key, expect=frozenset({expect}) if expect else _ERRORS)


def _table(c: Ctx, name: str) -> str:
    return f"/api/tables/{c.table_id}/{name}"


def _fixed(req: Req, c: Ctx) -> Req:
    return req


def _step(name: str, body: Any, key: bool, expect: int, c: Ctx) -> Req:
    return Req("POST", _table(c, name), body, key=key, expect=frozenset({expect}))


def _chips(name: str, c: Ctx) -> Req:
    return Req("POST", f"/api/players/{c.player_id}/{name}", {"amount": 1})


def _gets() -> dict[tuple[str, str], Make]:
    out: dict[tuple[str, str], Make] = {}
    table = {
        "/api/tables/{table_id}": {},
        "/api/tables/{table_id}/view": {},
        "/api/tables/{table_id}/actions": {},
        "/api/tables/{table_id}/rounds": {"last": 10},
        "/api/tables/{table_id}/seats/{seat}/rounds": {"last": 10},
        "/api/tables/{table_id}/devices": {},
    }
    for path, params in table.items():

        def get(c: Ctx, p: str = path, q: Mapping[str, Any] = params) -> Req:
            return Req("GET", p.replace("{table_id}", c.table_id).replace("{seat}", "1"), None, q)

        out[("GET", path)] = get
    for name in ("scenario", "records", "deal"):

        def read(c: Ctx, n: str = name) -> Req | None:
            if c.round_id is None:
                return None
            # a round held because its shoe order was lost has lost its commitment with it
            lost = n == "deal" and c.stage is Stage.HELD
            return Req("GET", f"/api/rounds/{c.round_id}/{n}", expect=_HELD if lost else _OK)

        out[("GET", f"/api/rounds/{{round_id}}/{name}")] = read
    for path, query in (
        ("/api/me", {}),
        ("/api/tables", {}),
        ("/api/meters", {}),
        ("/api/handpays", {}),
        ("/api/pit/shift", {}),
        ("/api/audit/verify", {"scope": "ledger"}),
    ):
        out[("GET", path)] = partial(_fixed, Req("GET", path, None, query))
    return out


def _documents() -> dict[tuple[str, str], Make]:
    paths = {
        "/static/{path}": "/static/core.js",
        "/api/par/{game}": "/api/par/no-such-game",
        "/par/{game}.json": "/par/no-such-game.json",
        "/par/{game}.html": "/par/no-such-game.html",
    }
    plain = ("/openapi.json", "/docs", "/api/par")
    pages = ("/", "/player", "/dealer", "/pit", "/audit", "/accounts", "/par-sheets", "/drills")
    out: dict[tuple[str, str], Make] = {}
    for path in (*plain, *pages, *paths):
        # A par sheet is asked of an unknown game (its 404): a known game's sheet is computed
        # by the server's worker on demand (202 until it is ready), seconds of CPU a game.
        status = frozenset({404 if "{game}" in path else 200})
        target = paths.get(path, path)
        out[("GET", path)] = partial(_fixed, Req("GET", target, expect=status))
    return out


def _refused_commands() -> dict[tuple[str, str], Make]:
    """A well-formed command for each route (sent by relations the row refuses)."""
    steps: dict[str, Any] = {
        "sit": {"seat": 7},
        "leave": None,
        "rounds": {"cut_at": None},
        "no-more-bets": {"progressive_chips": 0},
        "deal": None,
        "reveal": None,
        "settle": None,
        "stub-count": {"count": 10},
        "irregularities": {"kind": "wrong_card_count"},
        "open": None,
        "close": None,
    }
    out: dict[tuple[str, str], Make] = {
        ("POST", f"/api/tables/{{table_id}}/{name}"): partial(_step, name, body, True, 200)
        for name, body in steps.items()
    }
    out[("POST", "/api/tables/{table_id}/wagers")] = lambda c: Req(
        "POST", _table(c, "wagers"), {"wager": c.wager, "amount": 500}
    )
    out.update(_card_source(200))
    out[("POST", "/api/tables/{table_id}/decisions")] = lambda c: Req(
        "POST", _table(c, "decisions"), {"decision": "fold"}
    )
    out[("POST", "/api/rounds/{round_id}/void")] = lambda c: (
        None
        if c.round_id is None
        else Req("POST", f"/api/rounds/{c.round_id}/void", {"reason": "sweep"})
    )
    new_player = {"name": "Sweep", "password": STRONG}
    out[("POST", "/api/players")] = lambda c: Req(
        "POST", "/api/players", {**new_player, "player_id": c.unique, "username": c.unique}
    )
    for name in ("buy-in", "cash-out"):
        out[("POST", f"/api/players/{{player_id}}/{name}")] = partial(_chips, name)
    out[("POST", "/api/tables")] = lambda c: Req(
        "POST", "/api/tables", {"id": c.unique, "name": "Sweep", "rules": {"game": "mini-baccarat"}}
    )
    out[("POST", "/api/handpays/{handpay_id}/approve")] = lambda c: Req(
        "POST", f"/api/handpays/{c.handpay_id}/approve"
    )
    out[("POST", "/api/login")] = lambda c: Req(
        "POST", "/api/login", {"username": c.username, "password": c.password}, key=False
    )
    out[("POST", "/api/logout")] = partial(_fixed, _LOGOUT)
    return out


_LOGOUT = Req("POST", "/api/logout", fresh_session=True)
"""A sign-out, of a session the sweep signs in for it."""


def _card_source(expect: int) -> dict[tuple[str, str], Make]:
    """A table of real cards' commands (issue 39): a reader's message (only a reader's token
    reports: every account is refused), a reader's token, a card keyed, a count recounted."""
    return {
        ("POST", "/api/tables/{table_id}/reader/messages"): lambda c: Req(
            "POST", _table(c, "reader/messages"), {"seq": 1, "type": "heartbeat"}, key=False
        ),
        ("POST", "/api/tables/{table_id}/devices"): lambda c: _step(
            "devices", None, False, expect, c
        ),
        ("POST", "/api/tables/{table_id}/keypad"): lambda c: _step(
            "keypad", {"type": "card", "card": "As"}, True, expect, c
        ),
        # a supervisor's recount: the sweep's tables have no sensors, so no count is ever held
        ("POST", "/api/tables/{table_id}/progressive-count"): lambda c: _step(
            "progressive-count", {"count": 0}, True, expect, c
        ),
        # a hand declared, verified, the declarations closed: none at a table of known cards
        ("POST", "/api/tables/{table_id}/declarations"): lambda c: _step(
            "declarations", {"seat": 1, "cards": "As Ks Qs Js 10s"}, True, expect, c
        ),
        ("POST", "/api/tables/{table_id}/declarations/verify"): lambda c: _step(
            "declarations/verify", {"seat": 1}, True, expect, c
        ),
        ("POST", "/api/tables/{table_id}/declarations/close"): lambda c: _step(
            "declarations/close", None, True, expect, c
        ),
    }


def _provoked_commands() -> dict[tuple[str, str], Make]:
    """An error each command's own relation provokes (or ``None``: the walk sends the real
    command at that stage)."""
    over: Callable[[Ctx], bool] = lambda c: c.stage in OVER  # noqa: E731
    out: dict[tuple[str, str], Make] = {
        ("POST", "/api/tables/{table_id}/sit"): lambda c: _post(_table(c, "sit"), {"seat": 1}),
        ("POST", "/api/tables/{table_id}/leave"): lambda c: (
            None if over(c) or c.round_id is None else _post(_table(c, "leave"), expect=409)
        ),
        ("POST", "/api/tables/{table_id}/wagers"): lambda c: _post(
            _table(c, "wagers"), {"wager": "no_such_wager", "amount": 500}
        ),
        ("POST", "/api/tables/{table_id}/decisions"): lambda c: _post(
            _table(c, "decisions"), {"decision": "nonsense"}
        ),
        ("POST", "/api/tables/{table_id}/rounds"): lambda c: _post(
            _table(c, "rounds"), {"cut_at": 5000}, expect=422
        ),
        ("POST", "/api/tables/{table_id}/no-more-bets"): lambda c: _post(
            _table(c, "no-more-bets"), {"progressive_chips": 5000}, expect=422
        ),
        ("POST", "/api/tables/{table_id}/stub-count"): lambda c: _post(
            _table(c, "stub-count"), {"count": -1}, expect=422
        ),
        ("POST", "/api/tables/{table_id}/irregularities"): lambda c: _post(
            _table(c, "irregularities"), {"kind": "no-such-irregularity"}, expect=422
        ),
        ("POST", "/api/rounds/{round_id}/void"): lambda c: (
            None
            if c.round_id is None
            else Req(
                "POST",
                f"/api/rounds/{c.round_id}/void",
                {"reason": "sweep"},
                expect=frozenset({404, 409}),
            )
            if over(c)
            else _post(f"/api/rounds/{c.round_id}/void", {"reason": " "}, expect=422)
        ),
        ("POST", "/api/players"): lambda c: _post(
            "/api/players",
            {"player_id": "P1", "name": "x", "username": "player1", "password": STRONG},
            expect=409,
        ),
        ("POST", "/api/tables"): lambda c: _post(
            "/api/tables",
            {"id": c.table_id, "name": "x", "rules": {"game": "mini-baccarat"}},
            expect=409,
        ),
        ("POST", "/api/handpays/{handpay_id}/approve"): lambda c: _post(
            "/api/handpays/999999/approve", expect=404
        ),
        ("POST", "/api/login"): lambda c: Req(
            "POST", "/api/login", {"username": c.username, "password": c.password}, key=False
        ),
        ("POST", "/api/logout"): partial(_fixed, _LOGOUT),
        # the sweep's tables deal croupier's own shuffle: a reader or a keypad is refused there
        **_card_source(409),
    }
    for name in ("deal", "reveal", "settle", "open", "close"):
        # without its Idempotency-Key: a malformed command, refused whatever the phase
        out[("POST", f"/api/tables/{{table_id}}/{name}")] = partial(_step, name, None, False, 422)
    for name in ("buy-in", "cash-out"):
        out[("POST", f"/api/players/{{player_id}}/{name}")] = partial(
            _fixed, _post(f"/api/players/no-such-player/{name}", {"amount": 1}, expect=404)
        )
    return out


def _accounts() -> tuple[dict[tuple[str, str], Make], dict[tuple[str, str], Make]]:
    """The accounts' routes (issue 36): a well-formed request (refused relations) and an error
    the administrator or supervisor provokes (an unknown account, a name taken)."""
    setup = Req(
        "POST",
        "/api/setup",
        {"token": "x", "username": "x", "password": "short"},
        key=False,
        expect=frozenset({422}),  # a body refused before it is read: no failure counted
    )
    reads = {
        ("GET", "/api/accounts"): Req("GET", "/api/accounts"),
        ("GET", "/api/sign-in/locks"): Req("GET", "/api/sign-in/locks"),
        ("GET", "/api/security/log"): Req("GET", "/api/security/log", params={"after": 2**40}),
        ("POST", "/api/setup"): setup,
    }
    bodies: dict[str, Any] = {
        "disable": None,
        "enable": None,
        "password": {"password": STRONG},
        "role": {"role": "observer"},
        "tables": {"tables": []},
    }
    valid: dict[tuple[str, str], Make] = {k: partial(_fixed, r) for k, r in reads.items()}
    provoked = dict(valid)
    valid[("POST", "/api/accounts")] = lambda c: Req(
        "POST", "/api/accounts", {"username": c.unique, "password": STRONG, "role": "observer"}
    )
    provoked[("POST", "/api/accounts")] = partial(
        _fixed,
        _post(
            "/api/accounts",
            {"username": "Player1", "password": STRONG, "role": "observer"},
            expect=422,  # taken: the name normalises to player1
        ),
    )
    for name, body in bodies.items():
        key = ("POST", f"/api/accounts/{{username}}/{name}")
        valid[key] = partial(_fixed, Req("POST", f"/api/accounts/player7/{name}", body))
        provoked[key] = partial(
            _fixed, _post(f"/api/accounts/no-such-account/{name}", body, expect=404)
        )
    unlock = ("POST", "/api/sign-in/unlock")
    valid[unlock] = partial(_fixed, Req("POST", unlock[1], {"username": "player7"}))
    provoked[unlock] = partial(_fixed, _post(unlock[1], {"username": "never-failed"}, expect=404))
    return valid, provoked


def _drills() -> tuple[dict[tuple[str, str], Make], dict[tuple[str, str], Make]]:
    """Dealer training's routes (issue 40): a well-formed drill (refused relations) and an
    error a trainee provokes (an unknown game, a question that is not theirs)."""
    answer = "/api/drills/questions/{drill_id}/answer"
    valid: dict[tuple[str, str], Make] = {
        ("GET", "/api/drills"): partial(_fixed, Req("GET", "/api/drills")),
        ("POST", "/api/drills/questions"): partial(
            _fixed, Req("POST", "/api/drills/questions", {"game": "let-it-ride", "kind": "payout"})
        ),
        ("POST", answer): partial(
            _fixed, Req("POST", "/api/drills/questions/1/answer", {"answer": "5"})
        ),
        ("POST", "/api/drills/procedure"): partial(
            _fixed, Req("POST", "/api/drills/procedure", {"game": "let-it-ride", "step": "deal"})
        ),
    }
    provoked = dict(valid)
    provoked[("POST", "/api/drills/questions")] = partial(
        _fixed,
        _post("/api/drills/questions", {"game": "no-such-game", "kind": "payout"}, expect=422),
    )
    provoked[("POST", answer)] = partial(
        _fixed, _post("/api/drills/questions/999999/answer", {"answer": "5"}, expect=404)
    )
    provoked[("POST", "/api/drills/procedure")] = partial(
        _fixed, _post("/api/drills/procedure", {"game": "no-such-game"}, expect=422)
    )
    return valid, provoked


_GETS = {**_gets(), **_documents()}
_VALID = {**_GETS, **_refused_commands(), **_accounts()[0], **_drills()[0]}
_PROVOKED = {**_GETS, **_provoked_commands(), **_accounts()[1], **_drills()[1]}


def valid(method: str, path: str) -> Make:
    """The well-formed request of a route (``KeyError``: the sweep cannot call it)."""
    return _VALID[(method, path)]


def provoked(method: str, path: str) -> Make:
    """The request a relation the row answers sends: a read, or a provoked error."""
    return _PROVOKED[(method, path)]


def known() -> set[tuple[str, str]]:
    """The routes the sweep can call (the streams are opened by the sweep itself)."""
    return set(_VALID) & set(_PROVOKED)
