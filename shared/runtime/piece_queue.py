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

MAX_RECEIVES = 5  # deliveries of one message before it goes to the dead letters
_SQS_BATCH = 10  # SendMessageBatch's limit


class SqsQueue:
    """An SQS queue on AWS, for the pieces and for the reminders' batches (shared/runtime/push.py):
    bodies sent in SendMessageBatch requests of ten. The client is botocore's, as every client of the
    functions (shared/dynamo/client.py `new_aws_client`: no boto3 import), made on first send."""

    def __init__(self, url: str, client: Any = None):
        self.url = url
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            from shared.dynamo.client import new_aws_client

            self._client = new_aws_client("sqs")
        return self._client

    def send(self, messages: list[dict[str, Any]]) -> None:
        self.send_bodies([json.dumps(body) for body in messages])

    def send_bodies(self, bodies: list[str]) -> None:
        for start in range(0, len(bodies), _SQS_BATCH):
            entries = [
                {"Id": str(i), "MessageBody": body}
                for i, body in enumerate(bodies[start : start + _SQS_BATCH])
            ]
            reply = self.client.send_message_batch(QueueUrl=self.url, Entries=entries)
            if reply.get("Failed"):
                raise RuntimeError(
                    f"{self.url} refused {len(reply['Failed'])} messages: {reply['Failed'][0]}"
                )


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
