"""Rank counters on DynamoDB: kept by the stream consumer (functions/leaderboard/counters.py), one
summed update per counter item per batch (`count_official`), and read for a rank in one
BatchGetItem (`count_better`). Each counted batch then goes to the top of its boards
(shared/dynamo/top.py). Items and keys are described in docs/leaderboards.md.

Three levels, so every counter item stays small (an update costs by item size) and a rank reads
three items per counter shard (shared/dynamo/keys.py `counter_keys`). Scores run from 0 to
MAX_SCORE, so `BANDS` has at most MAX_SCORE // SCORE_BAND + 1 attributes and a band's `SCORES`
item at most SCORE_BAND. Every counting transaction adds to the `BANDS` item (and, at the rush,
to the popular bands' and scores' items), and there is one counting transaction per consumer
invocation, so their number follows the stream's shards, not the completions
(docs/data-model.md, "Writes per partition at the rush"): each transaction adds to one of COUNTER_SHARDS
copies, picked at random, and a rank sums them all.
"""

import secrets
from collections import Counter, defaultdict

from shared.dynamo import keys
from shared.dynamo.client import Client, Item
from shared.dynamo.keys import rank_key
from shared.dynamo.top import TopOfBoard
from shared.game.boards import BoardPosition, TieKey
from shared.game.ranking import Level, tally
from shared.game.results import OfficialResult
from shared.game.scope import Scope
from shared.game.standing import Standing

# A rank may trail a completion by the consumer's lag (a second or two); reusing the counter items
# a container read for up to a second more keeps the rush's rank reads off the `BANDS` items.
RANK_CACHE_SECONDS = 1.0
_CACHE_ITEMS = 10_000  # past this many cached counter items, expired ones are dropped
_TRANSACTION_ITEMS = 100  # DynamoDB's limit on items per TransactWriteItems
# Counter attributes one update may add to (moto's expression parser recurses once per clause).
_COUNTER_CLAUSES = 40
# A counter attribute's first letter names its level (shared/dynamo/keys.py `counter_keys`).
_LEVELS: dict[str, Level] = {"b": "band", "s": "score", "t": "tie"}


class Counters:
    """`cache_seconds` is how long a container reuses a counter item it read for a rank (0: read
    every time); the stack's functions and `make run` use RANK_CACHE_SECONDS
    (shared/runtime/wiring.py)."""

    def __init__(self, db: Client, top: TopOfBoard, cache_seconds: float = 0.0):
        self.db = db
        self.top = top
        self.cache_seconds = cache_seconds
        self._cache: dict[str, tuple[float, Item | None]] = {}

    def count_official(self, results: list[OfficialResult]) -> int:
        """Count RESULTS for ranks (`count_official`)."""
        return count_official(self.db, self.top, results)

    def count_better(self, scope: Scope, tie: TieKey) -> int:
        """How many counted results of SCOPE rank strictly better than TIE (`standing`'s read)."""
        return self.standing(scope, tie).better

    def standing(self, scope: Scope, tie: TieKey | None) -> Standing:
        """SCOPE's counted results per score band and, for a TIE, how many rank strictly better
        and how many share it: one BatchGetItem of three small counter items per counter shard
        (only the `BANDS` item without a tie), whatever the number of players (fewer when this
        container read some of them less than `cache_seconds` ago)."""
        return standing_of(self._counter_items(standing_keys(scope, tie)), tie)

    def _counter_items(self, wanted: list[Item]) -> list[Item]:
        """The counter items at WANTED (those that exist), each read at most once per
        `cache_seconds` by this container: at the rush every finisher reads a rank, and every
        rank reads the `BANDS` items, so without this they would take every rank read."""
        if self.cache_seconds <= 0:
            return list(self.db.batch_get(wanted))
        now = self.db.wall()
        self._forget_expired(now)
        names = [_cache_name(key) for key in wanted]
        missing = [key for key, name in zip(wanted, names, strict=True) if not self._fresh(name, now)]
        if missing:
            read = {_cache_name(item): item for item in self.db.batch_get(missing)}
            for name in map(_cache_name, missing):
                self._cache[name] = (now + self.cache_seconds, read.get(name))
        return [item for name in names if (item := self._cache[name][1]) is not None]

    def _fresh(self, name: str, now: float) -> bool:
        held = self._cache.get(name)
        return held is not None and held[0] > now

    def _forget_expired(self, now: float) -> None:
        """Past _CACHE_ITEMS cached counter items, drop the expired ones."""
        if len(self._cache) > _CACHE_ITEMS:
            for name in [name for name, (until, _) in self._cache.items() if until <= now]:
                del self._cache[name]


def count_official(db: Client, top: TopOfBoard, results: list[OfficialResult]) -> int:
    """Count RESULTS for ranks, each exactly once however often it is delivered; returns how
    many were counted now (the rest had been counted before).

    Each transaction marks its results `counted` (on condition that the stored official result
    is that very result and not yet counted) and adds the summed increments to the counter
    items of one counter copy, picked at random: all of it or nothing. A result already marked
    (or not the stored one) cancels its transaction; it is dropped and the rest is tried again.
    So a retried batch never counts twice, and a crash mid-batch never loses a count. An
    unranked result (SPEC §3b) is neither counted nor brought into the top of its board."""
    results = [result for result in results if result.ranked]
    counted = sum(_count(db, chunk) for chunk in chunks(results))
    by_scope: dict[Scope, list[OfficialResult]] = defaultdict(list)
    for result in results:
        by_scope[result.scope].append(result)
    for scope, arrived in by_scope.items():
        top.merge(scope, arrived)
    return counted


def _count(db: Client, chunk: list[OfficialResult]) -> int:
    """Count CHUNK in one transaction, tried again without the results it finds counted
    already (or not stored); returns how many it counted."""
    pending = list(chunk)
    while pending:
        codes = db.transact(_counting_items(pending, secrets.randbelow(keys.COUNTER_SHARDS)))
        if not codes:
            return len(pending)
        done = {i for i, code in enumerate(codes[: len(pending)]) if code == "ConditionalCheckFailed"}
        if not done:
            raise RuntimeError(f"counting transaction cancelled: {codes}")
        pending = [r for i, r in enumerate(pending) if i not in done]
    return 0


def standing_keys(scope: Scope, tie: TieKey | None) -> list[Item]:
    """The counter items a standing reads: without a TIE, the `BANDS` item of each counter
    shard; with one, its three items of each shard."""
    if tie is None:
        return [keys.bands_key(scope, number) for number in range(keys.COUNTER_SHARDS)]
    return [key for number in range(keys.COUNTER_SHARDS) for key, _ in keys.counter_keys(scope, tie, number)]


def standing_of(items: list[Item], tie: TieKey | None) -> Standing:
    """The standing the counter ITEMS (`standing_keys`'s, those that exist) add up to."""
    counters = [
        (_LEVELS[name[0]], name[1:], int(value["N"]))
        for item in items
        for name, value in item.items()
        if name[:1] in _LEVELS and name not in ("pk", "sk")
    ]
    return tally(counters, tie)


def _cache_name(key: Item) -> str:
    return f"{key['pk']['S']}\n{key['sk']['S']}"


def _tie(result: OfficialResult) -> TieKey:
    return BoardPosition.of(result).tie


def chunks(results: list[OfficialResult]) -> list[list[OfficialResult]]:
    """RESULTS in groups whose counting transaction (one marker per result, one update per
    counter item) stays within DynamoDB's item limit, each update within _COUNTER_CLAUSES
    attributes. Sorted by board and score first, so a group shares counter items and one
    transaction counts as many results as it can."""
    groups: list[list[OfficialResult]] = []
    current: list[OfficialResult] = []
    counters: dict[str, set[str]] = defaultdict(set)  # counter item -> attributes added to
    for result in sorted(results, key=lambda r: (keys.scope_key(r.scope), r.score)):
        added = [(key["pk"]["S"], name) for key, name in keys.counter_keys(result.scope, _tie(result))]
        if current and not _fits(len(current), counters, added):
            groups.append(current)
            current, counters = [], defaultdict(set)
        current.append(result)
        for pk, name in added:
            counters[pk].add(name)
    if current:
        groups.append(current)
    return groups


def _fits(results: int, counters: dict[str, set[str]], added: list[tuple[str, str]]) -> bool:
    """Whether a transaction counting RESULTS results in COUNTERS (counter item -> attributes)
    takes one more result adding to ADDED (counter item, attribute) within DynamoDB's limits."""
    new_items = sum(1 for pk, _ in added if pk not in counters)
    if results + 1 + len(counters) + new_items > _TRANSACTION_ITEMS:
        return False
    return all(len(counters[pk] | {name}) <= _COUNTER_CLAUSES for pk, name in added)


def _counting_items(results: list[OfficialResult], number: int) -> list[Item]:
    """One marker update per result (first, in order), then one summed ADD per counter item of
    counter shard NUMBER."""
    items: list[Item] = []
    sums: dict[str, tuple[Item, Counter[str]]] = {}
    for result in results:
        scope = result.scope
        items.append(
            {
                "Update": {
                    "Key": keys.official_key(result.player, scope),
                    "UpdateExpression": "SET counted = :yes",
                    # The stored result must be this one (its rank key names the run), not yet counted.
                    "ConditionExpression": "board_sk = :position AND attribute_not_exists(counted)",
                    "ExpressionAttributeValues": {
                        ":yes": {"BOOL": True},
                        ":position": {"S": rank_key(BoardPosition.of(result))},
                    },
                }
            }
        )
        for key, name in keys.counter_keys(scope, _tie(result), number):
            sums.setdefault(key["pk"]["S"], (key, Counter()))[1][name] += 1
    items += [_add(key, counts) for key, counts in sums.values()]
    return items


def _add(key: Item, counts: Counter[str]) -> Item:
    names = sorted(counts)
    return {
        "Update": {
            "Key": key,
            "UpdateExpression": "ADD " + ", ".join(f"#a{n} :v{n}" for n in range(len(names))),
            "ExpressionAttributeNames": {f"#a{n}": name for n, name in enumerate(names)},
            "ExpressionAttributeValues": {f":v{n}": {"N": str(counts[name])} for n, name in enumerate(names)},
        }
    }
