"""DynamoStore on in-process moto for service and handler tests, with the stream consumer run
after every completion and on `follow_renames`, as Lambda would a second later: the same tests
then run on the in-memory fake and on DynamoDB alike (SPEC §5: every number a player sees)."""

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import boto3
from moto import mock_aws

from functions.leaderboard.counters import count_stream_batch
from local.streams import StreamPoller
from shared.dynamo.store import DynamoStore
from shared.dynamo.table import create_table_request

STORES = ["fake", "dynamo"]


class SettledStore(DynamoStore):
    """A DynamoStore whose rank counters, top items and renamed rows catch up at once."""

    def __init__(self, table: str) -> None:
        super().__init__(table)
        self._poller = StreamPoller(table, handler=self._consume)

    def _consume(self, event: dict, context: Any) -> dict:
        from functions.leaderboard import handler as module  # the services the handler serves with

        return count_stream_batch(event, context, self.count_official, module.players().show_current_name)

    def settle(self) -> None:
        self._poller.drain()

    def complete_run(self, *args: Any, **kwargs: Any) -> None:
        super().complete_run(*args, **kwargs)
        self.settle()


@contextlib.contextmanager
def settled_store() -> Iterator[SettledStore]:
    with mock_aws():
        table = os.environ["TABLE_NAME"]
        boto3.client("dynamodb").create_table(**create_table_request(table))
        yield SettledStore(table)
