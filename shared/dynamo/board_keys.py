"""Where a board's rows live in the `board` index: its partitions, `shards` of them (the stage's
`board_shards`, BOARD_SHARDS: shared/runtime/settings.py). `dynamo_ports` (shared/dynamo/store.py)
builds one from the setting and hands it to the adapters that write a board's rows or read a board
from all its partitions; the keys themselves are spelled by shared/dynamo/keys.py.

A row never moves: it stays in the partition it was written to. Reading more partitions than a
board was written over finds every row still (raising `board_shards` is safe), fewer miss some
(docs/operations.md, "The ten-million night")."""

from dataclasses import dataclass

from shared.dynamo import keys
from shared.game.scope import Scope


@dataclass(frozen=True)
class BoardKeys:
    shards: int

    def __post_init__(self) -> None:
        if self.shards < 1:
            raise ValueError(f"a board needs at least one shard, not {self.shards}")

    def partition(self, scope: Scope, number: int) -> str:
        """Shard NUMBER (0 to `shards` - 1) of SCOPE's board."""
        return keys.board_partition(scope, number)

    def partition_of(self, scope: Scope, player: str) -> str:
        """The partition PLAYER's row on SCOPE's board is written to."""
        return keys.board_partition_of(scope, player, self.shards)
