"""The embedded store's table on disk (docs/local.md): a snapshot and a journal in DATA_DIR,
kept by the store's own process (local/moto_server.py), which applies one request at a time.

- `dynamodb.journal`: one line per request that changed the table, appended and flushed to the
  disk (fdatasync) before that request is answered. A line holds the after-image of every item
  the request touched (its key and its attributes, or null once deleted), so replaying a line
  twice changes nothing.
- `dynamodb.json`: the snapshot, every item as the request layer writes it (DynamoDB JSON). The
  journal is compacted into it (written whole to a temporary file, flushed, renamed over the old
  one, then the journal emptied) once the journal has grown past the snapshot's size, and when
  the store stops. Taken under the store's lock, so it is one moment of the table.
- On start: the snapshot, then every whole line of the journal on top of it, leave out the
  items whose TTL has passed, put what is left into the fresh table (each a stream INSERT, so
  the stream consumer sees every item again: counting is idempotent), compact.

A line cut short (the store killed mid-write, never answered) is dropped at the next start; any
other unreadable line stops the start, since serving without it would lose acknowledged writes.
"""

import base64
import json
import os
import time
from pathlib import Path

from moto.dynamodb.models.table import Table

from local import moto_patches
from local.moto_patches import Key
from shared.dynamo.table import TTL_ATTRIBUTE

SNAPSHOT_FILE = "dynamodb.json"
JOURNAL_FILE = "dynamodb.journal"
COMPACT_MIN_BYTES = 8 * 1024 * 1024  # the journal is compacted past max(this, the snapshot's size)


class StoreDataError(Exception):
    """The saved data cannot be read back whole."""


class DurableTable:
    """One moto table with its writes journaled. Every call is made under the store's lock."""

    def __init__(self, data_dir: Path, table: Table):
        self.table = table
        self.snapshot_path = data_dir / SNAPSHOT_FILE
        self.journal_path = data_dir / JOURNAL_FILE
        self.touched: dict[Key, None] = {}  # in the order first touched
        self._journal_fd = -1
        self._journal_bytes = 0
        self._snapshot_bytes = 0

    # What changed: the backend's writes report the keys they touch (install_hooks) ------------

    def touch(self, table: Table, key: Key) -> None:
        if table is self.table:
            self.touched[key] = None

    def commit(self) -> None:
        """Append the after-images of the items touched since the last commit, on disk before
        this returns (the request is answered after it)."""
        if not self.touched:
            return
        entries = [[self._key_json(key), self._image(key)] for key in self.touched]
        self.touched.clear()
        line = (json.dumps(entries, separators=(",", ":"), default=_base64) + "\n").encode()
        os.write(self._journal_fd, line)
        os.fdatasync(self._journal_fd)
        self._journal_bytes += len(line)

    def wants_compaction(self) -> bool:
        return self._journal_bytes > max(COMPACT_MIN_BYTES, self._snapshot_bytes)

    # Start and compaction -------------------------------------------------------------------

    def load(self, now: float | None = None) -> int:
        """Put the saved items (snapshot, then journal) into the empty table, leaving out those
        whose TTL has passed (moto never expires items, DynamoDB would have deleted them);
        compact; returns how many items were put."""
        items: dict[str, dict] = {}
        if self.snapshot_path.exists():
            try:
                for image in json.loads(self.snapshot_path.read_text())["items"]:
                    items[self._key_text(image)] = image
            except (ValueError, KeyError, TypeError) as error:
                raise StoreDataError(f"cannot read {self.snapshot_path}: {error}") from error
        self._replay(items)
        moment = time.time() if now is None else now
        kept = [image for image in items.values() if not _expired(image, moment)]
        for image in kept:
            self.table.put_item(image)
        self.touched.clear()
        self._journal_fd = os.open(self.journal_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self.compact()
        return len(kept)

    def compact(self) -> int:
        """Write the whole table as the snapshot, then empty the journal; returns the item count.
        A crash at any point leaves a snapshot and a journal that together hold every write."""
        images = [item.to_json()["Attributes"] for item in self.table.all_items()]
        data = json.dumps({"table": self.table.name, "items": images}, default=_base64).encode()
        temporary = self.snapshot_path.with_name(SNAPSHOT_FILE + ".tmp")
        with open(temporary, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, self.snapshot_path)
        _fsync_directory(self.snapshot_path.parent)
        # Only now: the journal's lines are all in the snapshot (replaying them again is harmless).
        os.ftruncate(self._journal_fd, 0)
        os.fsync(self._journal_fd)
        self._journal_bytes = 0
        self._snapshot_bytes = len(data)
        return len(images)

    def close(self) -> None:
        if self._journal_fd >= 0:
            os.close(self._journal_fd)
            self._journal_fd = -1

    def _replay(self, items: dict[str, dict]) -> None:
        if not self.journal_path.exists():
            return
        raw = self.journal_path.read_bytes()
        lines = raw.split(b"\n")
        # Everything after the last newline was being written when the store stopped.
        whole, tail = lines[:-1], lines[-1]
        for number, line in enumerate(whole, start=1):
            try:
                entries = json.loads(line)
                for key, image in entries:
                    if image is None:
                        items.pop(self._key_text(key), None)
                    else:
                        items[self._key_text(image)] = image
            except (ValueError, KeyError, TypeError) as error:
                raise StoreDataError(f"{self.journal_path}, line {number}: {error}") from error
        if tail:
            with open(self.journal_path, "r+b") as file:
                file.truncate(len(raw) - len(tail))
                file.flush()
                os.fsync(file.fileno())

    # Keys and images ---------------------------------------------------------------------

    def _key_json(self, key: Key) -> dict:
        names = [self.table.hash_key_attr, self.table.range_key_attr]
        return {name: part.to_json() for name, part in zip(names, key, strict=True) if part is not None}

    def _key_text(self, image: dict) -> str:
        names = [self.table.hash_key_attr, self.table.range_key_attr]
        return json.dumps([image[name] for name in names if name], sort_keys=True)

    def _image(self, key: Key) -> dict | None:
        item = self.table.get_item(*key)
        return None if item is None else item.to_json()["Attributes"]


def report_writes_to(durable: DurableTable) -> None:
    """Have the backend report every item it writes to DURABLE (a put, a delete, an update,
    whether on its own, in a batch or in a transaction; local/moto_patches.py)."""
    moto_patches.observers.append(durable.touch)


def _expired(image: dict, now: float) -> bool:
    ttl = image.get(TTL_ATTRIBUTE, {}).get("N")
    return ttl is not None and float(ttl) <= now


def _base64(value: object) -> str:
    """JSON has no bytes: a binary value moto holds as bytes is written as base64, as on the wire."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    raise TypeError(f"cannot save {type(value).__name__}")


def _fsync_directory(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
