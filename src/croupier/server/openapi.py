"""The OpenAPI document at ``/openapi.json``: every route's typed request and response models,
the models of the files users write (:class:`croupier.models.RulesModel`,
:class:`croupier.models.ScenarioModel`) among its components, and every error response as
``application/problem+json`` (:class:`croupier.server.models.Problem`, naming the rule's
section where one forbids the request)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from croupier.models import RulesModel, ScenarioModel

__all__ = ["document", "install_document"]

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


def _refer(node: Any) -> Any:
    """Each ``x-model`` stand-in (:mod:`croupier.server.models`) as a reference to its model."""
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
        for unused in ("HTTPValidationError", "ValidationError"):
            schemas.pop(unused, None)
        app.openapi_schema = schema
    return app.openapi_schema


def install_document(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        return document(app)

    app.openapi = openapi  # type: ignore[method-assign]
