"""The in-memory fake of the creations' idempotency records (shared/services/idempotency.py
RequestStore), with the adapter's rules (shared/dynamo/idempotency.py): tests/services/
test_idempotency.py runs the same tests on both."""

import threading

from shared.services.idempotency import RequestStore, StoredRequest


class FakeRequests:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        # key -> (request, lease_until (started) or None (done), expires_at)
        self.held: dict[str, tuple[StoredRequest, int | None, int]] = {}

    def begin(self, key: str, body: str, now: int, lease_until: int, expires_at: int) -> StoredRequest | None:
        with self.lock:
            found = self.held.get(key)
            if found is not None:
                request, lease, expires = found
                if expires > now and (lease is None or lease > now):
                    return request
            self.held[key] = (StoredRequest(body, None), lease_until, expires_at)
            return None

    def finish(self, key: str, body: str, made: str, expires_at: int) -> None:
        with self.lock:
            self.held[key] = (StoredRequest(body, made), None, expires_at)

    def forget(self, key: str) -> None:
        with self.lock:
            found = self.held.get(key)
            if found is not None and found[1] is not None:
                del self.held[key]


_requests: RequestStore = FakeRequests()  # the fake against its port, for mypy
