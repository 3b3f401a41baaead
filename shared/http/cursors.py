"""Opaque, signed page cursors (SPEC §5 `next_cursor`): clients pass them back unchanged.

`Cursors` turns the services' page positions (a board's `PageStart`, a history's
`HistoryPosition`) into cursors and back: the services never see one. A cursor is a JSON
payload, HMAC-SHA256-signed (first 16 bytes) with a key derived from the deployment secret,
base64url without padding. It is signed, not encrypted: a client can read it but not change it,
so a payload holds only what may be public (a board position, never a key).
"""

import base64
import hashlib
import hmac
import json
from collections.abc import Callable
from typing import Any

from shared.game.boards import BoardPosition, HistoryPosition
from shared.game.errors import BadRequest
from shared.game.scope import Scope
from shared.services.leaderboard import TOP, Page, PageStart


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


class Cursors:
    """The cursors of the API's pages, signed with KEY (the current cursor key) and verified with
    it or one of OLDER_KEYS. A cursor names its board (or its player's history), so one cursor
    never pages another board: that, like a forged or garbled cursor, is a 400 `invalid_cursor`."""

    def __init__(self, key: Callable[[], bytes], older_keys: Callable[[], tuple[bytes, ...]] = tuple):
        self.key = key
        self.older_keys = older_keys

    def _decode(self, cursor: str) -> dict[str, Any]:
        return decode_cursor(cursor, self.key(), *self.older_keys())

    def next_page(self, page: Page) -> str | None:
        """The cursor of the page after PAGE (None: PAGE is the last)."""
        start = page.following
        if start is None or start.after is None:
            return None
        payload = {
            "scope": list(page.scope),
            "after": list(start.after),
            "shown": start.shown,
            "rank": start.rank,
        }
        return encode_cursor(payload, self.key())

    def board_start(self, scope: Scope, cursor: str | None) -> PageStart:
        """Where the page of SCOPE's board that CURSOR asks for starts (no cursor: the top)."""
        if not cursor:
            return TOP
        state = self._decode(cursor)
        try:
            if Scope(*state["scope"]) != scope:
                raise ValueError("another board")
            score, combo, longest, duration, completed_at, run_id = state["after"]
            after = BoardPosition(
                int(score), int(combo), int(longest), int(duration), str(completed_at), str(run_id)
            )
            return PageStart(after, int(state["shown"]), int(state["rank"]))
        except (KeyError, TypeError, ValueError) as error:
            raise invalid_cursor() from error

    def next_history(self, player: str, following: HistoryPosition | None) -> str | None:
        """The cursor of PLAYER's history page that starts after FOLLOWING (None: no more)."""
        if following is None:
            return None
        return encode_cursor(
            {"history": player, "after": [following.completed_at, *following.scope]}, self.key()
        )

    def history_start(self, player: str, cursor: str | None) -> HistoryPosition | None:
        """Where the page of PLAYER's history that CURSOR asks for starts (None: the newest)."""
        if not cursor:
            return None
        state = self._decode(cursor)
        try:
            if state["history"] != player:
                raise ValueError("another player's history")
            completed_at, kind, ident = state["after"]
            if kind not in ("daily", "challenge"):
                raise ValueError(kind)
            return HistoryPosition(str(completed_at), Scope(kind, str(ident)))
        except (KeyError, TypeError, ValueError) as error:
            raise invalid_cursor() from error
