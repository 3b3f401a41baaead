"""Generate the API's OpenAPI document from the code (`make openapi` writes openapi.json).

Powertools derives each operation from its route function: parameters and their constraints,
the request body's model, the reply's model. Powertools' own `OpenAPIMerge` merges the three
functions' resolvers (shared/http/routes.py HANDLERS) into one document. Then, from the route table
(shared/http/routes.py ROUTES), each operation gets what a resolver cannot know: the Cognito JWT on
player routes, its own success statuses (201 when it creates), and the error statuses it answers,
each with the error envelope (shared.http.models.ErrorReply).

This lives on the functions side because it imports the handlers: shared/ never imports
functions/. tests/http/test_openapi.py fails when openapi.json drifts from this output.
"""

import json
import os
import warnings
from pathlib import Path
from typing import Any

from aws_lambda_powertools.event_handler.openapi.merge import OpenAPIMerge
from aws_lambda_powertools.event_handler.openapi.models import HTTPBearer

from shared.http.models import ErrorReply
from shared.http.routes import HANDLERS, ROUTES, Route

REPO = Path(__file__).resolve().parents[1]
TITLE = "WordSQD API"
VERSION = "1.0.0"
SECURITY = "cognito"
ERRORS = {
    400: "Malformed request: a body, parameter or cursor the API cannot take",
    401: "No or bad token (checked first)",
    403: "Not allowed: a league member who is not its creator",
    404: "Unknown resource, or not the caller's",
    405: "Wrong method for this path",
    409: "Conflict with the current state (about a run, the reply carries the run)",
    413: "Body over 4 KiB",
    422: "The Idempotency-Key came before with another body (idempotency_key_reused)",
    429: "Throttled: retry later",
    503: "The data store is unavailable (store_unavailable): retry later",
}
SUCCESS = {200: "OK", 201: "Created"}
# Every route may answer these: any request can carry a malformed or oversized body, use a
# method its path does not serve, be throttled (API Gateway's or the table's), or find the table
# unreachable.
COMMON = (400, 405, 413, 429, 503)


def _merged() -> dict[str, Any]:
    merge = OpenAPIMerge(
        title=TITLE,
        version=VERSION,
        on_conflict="error",
        security_schemes={
            SECURITY: HTTPBearer(
                bearerFormat="JWT",
                description="A Cognito ID token, verified by API Gateway's JWT authorizer",
            )
        },
    )
    # The handlers validate their settings and make their DynamoDB client when imported (a cold
    # start); describing them touches no table and sends no request, so any well-formed table
    # name and region will do when the environment has none.
    os.environ.setdefault("TABLE_NAME", "wordsqd")
    os.environ.setdefault("WORDSQD_ENV", "local")  # the document, not a deployment
    if not (os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")):
        os.environ["AWS_DEFAULT_REGION"] = "us-east-1"
    for entry in HANDLERS.values():
        merge.add_file(REPO / (entry.partition(":")[0].replace(".", "/") + ".py"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a handler that fails to load must fail the build
        merged: dict[str, Any] = json.loads(merge.get_openapi_json_schema())
    return merged


def _statuses(route: Route) -> list[int]:
    errors = {*COMMON, *(s for s in route.replies if s >= 400)}
    if route.access == "player":
        errors.add(401)
    return [s for s in route.replies if s < 400] + sorted(errors)


def document() -> dict[str, Any]:
    merged = _merged()
    schemas: dict[str, Any] = merged["components"]["schemas"]
    for name in ("HTTPValidationError", "ValidationError", "ResponseValidationError"):
        schemas.pop(name, None)
    error_schema = ErrorReply.model_json_schema(
        ref_template="#/components/schemas/{model}", mode="serialization"
    )
    for name, definition in error_schema.pop("$defs").items():
        if schemas.setdefault(name, definition) != definition:
            raise ValueError(f"{name}: the error envelope's schema differs from the replies' one")
    schemas["ErrorReply"] = error_schema
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorReply"}}}

    paths: dict[str, Any] = merged["paths"]
    for route in ROUTES:
        operation = paths[route.path][route.method.lower()]
        generated = operation["responses"]
        success = generated.get("200") or next(iter(generated.values()))
        responses: dict[str, Any] = {}
        for status in _statuses(route):
            if status < 400:
                responses[str(status)] = {**success, "description": SUCCESS[status]}
            else:
                responses[str(status)] = {"description": ERRORS[status], "content": error}
        operation["responses"] = responses
        if route.access == "player":
            operation["security"] = [{SECURITY: []}]
        body = operation.get("requestBody")
        if route.body == "none" and body is not None:
            raise ValueError(f"{route}: the handler takes a body the route table does not")
        if body is not None:
            body["required"] = route.body == "required"
    documented = {(method.upper(), path) for path, item in paths.items() for method in item}
    if documented != {(r.method, r.path) for r in ROUTES}:
        raise ValueError(
            f"handlers and route table differ: {documented ^ {(r.method, r.path) for r in ROUTES}}"
        )
    merged["paths"] = dict(sorted(paths.items()))
    merged["components"]["schemas"] = dict(sorted(schemas.items()))
    return merged


def render() -> str:
    return json.dumps(document(), indent=2) + "\n"


if __name__ == "__main__":
    print(render(), end="")
