"""Answers to one slot racing from several processes, on moto's SERVER mode (as tests/dynamo/test_races.py
races threads of one process): each racer is a process with its own client and Game, as Lambda
containers are, and the answer goes through the one-write path (shared/services/answering.py),
whose refusals fall back to reading the run."""

import multiprocessing
import secrets
from concurrent.futures import ProcessPoolExecutor
from datetime import timedelta
from functools import partial

from shared.http.models import RunView
from tests.answer_racers import answer_once, ready
from tests.dynamo import test_races
from tests.dynamo.test_races import ROUNDS, game_on, word_for

pytestmark = test_races.pytestmark
client, store = test_races.client, test_races.store  # the moto server's fixtures


RACERS = 6


def test_answers_to_one_slot_racing_from_6_processes_write_it_once_in_one_request(store):
    context = multiprocessing.get_context("spawn")  # the test process runs the moto server's threads
    with ProcessPoolExecutor(RACERS, context, initializer=ready, initargs=(context.Barrier(RACERS),)) as pool:
        for repetition in range(ROUNDS):
            _race(pool, store, repetition)


def _race(pool: ProcessPoolExecutor, store, repetition: int) -> None:
    """RACERS processes answer the slot in play at once: 3 with one word (in several cases), 2
    with other accepted words, 1 with a rejected word."""
    game = game_on(store, 8, repetition + 1)
    player = None if repetition == ROUNDS - 1 else f"racer-p-{secrets.token_hex(4)}"  # last: a guest
    run, _ = game.start_daily(player)
    if repetition % 2:  # a later slot: round 1's second attempt, after a rejection
        _, run = game.answer(run.run_id, player, 1, 1, "qzqzq")
    number, attempt = run.round_number, run.attempt_number
    same = word_for(run, repetition)
    words = [same, same.upper(), same.title(), word_for(run, repetition + 1), word_for(run, repetition + 2)]
    words.append("qzqzq")
    before, before_version = store.runs.get_run(run.run_id)[:2]
    tail = tail_of(store, run.run_id)
    at = game.now() + timedelta(seconds=3)

    calls = [(run.run_id, player, run.date, number, attempt, word) for word in words]
    outcomes = list(pool.map(partial(answer_once, store.client.meta.endpoint_url, store.table, at), calls))

    after, after_version = store.runs.get_run(run.run_id)[:2]
    assert after_version == before_version + 1, "exactly one write applied an answer"
    appended = tail_of(store, run.run_id)
    assert appended[: len(tail)] == tail and len(appended) > len(tail), "appended by the one-write path"
    record = after.history[number - 1]
    assert len(record.attempts) == attempt, "exactly one attempt fills the slot"
    applied = record.attempts[attempt - 1]
    assert after.score == before.score + (record.points if applied.accepted else 0), "counted once"
    replies = []
    for word, outcome in zip(words, outcomes, strict=True):
        if word.lower() == applied.word:
            assert outcome[0] == "reply", (word, outcome)
            replies.append(outcome[1:])
        else:
            assert outcome == ("conflict", "slot_used", applied.word), (word, outcome)
    assert replies and all(reply == replies[0] for reply in replies), "same word, same reply"
    assert replies[0][3] == RunView.from_run(after).model_dump(mode="json")


def tail_of(store, run_id: str) -> list[dict]:
    """The attempts appended to a run's item since its last whole write (shared/dynamo/codec.py)."""
    key = {"pk": {"S": f"RUN#{run_id}"}, "sk": {"S": "RUN"}}
    return store.client.get_item(TableName=store.table, Key=key)["Item"].get("tl", {}).get("L", [])
