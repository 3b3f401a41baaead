"""What every HTTP handler shares: the resolver, the error envelope, the caller, the guards.

Errors always leave as `{"error": {"code", "message"}}` (SPEC §5) with the status of their
class; nothing else about an exception (no trace, no internal name) reaches a client.
"""

import json
import re
from collections.abc import Callable
from http import HTTPStatus
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response, content_types
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from aws_lambda_powertools.event_handler.openapi.params import Header, Path

from shared.game.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    GameError,
    KeyReused,
    NotFound,
    StoreUnavailable,
    Throttled,
    Unauthorized,
)
from shared.game.runs import RunConflict
from shared.http.gateway import Refused, caller_claims, checked_event, logger
from shared.http.models import RunView
from shared.http.routes import allowed_methods, literal_methods, path_exists, route_admits

_STATUS: dict[type[GameError], int] = {
    BadRequest: 400,
    Unauthorized: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    RunConflict: 409,
    KeyReused: 422,
    Throttled: 429,
    StoreUnavailable: 503,
}


def _status(error: GameError) -> int:
    """The status of ERROR's class, or of the nearest class it derives from (a RunConflict is a 409)."""
    return next(_STATUS[kind] for kind in type(error).__mro__ if kind in _STATUS)


# A request refused for one field whose errors have a code of their own keeps that code.
# Path ids that name nothing when malformed (404), and what they name.
_PATH_IDS = {
    ("run_id",): "run",
    ("challenge_id",): "challenge",
    ("league_id",): "league",
    ("code",): "league",
    ("player",): "member",
    ("case_id",): "case",
}
_FIELD_CODES = {
    "display_name": "invalid_display_name",
    "date": "invalid_date",
    "name": "invalid_league_name",
    "idempotency-key": "invalid_idempotency_key",
}


def error_response(status: int, code: str, message: str, **extra: Any) -> Response[Any]:
    """The SPEC §5 error envelope as a Powertools response."""
    return Response(
        status_code=status,
        content_type=content_types.APPLICATION_JSON,
        body=json.dumps({"error": {"code": code, "message": message}, **extra}),
    )


def method_not_allowed(method: str, allowed: list[str]) -> Response[Any]:
    reply = error_response(405, "method_not_allowed", f"{method} is not allowed here")
    reply.headers["Allow"] = ", ".join(allowed)
    return reply


def make_resolver(admit: Callable[[str, bool], None] | None = None) -> APIGatewayHttpResolver:
    """An HTTP API resolver whose errors all come out in the SPEC envelope. With ADMIT, a request
    with a verified caller first passes ADMIT(caller's id, banned_ok), which raises to refuse them
    (Players.admit), unless its route admits its caller in its own first request (the route
    table's `admits`, shared/http/routes.py)."""
    app = APIGatewayHttpResolver(enable_validation=True)

    def admitting(app: APIGatewayHttpResolver, next_middleware: NextMiddleware) -> Response[Any]:
        event = app.current_event
        claims = caller_claims(event.raw_event)
        admits = route_admits(event.raw_event.get("routeKey", ""))
        if admit is not None and claims and admits != "own":
            admit(str(claims["sub"]), admits == "banned_ok")
        return next_middleware(app)

    if admit is not None:
        app.use(middlewares=[admitting])

    @app.exception_handler(GameError)  # type: ignore[untyped-decorator]  # Powertools leaves it untyped
    def game_error(error: GameError) -> Response[Any]:
        extra = {}
        if isinstance(error, RunConflict):
            extra["run"] = RunView.from_run(error.run).model_dump(mode="json")
        return error_response(_status(error), error.code, error.message, **extra)

    @app.exception_handler(RequestValidationError)  # type: ignore[untyped-decorator]  # Powertools leaves it untyped
    def invalid_request(error: RequestValidationError) -> Response[Any]:
        if any(item.get("loc", ("",))[0] == "response" for item in error.errors()):
            logger.error("Reply does not match its model", extra={"errors": str(error.errors())[:2000]})
            return error_response(500, "internal_error", "Something went wrong on our side")
        event = app.current_event
        literal = literal_methods(event.path)
        if literal and event.http_method not in literal:
            return method_not_allowed(event.http_method, literal)
        for item in error.errors():
            loc = tuple(item.get("loc", ()))
            if loc[:1] == ("path",) and loc[1:2] in _PATH_IDS:
                # An id that cannot be one names nothing: not found, as an unknown id would be.
                what = _PATH_IDS[loc[1:2]]
                return error_response(404, f"{what}_not_found", f"No such {what}")
        fields = {str(item.get("loc", ("",))[-1]) for item in error.errors()}
        code = _FIELD_CODES.get(fields.pop()) if len(fields) == 1 else None
        return error_response(400, code or "bad_request", _describe(error.errors()))

    @app.not_found
    def not_found(_: Exception) -> Response[Any]:
        event = app.current_event
        if path_exists(event.path):
            return method_not_allowed(event.http_method, allowed_methods(event.path))
        return error_response(404, "not_found", "No such route")

    @app.exception_handler(Exception)  # type: ignore[untyped-decorator]  # Powertools leaves it untyped
    def unexpected(error: Exception) -> Response[Any]:
        logger.exception("Unhandled error")
        return error_response(500, "internal_error", "Something went wrong on our side")

    return app


def _describe(errors: Any) -> str:
    """A short human message from pydantic's error list, without echoing internals."""
    parts = []
    for item in list(errors)[:3]:
        where = ".".join(str(p) for p in item.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(parts) or "Malformed request"


def serve(app: APIGatewayHttpResolver, event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Check, then route the API Gateway v2 event through `app`."""
    try:
        event = checked_event(event)
    except Refused as refused:
        return refused.reply
    return app.resolve(event, context)


def caller_id(app: APIGatewayHttpResolver) -> str:
    """The verified caller's id (the token's `sub`); never a user id from the body."""
    claims = caller_claims(app.current_event.raw_event)
    if not claims:
        raise Unauthorized("A valid token is required")
    return str(claims["sub"])


def caller_username(app: APIGatewayHttpResolver) -> str:
    """The verified caller's user name in the user pool (what AdminDeleteUser takes)."""
    claims = caller_claims(app.current_event.raw_event)
    if not claims:
        raise Unauthorized("A valid token is required")
    return str(claims.get("cognito:username") or claims["sub"])


def json_response(body: Any, status: int = HTTPStatus.OK, cache_control: str | None = None) -> Response[Any]:
    """A JSON reply with an explicit status (and optional Cache-Control)."""
    headers = {"Cache-Control": cache_control} if cache_control else None
    return Response(
        status_code=int(status),
        content_type=content_types.APPLICATION_JSON,
        body=body,
        headers=headers,
    )


ID_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"
_ID = re.compile(ID_PATTERN)
# Path parameters as the document states them; one that does not match is 404 (see make_resolver).
RunId = Annotated[str, Path(pattern=ID_PATTERN, description="a run id (unguessable for guest runs)")]
ChallengeId = Annotated[str, Path(pattern=ID_PATTERN, description="a challenge id")]
LeagueId = Annotated[str, Path(pattern=ID_PATTERN, description="a league id")]
InviteCode = Annotated[str, Path(pattern=ID_PATTERN, description="a league's invite code")]
MEMBER_PATTERN = r"^(me|[0-9a-f]{16})$"
MemberId = Annotated[str, Path(pattern=MEMBER_PATTERN, description="`me` (leave), or a member id (remove)")]
DATE_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
# A creation's key for safe retries (shared/services/idempotency.py): a UUID fits.
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        pattern=ID_PATTERN,
        description="a new key per creation (8 to 64 of A-Z a-z 0-9 _ -, a UUID fits): the same "
        "request sent again with it within a day makes nothing new and gets the first one's reply; "
        "409 idempotency_key_in_use while the first is still being made, 422 idempotency_key_reused "
        "with another body",
    ),
]
BoardDate = Annotated[
    str, Path(pattern=DATE_PATTERN, description="a Daily date, YYYY-MM-DD (not in the future)")
]


def run_id(value: str) -> str:
    """A run id from the path; anything that cannot be one is simply not found."""
    if not _ID.fullmatch(value):
        raise NotFound("No such run", "run_not_found")
    return value


def challenge_id(value: str) -> str:
    """A challenge id from the path; anything that cannot be one is simply not found."""
    if not _ID.fullmatch(value):
        raise NotFound("No such challenge", "challenge_not_found")
    return value


def league_id(value: str) -> str:
    """A league id from the path; anything that cannot be one is simply not found."""
    if not _ID.fullmatch(value):
        raise NotFound("No such league", "league_not_found")
    return value


def board_cache_control(status: str) -> str:
    """Boards may be cached briefly while live (they change every second at the rush), a minute
    once closed (a moderator's decision may still move a row: SPEC §3e), and for good once final."""
    if status == "final":
        return "public, max-age=31536000, immutable"
    return "public, max-age=60" if status == "closed" else "public, max-age=5"


DAILY_MAX_AGE_SECONDS = 60
# A past Daily's details change only if the deployment's first date is moved: a day at the edge.
PAST_DAILY_CACHE_CONTROL = "public, max-age=86400"


def daily_cache_control(seconds_to_reset: float) -> str:
    """`GET /daily` is the same for everyone until the reset: cache it for a minute at most, and
    never past the reset, so the edge answers the midnight crowd without serving yesterday."""
    return f"public, max-age={max(0, min(DAILY_MAX_AGE_SECONDS, int(seconds_to_reset)))}"
