"""Generate the API's OpenAPI document from the handlers' own routes (`make openapi`).

Powertools derives each operation from the route functions' pydantic models; this module merges
the three functions' documents and marks the player routes (from shared/routes.py) as needing
the Cognito JWT. tests/test_openapi.py fails when openapi.json drifts from this output.
"""

import json
from importlib import import_module

from shared.routes import HANDLERS, ROUTES

TITLE = "WordSQD API"
VERSION = "1.0.0"
ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        },
        "run": {"$ref": "#/components/schemas/RunView"},
    },
}
ERRORS = {
    "400": "Malformed request",
    "401": "No or bad token (player routes)",
    "404": "Unknown resource, or not the caller's",
    "405": "Wrong method",
    "409": "Conflict with the current state (answers carry the current run)",
    "413": "Body over 4 KiB",
    "429": "Throttled",
}


def document() -> dict:
    merged: dict = {"openapi": "3.1.0", "info": {"title": TITLE, "version": VERSION}, "paths": {}}
    schemas: dict = {}
    for module_path in HANDLERS.values():
        app = import_module(module_path.split(":")[0]).app
        part = json.loads(app.get_openapi_json_schema(title=TITLE, version=VERSION))
        for path, operations in part["paths"].items():
            merged["paths"].setdefault(path, {}).update(operations)
        schemas.update(part.get("components", {}).get("schemas", {}))
    for name in ("HTTPValidationError", "ValidationError", "ResponseValidationError"):
        schemas.pop(name, None)
    schemas["Error"] = ERROR_SCHEMA
    merged["components"] = {
        "schemas": dict(sorted(schemas.items())),
        "securitySchemes": {
            "cognito": {
                "type": "http",
                "scheme": "bearer",
                "bearerFormat": "JWT",
                "description": "A Cognito ID token, verified by API Gateway's JWT authorizer",
            }
        },
    }
    access = {(r.method.lower(), r.path): r.access for r in ROUTES}
    for path, operations in merged["paths"].items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)
            for status, description in ERRORS.items():
                if status == "401" and access.get((method, path)) != "player":
                    continue
                responses[status] = {
                    "description": description,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                }
            if access.get((method, path)) == "player":
                operation["security"] = [{"cognito": []}]
    merged["paths"] = dict(sorted(merged["paths"].items()))
    return merged


def render() -> str:
    return json.dumps(document(), indent=2, sort_keys=False) + "\n"


if __name__ == "__main__":
    print(render(), end="")
