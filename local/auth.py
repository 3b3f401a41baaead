"""The local stand-in for API Gateway's JWT authorizer and Cognito's sign-in (never deployed).

`POST /local/login {"username"}` issues an HS256 ID token and a refresh token, signed with a
secret kept in DATA_DIR, and `POST /local/refresh {"refresh_token"}` a new ID token and a new
refresh token, as Cognito's token endpoint does for `grant_type=refresh_token` on an app client
with rotation (infra/api.py): the refresh token it replaced keeps working for
REFRESH_GRACE_SECONDS (a retry whose reply was lost), then never again. `DELETE /me` signs the
player out everywhere (shared/runtime/accounts.py `LocalAccounts`): every refresh token issued
until then stops working. Both facts are lines of one file in DATA_DIR (`Sessions`), so they
survive a restart. The lifetimes are the app client's and run on the game clock
(shared/game/clock.py), so moving the local clock expires tokens as time would. Player routes
accept only ID tokens (`token_use` `id`) that verify against the secret. Verified claims reach
the handlers as API Gateway's HTTP API passes them: every value a string.
"""

import json
import os
import re
import secrets
import threading
import uuid
from pathlib import Path
from typing import Any, TypeGuard

import jwt

from shared.game import clock
from shared.game.moderation import MODERATORS_GROUP
from shared.runtime.accounts import REFRESH_GRACE_SECONDS, REFRESH_TOKEN_DAYS, SIGNED_OUT

AUDIENCE = "wordsqd-local"
REFRESH_AUDIENCE = "wordsqd-local-refresh"  # never accepted where an ID token is expected
TOKEN_LIFETIME_SECONDS = 3600  # Cognito's ID token default: an hour
REFRESH_LIFETIME_SECONDS = REFRESH_TOKEN_DAYS * 24 * 3600  # the app client's (infra/api.py)
SESSIONS_FILE = "sessions.jsonl"  # in DATA_DIR: rotated refresh tokens and sign-outs
ROTATED = "rotated"  # a sessions line's key: the id (`jti`) of a refresh token replaced
# Fixed so a username maps to the same player id (`sub`) on every machine and every restart.
_SUB_NAMESPACE = uuid.UUID("6f1c7c1e-5b1a-4c55-9a51-1d2f0e0f7a2b")
_USERNAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")


def valid_username(username: Any) -> TypeGuard[str]:
    """1-32 ASCII letters, digits, `_`, `.` or `-`."""
    return isinstance(username, str) and _USERNAME.fullmatch(username) is not None


def issue_id_token(username: str, secret: str, issuer: str) -> str:
    """A Cognito-like ID token for USERNAME, valid for an hour of the game clock."""
    now = int(clock.now().timestamp())
    claims = {
        "sub": str(uuid.uuid5(_SUB_NAMESPACE, username)),
        "cognito:username": username,
        "token_use": "id",
        "iss": issuer,
        "aud": AUDIENCE,
        "iat": now,
        "exp": now + TOKEN_LIFETIME_SECONDS,
    }
    if username in local_moderators():
        claims["cognito:groups"] = [MODERATORS_GROUP]  # as Cognito puts a user's groups in its tokens
    return jwt.encode(claims, secret, algorithm="HS256")


def local_moderators() -> set[str]:
    """The usernames in LOCAL_MODERATORS (comma-separated): `make run`'s moderators (SPEC §3e),
    whose tokens carry the `moderators` group as a Cognito user's in that group would."""
    return {name.strip() for name in os.environ.get("LOCAL_MODERATORS", "").split(",") if name.strip()}


def issue_refresh_token(username: str, secret: str) -> str:
    """A token that buys new tokens for USERNAME for REFRESH_TOKEN_DAYS of the game clock, once
    (then within the grace); `jti` names it."""
    now = int(clock.now().timestamp())
    claims = {
        "username": username,
        "jti": secrets.token_urlsafe(16),
        "aud": REFRESH_AUDIENCE,
        "iat": now,
        "exp": now + REFRESH_LIFETIME_SECONDS,
    }
    return jwt.encode(claims, secret, algorithm="HS256")


class Sessions:
    """What makes a refresh token stop working before it expires: its rotation (it was redeemed
    more than REFRESH_GRACE_SECONDS ago) or its user's sign-out (`DELETE /me`, after the token was
    issued). Kept as JSON lines in PATH (None: in memory alone), appended whole: the server
    appends rotations, the handlers' LocalAccounts sign-outs."""

    def __init__(self, path: Path | None):
        self.path = path
        self.lines: list[dict[str, Any]] = []  # without a path
        self.lock = threading.Lock()  # one redemption at a time: read, decide, append

    def _read(self) -> list[dict[str, Any]]:
        if self.path is None:
            return self.lines
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        lines = []
        for line in text.splitlines():
            try:
                lines.append(json.loads(line))
            except ValueError:
                continue  # a line cut by a crash: nothing it said was acknowledged
        return lines

    def _append(self, line: dict[str, Any]) -> None:
        if self.path is None:
            self.lines.append(line)
            return
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(line) + "\n")

    def redeem(self, refresh_token: Any, secret: str) -> str | None:
        """The username REFRESH_TOKEN buys new tokens for, recording that it is replaced; None
        when it is invalid, expired, replaced longer ago than the grace, or its user signed out
        since it was issued."""
        if not isinstance(refresh_token, str):
            return None
        claims = _decoded(refresh_token, secret, REFRESH_AUDIENCE)
        username = claims.get("username") if claims else None
        token_id = claims.get("jti") if claims else None
        if not valid_username(username) or not isinstance(token_id, str) or claims is None:
            return None
        now = clock.now().timestamp()
        with self.lock:
            lines = self._read()
            if any(line.get(SIGNED_OUT) == username and line["at"] >= claims["iat"] for line in lines):
                return None
            rotated = [line["at"] for line in lines if line.get(ROTATED) == token_id]
            if rotated and now > rotated[0] + REFRESH_GRACE_SECONDS:
                return None
            if not rotated:
                self._append({ROTATED: token_id, "at": now})
        return str(username)


def verified_claims(authorization: str | None, secret: str) -> dict[str, str] | None:
    """The claims of a valid `Bearer <token>` header as API Gateway hands them to a Lambda,
    or None when the header is missing or the token is bad (signature, expiry or audience).
    The issuer is not checked: it names the port, and a restart on another port should not
    log everyone out."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    claims = _decoded(token.strip(), secret, AUDIENCE)
    if claims is None or claims.get("token_use") != "id":  # as API Gateway's authorizer is set up
        return None
    return {name: _as_api_gateway_string(value) for name, value in claims.items()}


def _decoded(token: str, secret: str, audience: str) -> dict[str, Any] | None:
    """TOKEN's claims if its signature and audience hold and it has not expired on the game clock."""
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=["HS256"],
            audience=audience,
            options={"require": ["exp", "iat", "aud"], "verify_exp": False, "verify_iat": False},
        )
    except jwt.PyJWTError:
        return None
    expires = claims["exp"]
    if (
        isinstance(expires, bool)
        or not isinstance(expires, int | float)
        or expires <= clock.now().timestamp()
    ):
        return None
    return claims if audience == REFRESH_AUDIENCE or "sub" in claims else None


def _as_api_gateway_string(value: Any) -> str:
    """HTTP API passes every claim as a string; a list becomes `[a b]`."""
    if isinstance(value, list):
        return "[" + " ".join(str(item) for item in value) + "]"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)
