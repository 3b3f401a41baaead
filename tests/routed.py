"""One handler for every API route, as API Gateway routes them (shared/http/routes.py): each
request goes to its route's function. For tests that call routes of several functions."""

import importlib
from typing import Any

from shared.http.routes import HANDLERS, match_route


def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    found = match_route(event["requestContext"]["http"]["method"], event["rawPath"])
    function = found[0].function if found else "leaderboard"
    module, _, name = HANDLERS[function].partition(":")
    served: Any = getattr(importlib.import_module(module), name)
    return dict(served(event, context))
