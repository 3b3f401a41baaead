"""The closing pass's engine (SPEC §6; shared/services/closing_pass.py): the piece queue, whose
worker (infra/functions.py `closing`) Lambda's event source runs one message at a time, and its
dead-letter queue for the pieces given up on (an alarm: infra/stack.py).

The expiry job sends the first pieces (CLOSING_QUEUE_URL); each worker sends the pieces after its
own (the next page of its shard, the merge, the judging). A piece that fails is delivered again
after the visibility timeout, MAX_RECEIVES times, then parked; a redrive runs it again (every
piece may run more than once). The worker's grant is infra/permissions.py ACCESS["closing"].
"""

from aws_cdk import Duration, RemovalPolicy
from constructs import Construct

from infra.functions import FUNCTIONS, Functions
from infra.queue_worker import QueueWorker
from shared.runtime.piece_queue import MAX_RECEIVES

QUEUE_VARIABLE = "CLOSING_QUEUE_URL"
# At most this many pieces at once: 32 shards' first pages, and a margin for challenges.
PIECE_CONCURRENCY = 40


def closing_pieces(scope: Construct, id: str, *, functions: Functions, removal: RemovalPolicy) -> QueueWorker:
    pieces = QueueWorker(
        scope,
        id,
        worker=functions.aliases["closing"],
        visibility_timeout=FUNCTIONS["closing"].timeout.plus(Duration.seconds(30)),
        max_receives=MAX_RECEIVES,
        batch_size=1,
        max_concurrency=PIECE_CONCURRENCY,
        removal=removal,
    )
    pieces.feed(functions.by_name["closing"], QUEUE_VARIABLE)  # its successors, the merge, the judging
    pieces.feed(functions.by_name["expire"], QUEUE_VARIABLE)  # the first pieces
    return pieces
