"""The local stand-in for API Gateway's JWT authorizer and Cognito's sign-in (never deployed).

`POST /local/login {"username"}` issues an HS256 ID token signed with a secret kept in DATA_DIR,
and player routes accept only tokens that verify against it. Verified claims reach the handlers
as API Gateway's HTTP API passes them: every value a string.
"""

import re
import time
import uuid
from typing import Any

import jwt

AUDIENCE = "wordsqd-local"
TOKEN_LIFETIME_SECONDS = 12 * 3600
# Fixed so a username maps to the same player id (`sub`) on every machine and every restart.
_SUB_NAMESPACE = uuid.UUID("6f1c7c1e-5b1a-4c55-9a51-1d2f0e0f7a2b")
_USERNAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")


def valid_username(username: Any) -> bool:
    """1-32 ASCII letters, digits, `_`, `.` or `-`."""
    return isinstance(username, str) and _USERNAME.fullmatch(username) is not None


def issue_id_token(username: str, secret: str, issuer: str) -> str:
    """A Cognito-like ID token for USERNAME, valid for 12 hours."""
    now = int(time.time())
    claims = {
        "sub": str(uuid.uuid5(_SUB_NAMESPACE, username)),
        "cognito:username": username,
        "token_use": "id",
        "iss": issuer,
        "aud": AUDIENCE,
        "iat": now,
        "exp": now + TOKEN_LIFETIME_SECONDS,
    }
    return jwt.encode(claims, secret, algorithm="HS256")


def verified_claims(authorization: str | None, secret: str) -> dict[str, str] | None:
    """The claims of a valid `Bearer <token>` header as API Gateway hands them to a Lambda,
    or None when the header is missing or the token is bad (signature, expiry or audience).
    The issuer is not checked: it names the port, and a restart on another port should not
    log everyone out."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    try:
        claims = jwt.decode(
            token.strip(),
            secret,
            algorithms=["HS256"],
            audience=AUDIENCE,
            options={"require": ["sub", "exp", "iat", "aud"]},
        )
    except jwt.PyJWTError:
        return None
    return {name: _as_api_gateway_string(value) for name, value in claims.items()}


def _as_api_gateway_string(value: Any) -> str:
    """HTTP API passes every claim as a string; a list becomes `[a b]`."""
    if isinstance(value, list):
        return "[" + " ".join(str(item) for item in value) + "]"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)
