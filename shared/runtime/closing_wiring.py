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
from shared.services.game import Game

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


def store_of(ports: Any) -> PassStore:
    """The pass's store on PORTS: the table's adapters, or the fakes' own (tests)."""
    if hasattr(ports, "passes"):  # tests/fakes/fake_store.py
        fake: PassStore = ports.passes
        return fake
    from shared.dynamo.closing_pieces import DynamoPasses

    return DynamoPasses(ports.db, ports.puzzles, ports.board_keys)


def build(ports: Any, game: Game, queue: PieceQueue) -> ClosingPass:
    """The closing pass on PORTS, with GAME's clock and puzzles, sending to QUEUE."""
    return ClosingPass(
        store_of(ports),
        queue,
        ports.runs,
        wiring.moderation_ports(ports),
        ports.recaps,
        ports.closing,
        game.first_date,
        game.daily_puzzle,
        now=game.now,
        shards=settings().board_shards,
    )


def closing_pass() -> ClosingPass:
    _fresh()
    if "pass" not in _built:
        _built["pass"] = build(wiring.ports(), wiring.game(), piece_queue())
    built: ClosingPass = _built["pass"]
    return built


def run_pieces_here(service: ClosingPass) -> int:
    """With SERVICE's queue in memory (tests), run its pieces now, as the workers would (retries
    included); elsewhere nothing (the workers run them). Returns the deliveries."""
    if isinstance(service.queue, MemoryQueue):
        return service.queue.drain(service.run)
    return 0
