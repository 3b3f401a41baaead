"""The rules, the fake and DynamoDB agree on when an answer or a skip may be recorded: the three
checks derived from shared/game/preconditions.py, on generated runs and answers.

Each example plays one run through the in-memory fake and the table's adapter (in-process moto,
one table for every example) side by side: answers and skips written in place (the tail), whole
writes (the `used` set, a completion by expiry), the player stopped (an erasure or a ban: the
profile in the fake, the mark on the run item on DynamoDB). Before each write the rules say, from
the run as the model holds it, whether its preconditions hold; the fake and DynamoDB must accept
it exactly then, and write the same run as the rules.
"""

import itertools
import os
from datetime import UTC, datetime, timedelta

import boto3
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from moto import mock_aws

from shared.dynamo import keys
from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import dynamo_ports
from shared.dynamo.table import create_table_request
from shared.dynamo.tombstone import STOPPED_AT
from shared.game.clock import iso
from shared.game.constants import ATTEMPTS_PER_ROUND, TIME_LIMIT_SECONDS
from shared.game.preconditions import answer_preconditions, refusal, slot_preconditions
from shared.game.puzzles import Round
from shared.game.runs import Run, expire_if_due, facts_of, new_run, record_attempt, skip
from shared.game.scope import Scope
from shared.services.ports import AnswerSlot, StaleRun
from tests.fakes.fake_store import FakePorts

START = datetime(2026, 11, 29, 18, tzinfo=UTC)
DAY = "2026-11-29"
PUZZLE = [Round("TMR", ""), Round("ALL", ""), Round("BRD", "AEO")]
LIMIT_MS = TIME_LIMIT_SECONDS * 1000
RUN_NUMBERS = itertools.count()  # a fresh run id and player for each example, on the one table

# When a step arrives, in ms after the start (the steps take their instants in order): anywhere in
# the run's time, or either side of its deadline to the millisecond (a write at the deadline is late).
instants = st.one_of(*[st.integers(0, LIMIT_MS + 2_000)] * 3, st.sampled_from([LIMIT_MS - 1, LIMIT_MS]))
# Who writes: mostly the run's player; another player; a guest.
callers = st.sampled_from(["owner"] * 5 + ["other", "guest"])
# The slot, as a move from the slot in play (round, attempt): mostly none.
moves = st.tuples(st.sampled_from([0, 0, 0, -1, 1]), st.sampled_from([0, 0, 0, -1, 1]))
answers = st.tuples(
    st.just("answer"),
    callers,
    moves,
    st.sampled_from(["timer", "alley"]),  # few, so that a word comes again
    st.sampled_from([None, None, "letter_order"]),  # judged by SPEC §2: accepted, or not
    instants,
)
skips = st.tuples(st.just("skip"), callers, moves, instants)
rewrites = st.tuples(st.just("rewrite"), instants)  # the whole write of a read (expired, if due)
stops = st.tuples(st.just("stop"), instants)  # an erasure or a ban
steps = st.lists(st.one_of(*[answers] * 4, skips, rewrites, stops), min_size=1, max_size=8)


@pytest.fixture(scope="module")
def dynamo():
    with mock_aws():
        table = os.environ["TABLE_NAME"]
        boto3.client("dynamodb").create_table(**create_table_request(table))
        ports = dynamo_ports(table, board_shards=BOARD_SHARDS)
        ports.runs.put_puzzle(Scope.daily(DAY), PUZZLE)
        yield ports


class Side:
    """One store playing the run: the version it holds it at."""

    def __init__(self, ports, run: Run) -> None:
        self.ports, self.version = ports, 0
        ports.runs.create_run(run)

    def write(self, method: str, run: Run, *args) -> Run | None:
        """The run written in place, None when the store refused."""
        try:
            written = getattr(self.ports.runs, method)(run.run_id, *args)
        except StaleRun:
            return None
        assert written.version == self.version + 1
        self.version += 1
        return written.run


def played(*steps):
    """An example's STEPS: (kind, caller, move, word, reason) or (kind, caller, move) at one second
    apart, or ("stop",) or ("rewrite",)."""
    return [(*step, 1_000 * second) for second, step in enumerate(steps, start=1)]


NEXT = (0, 0)  # the slot in play


# Each precondition refuses at least once in these, whatever the generated examples do.
@example(  # a word accepted again: in the tail, then after a whole write folded it into `used`
    guest=False,
    steps=played(
        ("answer", "owner", NEXT, "timer", None),
        ("answer", "owner", NEXT, "timer", None),
        ("answer", "owner", NEXT, "alley", "letter_order"),
        ("rewrite",),
        ("answer", "owner", NEXT, "timer", None),
        ("answer", "other", NEXT, "alley", None),
        ("answer", "owner", (0, 1), "alley", None),
        ("skip", "owner", (1, 0)),
    ),
)
@example(
    guest=False, steps=played(("skip", "owner", NEXT), ("stop",), ("answer", "owner", NEXT, "bird", None))
)
@example(  # either side of the deadline; then the run expired by a whole write
    guest=False,
    steps=[
        ("answer", "owner", NEXT, "timer", None, LIMIT_MS - 1),
        ("answer", "owner", NEXT, "alley", None, LIMIT_MS),
        ("rewrite", LIMIT_MS),
        ("skip", "owner", NEXT, LIMIT_MS),
    ],
)
@example(  # a guest's run, finished in the tail (its item still has a next slot, past the last round)
    guest=True,
    steps=played(
        ("skip", "guest", NEXT),
        ("answer", "owner", NEXT, "timer", "letter_order"),
        ("skip", "guest", NEXT),
        ("answer", "guest", NEXT, "timer", None),
        ("answer", "guest", NEXT, "alley", None),
        ("answer", "other", NEXT, "alley", None),
    ),
)
@settings(max_examples=20, derandomize=True, database=None)
@given(guest=st.booleans(), steps=steps)
def test_the_rules_the_fake_and_dynamodb_accept_the_same_writes(dynamo, guest, steps):
    number = next(RUN_NUMBERS)
    player = None if guest else f"player-{number}"
    run = new_run(f"run-{number:08d}", "daily", DAY, PUZZLE, START, player, archive=True)
    fake, table = Side(FakePorts(), run), Side(dynamo, run)
    fake.ports.runs.put_puzzle(Scope.daily(DAY), PUZZLE)
    admitted = True
    for step, millis in zip(steps, sorted(step[-1] for step in steps), strict=True):
        kind, at = step[0], START + timedelta(milliseconds=millis)
        if kind == "stop":
            if player is not None and admitted:
                admitted = False
                stop(fake, table, run)
            continue
        if kind == "rewrite":
            if admitted:  # a stopped player's reads are refused: nothing writes their run whole
                expire_if_due(run, at)
                fake.version = fake.ports.runs.save_run(run, fake.version)
                table.version = table.ports.runs.save_run(run, table.version)
            continue
        caller = {"owner": player, "other": f"other-{number}", "guest": None}[step[1]]
        round_number = min(max(run.round_number + step[2][0], 1), len(PUZZLE))
        attempt_number = min(max(run.attempt_number + step[2][1], 1), ATTEMPTS_PER_ROUND)
        if kind == "answer":
            word, reason = step[3], step[4]
            preconditions = answer_preconditions(
                caller, round_number, attempt_number, word, reason is None, at
            )
            args = (caller, AnswerSlot(round_number, attempt_number, word, reason), at)
            method = "answer_in_place"
        else:
            preconditions = slot_preconditions(caller, round_number, None, at)
            args, method = (caller, round_number, at), "skip_in_place"
        refused = refusal(preconditions, facts_of(run, admitted))
        event(
            f"{kind} refused by {refused.fact}" if refused else f"{kind} accepted"
        )  # for --hypothesis-show-statistics
        may = refused is None
        written = fake.write(method, run, *args), table.write(method, run, *args)
        assert (written[0] is not None, written[1] is not None) == (may, may), (step, run)
        if may:
            if kind == "answer":
                record_attempt(run, word, reason, at)
            else:
                assert skip(run, round_number, at)
            assert written == (run, run)


def stop(fake: Side, table: Side, run: Run) -> None:
    """What an erasure or a ban does to the player's run in play: the fake's profile says so; on
    DynamoDB, the mark on the run item (and its version moved: shared/dynamo/player_data.py)."""
    fake.ports.table.erased_players.add(run.player)
    table.ports.client.update_item(
        TableName=table.ports.table,
        Key=keys.run_key(run.run_id),
        UpdateExpression=f"SET {STOPPED_AT} = :at, version = version + :one",
        ExpressionAttributeValues={":at": {"S": iso(START)}, ":one": {"N": "1"}},
    )
    table.version += 1
