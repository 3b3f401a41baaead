"""A DynamoDB meter that charges each request as DynamoDB on-demand bills it, whatever the code
that sent it believes (every benchmark's figures come from here).

It hooks botocore's events on the client under measure (`attach`): before a request it reads
the items the request may write, after it reads them again, through a boto3 client of its own
(unmetered), and it reads each table's definition (keys, GSIs and their projections) from
DescribeTable. From the request's own parameters, never the caller's bookkeeping:

- a write (PutItem, UpdateItem, DeleteItem, each item of a BatchWriteItem): 1 write unit per
  started KB of the larger of the item before and after (a refused conditional write too, at
  least 1); twice that for each item of a TransactWriteItems, ConditionCheck included;
- per GSI the written item is or was in: an entry added or removed costs its size (1 unit per
  started KB), a changed index key both, a changed projected attribute the larger entry; an
  unchanged entry nothing;
- a read: 1 unit per started 4 KB of the item read strongly consistent (the `ConsistentRead`
  sent), 0.5 eventually; a missing item costs the minimum; each key of a BatchGetItem is one
  GetItem (unprocessed keys: nothing); a Query or Scan is charged on the whole items (or index
  entries) it evaluated, before any filter or projection, summed before rounding; each item of a
  TransactGetItems costs twice a strongly consistent read.

Any other data operation raises `Unmetered`: nothing is left uncharged. The size of an item is
DynamoDB's: each attribute's name and value (a number 1 byte per two significant digits plus 1,
lists and maps 3 bytes plus 1 a element).
"""

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import boto3

KB = 1024
READ_BLOCK = 4 * KB
FREE = {"DescribeTable", "CreateTable", "DeleteTable", "ListTables", "DescribeTimeToLive", "UpdateTimeToLive"}
Item = dict[str, Any]


class Unmetered(Exception):
    """A DynamoDB operation the meter has no rule for."""


def value_size(value: dict) -> int:
    ((kind, inner),) = value.items()
    if kind == "S":
        return len(inner.encode())
    if kind == "B":
        return len(inner)
    if kind == "N":
        return number_size(inner)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "L":
        return 3 + sum(1 + value_size(v) for v in inner)
    if kind == "M":
        return 3 + sum(1 + len(k.encode()) + value_size(v) for k, v in inner.items())
    if kind == "SS":
        return sum(len(s.encode()) for s in inner)
    if kind == "NS":
        return sum(number_size(n) for n in inner)
    if kind == "BS":
        return sum(len(b) for b in inner)
    raise Unmetered(f"attribute type {kind}")


def number_size(text: str) -> int:
    digits = text.lstrip("-").replace(".", "").strip("0")
    return (len(digits) + 1) // 2 + 1


def item_size(item: Item | None) -> int:
    return sum(len(name.encode()) + value_size(value) for name, value in (item or {}).items())


def blocks(size: int, block: int) -> int:
    """Started BLOCKs of SIZE bytes (at least one)."""
    return max(1, math.ceil(size / block))


@dataclass(frozen=True)
class Index:
    name: str
    keys: tuple[str, ...]
    projection: str  # ALL, KEYS_ONLY, INCLUDE
    included: tuple[str, ...] = ()


@dataclass(frozen=True)
class Table:
    keys: tuple[str, ...]
    indexes: tuple[Index, ...]

    def key_of(self, item: Item) -> Item:
        return {name: item[name] for name in self.keys}

    def entry(self, item: Item | None, index: Index) -> Item | None:
        """ITEM's entry in INDEX (None: not in it, a key attribute missing)."""
        if not item or any(name not in item for name in index.keys):
            return None
        if index.projection == "ALL":
            return dict(item)
        kept = set(self.keys) | set(index.keys) | set(index.included)
        return {name: value for name, value in item.items() if name in kept}


def table_of(description: dict) -> Table:
    indexes = tuple(
        Index(
            g["IndexName"],
            tuple(k["AttributeName"] for k in g["KeySchema"]),
            g["Projection"]["ProjectionType"],
            tuple(g["Projection"].get("NonKeyAttributes", ())),
        )
        for g in description.get("GlobalSecondaryIndexes", [])
    )
    return Table(tuple(k["AttributeName"] for k in description["KeySchema"]), indexes)


def index_units(table: Table, before: Item | None, after: Item | None) -> int:
    """The GSI write units of an item going from BEFORE to AFTER."""
    units = 0
    for index in table.indexes:
        old, new = table.entry(before, index), table.entry(after, index)
        if old is None and new is None or old == new:
            continue
        if old is None or new is None:
            units += blocks(item_size(old or new), KB)
        elif any(old[k] != new[k] for k in index.keys):
            units += blocks(item_size(old), KB) + blocks(item_size(new), KB)
        else:
            units += max(blocks(item_size(old), KB), blocks(item_size(new), KB))
    return units


@dataclass
class Charge:
    """What one request cost."""

    operation: str
    write_units: float = 0.0  # the table's and the GSIs'
    index_units: float = 0.0  # the GSIs' share
    read_units: float = 0.0
    items: int = 0  # items the request returned
    item_bytes: int = 0


@dataclass
class _Pending:
    table: str = ""
    params: dict = field(default_factory=dict)
    # (table, key, the item before, 2 in a transaction else 1)
    writes: list[tuple[str, Item, Item | None, int]] = field(default_factory=list)


_WORD = re.compile(r"[#:][A-Za-z0-9_]+")


class Meter:
    """Charges every DynamoDB request of the clients it is attached to; `take` returns the sums
    since the last `take` (and `charges` each request's)."""

    def __init__(self, client: Any = None) -> None:
        self.peek = boto3.client("dynamodb")  # not attached: its reads are not charged
        self._tables: dict[str, Table] = {}
        self.charges: list[Charge] = []
        if client is not None:
            self.attach(client)

    def attach(self, client: Any) -> "Meter":
        client.meta.events.register("before-parameter-build.dynamodb", self._before)
        client.meta.events.register("after-call.dynamodb", self._after)
        return self

    def detach(self, client: Any) -> None:
        """CLIENT's requests no longer charged."""
        client.meta.events.unregister("before-parameter-build.dynamodb", self._before)
        client.meta.events.unregister("after-call.dynamodb", self._after)

    # The sums ------------------------------------------------------------------------------

    def take(self) -> tuple[Counter[str], list[int], float, float, float]:
        """(requests by operation, each transaction's item count, write units with the GSIs',
        the GSIs' share, read units) since the last take."""
        charges, self.charges = self.charges, []
        operations = Counter(c.operation for c in charges)
        transactions = [int(c.items) for c in charges if c.operation == "TransactWriteItems"]
        return (
            operations,
            transactions,
            sum(c.write_units for c in charges),
            sum(c.index_units for c in charges),
            sum(c.read_units for c in charges),
        )

    def figures(self) -> dict[str, Any]:
        """The reads since the last reset, as benchmarks/boards.py prints them."""
        calls = Counter(c.operation for c in self.charges)
        return {
            "requests": len(self.charges),
            "by operation": " + ".join(f"{n} {op}" for op, n in sorted(calls.items())),
            "items read": sum(c.items for c in self.charges if "Write" not in c.operation),
            "item bytes": sum(c.item_bytes for c in self.charges),
            "read units": sum(c.read_units for c in self.charges),
        }

    @property
    def calls(self) -> Counter[str]:
        return Counter(c.operation for c in self.charges)

    def reset(self) -> None:
        self.charges = []

    # The tables, and the items around a request -----------------------------------------------

    def table(self, name: str) -> Table:
        if name not in self._tables:
            self._tables[name] = table_of(self.peek.describe_table(TableName=name)["Table"])
        return self._tables[name]

    def _item(self, table: str, key: Item) -> Item | None:
        found: Item | None = self.peek.get_item(TableName=table, Key=key, ConsistentRead=True).get("Item")
        return found

    def _read(self, table: str, key: Item, consistent: bool) -> float:
        return blocks(item_size(self._item(table, key)), READ_BLOCK) * (1.0 if consistent else 0.5)

    # The hooks -----------------------------------------------------------------------------

    def _before(self, params: dict, model: Any, context: dict, **_: Any) -> None:
        name = model.name
        pending = _Pending(params.get("TableName", ""), params)
        if name == "PutItem":
            key = self.table(pending.table).key_of(params["Item"])
            pending.writes.append((pending.table, key, self._item(pending.table, key), 1))
        elif name in ("UpdateItem", "DeleteItem"):
            pending.writes.append((pending.table, params["Key"], self._item(pending.table, params["Key"]), 1))
        elif name == "BatchWriteItem":
            for table, requests in params["RequestItems"].items():
                for request in requests:
                    put = request.get("PutRequest")
                    key = self.table(table).key_of(put["Item"]) if put else request["DeleteRequest"]["Key"]
                    pending.writes.append((table, key, self._item(table, key), 1))
        elif name == "TransactWriteItems":
            for entry in params["TransactItems"]:
                ((kind, body),) = entry.items()
                table = body["TableName"]
                key = self.table(table).key_of(body["Item"]) if kind == "Put" else body["Key"]
                pending.writes.append((table, key, self._item(table, key), 2))
        context["wordsqd_meter"] = pending

    def _after(self, parsed: dict, model: Any, context: dict, **_: Any) -> None:
        name = model.name
        pending: _Pending = context.pop("wordsqd_meter", _Pending())
        params = pending.params
        charge = Charge(name)
        if name in FREE:
            return
        if name in ("PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"):
            skipped = self._unprocessed_writes(parsed) if name == "BatchWriteItem" else []
            for table, key, before, times in pending.writes:
                if (table, key) in skipped:
                    continue
                after = self._item(table, key)
                charge.write_units += times * blocks(max(item_size(before), item_size(after)), KB)
                indexed = index_units(self.table(table), before, after)
                charge.write_units += indexed
                charge.index_units += indexed
            if name == "TransactWriteItems":
                charge.items = len(pending.writes)
        elif name in ("GetItem", "BatchGetItem", "TransactGetItems", "Query", "Scan"):
            charge.read_units = self._reads(name, params, parsed)
            found = _returned(parsed)
            charge.items, charge.item_bytes = len(found), sum(item_size(i) for i in found)
        else:
            raise Unmetered(name)
        self.charges.append(charge)

    def _reads(self, name: str, params: dict, parsed: dict) -> float:
        if name == "GetItem":
            return self._read(params["TableName"], params["Key"], bool(params.get("ConsistentRead")))
        if name == "BatchGetItem":
            unprocessed = parsed.get("UnprocessedKeys") or {}
            units = 0.0
            for table, request in params["RequestItems"].items():
                left = unprocessed.get(table, {}).get("Keys", [])
                for key in request["Keys"]:
                    if key not in left:
                        units += self._read(table, key, bool(request.get("ConsistentRead")))
            return units
        if name == "TransactGetItems":
            return sum(
                2 * self._read(e["Get"]["TableName"], e["Get"]["Key"], True) for e in params["TransactItems"]
            )
        evaluated = self._evaluated(name, params)
        return blocks(sum(item_size(i) for i in evaluated), READ_BLOCK) * (
            1.0 if params.get("ConsistentRead") else 0.5
        )

    def _unprocessed_writes(self, parsed: dict) -> list[tuple[str, Item]]:
        left = []
        for table, requests in (parsed.get("UnprocessedItems") or {}).items():
            for request in requests:
                put = request.get("PutRequest")
                key = self.table(table).key_of(put["Item"]) if put else request["DeleteRequest"]["Key"]
                left.append((table, key))
        return left

    def _evaluated(self, name: str, params: dict) -> list[Item]:
        """The whole items (or index entries) a Query or Scan evaluated: the same request again,
        unmetered, without its filter and projection."""
        if "KeyConditions" in params or "QueryFilter" in params or "ScanFilter" in params:
            raise Unmetered(f"{name} with legacy conditions")
        kept = {
            k: params[k]
            for k in ("TableName", "IndexName", "KeyConditionExpression", "ExclusiveStartKey", "Limit")
            if k in params
        }
        kept.update({k: params[k] for k in ("ScanIndexForward", "Segment", "TotalSegments") if k in params})
        used = set(_WORD.findall(params.get("KeyConditionExpression", "")))
        names = {k: v for k, v in (params.get("ExpressionAttributeNames") or {}).items() if k in used}
        values = {k: v for k, v in (params.get("ExpressionAttributeValues") or {}).items() if k in used}
        if names:
            kept["ExpressionAttributeNames"] = names
        if values:
            kept["ExpressionAttributeValues"] = values
        reply = getattr(self.peek, "query" if name == "Query" else "scan")(**kept)
        items: list[Item] = reply.get("Items", [])
        return items


def _returned(parsed: dict) -> list[Item]:
    if "Items" in parsed:
        return list(parsed["Items"])
    if "Responses" in parsed:
        responses = parsed["Responses"]
        if isinstance(responses, list):
            return [r["Item"] for r in responses if r.get("Item")]
        return [i for items in responses.values() for i in items]
    return [parsed["Item"]] if parsed.get("Item") else []
