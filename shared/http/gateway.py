"""What API Gateway hands a function, and the checks that come before any routing: the edge's
origin secret, the caller's token on player routes, the body's size, encoding and JSON (SPEC §5);
and the API functions' logger.

Light on purpose (the standard library, Powertools' Logger and the route table): POST /validate
answers a plain request from here without loading the resolver or pydantic
(functions/validate/handler.py).
"""

import base64
import hmac
import json
import re
from typing import Any

from aws_lambda_powertools import Logger

from shared.http.routes import ORIGIN_HEADER, ROUTES
from shared.runtime.edge_settings import edge_settings
from shared.runtime.flags import enabled, switch_for

MAX_BODY_BYTES = 4096
# A Cognito user's `sub` is a UUID (and so is a `make run` token's, local/auth.py): a verified
# token whose `sub` is anything else is no player's, and is refused as a bad token (401).
PLAYER_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

logger = Logger()

_ROUTES = {f"{r.method} {r.path}": r for r in ROUTES}
edge_settings()  # validated during the cold start: a malformed ORIGIN_VERIFY stops the init


class Refused(Exception):
    """A request refused before routing, with its reply."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.reply = {
            "statusCode": status,
            "headers": {"Content-Type": "application/json"},
            "body": json.dumps({"error": {"code": code, "message": message}}),
            "isBase64Encoded": False,
        }


def checked_event(event: dict[str, Any]) -> dict[str, Any]:
    """Checks that come before any routing. First, where the stack set an origin secret, that the
    request came through CloudFront (403 otherwise: the API's own execute-api address would skip
    WAF). Then, in SPEC order: a player route needs a verified caller
    (401 first); a body may not exceed 4 KiB (413), must be UTF-8 JSON (400), and may not be empty
    on a route that requires one (400). The API speaks only JSON whatever Content-Type said
    (`curl -d` sends a form type by default; media types are case-insensitive anyway), so the
    event that goes on to routing says `application/json`, with the body as plain JSON text or no
    body at all. Raises Refused otherwise."""
    expected = edge_settings().origin_secret
    if expected is not None and not _from_the_edge(event, expected):
        raise Refused(403, "forbidden", "Use the game's own address; this one takes no requests")
    route = _ROUTES.get(event.get("routeKey", ""))
    if route is not None and route.access == "player" and not caller_claims(event):
        raise Refused(401, "unauthorized", "A valid token is required")
    switch = switch_for(route.path) if route is not None else None
    if switch is not None and not enabled(switch):  # a kill switch (docs/operations.md)
        raise Refused(503, "feature_disabled", "This part of the game is turned off for now; try again later")
    body = event.get("body") or ""
    try:
        raw = base64.b64decode(body, validate=True) if event.get("isBase64Encoded") else body.encode()
    except (ValueError, UnicodeEncodeError) as error:
        raise Refused(400, "bad_request", "The body could not be decoded") from error
    if len(raw) > MAX_BODY_BYTES:
        raise Refused(413, "payload_too_large", f"The body may not exceed {MAX_BODY_BYTES} bytes")
    headers = {  # (the origin secret goes no further than this check)
        k: v
        for k, v in (event.get("headers") or {}).items()
        if k.lower() not in ("content-type", ORIGIN_HEADER)
    }
    checked = {**event, "isBase64Encoded": False, "headers": {**headers, "content-type": "application/json"}}
    checked.pop("body", None)
    if not raw:
        if route is not None and route.body == "required":
            raise Refused(400, "bad_request", "A JSON body is required")
        return checked
    try:
        text = raw.decode("utf-8")
        # Parsing here also refuses what would break later: lone surrogates and deep nesting.
        data = json.loads(text, parse_constant=_not_json)
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError, UnicodeError) as error:
        raise Refused(400, "bad_request", "The body is not UTF-8 JSON") from error
    if route is not None and route.body != "none" and not isinstance(data, dict):
        # Powertools would take the first item of an array for a model (form-data semantics).
        raise Refused(400, "bad_request", "The body must be a JSON object")
    return {**checked, "body": text}


def _from_the_edge(event: dict[str, Any], expected: str) -> bool:
    """The request carries the origin header CloudFront adds, with the expected secret (compared
    in constant time). API Gateway gives header names in lower case."""
    sent = (event.get("headers") or {}).get(ORIGIN_HEADER, "")
    return hmac.compare_digest(sent.encode(), expected.encode())


def _not_json(constant: str) -> None:
    """Python's parser takes NaN and Infinity; JSON (RFC 8259) has no such numbers."""
    raise ValueError(f"{constant} is not JSON")


def caller_claims(event: dict[str, Any]) -> dict[str, Any]:
    """The JWT claims API Gateway verified for this request ({} when there are none, or when
    their `sub` is not a plausible player id: a UUID)."""
    authorizer = (event.get("requestContext") or {}).get("authorizer") or {}
    claims = (authorizer.get("jwt") or {}).get("claims") or {}
    sub = claims.get("sub")
    return claims if isinstance(sub, str) and PLAYER_ID.fullmatch(sub) else {}
