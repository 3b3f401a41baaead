"""Two changes to moto's DynamoDB backend for `make run`'s store (local/moto_server.py), both
applied by `install()`; the tests on in-process moto apply the transaction one too.

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

Applied requests must not interleave (the store serves one at a time, local/moto_server.py): a
rollback puts back the items as they were when the transaction began.
"""

import copy
from typing import Any

from moto.core.common_models import BaseModel
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

MAX_TRANSACTION_ITEMS = 100  # DynamoDB's limit, as moto checks it
MOTO_TRANSACT_WRITE_ITEMS = DynamoDBBackend.transact_write_items  # moto's own, kept for the tests

Key = tuple[DynamoType, DynamoType | None]
Error = tuple[str, str, dict[str, Any] | None] | tuple[None, None, None]


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
        for (_, (hash_key, range_key)), (table, before) in self.items.items():
            if table.has_range_key:
                partition = table.items[hash_key]
                if before is None:
                    partition.pop(range_key, None)
                    if not partition:
                        del table.items[hash_key]
                else:
                    partition[range_key] = before
            elif before is None:
                table.items.pop(hash_key, None)
            else:
                table.items[hash_key] = before
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
            if op_type == "Put":
                self.put_item(
                    table_name,
                    op["Item"],
                    condition_expression=condition,
                    expression_attribute_names=names,
                    expression_attribute_values=values,
                )
            elif op_type == "Delete":
                self.delete_item(
                    table_name,
                    key,
                    condition_expression=condition,
                    expression_attribute_names=names,
                    expression_attribute_values=values,
                )
            elif op_type == "Update":
                self.update_item(
                    table_name,
                    key,
                    update_expression=op["UpdateExpression"],
                    condition_expression=condition,
                    expression_attribute_names=names,
                    expression_attribute_values=values,
                )
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


def _untracked(cls: type, *args: Any, **kwargs: Any) -> Any:
    return object.__new__(cls)


def roll_back_only_what_transactions_touched() -> None:
    DynamoDBBackend.transact_write_items = transact_write_items  # type: ignore[method-assign]


def install() -> None:
    """Both changes, for the store's own process."""
    BaseModel.__new__ = _untracked  # type: ignore[method-assign,assignment]
    roll_back_only_what_transactions_touched()
