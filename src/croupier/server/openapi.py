"""The OpenAPI document at ``/openapi.json``: every route's typed request and response models,
the models of the files users write (:class:`croupier.core.shapes.RulesModel`,
:class:`croupier.core.shapes.ScenarioModel`) among its components, and every error response as
``application/problem+json`` (:class:`croupier.server.api_models.Problem`, naming the rule's
section where one forbids the request).

Its OpenAPI links (:data:`LINKS`) say how one operation's answer feeds the next, so a client
generator or a stateful fuzzer (schemathesis, tests/live/test_live_fuzz.py) can chain them: a
sign-in's token authorizes the reads that follow it (and the token of an account bound to one
table, a table's own dealer, that table's view); a table's id, from the list, a new table or any
command's result, leads to its detail, view, actions, recall and every table command; a
command's round id leads to the round's records, scenario export, deal commitment and void; a
listed round to its records, a new player to their buy-in and cash-out, a hand-pay to its
approval."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from croupier.core.shapes import RulesModel, ScenarioModel

__all__ = ["LINKS", "document", "install_document"]

PROBLEM = {"$ref": "#/components/schemas/Problem"}
FILE_MODELS: dict[str, type[BaseModel]] = {"RulesModel": RulesModel, "ScenarioModel": ScenarioModel}


def _add_file_models(schemas: dict[str, Any]) -> None:
    for name, model in FILE_MODELS.items():
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        for key, value in schema.pop("$defs", {}).items():
            if schemas.setdefault(key, value) != value:
                raise RuntimeError(f"two OpenAPI schemas are named {key}")  # pragma: no cover
        schemas[name] = schema


def _problems(paths: dict[str, Any]) -> None:
    """Each 4xx response is a problem document (also FastAPI's own 422)."""
    for item in paths.values():
        for operation in item.values():
            for code, response in operation.get("responses", {}).items():
                if str(code).startswith("4"):
                    response["content"] = {"application/problem+json": {"schema": PROBLEM}}
                    response.setdefault("description", "a problem (RFC 9457)")


TABLE = "/api/tables/{table_id}"
ROUND = "/api/rounds/{round_id}"
TABLE_READS = (
    ("get", TABLE),
    ("get", f"{TABLE}/view"),
    ("get", f"{TABLE}/actions"),
    ("get", f"{TABLE}/rounds"),
)
TABLE_COMMANDS = tuple(
    ("post", f"{TABLE}/{name}")
    for name in (
        "sit",
        "leave",
        "wagers",
        "decisions",
        "rounds",
        "no-more-bets",
        "deal",
        "reveal",
        "settle",
        "stub-count",
        "irregularities",
        "open",
        "close",
    )
)
ROUND_READS = (("get", f"{ROUND}/records"), ("get", f"{ROUND}/scenario"), ("get", f"{ROUND}/deal"))
ROUND_STEPS = (*ROUND_READS, ("post", f"{ROUND}/void"))
SIGNED_IN = tuple(
    ("get", path)
    for path in ("/api/me", "/api/tables", "/api/meters", "/api/handpays", "/api/audit/verify")
)
BEARER = "Bearer {$response.body#/token}"

Operation = tuple[str, str]
Link = tuple[Operation, tuple[Operation, ...], dict[str, str]]
"""(source, targets, the targets' parameters as runtime expressions over the source's
answer), OpenAPI 3.1 § 4.8.20."""

LINKS: tuple[Link, ...] = (
    (("post", "/api/login"), SIGNED_IN, {"header.Authorization": BEARER}),
    (
        ("post", "/api/login"),
        (("get", f"{TABLE}/view"),),  # an account bound to one table (its dealer)
        {"header.Authorization": BEARER, "path.table_id": "$response.body#/table_id"},
    ),
    (("get", "/api/tables"), TABLE_READS + TABLE_COMMANDS, {"table_id": "$response.body#/0/id"}),
    (("post", "/api/tables"), TABLE_READS + TABLE_COMMANDS, {"table_id": "$response.body#/id"}),
    (("get", TABLE), TABLE_READS[1:] + TABLE_COMMANDS, {"table_id": "$request.path.table_id"}),
    *(
        (command, TABLE_READS + TABLE_COMMANDS, {"table_id": "$request.path.table_id"})
        for command in TABLE_COMMANDS
    ),
    *(
        (command, ROUND_STEPS, {"round_id": "$response.body#/round_id"})
        for command in TABLE_COMMANDS
        if not command[1].endswith(("/open", "/close"))  # a table, not a command result
    ),
    *(
        (recall, ROUND_STEPS, {"round_id": "$response.body#/0/round_id"})
        for recall in (("get", f"{TABLE}/rounds"), ("get", f"{TABLE}/seats/{{seat}}/rounds"))
    ),
    (ROUND_READS[0], ROUND_STEPS[1:], {"round_id": "$request.path.round_id"}),
    (("get", "/api/handpays"), ROUND_READS, {"round_id": "$response.body#/0/round_id"}),
    (
        ("get", "/api/handpays"),
        (("post", "/api/handpays/{handpay_id}/approve"),),
        {"handpay_id": "$response.body#/0/id"},
    ),
    (
        ("post", "/api/players"),
        (
            ("post", "/api/players/{player_id}/buy-in"),
            ("post", "/api/players/{player_id}/cash-out"),
        ),
        {"player_id": "$response.body#/player_id"},
    ),
    (
        ("post", "/api/players/{player_id}/buy-in"),
        (("post", "/api/players/{player_id}/cash-out"),),
        {"player_id": "$request.path.player_id"},
    ),
)


def _links(paths: dict[str, Any]) -> None:
    """Each :data:`LINKS` entry on its source's 200 answer, naming each target by its
    operationId (an app without the web pages has no ``/actions``: links to or from an
    operation it does not have are left out)."""
    for (method, path), targets, parameters in LINKS:
        source = paths.get(path, {}).get(method)
        if source is None:
            continue
        links = source["responses"]["200"].setdefault("links", {})
        for target_method, target_path in targets:
            target = paths.get(target_path, {}).get(target_method)
            if target is None:
                continue
            wanted = {k: v for k, v in parameters.items() if _takes(target, k)}
            name = target["operationId"]
            links[name] = {"operationId": name, "parameters": wanted}


def _takes(operation: dict[str, Any], parameter: str) -> bool:
    """Whether ``operation`` has the parameter (``header.X`` is any header: the token)."""
    where, _, name = parameter.rpartition(".")
    if where == "header":
        return True
    return any(p["name"] == name for p in operation.get("parameters", []))


def _refer(node: Any) -> Any:
    """Each ``x-model`` stand-in (:mod:`croupier.server.api_models`) as a reference to its model."""
    if isinstance(node, dict):
        if "x-model" in node:
            return {"$ref": f"#/components/schemas/{node['x-model']}"}
        return {k: _refer(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_refer(v) for v in node]
    return node


def document(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document of ``app`` (built once)."""
    if app.openapi_schema is None:
        schema = get_openapi(
            title=app.title,
            version=app.version,
            description=app.description,
            routes=app.routes,
        )
        schema = _refer(schema)
        schemas = schema.setdefault("components", {}).setdefault("schemas", {})
        _add_file_models(schemas)
        _problems(schema.get("paths", {}))
        _links(schema.get("paths", {}))
        for unused in ("HTTPValidationError", "ValidationError"):
            schemas.pop(unused, None)
        app.openapi_schema = schema
    return app.openapi_schema


def install_document(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        return document(app)

    app.openapi = openapi  # type: ignore[method-assign]
