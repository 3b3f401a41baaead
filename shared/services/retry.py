"""The one retry policy for contested or shed requests: a few quick tries with jittered backoff.

Used for an optimistic-lock loss (shared/services/game.py: read again, apply again), a transaction that
collided with another on the same item (TransactionConflict) and keys a batch read left
unprocessed (shared/dynamo/store.py). What is still contested after ATTEMPTS tries becomes a 429.
"""

import random
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

ATTEMPTS = 5  # tries in all, the first included
BASE_DELAY_SECONDS = 0.01  # the first pause is up to this long; each later one may be twice as long
MAX_DELAY_SECONDS = 0.2


def pause(attempt: int) -> float:
    """The pause before try ATTEMPT + 1 (attempt counts from 0): "full jitter" exponential backoff,
    so racers that collided once do not collide again in step."""
    return random.uniform(0, min(MAX_DELAY_SECONDS, BASE_DELAY_SECONDS * 2**attempt))


class Exhausted(Exception):
    """Every try lost; the last loss is the cause."""


def retry(
    call: Callable[[], T],
    retry_on: type[Exception] | tuple[type[Exception], ...],
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """CALL's result, trying again after a pause when it raises RETRY_ON; Exhausted after ATTEMPTS."""
    for attempt in range(ATTEMPTS):
        try:
            return call()
        except retry_on as error:
            if attempt == ATTEMPTS - 1:
                raise Exhausted(str(error)) from error
            sleep(pause(attempt))
    raise AssertionError("unreachable")
