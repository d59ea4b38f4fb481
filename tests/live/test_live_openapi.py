"""The OpenAPI document: every endpoint of the live table API has typed request and response
models (the Rules Submission and scenario models among them), and every error it documents is
an ``application/problem+json`` problem."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from croupier.server.app import create_app

METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    # The server's own routes (the web pages add theirs: croupier.server.pages).
    db = Path(tmp_path_factory.mktemp("openapi")) / "floor.sqlite"
    app = create_app(f"sqlite:///{db}", web=False)
    doc: dict[str, Any] = app.openapi()
    return doc


def _operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in doc["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield str(value)
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _typed(schema: dict[str, Any]) -> bool:
    """A named model, or an array of named models."""
    if "$ref" in schema:
        return True
    return schema.get("type") == "array" and "$ref" in schema.get("items", {})


def test_every_endpoint_answers_a_typed_model(document: dict[str, Any]) -> None:
    untyped = []
    for path, method, op in _operations(document):
        ok = op["responses"]["200"]["content"]["application/json"]["schema"]
        if not _typed(ok):
            untyped.append(f"{method.upper()} {path}: {ok}")
    assert untyped == []
    assert len(list(_operations(document))) >= 30


BODILESS = {
    "/api/tables/{table_id}/leave",
    "/api/tables/{table_id}/deal",
    "/api/tables/{table_id}/reveal",
    "/api/tables/{table_id}/settle",
    "/api/tables/{table_id}/open",
    "/api/tables/{table_id}/close",
    "/api/handpays/{handpay_id}/approve",
    "/api/logout",
    "/api/accounts/{username}/disable",
    "/api/accounts/{username}/enable",
    "/api/tables/{table_id}/devices",
    "/api/tables/{table_id}/declarations/close",
}
"""Commands whose path (and token) says everything (the table, the step, the session)."""


def test_every_request_body_is_a_typed_model(document: dict[str, Any]) -> None:
    without = set()
    for path, method, op in _operations(document):
        body = op.get("requestBody")
        if body is None:
            if method != "get":
                without.add(path)
            continue
        assert method == "post", (method, path)
        schema = body["content"]["application/json"]["schema"]
        assert "$ref" in schema, (method, path, schema)
    assert without == BODILESS


def test_every_error_is_a_problem_document(document: dict[str, Any]) -> None:
    for path, method, op in _operations(document):
        errors = {c: r for c, r in op["responses"].items() if c.startswith("4")}
        anyone = path in ("/api/login", "/api/setup")  # no token needed: 401 and 422, no 403
        assert {"401", "403", "422"} <= set(errors) or anyone, (method, path)
        for code, response in errors.items():
            assert response["content"] == {
                "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}
            }, (method, path, code)
    problem = document["components"]["schemas"]["Problem"]
    assert {"title", "status", "detail"} <= set(problem["required"])
    assert "section" in problem["properties"]


def test_rules_submission_and_scenario_models_are_in_the_document(
    document: dict[str, Any],
) -> None:
    schemas = document["components"]["schemas"]
    new_table = schemas["NewTable"]["properties"]["rules"]
    assert new_table == {"$ref": "#/components/schemas/RulesModel"}
    rules = schemas["RulesModel"]
    assert {"game", "paytables", "progressive", "vig", "table"} <= set(rules["properties"])
    scenario = document["paths"]["/api/rounds/{round_id}/scenario"]["get"]
    ok = scenario["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/ScenarioModel"}
    assert {"game", "seats", "cards"} <= set(schemas["ScenarioModel"]["properties"])
    view = schemas["TableView"]["properties"]["round"]
    assert {"$ref": "#/components/schemas/RoundViewOut"} in view["anyOf"]
    # Every reference resolves.
    missing = {r for r in _refs(document) if r.removeprefix("#/components/schemas/") not in schemas}
    assert missing == set()
