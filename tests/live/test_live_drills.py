"""Dealer training against a real server (issue 40): every game of the registry has payout
drills, each graded against the engine's own settlement (the deal dealt again from the seed the
server stored) with the section that rules it; a right and a wrong answer for each game; the
scores persisted and read back by game, kind and day; a procedure drill's out-of-order step is
the engine's refusal with its section; players may not drill."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
from sqlalchemy import create_engine, text

from croupier.core.money import format_cents
from croupier.games import GAMES
from croupier.server.drills import DrillKind, question
from live.live_harness import PASSWORDS, Server


def _token(server: Server, username: str) -> str:
    body = {"username": username, "password": PASSWORDS[username]}
    r = httpx.post(f"{server.url}/api/login", json=body)
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def _call(server: Server, token: str, method: str, path: str, body: Any = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": f"k-{time.monotonic_ns()}"}
    return httpx.request(method, f"{server.url}{path}", json=body, headers=headers, timeout=60)


def _stored(server: Server, drill_id: int) -> dict[str, Any]:
    engine = create_engine(server.db_url)
    try:
        with engine.connect() as conn:
            row = conn.execute(text("SELECT * FROM drills WHERE id = :i"), {"i": drill_id}).one()
            return dict(row._mapping)
    finally:
        engine.dispose()


def _wrong(expected: str) -> str:
    """An answer other than the engine's: a cent more, or the other of yes and no."""
    if expected in ("yes", "no"):
        return "no" if expected == "yes" else "yes"
    return format_cents(int(expected) + 1)


def _right(expected: str) -> str:
    return expected if expected in ("yes", "no") else format_cents(int(expected))


def test_issue40_drills_every_game_payout_graded_right_and_wrong_with_section(
    server: Server,
) -> None:
    # on SQLite and on PostgreSQL: the rows, their times and grades persisted on both
    token = _token(server, "dealer")
    games = _call(server, token, "GET", "/api/drills").json()["games"]
    assert [g["slug"] for g in games] == list(GAMES)  # every game of the registry
    for game in games:
        assert game["kinds"][0] == "payout" and game["kinds"][-1] == "procedure"
        for answer in (_right, _wrong):
            asked = _call(
                server, token, "POST", "/api/drills/questions",
                {"game": game["slug"], "kind": "payout"},
            )  # fmt: skip
            assert asked.status_code == 200, asked.text
            shown = asked.json()
            assert "expected" not in shown and shown["game_name"] == game["name"]
            row = _stored(server, shown["id"])
            # the engine's own answer: the deal dealt again from the stored seed
            engine = question(game["slug"], DrillKind.PAYOUT, int(row["seed"]))
            assert (row["expected"], row["section"]) == (engine.expected, engine.section)
            assert row["section"].startswith("§"), row
            graded = _call(
                server, token, "POST", f"/api/drills/questions/{shown['id']}/answer",
                {"answer": answer(row["expected"])},
            ).json()  # fmt: skip
            assert graded["correct"] is (answer is _right), (game, graded)
            assert graded["section"] == row["section"]
            assert graded["expected"] == format_cents(int(row["expected"]))
            assert graded["millis"] >= 0
            after = _stored(server, shown["id"])
            assert bool(after["correct"]) is (answer is _right)
            assert after["millis"] == graded["millis"]
    scores = _call(server, token, "GET", "/api/drills").json()
    by_game = {s["game"]: s for s in scores["scores"]}
    assert set(by_game) == set(GAMES)
    for s in by_game.values():
        assert (s["kind"], s["answered"], s["right"]) == ("payout", 2, 1)
        assert s["mean_millis"] is not None
    assert sum(d["answered"] for d in scores["days"]) == 2 * len(GAMES)
    assert len(scores["recent"]) == 12


def test_issue40_drills_commission_decisions_and_cases_graded_with_their_sections(
    sqlite_server: Server,
) -> None:
    token = _token(sqlite_server, "supervisor")
    games = _call(sqlite_server, token, "GET", "/api/drills").json()["games"]
    asked_kinds = 0
    for game in games:
        for kind in ("commission", "decision", "case"):
            asked = _call(
                sqlite_server, token, "POST", "/api/drills/questions",
                {"game": game["slug"], "kind": kind},
            )  # fmt: skip
            if kind not in game["kinds"]:
                assert asked.status_code == 409, asked.text  # no such drill for this game
                continue
            asked_kinds += 1
            shown = asked.json()
            row = _stored(sqlite_server, shown["id"])
            assert row["section"], row
            if kind == "decision":
                assert shown["choices"] == ["yes", "no"]
            if kind == "case":  # the rulebook's edge case, its subsection the scenario's
                assert "the rulebook's case" in shown["prompt"]
                assert shown["facts"][0].startswith(f"The case: {row['section']}, ")
            graded = _call(
                sqlite_server, token, "POST", f"/api/drills/questions/{shown['id']}/answer",
                {"answer": _right(row["expected"])},
            ).json()  # fmt: skip
            assert graded["correct"] is True and graded["section"] == row["section"]
            again = _call(
                sqlite_server, token, "POST", f"/api/drills/questions/{shown['id']}/answer",
                {"answer": _right(row["expected"])},
            )  # fmt: skip
            assert again.status_code == 409  # one answer a question
    # decisions in five games, a commission in two baccarats, the rulebook's cases of seven
    assert asked_kinds >= 14


def test_issue40_drills_procedure_out_of_order_step_refused_with_section(
    sqlite_server: Server,
) -> None:
    token = _token(sqlite_server, "dealer")
    game = "three-card-poker"
    start = _call(sqlite_server, token, "POST", "/api/drills/procedure", {"game": game}).json()
    assert start["steps"] == [] and start["taken"] is None and start["phase"] == "betting"
    body = {"game": game, "seed": start["seed"], "steps": [], "step": "reveal"}
    early = _call(sqlite_server, token, "POST", "/api/drills/procedure", body).json()
    taken = early["taken"]
    assert taken["accepted"] is False and taken["expected"] == "No More Bets"
    assert "reveals after every decision" in taken["message"]
    # the chapter's subsection from the game's sections table (no longer the chapter's title)
    assert taken["section"] == GAMES[game].round_class.sections["reveal_order"] == "§ 649a.11(c)"
    steps: list[str] = []
    # a seat at a time is settled; one that folded at its decision is settled already (the
    # deal's own seed decides), so the settles stop once the round is over
    for step in ("no_more_bets", "deal", "reveal", "settle", "settle"):
        body = {"game": game, "seed": start["seed"], "steps": steps, "step": step}
        state = _call(sqlite_server, token, "POST", "/api/drills/procedure", body).json()
        assert state["taken"]["accepted"] is True, state
        steps = state["steps"]
        if state["over"]:
            break
    assert state["over"] is True and set(state["net"]) == {"1", "2"}
    forged = {"game": game, "seed": start["seed"], "steps": ["settle"], "step": "deal"}
    refused = _call(sqlite_server, token, "POST", "/api/drills/procedure", forged)
    assert refused.status_code == 422  # a step sent as accepted that the engine refuses
    scores = _call(sqlite_server, token, "GET", "/api/drills").json()["scores"]
    assert {(s["game"], s["kind"], s["answered"], s["right"]) for s in scores} == {
        (game, "procedure", 1 + len(steps), len(steps))
    }


def test_issue40_drills_refused_to_players(sqlite_server: Server) -> None:
    token = _token(sqlite_server, "player1")
    assert _call(sqlite_server, token, "GET", "/api/drills").status_code == 403
    body = {"game": "let-it-ride", "kind": "payout"}
    assert _call(sqlite_server, token, "POST", "/api/drills/questions", body).status_code == 403


CARD = re.compile(r"^(10|[2-9TJQKA])[shdc]$")


def _cards_in(value: Any) -> set[str]:
    """Every card code anywhere in a JSON answer."""
    if isinstance(value, dict):
        return {c for v in value.values() for c in _cards_in(v)}
    if isinstance(value, list):
        return {c for v in value for c in _cards_in(v)}
    return {value} if isinstance(value, str) and CARD.match(value) else set()


def test_issue40_a_trainee_drills_and_cannot_deal_void_or_see_a_hole_card(
    sqlite_server: Server,
) -> None:
    trainee = _token(sqlite_server, "trainee")
    supervisor, dealer = _token(sqlite_server, "supervisor"), _token(sqlite_server, "dealer")
    player = _token(sqlite_server, "player6")
    # the drills: asked, answered, a procedure step
    body = {"game": "three-card-poker", "kind": "case"}
    shown = _call(sqlite_server, trainee, "POST", "/api/drills/questions", body).json()
    row = _stored(sqlite_server, shown["id"])
    graded = _call(
        sqlite_server, trainee, "POST", f"/api/drills/questions/{shown['id']}/answer",
        {"answer": _right(row["expected"])},
    ).json()  # fmt: skip
    assert graded["correct"] is True and graded["section"] == row["section"]
    step = _call(sqlite_server, trainee, "POST", "/api/drills/procedure", {"game": "let-it-ride"})
    assert step.status_code == 200, step.text
    # a round of a table of its own, dealt face down
    rules = _call(sqlite_server, supervisor, "GET", "/api/tables/three-card-poker").json()["rules"]
    table = "/api/tables/tcp-trainee"
    made = {"id": "tcp-trainee", "name": "Trainee TCP", "rules": rules}
    assert _call(sqlite_server, supervisor, "POST", "/api/tables", made).status_code == 200
    assert _call(sqlite_server, supervisor, "POST", f"{table}/open").status_code == 200
    assert _call(sqlite_server, player, "POST", f"{table}/sit", {"seat": 1}).status_code == 200
    rid = _call(sqlite_server, dealer, "POST", f"{table}/rounds", {"cut_at": None}).json()
    ante = {"wager": "ante", "amount": 500}
    assert _call(sqlite_server, player, "POST", f"{table}/wagers", ante).status_code == 200
    no_more = {"progressive_chips": 0}
    assert _call(sqlite_server, dealer, "POST", f"{table}/no-more-bets", no_more).status_code == 200
    assert _call(sqlite_server, dealer, "POST", f"{table}/deal").status_code == 200
    # the trainee deals nothing, voids nothing, reads no record or recall
    for path, sent in (
        (f"{table}/rounds", {"cut_at": None}),
        (f"{table}/deal", None),
        (f"{table}/settle", None),
        (f"/api/rounds/{rid['round_id']}/void", {"reason": "a trainee"}),
    ):
        assert _call(sqlite_server, trainee, "POST", path, sent).status_code == 403, path
    for path in (f"/api/rounds/{rid['round_id']}/records", f"{table}/rounds", "/api/pit/shift"):
        assert _call(sqlite_server, trainee, "GET", path).status_code == 403, path
    # it watches the felt as the table sees it: no face-down card
    watched = _call(sqlite_server, trainee, "GET", f"{table}/view")
    assert watched.status_code == 200, watched.text
    void = {"reason": "the trainee's test"}
    voided = _call(sqlite_server, supervisor, "POST", f"/api/rounds/{rid['round_id']}/void", void)
    assert voided.status_code == 200, voided.text
    records = _call(
        sqlite_server, supervisor, "GET", f"/api/rounds/{rid['round_id']}/records"
    ).json()["records"]
    hidden = {r["card"] for r in records if r["kind"] == "card_dealt" and not r.get("face_up")}
    assert len(hidden) == 6  # the seat's three and the dealer's three
    assert not hidden & _cards_in(watched.json())
