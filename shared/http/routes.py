"""The API's route table: the one list of routes that `make run` serves and the CDK stack deploys.

Each route names the Lambda function that answers it, whether API Gateway's JWT authorizer
guards it (`player`) or not (`public`), and whether it takes a JSON body: `required` (an empty
body is 400 whatever the Content-Type), `optional` (an empty body means every field's default) or
`none`, and the statuses it answers beyond those every route may (400, 405, 413, 429, and 401 on
player routes): its success statuses (201 when it creates) and 404 or 409 where they happen.

A player route also says how it admits its caller (SPEC §3e, §6; docs/players.md, "Admission"):
`read`, the resolver reads the caller's admission (tombstone and ban) as the request's first
step and refuses an erased or banned caller; `banned_ok`, the same but a ban lets them through;
`own`, the route's own first request reads it (with the run, the result or the league it reads)
or its transaction checks it, so admitting costs no request of its own.
functions/openapi.py writes them into the OpenAPI document; tests/http/test_openapi.py checks the body
column against the handlers' own signatures, and the schemathesis run (tests/system/test_schemathesis.py)
fails on any status a route answers that the document does not list.
"""

import re
from functools import cache
from typing import Literal, NamedTuple

Function = Literal["validate", "daily", "leaderboard", "moderation"]
Access = Literal["public", "player"]
Body = Literal["none", "optional", "required"]
Admits = Literal["read", "banned_ok", "own"]


class Route(NamedTuple):
    method: str
    path: str
    function: Function
    access: Access
    body: Body = "none"
    replies: tuple[int, ...] = (200,)
    admits: Admits = "read"


_MEMBER_REPLIES = (200, 403, 404)  # leave, or remove (403: only the creator removes others)
# A creation with an Idempotency-Key: 409 while one with that key is being made, 422 when the key
# came with another body (shared/services/idempotency.py).
_CREATION_REPLIES = (201, 409, 422)

ROUTES: tuple[Route, ...] = (
    Route("POST", "/validate", "validate", "public", "required"),
    Route("GET", "/daily", "daily", "public"),
    Route("POST", "/daily/runs", "daily", "player", replies=(201, 200), admits="own"),
    Route("POST", "/guest/daily/runs", "daily", "public", replies=(201,)),
    Route("GET", "/daily/{date}", "daily", "public", replies=(200, 404)),
    # A closed day's recap (SPEC §4a), served with the boards (its status is the board's).
    Route("GET", "/daily/{date}/recap", "leaderboard", "public", replies=(200, 404)),
    Route("GET", "/daily/{date}/recap/me", "leaderboard", "player", replies=(200, 404), admits="own"),
    Route("POST", "/daily/{date}/runs", "daily", "player", replies=(201, 200, 404, 409), admits="own"),
    Route("POST", "/guest/daily/{date}/runs", "daily", "public", replies=(201, 404, 409)),
    # Practice of a past Daily's rounds (SPEC §4a), played on the guest run routes: one round, or
    # (a player, an empty body) the rounds their official run missed.
    Route("POST", "/daily/{date}/practice", "daily", "player", "optional", (201, 404, 409)),
    Route("POST", "/guest/daily/{date}/practice", "daily", "public", "required", (201, 404, 409)),
    Route("GET", "/runs/{run_id}", "daily", "player", replies=(200, 404), admits="own"),
    Route("POST", "/runs/{run_id}/answers", "daily", "player", "required", (200, 404, 409), "own"),
    Route("POST", "/runs/{run_id}/skip", "daily", "player", "required", (200, 404, 409), "own"),
    Route("GET", "/guest/runs/{run_id}", "daily", "public", replies=(200, 404)),
    Route("POST", "/guest/runs/{run_id}/answers", "daily", "public", "required", (200, 404, 409)),
    Route("POST", "/guest/runs/{run_id}/skip", "daily", "public", "required", (200, 404, 409)),
    Route("POST", "/challenges", "daily", "player", "optional", _CREATION_REPLIES),
    Route("GET", "/challenges/{challenge_id}", "daily", "public", replies=(200, 404)),
    Route("GET", "/challenges/{challenge_id}/corrections", "daily", "public", replies=(200, 404)),
    Route("POST", "/challenges/{challenge_id}/runs", "daily", "player", replies=(201, 200, 404, 409)),
    Route("GET", "/me/challenges", "daily", "player"),
    Route("GET", "/leaderboard/daily", "leaderboard", "public"),
    Route("GET", "/leaderboard/daily/me", "leaderboard", "player", replies=(200, 404), admits="own"),
    Route("GET", "/leaderboard/daily/{date}", "leaderboard", "public"),
    Route("GET", "/leaderboard/daily/{date}/distribution", "leaderboard", "public"),
    Route("GET", "/me", "leaderboard", "player", admits="own"),
    Route("PUT", "/me", "leaderboard", "player", "required", (200, 409)),
    Route("GET", "/me/history", "leaderboard", "player"),
    Route("GET", "/me/export", "leaderboard", "player", admits="own"),
    Route("DELETE", "/me", "leaderboard", "player", admits="own"),
    Route("POST", "/leagues", "leaderboard", "player", "required", _CREATION_REPLIES),
    Route("GET", "/me/leagues", "leaderboard", "player"),
    Route("POST", "/leagues/join", "leaderboard", "player", "required", (200, 404, 409)),
    Route(
        "DELETE", "/leagues/{league_id}/members/{player}", "leaderboard", "player", replies=_MEMBER_REPLIES
    ),
    Route("POST", "/leagues/{league_id}/code", "leaderboard", "player", replies=(200, 403, 404, 409)),
    Route("GET", "/leagues/{league_id}/board", "leaderboard", "player", replies=(200, 404), admits="own"),
    Route("GET", "/leagues/invitations/{code}", "leaderboard", "public", replies=(200, 404)),
    # Moderation (SPEC §3e), its own function (functions/moderation/): its role alone writes the
    # audit log. 429 also when a reporter's (or a guest client's) day is used up.
    Route("POST", "/reports", "moderation", "player", "required", (201, 404, 409)),
    Route("POST", "/guest/reports", "moderation", "public", "required", (201, 404, 409)),
    Route("GET", "/me/reports", "moderation", "player"),
    # Reminders (SPEC §4a): a Web Push subscription and its hour (functions/reminders/).
    Route("GET", "/me/reminder", "leaderboard", "player"),
    Route("PUT", "/me/reminder", "leaderboard", "player", "required"),
    Route("DELETE", "/me/reminder", "leaderboard", "player"),
    Route("GET", "/moderation/cases", "moderation", "player", replies=(200, 403)),
    Route(
        "POST",
        "/moderation/cases/{case_id}/decision",
        "moderation",
        "player",
        "required",
        (200, 403, 404, 409),
    ),
    Route("GET", "/moderation/log", "moderation", "player", replies=(200, 403)),
    # A banned player may appeal their ban (SPEC §3e).
    Route("POST", "/me/appeals", "moderation", "player", "required", (201, 404, 409), "banned_ok"),
    Route("GET", "/me/appeals", "moderation", "player", admits="banned_ok"),
    Route("GET", "/leaderboard/daily/{date}/corrections", "leaderboard", "public"),
)

# The Lambda entry point of each function, as `module:function` from the repository root.
HANDLERS: dict[Function, str] = {
    "validate": "functions.validate.handler:handler",
    "daily": "functions.daily.handler:handler",
    "leaderboard": "functions.leaderboard.handler:handler",
    "moderation": "functions.moderation.handler:handler",
}
RESET_HANDLER = "functions.daily.reset:handler"
EXPIRE_HANDLER = "functions.daily.expire:handler"  # every minute: completes expired runs
# Reminders (SPEC §4a): the scan every minute, and the sender on the queue it fills.
REMINDER_SCAN_HANDLER = "functions.reminders.scan:handler"
REMINDER_SEND_HANDLER = "functions.reminders.send:handler"
# The closing pass's pieces, one SQS message each (functions/daily/closing_piece.py).
CLOSING_PIECE_HANDLER = "functions.daily.closing_piece:handler"
# The DynamoDB Streams consumer that keeps the rank counters (official results INSERTed).
COUNTERS_HANDLER = "functions.leaderboard.counters:handler"

# The edge proves a request came through it (and so through WAF): CloudFront adds this header to
# every request it sends the API, with the value of a secret the stack generates, and the API
# functions, given the same value in ORIGIN_VERIFY (shared/runtime/edge_settings.py), refuse a
# request without it (403). Unset (make run, tests), nothing is checked. See docs/edge.md.
ORIGIN_HEADER = "x-origin-verify"
# CloudFront adds the viewer's own address (`address:port`) on the routes that read it
# (infra/edge.py VIEWER_ADDRESS_PATHS; shared/http/viewer.py).
VIEWER_ADDRESS_HEADER = "cloudfront-viewer-address"


@cache
def _patterns() -> list[tuple[re.Pattern[str], Route]]:
    """Each route's path as a regex, compiled on first use, not at import: validate's init
    imports this table and never matches a path (docs/operations.md, "Cold starts")."""
    return [(re.compile("^" + re.sub(r"\{([^/]+)\}", r"(?P<\1>[^/]+)", r.path) + "$"), r) for r in ROUTES]


def match_route(method: str, path: str) -> tuple[Route, dict[str, str]] | None:
    """The route for METHOD PATH and its path parameters, by API Gateway's rule that a literal
    segment beats a `{param}` (so /leaderboard/daily/me is not the date `me`)."""
    found = [
        (route, match.groupdict())
        for pattern, route in _patterns()
        if route.method == method and (match := pattern.match(path))
    ]
    return min(found, key=lambda item: len(item[1])) if found else None


def path_exists(path: str) -> bool:
    """True when some route serves PATH with any method (so a wrong method is 405, not 404)."""
    return any(pattern.match(path) for pattern, _ in _patterns())


def literal_methods(path: str) -> list[str]:
    """The methods of the routes whose path is PATH itself, with no `{param}`: such a path is
    that route's, so another method on it is 405 even where a `{param}` route would match it
    (`GET /daily/runs` is not the past Daily `runs`)."""
    return sorted({route.method for route in ROUTES if route.path == path})


def allowed_methods(path: str) -> list[str]:
    """The methods some route serves PATH with: a 405's `Allow` header (RFC 9110)."""
    return sorted({route.method for pattern, route in _patterns() if pattern.match(path)})


@cache
def _admits_by_key() -> dict[str, Admits]:
    return {f"{route.method} {route.path}": route.admits for route in ROUTES}


def route_admits(route_key: str) -> Admits:
    """How the route of ROUTE_KEY (API Gateway's `routeKey`, "GET /me") admits its caller; an
    unknown key is read as `read`, the strictest."""
    return _admits_by_key().get(route_key, "read")
