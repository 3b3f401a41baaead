"""The table's adapters (`dynamo_ports`) on in-process moto for service and handler tests, with the
stream consumer run after every completion and on `follow_renames`, as Lambda would a second
later: the same tests then run on the in-memory fakes and on DynamoDB alike (SPEC §5: every
number a player sees)."""

import contextlib
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from typing import Any

import boto3
from moto import mock_aws

from functions.leaderboard.counters import count_stream_batch
from local.streams import StreamPoller
from shared.dynamo.board_keys import BoardKeys
from shared.dynamo.client import Client
from shared.dynamo.completion import Results
from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import DynamoPorts, dynamo_ports
from shared.dynamo.table import create_table_request

STORES = ["fake", "dynamo"]


class SettlingResults(Results):
    """The results adapter, with the stream consumer run after every completion."""

    def __init__(self, db: Client, board_keys: BoardKeys, settle: Callable[[], object]) -> None:
        super().__init__(db, board_keys)
        self.settle = settle

    def complete_run(self, *args: Any, **kwargs: Any) -> None:
        super().complete_run(*args, **kwargs)
        self.settle()


@dataclass(frozen=True)
class SettledPorts(DynamoPorts):
    """The table's adapters, whose rank counters, top items and renamed rows catch up at once:
    the stream consumer (through the ranks port) runs after every completion and on `settle`."""

    poller: StreamPoller

    def settle(self) -> None:
        self.poller.drain()


def settled_ports(table: str) -> SettledPorts:
    ports = dynamo_ports(table, board_shards=BOARD_SHARDS)

    def consume(event: dict[str, Any], context: Any) -> dict[str, Any]:
        from functions.leaderboard import handler as module  # the services the handler serves with

        return count_stream_batch(
            event,
            context,
            ports.ranks.count_official,
            module.players().show_current_name,  # type: ignore[attr-defined]  # as the handler serves it
        )

    poller = StreamPoller(table, handler=consume)
    parts = {f.name: getattr(ports, f.name) for f in fields(ports)}
    parts["results"] = SettlingResults(ports.db, ports.board_keys, poller.drain)
    return SettledPorts(**parts, poller=poller)


@contextlib.contextmanager
def settled_store() -> Iterator[SettledPorts]:
    with mock_aws():
        table = os.environ["TABLE_NAME"]
        boto3.client("dynamodb").create_table(**create_table_request(table))
        yield settled_ports(table)
