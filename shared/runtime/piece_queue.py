"""The closing pass's piece queue (shared/services/closing_pieces.py `PieceQueue`).

On AWS, an SQS queue (infra/closing.py): the expiry job and the pieces send to it, Lambda's
event source mapping runs each message through functions/daily/closing_piece.py, a message that
fails comes back after its visibility timeout and, after MAX_RECEIVES, goes to the dead-letter
queue (an alarm; a redrive runs the pieces again, which they allow). Locally (`make run`), a
folder of message files that local/scheduler.py drains through the piece function's workers, with
the same retries and a `dead` folder; in tests, `MemoryQueue`.
"""

import json
import time
import uuid
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shared.runtime.sqs import SqsSender

MAX_RECEIVES = 5  # deliveries of one message before it goes to the dead letters


class SqsQueue(SqsSender):
    """The pieces' queue on AWS: each piece's body sent as one JSON message."""

    def send(self, messages: list[dict[str, Any]]) -> None:
        self.send_bodies([json.dumps(body) for body in messages])


Runner = Callable[[dict[str, Any]], object]


class MemoryQueue:
    """A queue in memory with SQS's delivery: at least once, a failed message again, up to
    MAX_RECEIVES, then to `dead`."""

    def __init__(self) -> None:
        self.messages: deque[tuple[dict[str, Any], int]] = deque()
        self.dead: list[dict[str, Any]] = []
        self.sent = 0

    def send(self, messages: list[dict[str, Any]]) -> None:
        self.messages.extend((json.loads(json.dumps(body)), 0) for body in messages)
        self.sent += len(messages)

    def drain(self, run: Runner, limit: int = 100_000) -> int:
        """Deliver every message (those sent meanwhile too) to RUN; returns the deliveries."""
        delivered = 0
        while self.messages and delivered < limit:
            body, receives = self.messages.popleft()
            delivered += 1
            try:
                run(body)
            except Exception:
                if receives + 1 >= MAX_RECEIVES:
                    self.dead.append(body)
                else:
                    self.messages.append((body, receives + 1))
        return delivered


class DirectoryQueue:
    """`make run`'s queue: one file a message in FOLDER (written whole, then renamed), shared by
    the server's process and the workers' processes."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def send(self, messages: list[dict[str, Any]]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        for body in messages:
            name = f"{time.time_ns():020d}-{uuid.uuid4().hex}"  # in the order sent
            temporary = self.folder / f".{name}"
            temporary.write_text(json.dumps({"body": body, "receives": 0}))
            temporary.rename(self.folder / f"{name}.json")

    def drain(self, run: Runner, limit: int = 10_000) -> int:
        """Deliver the messages waiting (and those sent meanwhile) to RUN, oldest first: a
        delivered message's file goes; a failed one is kept with its count, and after MAX_RECEIVES
        moves to `dead/`. Returns the deliveries."""
        delivered = 0
        while delivered < limit:
            waiting = sorted(self.folder.glob("*.json")) if self.folder.exists() else []
            if not waiting:
                return delivered
            failed_all = True
            for path in waiting:
                held = json.loads(path.read_text())
                delivered += 1
                try:
                    run(held["body"])
                except Exception:
                    held["receives"] += 1
                    if held["receives"] >= MAX_RECEIVES:
                        (self.folder / "dead").mkdir(exist_ok=True)
                        path.rename(self.folder / "dead" / path.name)
                    else:
                        path.write_text(json.dumps(held))
                    continue
                failed_all = False
                path.unlink()
            if failed_all:
                return delivered  # tried again on the next drain
        return delivered
