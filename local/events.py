"""Build the API Gateway HTTP API (payload v2.0) event that AWS would send a Lambda for a request.

Used by the local server and by the tests, so both exercise the handlers with the real shape.
"""

import base64
import json
import time
import uuid
from dataclasses import dataclass
from typing import Any

from shared.http.routes import match_route


@dataclass
class LambdaContext:
    """The parts of the Lambda context object that Powertools reads."""

    function_name: str = "wordsqd-local"
    memory_limit_in_mb: int = 1024
    invoked_function_arn: str = "arn:aws:lambda:local:000000000000:function:wordsqd-local"
    aws_request_id: str = ""
    log_group_name: str = "/aws/lambda/wordsqd-local"
    log_stream_name: str = "local"

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


def http_event(
    method: str,
    path: str,
    body: Any = None,
    *,
    query: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    claims: dict[str, Any] | None = None,
    raw_body: bytes | str | None = None,
) -> dict[str, Any]:
    """An API Gateway v2 event. `body` is JSON-encoded unless `raw_body` is given; `claims` are
    what the JWT authorizer verified (placed where API Gateway puts them)."""
    matched = match_route(method, path)
    route_key = f"{matched[0].method} {matched[0].path}" if matched else "$default"
    path_parameters = matched[1] if matched else None
    if raw_body is None and body is not None:
        raw_body = json.dumps(body)
    is_base64 = isinstance(raw_body, bytes)
    if isinstance(raw_body, bytes):
        raw_body = base64.b64encode(raw_body).decode()
    now = time.time()
    request_context: dict[str, Any] = {
        "accountId": "000000000000",
        "apiId": "local",
        "domainName": "localhost",
        "domainPrefix": "localhost",
        "http": {
            "method": method,
            "path": path,
            "protocol": "HTTP/1.1",
            "sourceIp": "127.0.0.1",
            "userAgent": (headers or {}).get("user-agent", "local"),
        },
        "requestId": str(uuid.uuid4()),
        "routeKey": route_key,
        "stage": "$default",
        "time": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
        "timeEpoch": int(now * 1000),
    }
    if claims is not None:
        request_context["authorizer"] = {"jwt": {"claims": claims, "scopes": None}}
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": route_key,
        "rawPath": path,
        "rawQueryString": "&".join(f"{k}={v}" for k, v in (query or {}).items()),
        "headers": {"content-type": "application/json", **{k.lower(): v for k, v in (headers or {}).items()}},
        "requestContext": request_context,
        "isBase64Encoded": is_base64,
    }
    if query:
        event["queryStringParameters"] = dict(query)
    if path_parameters:
        event["pathParameters"] = path_parameters
    if raw_body is not None:
        event["body"] = raw_body
    return event
