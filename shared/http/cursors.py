"""Opaque, signed page cursors (SPEC §5 `next_cursor`): clients pass them back unchanged.

A cursor is a JSON payload, HMAC-SHA256-signed (first 16 bytes) with a key derived from the
deployment secret, base64url without padding. It is signed, not encrypted: a client can read it
but not change it, so a payload holds only what may be public (a board position, never a key).
"""

import base64
import hashlib
import hmac
import json
from typing import Any

from shared.game.errors import BadRequest


def encode_cursor(payload: dict[str, Any], key: bytes) -> str:
    body = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    signature = hmac.new(key, body, hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(signature + body).decode().rstrip("=")


def decode_cursor(cursor: str, key: bytes, *older_keys: bytes) -> dict[str, Any]:
    """The payload of a cursor made by `encode_cursor` with KEY, or with one of OLDER_KEYS (the
    previous key stays valid for a while after a rotation, so cursors in flight keep working);
    BadRequest for anything else."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        signature, body = raw[:16], raw[16:]
        if not any(
            hmac.compare_digest(signature, hmac.new(k, body, hashlib.sha256).digest()[:16])
            for k in (key, *older_keys)
        ):
            raise ValueError("bad signature")
        payload = json.loads(body)
        if not isinstance(payload, dict):
            raise ValueError("not an object")
        return payload
    except (ValueError, TypeError) as error:
        raise invalid_cursor() from error


def invalid_cursor() -> BadRequest:
    return BadRequest("The cursor is not one this API gave out", "invalid_cursor")
