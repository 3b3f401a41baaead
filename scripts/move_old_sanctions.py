"""Move every player's sanctions from an old `SANCTIONS` item (`PLAYER#<sub>`, `SANCTIONS`) onto
their profile, where admission reads them (docs/players.md, "Admission"), then delete the old item
(docs/data-model.md, "Migrations still read"). Until it has run, a ban decided before sanctions
moved to the profile is listed nowhere and holds nowhere: run it once, right after that deploy.

    python scripts/move_old_sanctions.py --table <table name>              # the AWS credentials in use
    python scripts/move_old_sanctions.py --table wordsqd --endpoint-url http://127.0.0.1:8000

One Scan of the table (filtered on `sk = SANCTIONS`, so it reads the whole table once), then per
player each sanction through `add_sanction` (shared/dynamo/sanctions.py: once per case, with its
effect, a ban stopping the runs in play) and the old item's Delete. Safe to run again.
"""

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from old_items import items_with_sort_key, table_of  # noqa: E402

from shared.dynamo import keys  # noqa: E402
from shared.dynamo.sanctions import add_sanction  # noqa: E402
from shared.dynamo.store import DynamoPorts  # noqa: E402
from shared.dynamo.tombstone import sanctions_of  # noqa: E402

OLD_SK = "SANCTIONS"


def move(store: DynamoPorts, item: dict[str, Any]) -> int:
    """The sanctions of one old item onto its player's profile, then the item deleted; how many."""
    player = item["pk"]["S"].removeprefix(keys.PLAYER)
    held = sanctions_of(item)
    for sanction in held:
        add_sanction(store, player, sanction)
    store.db.call("delete_item", Key=keys.key(item["pk"]["S"], OLD_SK))
    return len(held)


def main(argv: list[str] | None = None) -> int:
    table = table_of(__doc__.split("\n\n")[0], argv)
    players = moved = 0
    for item in items_with_sort_key(table.client, table.name, OLD_SK):
        moved += move(table.store, item)
        players += 1
    print(f"moved {moved} sanctions of {players} players onto their profiles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
