"""Safe retries of the creations (SPEC §5): `POST /challenges` and `POST /leagues` with an
`Idempotency-Key` make one item however often they are sent.

Powertools' idempotency semantics, kept through the project's storage ports: a request's key (the
route, the caller and the key they sent, hashed) is recorded as started before the item is
made, with a lease, and as done with the id of what it made once it is; the same key again
finds it: done, the reply is built again from what was made (a challenge's current board, a
league's current code: the record holds no name and no code); still started, it waits for it a
little (RESEND_WAITS), then answers 409 `idempotency_key_in_use`; with another body, 422
`idempotency_key_reused`.
A creation that fails forgets the key, so it can be sent again. No key, no record: a creation as
any other. docs/data-model.md has the item, and why not Powertools' own DynamoDB layer.
"""

import contextlib
import hashlib
import json
import time
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
# A resend that finds its first request still being made (a reply lost as the connection broke)
# looks again after each of these pauses (0.7 s in all; a creation takes a few requests), then 409.
RESEND_WAITS = (0.1, 0.2, 0.4)

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
    def __init__(
        self,
        store: RequestStore,
        now: Callable[[], datetime] = clock.now,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.store = store
        self.now = now
        self.sleep = sleep

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
        for pause in (*RESEND_WAITS, None):
            now = int(self.now().timestamp())
            held = self.store.begin(request, body_hash, now, now + IN_PROGRESS_SECONDS, now + KEPT_SECONDS)
            if held is None:
                return self._create(request, body_hash, create, made)
            if held.body != body_hash:
                raise KeyReused("This Idempotency-Key came with another request: a new one needs a new key")
            if held.made is not None:
                return find(held.made)
            if pause is not None:
                self.sleep(pause)
        raise Conflict(
            "The same request is still being answered; try again in a few seconds", "idempotency_key_in_use"
        )

    def _create(self, request: str, body_hash: str, create: Callable[[], T], made: Callable[[T], str]) -> T:
        """CREATE() under the started REQUEST, then REQUEST done with what it made."""
        try:
            created = create()
        except BaseException:
            # The key is released for a retry; if even that fails, its lease ends it.
            with contextlib.suppress(Exception):
                self.store.forget(request)
            raise
        self.store.finish(request, body_hash, made(created), int(self.now().timestamp()) + KEPT_SECONDS)
        return created
