"""Races on the conditional writes (SPEC §3, §5), against moto's SERVER mode over real HTTP.

In-process `mock_aws` was seen letting two racing conditional puts on one key both succeed, so
these tests start moto's `ThreadedMotoServer` on a free port and talk to it with a real boto3
client, as the Lambda talks to DynamoDB. Every racer waits on a `threading.Barrier`, so the
requests really start together, and each race is repeated ROUNDS times so a lucky pass is unlikely.

moto applies one request at a time only by luck: its requests interleave, so a cancelled
transaction puts back items that other requests wrote meanwhile (moto's own puts back a copy of
the whole table; the tests' and `make run`'s put back the items it touched, local/moto_patches.py),
and moto's own can fail with "dictionary changed size during iteration" (a 500). DynamoDB applies
each request atomically, so the server here does too (one lock around each request, see
SerializedMotoServer, as `make run`'s store, local/moto_server.py); the races under test are the
game's own, between its reads and its conditional writes, which still interleave freely.
(RACES_RAW_MOTO=1 runs them on the plain ThreadedMotoServer, to see moto's own interleaving.)

Each repetition plays on its own date (a Game with a fixed clock), so its puzzle, official
results and rank counters start empty.
"""

import logging
import os
import re
import secrets
import socket
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from functools import cache, partial
from itertools import count, islice
from typing import Any

import boto3
import pytest
from botocore.config import Config
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
from moto.server import ThreadedMotoServer
from werkzeug.serving import make_server

from functions.leaderboard.counters import count_stream_batch
from local.streams import StreamPoller
from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import DynamoPorts, dynamo_ports
from shared.dynamo.table import create_table_request
from shared.game.boards import TieKey
from shared.game.daily_date import daily_date
from shared.game.dictionary import DICTIONARY_DIR, words
from shared.game.errors import Conflict, GameError
from shared.game.names import contains_blocked_word, name_skeleton
from shared.game.puzzles import generate_puzzle, seed_for_date
from shared.game.runs import Run
from shared.game.scope import Scope
from shared.http.models import RunView
from shared.runtime.wiring import Services
from shared.services.game import Game
from shared.services.ports import Slot

pytestmark = [pytest.mark.server, pytest.mark.xdist_group("moto_server_races")]

SECRET = b"seed"
ROUNDS = 3  # repetitions of each race: every variant below (a later slot, a guest, an old name) is in 3


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class SerializedMotoServer(ThreadedMotoServer):
    """moto's threaded server, with each request applied atomically as DynamoDB applies it."""

    def _server_entry(self) -> None:
        app = DomainDispatcherApplication(create_backend_app)
        lock = threading.Lock()

        def one_request_at_a_time(environ, start_response):
            # moto's request threads run moto's code, not ours: untraced, so a coverage run does
            # not slow the server down (about twice) and stretch every race.
            sys.settrace(None)
            with lock:
                return list(app(environ, start_response))

        self._server = make_server(
            self._ip_address, self._port, one_request_at_a_time, True, request_handler=MotoRequestHandler
        )
        self._server_ready_event.set()
        self._server.serve_forever()


@pytest.fixture(scope="module")
def client():
    """A boto3 DynamoDB client talking HTTP to a moto server started for this module."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    port = _free_port()
    server_class = ThreadedMotoServer if os.environ.get("RACES_RAW_MOTO") else SerializedMotoServer
    server = server_class(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        dynamodb = boto3.client(
            "dynamodb",
            endpoint_url=f"http://127.0.0.1:{port}",
            region_name="us-east-1",
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
            config=Config(max_pool_connections=64, retries={"mode": "standard", "max_attempts": 3}),
        )
        yield dynamodb
    finally:
        server.stop()


@pytest.fixture
def store(client, request) -> DynamoPorts:
    """The game's table, one per test (moto copies a whole table on each transaction)."""
    name = f"races-{request.node.name[5:40]}"
    client.create_table(**create_table_request(name))
    return dynamo_ports(name, client, board_shards=BOARD_SHARDS)


def game_on(store: DynamoPorts, month: int, day: int) -> Game:
    """A Game whose clock starts at midday (Central) on 2031-MONTH-DAY and moves on a second at
    each reading: answers come at a person's pace, so fair play (SPEC §3b) ranks the runs."""
    instant = datetime(2031, month, day, 18, 0, tzinfo=UTC)
    ticks = count()
    return Game(
        store.runs, store.results, lambda: SECRET, words, now=lambda: instant + timedelta(seconds=next(ticks))
    )


def a_name(prefix: str, digits: int = 8) -> str:
    """A fresh display name, PREFIX and random hex: drawn again while the name rules would refuse
    it (about 1 in 650 such names spells a blocked word by its look-alike skeleton, e.g. `b0`)."""
    while True:
        name = f"{prefix} {secrets.token_hex(digits // 2)}"
        if not contains_blocked_word(name):
            return name


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run each call on its own thread, all released together; each one's result or exception."""
    barrier = threading.Barrier(len(calls))

    def racer(call: Callable[[], Any]) -> Any:
        barrier.wait(timeout=120)  # a hang guard (a racer that never starts), not a timing
        try:
            return call()
        except Exception as error:  # the race's outcome, inspected by the test
            return error

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(racer, calls))


def scan(store: DynamoPorts, prefix: str) -> list[dict]:
    """Every item whose partition key starts with PREFIX (the tables here are small)."""
    items: list[dict] = []
    kwargs: dict[str, Any] = {
        "TableName": store.table,
        "FilterExpression": "begins_with(pk, :p)",
        "ExpressionAttributeValues": {":p": {"S": prefix}},
        "ConsistentRead": True,
    }
    while True:
        page = store.client.scan(**kwargs)
        items.extend(page["Items"])
        if "LastEvaluatedKey" not in page:
            return items
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def runs_of(store: DynamoPorts, player: str) -> list[Run]:
    """Every stored run of PLAYER, read through the store."""
    runs = [store.runs.get_run(item["pk"]["S"].removeprefix("RUN#")).run for item in scan(store, "RUN#")]
    return [run for run in runs if run.player == player]


def count_stream(store: DynamoPorts) -> int:
    """Run the rank counters' stream consumer over everything the table's stream holds (it
    counts each official result once, however often it is delivered)."""

    follow = Services(store).players

    def counters(event: dict, context: Any) -> dict:
        return count_stream_batch(event, context, store.ranks.count_official, follow.show_current_name)

    return StreamPoller(store.table, handler=counters, endpoint_url=store.client.meta.endpoint_url).drain()


WORDS_PER_ROUND = 16  # more than a run can use plus the largest CHOICE below


@cache
def accepted_words(prompt: str, forbidden: str) -> list[str]:
    """The first WORDS_PER_ROUND accepted answers (shared.game.puzzles.answers' pattern, read lazily:
    the whole list takes 14 ms of regex a prompt, and the tests here use hundreds of prompts)."""
    allowed = "".join(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in forbidden.lower())
    letter = f"[{allowed}]*"
    pattern = re.compile("^" + letter + letter.join(prompt.lower()) + letter + "$", re.MULTILINE)
    return [m.group() for m in islice(pattern.finditer(word_list()), WORDS_PER_ROUND)]


@cache
def word_list() -> str:
    return (DICTIONARY_DIR / "words.txt").read_text(encoding="ascii")


def word_for(run: Run, choice: int = 0) -> str:
    """An accepted answer for the round in play."""
    current = run.puzzle[run.round_number - 1]
    used = set(run.accepted_words())  # a word accepted once in a run is already_used after
    found = [w for w in accepted_words(current.prompt, current.forbidden) if w not in used]
    return found[choice % len(found)]


def answer_reply(result, run: Run) -> dict:
    """What the handler sends back for an answer (functions/daily/handler.py)."""
    return {
        "accepted": result.accepted,
        "reason": result.reason,
        "points": result.points,
        "run": RunView.from_run(run).model_dump(mode="json"),
    }


# (a) One official score ------------------------------------------------------------------------


def test_the_expiry_job_reads_and_starts_racing_at_a_deadline_complete_the_run_once_and_keep_it_official(
    store, monkeypatch
):
    """16 callers touch a player's expired official run at once: the one-minute job, reads of the
    run and new starts (each of which completes the expired run before it starts another)."""
    # The race is on the run's item; each pass of the job queries every shard of the `due` index,
    # so with 64 shards 1,600 of the test's 2,300 requests were empty queries. Four shards still
    # spread the runs (the index's layout has its own test in test_dynamo.py).
    monkeypatch.setattr("shared.dynamo.keys.DUE_SHARDS", 4)
    for repetition in range(ROUNDS):
        game = game_on(store, 1, repetition + 1)
        day = daily_date(game.now()).isoformat()
        player = f"racer-a-{secrets.token_hex(4)}"
        run, _ = game.start_daily(player)
        for number in range(1, 4):
            _, run = game.answer(run.run_id, player, number, 1, word_for(run, repetition))
        deadline_passed = game.now() + timedelta(seconds=181)
        later = Game(store.runs, store.results, lambda: SECRET, words, now=lambda at=deadline_passed: at)
        calls = [later.expire_due_runs] * 5 + [partial(later.get_run, run.run_id, player)] * 6
        calls += [partial(later.start_daily, player)] * 5

        outcomes = race(calls)

        assert [o for o in outcomes if isinstance(o, Exception)] == [], f"repetition {repetition}"
        official = store.results.official_result(player, Scope.daily(day))
        assert official is not None and official.run_id == run.run_id and official.score == run.score
        stored = {r.run_id: r for r in runs_of(store, player)}
        assert stored[run.run_id].completed and stored[run.run_id].ended_by == "expired"
        assert stored[run.run_id].official
        practice = [r for r in stored.values() if r.run_id != run.run_id]
        assert len(practice) == 1 and not practice[0].official and not practice[0].completed
        assert {o[0].run_id for o in outcomes[11:]} == {practice[0].run_id}, "every start got one run"
        assert store.runs.slot(player, Scope.daily(day)) == Slot(practice[0].run_id, run.run_id)
        count_stream(store)
        assert store.ranks.count_better(Scope.daily(day), TieKey(0, 0, 0)) == 1
        assert store.boards.player_profile(player).stats.played == 1


def test_concurrent_completions_of_one_players_runs_of_4_dates_all_count_in_their_stats(store):
    """The stats item is read, then written on condition it is unchanged: completions of the same
    player racing (a run of D completing at its deadline after midnight, beside the run of D+1)
    retry from a fresh read, so none is lost. (Only two Daily runs of one player can really
    overlap; four racing stays within the game's retries.)"""
    for repetition in range(ROUNDS):
        player = f"racer-s-{secrets.token_hex(4)}"
        finals = []
        for offset in range(4):
            game = game_on(store, 4 + repetition, 1 + offset)
            run, _ = game.start_daily(player)
            for number in range(1, len(run.puzzle)):
                _, run = game.answer(run.run_id, player, number, 1, word_for(run, offset))
            finals.append(partial(game.answer, run.run_id, player, len(run.puzzle), 1, word_for(run, offset)))

        outcomes = race(finals)

        assert [o for o in outcomes if isinstance(o, Exception)] == [], f"repetition {repetition}"
        completed = [run for _, run in outcomes]
        assert all(run.completed and run.official for run in completed)
        stats = store.boards.player_profile(player).stats
        assert (stats.played, stats.max_streak) == (4, 4), f"repetition {repetition}"
        assert stats.best_score == max(run.score for run in completed)


# (b) One answer per slot ------------------------------------------------------------------------


def _race_one_slot(
    game: Game, store: DynamoPorts, run: Run, player: str | None, repetition: int, rejected: bool = True
) -> Run:
    """12 callers answer the slot in play at once: 8 with one word (in several cases), 4 with
    other words (accepted ones, and rejected ones if REJECTED). Returns the stored run afterwards."""
    number, attempt = run.round_number, run.attempt_number
    same = word_for(run, repetition)
    others = [word_for(run, repetition + k) for k in (1, 2, 3, 4)]
    if rejected:
        others[2:] = ["qzqzq", same + "zq"]
    submitted = [same, same.upper(), same.title(), same, same.upper(), same, same.swapcase(), same] + others
    before, before_version = store.runs.get_run(run.run_id)[:2]

    outcomes = race([partial(game.answer, run.run_id, player, number, attempt, word) for word in submitted])

    after, after_version = store.runs.get_run(run.run_id)[:2]
    assert after_version == before_version + 1, "exactly one write applied the answer"
    record = after.history[number - 1]
    assert len(record.attempts) == attempt, "exactly one attempt fills the slot"
    applied = record.attempts[attempt - 1].word
    gained = record.points if record.attempts[attempt - 1].accepted else 0
    assert after.score == before.score + gained, "the score is counted once"
    replies = []
    for word, outcome in zip(submitted, outcomes, strict=True):
        if word.lower() == applied:
            assert not isinstance(outcome, Exception), (word, outcome)
            replies.append(answer_reply(*outcome))
        else:
            assert isinstance(outcome, Conflict), (word, outcome)
            assert outcome.code == "slot_used"
            assert outcome.run.history[number - 1].attempts[attempt - 1].word == applied
    assert replies and all(reply == replies[0] for reply in replies), "same word, same reply"
    assert replies[0]["run"] == RunView.from_run(after).model_dump(mode="json")
    return after


def test_12_concurrent_answers_to_the_same_slot_apply_once(store):
    for repetition in range(ROUNDS):
        game = game_on(store, 2, repetition + 1)
        player = None if repetition == ROUNDS - 1 else f"racer-b-{secrets.token_hex(4)}"  # last: a guest
        run, created = game.start_daily(player)
        assert created
        if repetition % 2:  # also race a later slot: round 2 after a rejected first attempt
            game.answer(run.run_id, player, 1, 1, "qzqzq")
            game.answer(run.run_id, player, 1, 2, word_for(run))
            run = store.runs.get_run(run.run_id).run
        _race_one_slot(game, store, run, player, repetition)


def test_12_concurrent_answers_that_complete_a_run_complete_it_once(store):
    for repetition in range(ROUNDS):
        game = game_on(store, 3, repetition + 1)
        player = f"racer-b2-{secrets.token_hex(4)}"
        run, _ = game.start_daily(player)
        for number in range(1, len(run.puzzle)):
            _, run = game.answer(run.run_id, player, number, 1, word_for(run))

        after = _race_one_slot(game, store, run, player, repetition, rejected=False)

        assert after.completed and after.ended_by == "finished" and after.official
        official = store.results.official_result(player, Scope.daily(run.date))
        assert official is not None and official.run_id == run.run_id and official.score == after.score
        assert store.runs.slot(player, run.scope) == Slot(run.run_id, run.run_id)
        assert store.boards.player_profile(player).stats.played == 1, "counted once in the player's stats"


# (c) One run per player ------------------------------------------------------------------------


def test_12_concurrent_starts_by_one_player_create_one_run(store):
    for repetition in range(ROUNDS):
        game = game_on(store, 4, repetition + 1)  # a fresh date
        day = daily_date(game.now()).isoformat()
        if repetition:  # the first race also creates the date's puzzle (12 racing generators)
            game.daily_puzzle(day)
        player = f"racer-c-{secrets.token_hex(4)}"

        outcomes = race([partial(game.start_daily, player)] * 12)

        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        assert len({run.run_id for run, _ in outcomes}) == 1, "every caller gets the same run"
        assert sum(created for _, created in outcomes) == 1, "one 201, the rest 200"
        stored = runs_of(store, player)
        assert [run.run_id for run in stored] == [outcomes[0][0].run_id]
        assert stored[0].official and not stored[0].completed
        assert store.runs.slot(player, Scope.daily(day)) == Slot(stored[0].run_id, stored[0].run_id)
        expected = [list(r) for r in generate_puzzle(seed_for_date(SECRET, day), 10, 3)]
        assert [list(r) for r in store.runs.get_puzzle(Scope.daily(day))] == expected
        assert all([list(r) for r in run.puzzle] == expected for run, _ in outcomes)


def test_12_concurrent_starts_across_the_daily_and_two_challenges_create_one_run_per_scope(store):
    for repetition in range(ROUNDS):
        game = game_on(store, 5, repetition + 1)
        day = daily_date(game.now()).isoformat()
        game.daily_puzzle(day)
        challenges = [game.create_challenge(f"maker-{secrets.token_hex(4)}", 5, 1) for _ in range(2)]
        player = f"racer-x-{secrets.token_hex(4)}"
        starts = [partial(game.start_daily, player)] * 4
        starts += [partial(game.start_challenge, player, c.challenge_id) for c in challenges] * 4

        outcomes = race(starts)

        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        by_scope: dict[Scope, set[str]] = {}
        for run, _ in outcomes:
            by_scope.setdefault(run.scope, set()).add(run.run_id)
        expected = {Scope.daily(day), *(Scope.challenge(c.challenge_id) for c in challenges)}
        assert set(by_scope) == expected and all(len(ids) == 1 for ids in by_scope.values())
        assert [run.scope for run, _ in outcomes[:4]] == [Scope.daily(day)] * 4, "the Daily route: Daily runs"
        assert sum(created for _, created in outcomes) == 3
        assert len(runs_of(store, player)) == 3 and all(r.official for r in runs_of(store, player))


def test_24_concurrent_challenge_creations_by_one_player_create_exactly_20(store):
    for repetition in range(2):
        game = game_on(store, 6, repetition + 1)
        player = f"racer-q-{secrets.token_hex(4)}"

        outcomes = race([partial(game.create_challenge, player, 5, 0)] * 24)

        made = [o for o in outcomes if not isinstance(o, Exception)]
        refused = [o for o in outcomes if isinstance(o, Exception)]
        assert len(made) == 20 and all(store.runs.get_challenge(c.challenge_id) == c for c in made)
        assert len(refused) == 4 and all(
            isinstance(o, GameError) and o.code == "too_many_challenges" for o in refused
        )


# (d) Display names -----------------------------------------------------------------------------


def test_concurrent_claims_of_one_display_name_by_different_players_give_it_to_one(store):
    boards = Services(store).players
    for repetition in range(ROUNDS):
        name = a_name(f"Racer {repetition}", 6)
        claims = [name, name.upper(), name.lower(), name.swapcase()] * 2
        players = [f"racer-d-{secrets.token_hex(4)}" for _ in claims]

        outcomes = race(
            [partial(boards.set_display_name, *claim) for claim in zip(players, claims, strict=True)]
        )

        winners = [i for i, o in enumerate(outcomes) if not isinstance(o, Exception)]
        assert len(winners) == 1, outcomes
        losers = [o for o in outcomes if isinstance(o, Exception)]
        assert all(isinstance(o, Conflict) and o.code == "display_name_taken" for o in losers), losers
        holder = scan(store, f"NAME#{name_skeleton(name)}")
        assert [item["player"]["S"] for item in holder] == [players[winners[0]]]
        assert store.names.display_names(players) == {players[winners[0]]: claims[winners[0]]}


def test_concurrent_renames_by_one_player_leave_exactly_the_name_the_profile_shows(store):
    """A double-clicked or retried PUT /me: every call succeeds or is refused cleanly with a
    GameError (409/429), never a StaleRun, which the API turns into a 500; and afterwards the
    player holds one name only, the one the profile shows, so no name stays reserved for nobody."""
    boards = Services(store).players
    for repetition in range(ROUNDS):
        player = f"racer-e-{secrets.token_hex(4)}"
        if repetition % 2:
            boards.set_display_name(player, a_name("Old"))
        names = [a_name("Rename") for _ in range(8)]

        outcomes = race([partial(boards.set_display_name, player, name) for name in names])

        unexpected = [o for o in outcomes if isinstance(o, Exception) and not isinstance(o, GameError)]
        assert unexpected == [], f"repetition {repetition}: {unexpected!r}"
        shown = store.names.display_names([player])[player]
        held = [item["pk"]["S"] for item in scan(store, "NAME#") if item["player"]["S"] == player]
        assert held == [f"NAME#{name_skeleton(shown)}"], f"repetition {repetition}"


def test_a_rename_racing_completions_of_the_players_runs_keeps_every_stat_and_renames_every_row(store):
    """The stats live on the profile: a completion updates them on condition that the profile
    still shows the name (and the stats) it read, and a rename updates the name alone. So a
    rename racing completions never loses a completion's stats, and every row ends up showing
    the new name (a completion that read the old name retries, or the rename finds its row)."""
    players = Services(store).players
    for repetition in range(ROUNDS):
        player = f"racer-f-{secrets.token_hex(4)}"
        if repetition % 2:
            players.set_display_name(player, a_name("Old"))
        finals, days = [], []
        for offset in range(3):
            game = game_on(store, 9, 1 + 4 * repetition + offset)
            run, _ = game.start_daily(player)
            for number in range(1, len(run.puzzle)):
                _, run = game.answer(run.run_id, player, number, 1, word_for(run, offset))
            finals.append(partial(game.answer, run.run_id, player, len(run.puzzle), 1, word_for(run, offset)))
            days.append(run.date)
        name = a_name("Renamed")

        def rename_and_follow(player: str = player, name: str = name) -> None:
            players.set_display_name(player, name)
            players.show_current_name(player)  # the stream consumer's part, as soon as it can

        outcomes = race([*finals, rename_and_follow])

        assert [o for o in outcomes if isinstance(o, Exception)] == [], f"repetition {repetition}"
        profile = store.boards.player_profile(player)
        assert profile.display_name == name
        assert (profile.stats.played, profile.stats.max_streak) == (3, 3), f"repetition {repetition}"
        rows = [store.boards.board_entry(player, Scope.daily(day)) for day in days]
        assert [row.display_name for row in rows] == [name] * 3, f"repetition {repetition}"


# (g) Leagues and erasure -------------------------------------------------------------------------


def test_two_joins_racing_for_a_leagues_last_seat_give_it_to_one(store):
    """A join adds the member on condition that the league has a free seat, in one transaction:
    of two players racing for the 50th seat, one gets it and the other is told the league is
    full, and the league never holds more than 50."""
    from shared.game.constants import LEAGUE_MEMBERS_MAX
    from shared.game.errors import Conflict as LeagueConflict

    leagues = Services(store).leagues
    for repetition in range(ROUNDS):
        league = leagues.create(f"owner-{repetition}", "Office")
        for n in range(1, LEAGUE_MEMBERS_MAX - 1):
            leagues.join(f"member-{repetition}-{n}", league.code)

        outcomes = race([partial(leagues.join, f"late-{repetition}-{n}", league.code) for n in range(2)])

        assert sum(1 for o in outcomes if not isinstance(o, Exception)) == 1, f"repetition {repetition}"
        refused = [o for o in outcomes if isinstance(o, Exception)]
        assert isinstance(refused[0], LeagueConflict) and refused[0].code == "league_full"
        assert len(store.leagues.get_league(league.league_id).members) == LEAGUE_MEMBERS_MAX


def test_an_erasure_racing_a_completion_leaves_only_the_official_result_showing_deleted_player(store):
    """The erasure shows "deleted player" on the profile first and deletes the runs before it
    renames the rows: a completion that read the old name retries and writes the new one, and one
    whose run is gone writes nothing. Whichever wins, the player's only items left are official
    results showing "deleted player", and no run of theirs is left."""
    from shared.game.names import DELETED_PLAYER_NAME
    from shared.runtime.accounts import LocalAccounts
    from shared.services.player_data import PlayerData

    players = Services(store).players
    data = PlayerData(store.player_data, LocalAccounts)
    for repetition in range(ROUNDS):
        player = f"racer-g-{secrets.token_hex(4)}"
        players.set_display_name(player, a_name("Gone"))
        game = game_on(store, 10, 1 + repetition)
        run, _ = game.start_daily(player)
        for number in range(1, len(run.puzzle)):
            _, run = game.answer(run.run_id, player, number, 1, word_for(run))
        final = partial(game.answer, run.run_id, player, len(run.puzzle), 1, word_for(run))

        outcomes = race([final, partial(data.erase, player, player)])

        assert not isinstance(outcomes[1], Exception), f"repetition {repetition}: {outcomes[1]!r}"
        left = [i for i in scan(store, f"PLAYER#{player}") if i["sk"]["S"] != "PROFILE"]  # the tombstone
        assert {item["sk"]["S"].split("#")[0] for item in left} <= {"OFFICIAL"}, f"repetition {repetition}"
        assert all(item["name"]["S"] == DELETED_PLAYER_NAME for item in left), f"repetition {repetition}"
        assert runs_of(store, player) == [], f"repetition {repetition}"
        assert not [i for i in scan(store, "NAME#") if i["player"]["S"] == player]


# (h) Safe retries --------------------------------------------------------------------------------


def keyed_challenge(once: Callable[..., Any], game: Game, player: str, key: str) -> Any:
    """PLAYER's POST /challenges with KEY, as the daily handler makes it (functions/daily/handler.py)."""
    return once(
        "POST /challenges",
        player,
        key,
        {"rounds": 5, "forbidden_rounds": 0},
        lambda: game.create_challenge(player, 5, 0),
        lambda created: created.challenge_id,
        game.challenge,
    )


def test_concurrent_creations_with_one_idempotency_key_make_one_challenge(store):
    """Of 8 requests racing with one Idempotency-Key, one records the key and makes the challenge;
    each other one finds it started (409 idempotency_key_in_use) or done (the same challenge)."""
    from shared.services.idempotency import Idempotency

    for repetition in range(ROUNDS):
        game = game_on(store, 7, repetition + 1)
        instant = datetime(2031, 7, repetition + 1, 18, 0, tzinfo=UTC)
        once = Idempotency(store.requests, now=lambda instant=instant: instant).once
        player, key = f"racer-i-{secrets.token_hex(4)}", secrets.token_urlsafe(16)

        outcomes = race([partial(keyed_challenge, once, game, player, key)] * 8)

        made = [o for o in outcomes if not isinstance(o, Exception)]
        refused = [o for o in outcomes if isinstance(o, Exception)]
        assert made and len({c.challenge_id for c in made}) == 1, outcomes
        assert all(isinstance(o, Conflict) and o.code == "idempotency_key_in_use" for o in refused)
        assert [c.challenge_id for c in game.created_challenges(player)] == [made[0].challenge_id]
