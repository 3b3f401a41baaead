"""Move every player's stats still in an old `STATS` item onto their profile, then delete that item
(docs/data-model.md, "Migrations still read"). A player's next Daily completion does the
same; this is for the players who do not come back, so that the completion's read of the old
key and `GET /me`'s fallback can be removed afterwards.

    python scripts/move_old_stats.py --table <table name>              # the AWS credentials in use
    python scripts/move_old_stats.py --table wordsqd --endpoint-url http://127.0.0.1:8000

One Scan of the table (filtered on `sk = STATS`, so it reads the whole table once: run it off
peak), then per player the transaction of `move_old_stats` (shared/dynamo/migrations.py).
Safe to run while the game runs and to run again: each move is conditional. Prints how many items
were moved and lists the ones it left.
"""

import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from old_items import items_with_sort_key, table_of  # noqa: E402

from shared.dynamo import keys, migrations  # noqa: E402


def players_with_old_stats(client: Any, table: str) -> Iterator[str]:
    for item in items_with_sort_key(client, table, keys.old_stats_key("")["sk"]["S"]):
        yield item["pk"]["S"].removeprefix(keys.PLAYER)


def main(argv: list[str] | None = None) -> int:
    table = table_of(__doc__.split("\n\n")[0], argv)
    outcomes: Counter[str] = Counter()
    for player in players_with_old_stats(table.client, table.name):
        outcome = migrations.move_old_stats(table.store.db, player)
        outcomes[outcome] += 1
        if outcome in ("kept", "changed"):
            print(f"{outcome}: {keys.player_partition(player)}")
    print(
        f"moved {outcomes['moved']}; kept {outcomes['kept']} (the profile has stats already: look at "
        f"them); changed {outcomes['changed']} (run again); gone meanwhile {outcomes['none']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
