"""The access policy as data (issue 35, "Every secret, from one policy"): every route of the
application has one row, every row is total over relations and stages, the documentation is the
policy's own tables, and a round's stage is read from its records as the policy defines it.
(The policy is checked against a real server's answers in tests/live/test_live_policy.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI

from croupier.games import get_game
from croupier.games.records import NoMoreBets, PlaceWager, VoidRound
from croupier.games.round import ActorKind, Round
from croupier.rules.progressive import MemoryMeters
from croupier.server.app import create_app
from croupier.server.auth import Account, Role
from croupier.server.perimeter import Perimeter
from croupier.server.policy import (
    POLICY,
    Relation,
    Sight,
    Stage,
    app_routes,
    markdown,
    relation_of,
    resource,
    stage_of,
    unlisted,
)
from croupier.table.shoe import SeededShuffler, Shoe

DOCS = Path(__file__).resolve().parents[1] / "docs" / "ACCESS.md"
MARK = "<!-- generated: python -m croupier.server.policy -->\n\n"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    db = tmp_path_factory.mktemp("policy") / "floor.sqlite"
    # /docs is served on a demo floor or with --docs (its row is the page's when it is served)
    made = create_app(f"sqlite:///{db}", perimeter=Perimeter(docs=True))
    yield made
    made.state.floor.committer.close()
    made.state.floor.engine.dispose()


def test_every_route_of_the_application_has_one_row_and_every_row_a_route(app: FastAPI) -> None:
    routes = app_routes(app)
    assert len(routes) == len(set(routes))
    assert unlisted(app) == []
    assert set(routes) == set(POLICY)
    # The WebSocket streams, the web pages' actions and the documents are among them.
    assert {("WS", "/api/tables/{table_id}/stream"), ("WS", "/api/floor/stream")} <= set(routes)
    assert ("GET", "/api/tables/{table_id}/actions") in routes


def test_a_route_without_a_row_is_named(app: FastAPI) -> None:
    extra = FastAPI(docs_url=None, redoc_url=None)  # the server has no ReDoc page
    extra.add_api_route("/api/secret-cards", lambda: {}, methods=["GET"])
    assert unlisted(extra) == ["GET /api/secret-cards"]
    with pytest.raises(LookupError, match="GET /api/secret-cards has no row"):
        resource("GET", "/api/secret-cards")


def test_every_operation_documents_its_row(app: FastAPI) -> None:
    spec = app.openapi()
    for (method, path), row in POLICY.items():
        if method in ("WS",) or row.scope.value == "document":
            continue
        operation = spec["paths"][path][method.lower()]
        assert operation["x-access"] == row.cells(), (method, path)
        assert operation["x-roles"] == row.roles(), (method, path)


def test_the_documentation_is_the_policy() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert MARK in text
    assert text.split(MARK, 1)[1] == markdown()


def test_defect_3_the_scenario_is_whole_to_the_supervisor_and_auditor_only_once_over() -> None:
    row = resource("GET", "/api/rounds/{round_id}/scenario")
    for relation in Relation:
        for stage in Stage:
            rule = row.rule(relation, stage)
            entitled = relation in (Relation.SUPERVISOR, Relation.AUDITOR)
            if relation is Relation.NO_TOKEN:
                assert rule.status == 401
            elif not entitled:
                assert rule.status == 403, (relation, stage)
            elif stage in (Stage.SETTLED, Stage.VOIDED):
                assert (rule.status, rule.sight) == (200, Sight.EVERY_CARD)
            else:
                assert rule.status == 409, stage


def test_no_row_gives_a_face_down_card_to_anyone_but_the_supervisor_and_auditor() -> None:
    for key, row in POLICY.items():
        for relation in Relation:
            if relation in (Relation.SUPERVISOR, Relation.AUDITOR):
                continue
            sights = {row.rule(relation, s).sight for s in Stage}
            assert Sight.EVERY_CARD not in sights, (key, relation)


def test_a_dealer_bound_to_another_table_is_the_dealer_of_another_table() -> None:
    bound = Account("dealer-a", Role.DEALER, tables=frozenset({"three-card-poker", "midi"}))
    demo = Account("dealer", Role.DEALER, demo=True)
    unbound = Account("dee", Role.DEALER)
    assert relation_of(bound, table_id="three-card-poker", seats=False) is Relation.DEALER_OF_TABLE
    assert relation_of(bound, table_id="midi", seats=False) is Relation.DEALER_OF_TABLE
    assert relation_of(bound, table_id="let-it-ride", seats=False) is (
        Relation.DEALER_OF_OTHER_TABLE
    )
    # the demo floor's dealer, bound to none, deals every table; a real dealer bound to none
    # deals none (issue 36)
    assert relation_of(demo, table_id="let-it-ride", seats=False) is Relation.DEALER_OF_TABLE
    assert relation_of(unbound, table_id="let-it-ride", seats=False) is (
        Relation.DEALER_OF_OTHER_TABLE
    )
    assert relation_of(unbound, table_id=None, seats=False) is Relation.DEALER_OF_TABLE
    admin = Account("boss", Role.ADMIN)
    assert relation_of(admin, table_id="let-it-ride", seats=False) is Relation.ADMIN
    assert resource("GET", "/api/tables/{table_id}/view").rule(Relation.ADMIN, None).status == 403
    assert relation_of(None, table_id=None, seats=False) is Relation.NO_TOKEN
    view = resource("GET", "/api/tables/{table_id}/view")
    assert view.rule(Relation.DEALER_OF_OTHER_TABLE, None).status == 403


def _round() -> Round:
    game = get_game({"game": "three-card-poker"})
    shoe = Shoe.shuffled(SeededShuffler(35), decks=1)
    return game.new_round(shoe=shoe, meters=MemoryMeters(), players={1: "a", 2: "b"})


def _until_seat(rnd: Round) -> None:
    while not rnd.is_over and rnd.to_act().kind is not ActorKind.SEAT:
        rnd.apply(rnd.dealer_step())


def test_a_rounds_stage_from_betting_to_settled_voided_and_held() -> None:
    rnd = _round()
    assert stage_of(None, None) is Stage.BETTING
    for seat in (1, 2):
        rnd.apply(PlaceWager(seat=seat, wager="ante", amount=500))
    rnd.apply(NoMoreBets(progressive_chips=None))
    assert stage_of(rnd, None) is Stage.BETTING  # bets closed, no card out
    _until_seat(rnd)
    assert stage_of(rnd, None) is Stage.DEALT
    assert stage_of(rnd, "the server stopped") is Stage.HELD
    rnd.apply(rnd.parse_decision(1, "fold"))
    assert stage_of(rnd, None) is Stage.DECISIONS
    rnd.apply(rnd.parse_decision(2, "play"))
    assert stage_of(rnd, None) is Stage.REVEAL
    _until_seat(rnd)
    assert stage_of(rnd, None) is Stage.SETTLED
    voided = _round()
    voided.apply(PlaceWager(seat=1, wager="ante", amount=500))
    voided.apply(VoidRound(by="supervisor", reason="a test"))
    assert stage_of(voided, None) is Stage.VOIDED


def test_a_card_readers_token_reports_for_its_own_table_and_is_refused_every_other_row() -> None:
    from croupier.server.policy import device_relation

    reader = ("POST", "/api/tables/{table_id}/reader/messages")
    assert device_relation("fcp-reader", "fcp-reader") is Relation.DEVICE_OF_TABLE
    assert device_relation("fcp-reader", "three-card-poker") is Relation.DEVICE_OF_OTHER_TABLE
    for key, row in POLICY.items():
        for stage in Stage:
            own = row.rule(Relation.DEVICE_OF_TABLE, stage)
            other = row.rule(Relation.DEVICE_OF_OTHER_TABLE, stage)
            if row.scope.value == "document":
                continue  # pages and documents are anyone's, without a token too
            assert other.status == 403, key
            if key == reader:
                assert (own.status, own.sight) == (200, Sight.NONE)
            else:
                assert own.status == 403, key
    for relation in Relation:
        if relation not in (Relation.DEVICE_OF_TABLE, Relation.NO_TOKEN):
            assert resource(*reader).rule(relation, None).status == 403, relation


def test_issue40_a_trainee_drills_and_watches_the_felt_face_up_and_does_nothing_else() -> None:
    trainee = Account("tess", Role.TRAINEE)
    assert relation_of(trainee, table_id="three-card-poker", seats=False) is Relation.TRAINEE
    drills = {key for key in POLICY if key[1].startswith("/api/drills")}
    assert len(drills) == 4
    for key, row in POLICY.items():
        rules = {row.rule(Relation.TRAINEE, stage) for stage in Stage}
        sights = {rule.sight for rule in rules if rule.answered}
        # never a face-down card, never a card of their own seat (a trainee holds none)
        assert not sights & {Sight.EVERY_CARD, Sight.SEAT}, key
        if key in drills:
            assert {(r.status, r.sight) for r in rules} == {(200, Sight.NONE)}, key
        elif key[0] == "POST" and key[1] not in ("/api/login", "/api/logout", "/api/setup"):
            # no dealer's step, no void, no wager, no decision, no cage, no table, no account
            assert {r.status for r in rules} == {403}, key
    watched = ("GET", "/api/tables/{table_id}/view"), ("WS", "/api/tables/{table_id}/stream")
    for key in watched:
        assert {POLICY[key].rule(Relation.TRAINEE, s).sight for s in Stage} == {Sight.TABLE}
    for refused in (
        ("GET", "/api/rounds/{round_id}/records"),
        ("GET", "/api/tables/{table_id}/rounds"),
        ("GET", "/api/pit/shift"),
        ("GET", "/api/rounds/{round_id}/deal"),
    ):
        assert {POLICY[refused].rule(Relation.TRAINEE, s).status for s in Stage} == {403}
