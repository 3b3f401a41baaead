"""`make run`'s closing pass pieces (local/scheduler.py `PieceRunner`): after each expiry job the
scheduler drains the folder queue through the pieces' function, as SQS hands them to Lambda: a
piece that fails stays queued and is delivered again, and after MAX_RECEIVES goes to `dead/`."""

import json
from datetime import UTC, datetime

from local.scheduler import PieceRunner, Scheduler
from shared.game import clock
from shared.http.routes import EXPIRE_HANDLER
from shared.runtime.piece_queue import MAX_RECEIVES, DirectoryQueue


class Pieces:
    """The pieces' function: each event's piece recorded; the pieces named in FAILING fail."""

    def __init__(self, failing: dict[str, int]):
        self.failing, self.ran = failing, []

    def invoke(self, event: dict, request_id: str) -> dict:
        body = json.loads(event["Records"][0]["body"])
        self.ran.append(body["name"])
        if self.failing.get(body["name"], 0) > 0:
            self.failing[body["name"]] -= 1
            return {"batchItemFailures": [{"itemIdentifier": event["Records"][0]["messageId"]}]}
        return {"batchItemFailures": []}


def test_the_pieces_run_after_the_expiry_job_and_a_failed_one_comes_back(tmp_path):
    queue = DirectoryQueue(tmp_path / "pieces")
    pieces = Pieces({"flaky": 1, "broken": 99})
    jobs: list[str] = []
    clock.travel_to(datetime(2026, 11, 30, 12, 0, 30, tzinfo=UTC))
    scheduler = Scheduler(invoke=jobs.append, pieces=PieceRunner(queue, pieces))
    try:
        queue.send([{"name": "ok"}, {"name": "flaky"}, {"name": "broken"}])  # as the job would
        for _ in range(3):  # a piece that fails every delivery of a drain waits for the next
            clock.advance(60)
            assert EXPIRE_HANDLER in scheduler.run_due()  # beside the reminder scan, every minute
    finally:
        clock.reset()
    assert pieces.ran.count("ok") == 1 and pieces.ran.count("flaky") == 2
    assert pieces.ran.count("broken") == MAX_RECEIVES
    assert [json.loads(p.read_text())["body"] for p in (tmp_path / "pieces" / "dead").iterdir()] == [
        {"name": "broken"}
    ]
    assert list((tmp_path / "pieces").glob("*.json")) == []
