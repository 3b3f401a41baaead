"""The API's route table: the one list of routes that `make run` serves and the CDK stack deploys.

Each route names the Lambda function that answers it and whether API Gateway's JWT
authorizer guards it (`player`) or not (`public`).
"""

import re
from typing import Literal, NamedTuple

Function = Literal["validate", "daily", "leaderboard"]
Access = Literal["public", "player"]


class Route(NamedTuple):
    method: str
    path: str
    function: Function
    access: Access


ROUTES: tuple[Route, ...] = (
    Route("POST", "/validate", "validate", "public"),
    Route("GET", "/daily", "daily", "public"),
    Route("POST", "/daily/runs", "daily", "player"),
    Route("POST", "/guest/daily/runs", "daily", "public"),
    Route("GET", "/runs/{run_id}", "daily", "player"),
    Route("POST", "/runs/{run_id}/answers", "daily", "player"),
    Route("POST", "/runs/{run_id}/skip", "daily", "player"),
    Route("GET", "/guest/runs/{run_id}", "daily", "public"),
    Route("POST", "/guest/runs/{run_id}/answers", "daily", "public"),
    Route("POST", "/guest/runs/{run_id}/skip", "daily", "public"),
    Route("POST", "/challenges", "daily", "player"),
    Route("GET", "/challenges/{challenge_id}", "daily", "public"),
    Route("POST", "/challenges/{challenge_id}/runs", "daily", "player"),
    Route("GET", "/leaderboard/daily", "leaderboard", "public"),
    Route("GET", "/leaderboard/daily/me", "leaderboard", "player"),
    Route("GET", "/leaderboard/daily/{date}", "leaderboard", "public"),
    Route("GET", "/me", "leaderboard", "player"),
    Route("PUT", "/me", "leaderboard", "player"),
    Route("GET", "/me/history", "leaderboard", "player"),
)

# The Lambda entry point of each function, as `module:function` from the repository root.
HANDLERS: dict[Function, str] = {
    "validate": "functions.validate.handler:handler",
    "daily": "functions.daily.handler:handler",
    "leaderboard": "functions.leaderboard.handler:handler",
}
RESET_HANDLER = "functions.daily.reset:handler"
# The DynamoDB Streams consumer that keeps the rank counters (official results INSERTed).
COUNTERS_HANDLER = "functions.leaderboard.counters:handler"

_PATTERNS = [(re.compile("^" + re.sub(r"\{([^/]+)\}", r"(?P<\1>[^/]+)", r.path) + "$"), r) for r in ROUTES]


def match_route(method: str, path: str) -> tuple[Route, dict[str, str]] | None:
    """The route for METHOD PATH and its path parameters, by API Gateway's rule that a literal
    segment beats a `{param}` (so /leaderboard/daily/me is not the date `me`)."""
    found = [
        (route, match.groupdict())
        for pattern, route in _PATTERNS
        if route.method == method and (match := pattern.match(path))
    ]
    return min(found, key=lambda item: len(item[1])) if found else None


def path_exists(path: str) -> bool:
    """True when some route serves PATH with any method (so a wrong method is 405, not 404)."""
    return any(pattern.match(path) for pattern, _ in _PATTERNS)
