"""The closing pass's wiring (shared/services/closing_pass.py), once per container: its store on
the container's ports (the table's, or in tests the fakes'), and its piece queue: SQS on AWS
(CLOSING_QUEUE_URL, set by infra/closing.py; missing there, the init stops), the folder
LOCAL_PIECES_DIR under `make run` (local/scheduler.py drains it through the workers), and
otherwise (tests) a queue in memory whose pieces the expiry job runs itself (`run_pieces_here`).
"""

import os
from pathlib import Path
from typing import Any

from shared.runtime import wiring
from shared.runtime.edge_settings import SettingsError
from shared.runtime.piece_queue import DirectoryQueue, MemoryQueue, SqsQueue
from shared.runtime.settings import settings
from shared.services.closing_pass import ClosingPass
from shared.services.closing_pieces import PassStore, PieceQueue

_built: dict[str, Any] = {}


def _fresh() -> None:
    """Built again for new ports (a test's `wiring.reset`), as a new container would."""
    if _built.get("ports") is not wiring.ports():
        _built.clear()
        _built["ports"] = wiring.ports()


def piece_queue() -> PieceQueue:
    _fresh()
    if "queue" not in _built:
        url, folder = os.environ.get("CLOSING_QUEUE_URL"), os.environ.get("LOCAL_PIECES_DIR")
        if url:
            _built["queue"] = SqsQueue(url)
        elif folder:
            _built["queue"] = DirectoryQueue(Path(folder))
        elif settings().environment == "aws":
            raise SettingsError("wordsqd: invalid environment: WORDSQD_ENV=aws and CLOSING_QUEUE_URL not set")
        else:
            _built["queue"] = MemoryQueue()
    queue: PieceQueue = _built["queue"]
    return queue


def pass_store() -> PassStore:
    _fresh()
    if "store" not in _built:
        ports: Any = wiring.ports()
        if hasattr(ports, "passes"):  # the fakes (tests/fakes/fake_store.py)
            _built["store"] = ports.passes
        else:
            from shared.dynamo.closing_pieces import DynamoPasses

            _built["store"] = DynamoPasses(ports.db, ports.runs, ports.top, ports.ranks)
    store: PassStore = _built["store"]
    return store


def closing_pass() -> ClosingPass:
    _fresh()
    if "pass" not in _built:
        ports = wiring.ports()
        game = wiring.game()
        _built["pass"] = ClosingPass(
            pass_store(),
            piece_queue(),
            ports.runs,
            ports.moderation,
            ports.recaps,
            ports.closing,
            game.first_date,
            game.daily_puzzle,
            now=game.now,
        )
    built: ClosingPass = _built["pass"]
    return built


def run_pieces_here() -> int:
    """With the queue in memory (tests), run its pieces now, as the workers would (retries
    included); elsewhere nothing (the workers run them). Returns the deliveries."""
    queue = piece_queue()
    if isinstance(queue, MemoryQueue):
        return queue.drain(closing_pass().run)
    return 0
