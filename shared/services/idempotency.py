"""Safe retries of the creations (SPEC §5): `POST /challenges` and `POST /leagues` with an
`Idempotency-Key` make one item however often they are sent.

Powertools' idempotency semantics, kept through the project's storage ports: a request's key (the
route, the caller and the key they sent, hashed) is recorded as started before the item is
made, with a lease, and as done with the id of what it made once it is; the same key again
finds it: done, the reply is built again from what was made (a challenge's current board, a
league's current code: the record holds no name and no code); still started, 409
`idempotency_key_in_use` (try again shortly); with another body, 422 `idempotency_key_reused`.
A creation that fails forgets the key, so it can be sent again. No key, no record: a creation as
any other. docs/data-model.md has the item, and why not Powertools' own DynamoDB layer.
"""

import contextlib
import hashlib
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any, NamedTuple, Protocol, TypeVar

from shared.game import clock
from shared.game.errors import Conflict, KeyReused

# A started creation still unfinished after this long died with its invocation (the API
# functions time out at 10 s, infra/functions.py): the key may then be used again.
IN_PROGRESS_SECONDS = 10
# How long a done creation is remembered (and its reply replayed) after it was made.
KEPT_SECONDS = 24 * 3600

T = TypeVar("T")


class StoredRequest(NamedTuple):
    """A request recorded under its key: the fingerprint of its body, and the id of what it made
    (None while it is still being made)."""

    body: str
    made: str | None


class RequestStore(Protocol):
    def begin(self, key: str, body: str, now: int, lease_until: int, expires_at: int) -> StoredRequest | None:
        """Record KEY as started by a request with BODY (its fingerprint), unless KEY holds a done
        request that has not expired or a started one whose lease has not ended (both against
        NOW, epoch seconds): then that request, else None."""
        ...

    def finish(self, key: str, body: str, made: str, expires_at: int) -> None:
        """Record KEY as done: it made MADE, remembered until EXPIRES_AT."""
        ...

    def forget(self, key: str) -> None:
        """Drop KEY's started request (its creation failed), never a done one."""
        ...


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


class Idempotency:
    def __init__(self, store: RequestStore, now: Callable[[], datetime] = clock.now):
        self.store = store
        self.now = now

    def once(
        self,
        route: str,
        player: str,
        key: str | None,
        body: Any,
        create: Callable[[], T],
        made: Callable[[T], str],
        find: Callable[[str], T],
    ) -> T:
        """What PLAYER's request to ROUTE with KEY and BODY (JSON-able) creates: CREATE() the first
        time, FIND(id) of what it made (MADE(created)) when the request is sent again. Without
        a KEY, CREATE() each time."""
        if key is None:
            return create()
        request = _digest(route, player, key)
        body_hash = _digest(json.dumps(body, sort_keys=True, separators=(",", ":")))
        now = int(self.now().timestamp())
        held = self.store.begin(request, body_hash, now, now + IN_PROGRESS_SECONDS, now + KEPT_SECONDS)
        if held is not None:
            if held.body != body_hash:
                raise KeyReused("This Idempotency-Key was sent with another request; use a new key")
            if held.made is None:
                raise Conflict(
                    "A request with this Idempotency-Key is still being made; try again shortly",
                    "idempotency_key_in_use",
                )
            return find(held.made)
        try:
            created = create()
        except BaseException:
            # The key is released for a retry; if even that fails, its lease ends it.
            with contextlib.suppress(Exception):
                self.store.forget(request)
            raise
        self.store.finish(request, body_hash, made(created), int(self.now().timestamp()) + KEPT_SECONDS)
        return created
