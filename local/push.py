"""`make run`'s stand-in for a Web Push service (SPEC §4a reminders): a subscription whose endpoint
is `http://127.0.0.1:<port>/local/push` gets its reminders here, encrypted and VAPID-signed as a
real push service receives them (shared/runtime/push.py). `POST /local/push` takes one (201, as a
push service answers); `GET /local/push` lists what came, newest last, so the whole path (the
minute's scan, the queue, the sender, the push) is testable on one machine. Only a browser holding
the subscription's private key can read a message: the stand-in keeps it as it came."""

import base64
import json
import threading

Reply = tuple[int, list[tuple[str, str]], bytes]
KEPT_HEADERS = ("authorization", "content-encoding", "ttl", "urgency", "topic")
KEPT = 1000  # the newest messages kept


class PushInbox:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._received: list[dict[str, object]] = []

    def receive(self, headers: dict[str, str], body: bytes) -> Reply:
        message: dict[str, object] = {
            "headers": {name: headers[name] for name in KEPT_HEADERS if name in headers},
            "body": base64.urlsafe_b64encode(body).decode(),
        }
        with self._lock:
            self._received = [*self._received, message][-KEPT:]
        return 201, [("Content-Length", "0")], b""

    def listing(self) -> Reply:
        with self._lock:
            payload = json.dumps({"pushes": self._received}).encode()
        return 200, [("Content-Type", "application/json"), ("Cache-Control", "no-store")], payload
