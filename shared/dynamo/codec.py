"""Items encoded and decoded: runs (their compact form), official results with their board row,
top-of-board and inbox rows, renames, and the stream images the consumer reads. Keys are
shared/dynamo/keys.py's; what stays from older layouts is shared/dynamo/migrations.py's.
"""

import json
import secrets
import zlib
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from shared.dynamo import keys
from shared.dynamo.client import Item
from shared.dynamo.keys import position_of, rank_key
from shared.dynamo.table import TTL_ATTRIBUTE
from shared.game.boards import BoardEntry, BoardPosition, PlayerProfile, run_duration_ms
from shared.game.clock import iso, parse_iso
from shared.game.puzzles import Round
from shared.game.results import OfficialResult
from shared.game.runs import AnswerReason, Attempt, Outcome, RoundRecord, Run, record_attempt, skip
from shared.game.scope import Scope
from shared.game.scoring import speed_bonus
from shared.game.stats import PlayerStats
from shared.services.ports import ProfileVersion, StoredProfile

# An inbox item is deleted once folded in; the TTL only sweeps one a crash left behind.
INBOX_TTL_SECONDS = 2 * 24 * 3600


def attributes(**values: Any) -> Item:
    """VALUES as DynamoDB attributes (None values left out)."""
    return {k: attribute(v) for k, v in values.items() if v is not None}


def attribute(value: Any) -> Item:
    """VALUE in DynamoDB JSON, as boto3's TypeSerializer writes it, for the types items hold:
    strings, whole numbers, booleans, bytes, lists and string-keyed maps of them (no floats, as
    there: a number is exact or refused)."""
    if isinstance(value, bool):  # before int: a bool is an int
        return {"BOOL": value}
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, int):
        return {"N": str(value)}
    if isinstance(value, bytes):
        return {"B": value}
    if isinstance(value, list | tuple):
        return {"L": [attribute(v) for v in value]}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"M": {k: attribute(v) for k, v in value.items()}}
    if value is None:
        return {"NULL": True}
    raise TypeError(f"no DynamoDB type for {type(value).__name__}")


# The run item's compact form: the puzzle is referenced (by the run's scope), not copied; a round
# is [outcome, points, attempts], and an accepted round's speed bonus as it was scored after them
# (kept, so a later change of the rule never rewrites a stored run); its prompt is the puzzle's. An
# accepted attempt is [word, elapsed ms], a rejected one [word, reason, elapsed ms], one cut for
# length [word, reason, digest, elapsed ms]. `w` is when the round in play was shown, in
# milliseconds after the start.
_KIND = {"daily": "d", "challenge": "c"}
_OUTCOME: dict[Outcome | None, str | None] = {"accepted": "a", "lost": "l", "skipped": "s", None: None}
_OUTCOME_OF = {code: outcome for outcome, code in _OUTCOME.items()}
_ENDED: dict[Literal["finished", "expired"] | None, str | None] = {
    "finished": "f",
    "expired": "x",
    None: None,
}
_ENDED_OF = {code: ended for ended, code in _ENDED.items()}
_REASON = {
    "empty": "e",
    "too_long": "l",
    "not_letters": "c",
    "letter_order": "o",
    "forbidden_letter": "f",
    "not_a_word": "w",
    "already_used": "u",
}  # a reason not listed here is stored as it is
_REASON_OF = {v: k for k, v in _REASON.items()}


def encode_run(run: Run) -> str:
    body: dict[str, Any] = {
        "k": _KIND[run.kind],
        "d": run.date,
        "c": run.challenge_id,
        "p": run.player,
        "o": int(run.official),
        "a": 1 if run.archive else None,
        "r": run.puzzle_rounds,
        "s": [run.score, run.combo, run.best_combo, run.longest_word_length],
        "t": [run.started_at, run.deadline, run.completed_at],
        "w": run_duration_ms(run.started_at, run.round_shown_at) if run.round_shown_at else None,
        "e": _ENDED[run.ended_by],
        "b": 1 if run.rank_banned else None,
        "h": [_encode_round(r) for r in run.history],
    }
    return json.dumps({k: v for k, v in body.items() if v is not None}, separators=(",", ":"))


def _encode_attempt(attempt: Attempt) -> list[Any]:
    reason = _REASON.get(attempt.reason, attempt.reason) if attempt.reason else None
    if attempt.digest:
        return [attempt.word, reason, attempt.digest, attempt.elapsed_ms]
    return [attempt.word, reason, attempt.elapsed_ms] if reason else [attempt.word, attempt.elapsed_ms]


def _decode_attempt(encoded: list[Any]) -> Attempt:
    # An attempt stored before the run kept times has no trailing number: it took 0 ms.
    elapsed_ms = encoded.pop() if isinstance(encoded[-1], int) else 0
    reason = _REASON_OF.get(encoded[1], encoded[1]) if len(encoded) > 1 else None
    digest = encoded[2] if len(encoded) > 2 else None
    return Attempt(
        word=encoded[0], accepted=reason is None, reason=reason, elapsed_ms=elapsed_ms, digest=digest
    )


def _encode_round(record: RoundRecord) -> list[Any]:
    encoded = [_OUTCOME[record.outcome], record.points, [_encode_attempt(a) for a in record.attempts]]
    return [*encoded, record.speed_bonus] if record.outcome == "accepted" else encoded


def _decode_round(number: int, encoded: list[Any], puzzle: list[Round]) -> RoundRecord:
    outcome, points, attempts, *kept = encoded
    decoded = [_decode_attempt(a) for a in attempts]
    accepted = [a.elapsed_ms for a in decoded if a.accepted]
    # The bonus as it was scored; a round stored before runs kept it has it recomputed.
    bonus = kept[0] if kept else speed_bonus(accepted[0]) if accepted else 0
    return RoundRecord(
        round=number,
        prompt=puzzle[number - 1].prompt,
        forbidden=puzzle[number - 1].forbidden,
        attempts=decoded,
        outcome=_OUTCOME_OF[outcome],
        points=points,
        speed_bonus=bonus,
    )


def decode_run(run_id: str, text: str, puzzle: list[Round]) -> Run:
    body = json.loads(text)
    if body.get("r"):  # a practice of some rounds: PUZZLE is its date's, the run holds those
        puzzle = [puzzle[number - 1] for number in body["r"]]
    score, combo, best_combo, longest = body["s"]
    started_at, deadline, completed_at = body["t"]
    shown = body.get("w")
    history = [_decode_round(number, r, puzzle) for number, r in enumerate(body["h"], start=1)]
    return Run(
        run_id=run_id,
        kind="daily" if body["k"] == "d" else "challenge",
        date=body["d"],
        challenge_id=body.get("c"),
        player=body.get("p"),
        official=bool(body["o"]),
        archive=bool(body.get("a")),
        puzzle=puzzle,
        puzzle_rounds=body.get("r"),
        history=history,
        score=score,
        combo=combo,
        best_combo=best_combo,
        longest_word_length=longest,
        started_at=started_at,
        deadline=deadline,
        completed_at=completed_at,
        ended_by=_ENDED_OF[body.get("e")],
        rank_banned=bool(body.get("b")),
        round_shown_at=iso(parse_iso(started_at) + timedelta(milliseconds=shown))
        if shown is not None
        else None,
    )


# An answer written without reading the run appends its attempt to the item's tail (`tl`, a list
# of strings): an accepted word as two elements, the word itself (so that a condition finds it with
# `contains`) and its arrival in epoch milliseconds; a rejected one as one, "<ms> <reason> <word>";
# a skip of the round in play as one, "<ms>" (SKIPPED after it).
# Reading the run applies the tail in order (elapsed times, points and combo follow from the run
# they arrive in); the next whole write of the run folds it in.
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def encode_tail_attempt(word: str, reason: AnswerReason | None, at: datetime) -> list[str]:
    millis = str((at - _EPOCH) // timedelta(milliseconds=1))
    if reason is None:
        return [word, millis]
    return [f"{millis} {_REASON.get(reason, reason)} {word}"]


SKIPPED = " -"


def encode_tail_skip(at: datetime) -> list[str]:
    return [f"{(at - _EPOCH) // timedelta(milliseconds=1)}{SKIPPED}"]


def apply_tail(run: Run, tail: list[str]) -> None:
    """Apply the attempts and skips of an item's tail to RUN, oldest first (an accepted word is
    letters only, so it never starts with a digit as the other elements do)."""
    elements = iter(tail)
    for element in elements:
        if element.endswith(SKIPPED) and element[: -len(SKIPPED)].isdigit():
            skip(run, run.round_number, _EPOCH + timedelta(milliseconds=int(element[: -len(SKIPPED)])))
            continue
        if element[:1].isdigit():
            millis, code, word = element.split(" ", 2)
            reason: AnswerReason | None = _REASON_OF.get(code, code)  # type: ignore[assignment]
        else:
            word, millis, reason = element, next(elements), None
        record_attempt(run, word, reason, _EPOCH + timedelta(milliseconds=int(millis)))


# Official results and board rows ---------------------------------------------------------------


def official_item(result: OfficialResult, name: str | None, shards: int) -> Item:
    """The official result's item: the result, its board row (rank key, words, the player's
    display name NAME at completion, in one of the board's SHARDS) and its history key. An
    unranked result (SPEC §3b) has no board row (so no board index entry, no count, no top row)
    and carries `unranked_reason` (absent: ranked), which league boards filter on."""
    scope = result.scope
    item: Item = {
        **keys.official_key(result.player, scope),
        "data": {"S": result.model_dump_json()},
        "words": {"L": [{"S": w} for w in result.words]},
        "history_pk": {"S": keys.history_partition(result.player)},
        "history_sk": {"S": keys.history_sort(result.completed_at, scope)},
    }
    if result.unranked_reason:
        item["unranked_reason"] = {"S": result.unranked_reason}
    else:
        item["board_pk"] = {"S": keys.board_partition_of(scope, result.player, shards)}
        item["board_sk"] = {"S": rank_key(BoardPosition.of(result))}
    if name:
        item["name"] = {"S": name}
    return item


def official_result_of(item: Item) -> OfficialResult:
    """The official result an official item (or a stream record's NewImage of one) holds."""
    return OfficialResult.model_validate_json(item["data"]["S"])


def ranked(item: Item) -> bool:
    """Whether an official item's result is ranked: one with an `unranked_reason` (an implausible
    run, SPEC §3b), as an attribute or in its result, is on no board; a missing reason: ranked."""
    if item.get("unranked_reason", {}).get("S"):
        return False
    return json.loads(item["data"]["S"]).get("unranked_reason") is None


def entry(item: Item) -> BoardEntry:
    """A board row from an official item or its `board` index entry."""
    return BoardEntry(
        player=keys.player_of(item),
        position=position_of(item["board_sk"]["S"]),
        words=[w["S"] for w in item.get("words", {}).get("L", [])],
        display_name=item.get("name", {}).get("S"),
    )


def display_name(item: Item | None) -> str | None:
    """The display name a profile item shows (None: none set, or no profile)."""
    return item.get("display_name", {}).get("S") if item else None


# Top-of-board and inbox items ------------------------------------------------------------------


def _packed(rows: list[list[Any]]) -> Item:
    """ROWS as compact JSON, zlib-compressed, in a binary attribute: items cost by size, and the
    rows' rank keys, dates and words compress to about half."""
    return {"B": zlib.compress(json.dumps(rows, separators=(",", ":")).encode())}


def _unpacked(attribute: Item) -> list[list[Any]]:
    rows: list[list[Any]] = json.loads(zlib.decompress(attribute["B"]))
    return rows


def top_rows(item: Item | None, words: Item | None = None) -> tuple[list[BoardEntry], int]:
    """The rows of a top-of-board item and its version (no item: none, version 0), with the words
    of its WORDS item when given (without it, a row's words are empty, or those a row written
    before the words had their own item holds)."""
    if not item:
        return [], 0
    held = dict(_unpacked(words["words"])) if words else {}
    rows = [
        BoardEntry(player, position_of(key), held.get(player, old[0] if old else []), name)
        for player, key, name, *old in _unpacked(item["rows"])
    ]
    return rows, int(item["version"]["N"])


def top_items(scope: Scope, rows: list[BoardEntry], version: int) -> tuple[Item, Item]:
    """A top-of-board item: its rows ([player, rank key, name] each) packed, and its version; and
    its words item ([player, words] each, packed): a live board's page reads only the first, so
    the words it hides are not paid for."""
    top = {
        **keys.top_key(scope),
        "rows": _packed([[e.player, rank_key(e.position), e.display_name] for e in rows]),
        "version": {"N": str(version)},
    }
    words = {**keys.top_words_key(scope), "words": _packed([[e.player, e.words] for e in rows])}
    return top, words


def inbox_item(scope: Scope, rows: list[BoardEntry], now: float, token: str) -> Item:
    """An inbox item: ROWS left for SCOPE's top item ([player, rank key, words] each, no name)
    packed like the top item's, in the inbox partition TOKEN picks; deleted once folded in."""
    return {
        **keys.inbox_key(scope, now, token),
        "rows": _packed([[e.player, rank_key(e.position), e.words] for e in rows]),
        TTL_ATTRIBUTE: {"N": str(int(now) + INBOX_TTL_SECONDS)},
    }


def inbox_rows(item: Item) -> list[BoardEntry]:
    """The rows an inbox item holds (without names: the fold reads those)."""
    return [
        BoardEntry(player, position_of(key), words, None) for player, key, words in _unpacked(item["rows"])
    ]


# Renames ----------------------------------------------------------------------------------------
#
# `PUT /me` writes a rename's record (the `PLAYER#<sub>` / `RENAME` item) in the transaction that
# claims the name, with a fresh token each time, so every rename (the same name set again
# included) is one stream record. The stream consumer (functions/leaderboard/counters.py) takes
# each INSERT or MODIFY of such an item and shows the profile's current name on the player's live
# boards; the stack's event source filters on the same sort key (infra/schedule.py), and `make
# run`'s poller too (local/streams.py).


def rename_item(player: str, name: str) -> Item:
    """The rename's item (DynamoDB JSON): who, the name set, and a token of its own."""
    return {**keys.rename_key(player), "name": {"S": name}, "token": {"S": secrets.token_hex(8)}}


def renamed_player(event_name: str, record_keys: Item) -> str | None:
    """The player whose rename a stream record (its eventName and Keys) carries, else None."""
    if event_name not in ("INSERT", "MODIFY") or record_keys.get("sk", {}).get("S") != keys.RENAME_SK:
        return None
    partition = record_keys.get("pk", {}).get("S", "")
    return partition.removeprefix(keys.PLAYER) if partition.startswith(keys.PLAYER) else None


def is_official_insert(event_name: str, record_keys: Item) -> bool:
    """Whether a stream record (its eventName and Keys) inserts an official result."""
    return event_name == "INSERT" and record_keys.get("sk", {}).get("S", "").startswith(keys.OFFICIAL)


def stats_of(profile: Item) -> tuple[PlayerStats | None, ProfileVersion]:
    """The stats a profile item holds and their version (0: none yet)."""
    if "stats_version" not in profile:
        return None, ProfileVersion(0)
    stats = PlayerStats.model_validate_json(profile["stats"]["S"])
    return stats, ProfileVersion(int(profile["stats_version"]["N"]))


def stored_profile(profile: Item | None) -> StoredProfile:
    """The profile a completion writes against, from its item as read."""
    stats, version = stats_of(profile or {})
    # A result completed under a rank ban or a ban stays off the boards (shared/dynamo/tombstone.py).
    ends = [(profile or {}).get(name, {}).get("S") for name in ("rank_banned_until", "banned_until")]
    rank_banned_until = max((end for end in ends if end), default=None)
    return StoredProfile(PlayerProfile(display_name(profile or {}), stats, rank_banned_until), version)


def pending_of(item: Item | None) -> frozenset[str]:
    """The runs a board's pending item lists (its rows under review); none without the item."""
    return frozenset((item or {}).get("runs", {}).get("SS", []))
