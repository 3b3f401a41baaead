"""Changes to moto's DynamoDB backend for `make run`'s store (local/moto_server.py), applied by
`install()`; the tests on in-process moto apply all but the first and the look-ups too
(`cheaper_requests`), so the contract suite runs on them.

- Untracked instances: moto records every model instance it ever creates (for its dashboard),
  so every item written, and every copy made, would be kept for good.
- A transaction's rollback costs what it touched: moto's own `transact_write_items` deep-copies
  every table it names before it starts and, when any condition fails, puts that copy back in
  place of the table. Each transaction then costs O(table) (2 s a completing answer at 2,000
  runs), and the copy put back erases whatever other requests wrote meanwhile. Here a
  transaction keeps a copy of each item it is about to write, before writing it, and a
  cancelled one puts back only those items (and drops the stream records its writes appended).
  The table object stays the same, so open stream iterators stay valid. Everything else (the
  order of the checks, the cancellation reasons) is moto's.
- A query costs what it reads: moto's own `Table.query` looks at every item of the table for
  the one partition asked for (260 ms at 10,000 items), on a GSI too. Here it is handed only
  that partition's items, or the items whose GSI partition key has the value asked for (kept,
  per index, on every write: `written`). moto's own query code then runs on those as before.
- Stream records written as they are held: moto's GetRecords hands its records (DynamoDB JSON
  already) to its generic response serializer, about 6 ms a record here, under the store's lock;
  the stream consumer reads every write's record, and every item's after a start. Here they are
  dumped as JSON directly.
- Item replies written as JSON directly: moto hands a reply holding items (GetItem, Query, ...)
  to its generic response serializer, which walks botocore's model of the reply value by value,
  a sixth of the store's time per request; those replies are DynamoDB JSON already, so here they
  are dumped as they are (`ITEM_REPLIES`; errors and every other reply still go through moto's).
- Two look-ups made once, not at every request: the list of moto's service modules (a listing
  of its package folder, about 60 stat calls a request) and the method names of a response
  class (`inspect.getmembers`). Together about a tenth of the store's time per request.
- Every item write is reported (`observers`: the store's journal listens, local/durable.py).

Applied requests must not interleave (the store serves one at a time, local/moto_server.py): a
rollback puts back the items as they were when the transaction began.
"""

import copy
import functools
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import moto.backends
import moto.core.responses
import moto.core.utils
from moto.core.common_models import BaseModel
from moto.core.common_types import TYPE_RESPONSE
from moto.core.responses import ActionResult, BaseResponse
from moto.dynamodb.comparisons import get_filter_expression
from moto.dynamodb.exceptions import (
    ConditionalCheckFailed,
    MockValidationException,
    MultipleTransactionsException,
    TooManyTransactionsException,
    TransactionCanceledException,
    TransactWriteSingleOpException,
)
from moto.dynamodb.models import DynamoDBBackend
from moto.dynamodb.models.dynamo_type import DynamoType, Item
from moto.dynamodb.models.table import Table
from moto.dynamodb.models.utilities import dynamo_json_dump
from moto.dynamodb.responses import DynamoHandler, DynamoResult
from moto.dynamodbstreams.responses import DynamoDBStreamsHandler

MAX_TRANSACTION_ITEMS = 100  # DynamoDB's limit, as moto checks it
# moto's own, kept for the tests
MOTO_TRANSACT_WRITE_ITEMS = DynamoDBBackend.transact_write_items
MOTO_QUERY = Table.query
_MOTO_PUT, _MOTO_DELETE, _MOTO_UPDATE = Table.put_item, Table.delete_item, DynamoDBBackend.update_item

Key = tuple[DynamoType, DynamoType | None]
Error = tuple[str, str, dict[str, Any] | None] | tuple[None, None, None]
# Called with (table, key) after every write of an item (put, delete, update, rollback).
observers: list[Callable[[Table, Key], None]] = []


class _Undo:
    """The items a transaction wrote, as they were before its first write to each, and each
    table's stream length at the start."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, Key], tuple[Table, Item | None]] = {}
        self.streams: dict[str, tuple[Table, int]] = {}

    def keep(self, table: Table, key: Key) -> None:
        if table.name not in self.streams:
            shard = table.stream_shard
            self.streams[table.name] = (table, len(shard.items) if shard else 0)
        if (table.name, key) not in self.items:
            self.items[(table.name, key)] = (table, copy.deepcopy(table.get_item(*key)))

    def restore(self) -> None:
        for (_, key), (table, before) in self.items.items():
            hash_key, range_key = key
            # By hash key: a partition (by range key) when the table has a range key, else the item
            # itself; moto types it as the former only.
            items: dict[DynamoType, Any] = table.items
            if table.has_range_key:
                partition = items[hash_key]
                if before is None:
                    partition.pop(range_key, None)
                    if not partition:
                        del items[hash_key]
                else:
                    partition[range_key] = before
            elif before is None:
                items.pop(hash_key, None)
            else:
                items[hash_key] = before
            written(table, key)
        for table, length in self.streams.values():
            if table.stream_shard is not None:
                del table.stream_shard.items[length:]


def _key(table: Table, key: dict[str, Any]) -> Key:
    range_value = key.get(table.range_key_attr) if table.range_key_attr else None
    return DynamoType(key[table.hash_key_attr]), None if range_value is None else DynamoType(range_value)


def transact_write_items(self: DynamoDBBackend, transact_items: list[dict[str, Any]]) -> None:
    """moto's TransactWriteItems, with an undo of the items touched in place of a table copy."""
    if len(transact_items) > MAX_TRANSACTION_ITEMS:
        raise TooManyTransactionsException()
    undo = _Undo()
    targets: set[tuple[str, str]] = set()
    errors: list[Error] = []
    for item in transact_items:
        original_item: dict[str, Any] | None = None
        if len(item) > 1:
            raise TransactWriteSingleOpException
        try:
            op_type, op = next(iter(item.items()))
            if op_type not in {"ConditionCheck", "Put", "Delete", "Update"}:
                raise ValueError("Unsupported transaction operation")
            table_name = op["TableName"]
            condition = op.get("ConditionExpression")
            names = op.get("ExpressionAttributeNames")
            values = op.get("ExpressionAttributeValues")
            if op_type == "Put":
                table = self.get_table(table_name)
                key = {table.hash_key_attr: op["Item"][table.hash_key_attr]}
                if table.range_key_attr is not None:
                    key[table.range_key_attr] = op["Item"][table.range_key_attr]
            else:
                key = op["Key"]
            target = (str(table_name), str(dict(sorted(key.items()))))
            if target in targets:
                raise MultipleTransactionsException()
            targets.add(target)

            current = self.get_item(table_name, key)
            if condition is not None and not get_filter_expression(condition, names, values).expr(current):
                if op.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD" and current:
                    original_item = current.to_json()["Attributes"]
                raise ConditionalCheckFailed(item=original_item)

            if op_type != "ConditionCheck":
                table = self.get_table(table_name)
                undo.keep(table, _key(table, key))
            conditioned: dict[str, Any] = {
                "condition_expression": condition,
                "expression_attribute_names": names,
                "expression_attribute_values": values,
            }
            if op_type == "Put":
                self.put_item(table_name, op["Item"], **conditioned)
            elif op_type == "Delete":
                self.delete_item(table_name, key, **conditioned)
            elif op_type == "Update":
                self.update_item(table_name, key, update_expression=op["UpdateExpression"], **conditioned)
            errors.append((None, None, None))
        except (MultipleTransactionsException, MockValidationException):
            undo.restore()
            raise
        except ConditionalCheckFailed as error:
            errors.append(("ConditionalCheckFailed", str(error.message), original_item))
        except Exception as error:  # moto's own: any other failure is that item's reason
            errors.append((type(error).__name__, str(error), original_item))
    if any(code is not None for code, _, _ in errors):
        undo.restore()
        raise TransactionCanceledException(errors)


# Every write reported -----------------------------------------------------------------------


def written(table: Table, key: Key) -> None:
    """After a write of KEY in TABLE: its GSI entries follow it, and the observers are told."""
    entries = table.__dict__.get("_gsi_entries")
    if entries is not None:
        entries.place(table, key)
    for observer in observers:
        observer(table, key)


def _key_in(table: Table, attributes: dict[str, Any]) -> Key | None:
    """The key in ATTRIBUTES (an item or a key), or None when a part is missing (the request is
    refused before it writes anything)."""
    if table.hash_key_attr not in attributes or (
        table.range_key_attr and table.range_key_attr not in attributes
    ):
        return None
    return _key(table, attributes)


def _reported_put(self: Table, item_attrs: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
    try:
        return _MOTO_PUT(self, item_attrs, *args, **kwargs)
    finally:
        if (key := _key_in(self, item_attrs)) is not None:
            written(self, key)


def _reported_delete(self: Table, hash_key: DynamoType, range_key: DynamoType | None) -> Any:
    try:
        return _MOTO_DELETE(self, hash_key, range_key)
    finally:
        written(self, (hash_key, range_key))


def _reported_update(
    self: DynamoDBBackend, table_name: str, key: dict[str, Any], *args: Any, **kwargs: Any
) -> Any:
    try:
        return _MOTO_UPDATE(self, table_name, key, *args, **kwargs)
    finally:
        table = self.tables.get(table_name)
        if table is not None and (found := _key_in(table, key)) is not None:
            written(table, found)


# Queries that read only what they ask for --------------------------------------------------


class _GsiEntries:
    """A table's items by the value of each GSI's partition key: where they stand now (`by_index`)
    and, for each item, the values it was placed under (`placed`), to move it when it changes."""

    def __init__(self, table: Table):
        self.names = _gsi_hash_names(table)
        self.by_index: dict[str, dict[DynamoType, dict[Key, Item]]] = {
            index: defaultdict(dict) for index in self.names
        }
        self.placed: dict[Key, dict[str, DynamoType]] = {}
        for item in table.all_items():
            self.place(table, (item.hash_key, item.range_key))

    def place(self, table: Table, key: Key) -> None:
        for index, value in self.placed.pop(key, {}).items():
            partition = self.by_index[index][value]
            partition.pop(key, None)
            if not partition:
                del self.by_index[index][value]
        item = table.get_item(*key)
        if item is None:
            return
        values = {index: item.attrs[name] for index, name in self.names.items() if name in item.attrs}
        for index, value in values.items():
            self.by_index[index][value][key] = item
        if values:
            self.placed[key] = values


def _gsi_hash_names(table: Table) -> dict[str, str]:
    return {
        index.name: next(k["AttributeName"] for k in index.schema if k["KeyType"] == "HASH")
        for index in table.global_indexes or []
    }


def _query(self: Table, hash_key: DynamoType | None, *args: Any, **kwargs: Any) -> Any:
    """moto's query, on a view of the table holding only the items it can return."""
    index_name = kwargs.get("index_name", args[6] if len(args) > 6 else None)
    if index_name is None:
        if hash_key is None or not self.has_range_key:
            return MOTO_QUERY(self, hash_key, *args, **kwargs)
        partition = self.items.get(hash_key)
        return MOTO_QUERY(_view(self, {hash_key: partition} if partition else {}), hash_key, *args, **kwargs)
    entries = self.__dict__.get("_gsi_entries")
    if entries is None or entries.names != _gsi_hash_names(self):
        entries = self.__dict__["_gsi_entries"] = _GsiEntries(self)
    if index_name not in entries.names:  # a local index, or none by that name: moto's own answer
        return MOTO_QUERY(self, hash_key, *args, **kwargs)
    conditions = dict(kwargs.get("hash_key_conditions") or [])
    value = conditions.get(entries.names[index_name], hash_key)
    if value is None:
        return MOTO_QUERY(self, hash_key, *args, **kwargs)
    found = entries.by_index[index_name].get(value, {})
    # The view's one "partition" holds them all: moto looks at each item's attributes itself.
    return MOTO_QUERY(_view(self, {value: dict(found)} if found else {}), hash_key, *args, **kwargs)


def _view(table: Table, items: dict[DynamoType, Any]) -> Table:
    """TABLE with ITEMS in place of its items (the same object otherwise; nothing is copied)."""
    # moto marks CloudFormationModel's methods abstract without ABCMeta: Table is concrete.
    view = object.__new__(Table)  # type: ignore[type-abstract]
    view.__dict__.update(table.__dict__, items=items)
    return view


ITEM_REPLIES = frozenset(
    {
        "GetItem",
        "PutItem",
        "UpdateItem",
        "DeleteItem",
        "Query",
        "Scan",
        "BatchGetItem",
        "BatchWriteItem",
        "TransactGetItems",
        "TransactWriteItems",
    }
)
MOTO_SERIALIZED = DynamoHandler.serialized


def _serialized(self: BaseResponse, action_result: ActionResult) -> TYPE_RESPONSE:
    """moto's reply, or for an item reply (a dict of DynamoDB JSON) that dict dumped as JSON."""
    result = action_result.result
    if type(action_result) is not DynamoResult or not isinstance(result, dict):
        return MOTO_SERIALIZED(self, action_result)
    if self._get_action() not in ITEM_REPLIES:
        return MOTO_SERIALIZED(self, action_result)
    headers = {"content-type": "application/x-amz-json-1.0", **self.response_headers}
    return 200, headers, dynamo_json_dump({k: v for k, v in result.items() if v is not None})


def _get_records(self: DynamoDBStreamsHandler) -> str:
    """moto's GetRecords, its reply dumped as JSON (timestamps as epoch seconds, as on the wire)."""
    limit = self._get_param("Limit") or 1000
    return dynamo_json_dump(self.backend.get_records(self._get_param("ShardIterator"), limit))


def _untracked(cls: type, *args: Any, **kwargs: Any) -> Any:
    return object.__new__(cls)


def cheaper_requests() -> None:
    """The rollback, the indexed queries, the item replies and the write reports (the tests'
    in-process moto runs on these too)."""
    # Patches of moto's classes: mypy refuses any assignment to a method (method-assign).
    DynamoDBBackend.transact_write_items = transact_write_items  # type: ignore[method-assign]
    Table.put_item = _reported_put  # type: ignore[method-assign]
    Table.delete_item = _reported_delete  # type: ignore[method-assign]
    DynamoDBBackend.update_item = _reported_update  # type: ignore[method-assign]
    Table.query = _query  # type: ignore[method-assign]
    DynamoHandler.serialized = _serialized  # type: ignore[method-assign]


def install() -> None:
    """Every change, for the store's own process."""
    BaseModel.__new__ = _untracked  # type: ignore[method-assign]
    # A str: moto's dispatch sends a handler's str reply as the body, though get_records is typed
    # to return an ActionResult.
    DynamoDBStreamsHandler.get_records = _get_records  # type: ignore[method-assign,assignment]
    modules = tuple(moto.backends.list_of_moto_modules())
    moto.backends.list_of_moto_modules = lambda: modules
    # Replaced where BaseResponse looks it up: responses.py imports it without re-exporting it.
    moto.core.responses.method_names_from_class = functools.cache(  # type: ignore[attr-defined]
        moto.core.utils.method_names_from_class
    )
    cheaper_requests()
