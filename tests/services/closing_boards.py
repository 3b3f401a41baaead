"""Boards for the closing pass's tests (tests/services/test_closing_pass.py): people and bots whose
runs are stored and completed through the ports, as the game completes them, on either store."""

import math
import random
from datetime import UTC, date, datetime, timedelta

from shared.dynamo.completion import Results
from shared.game.clock import iso
from shared.game.fair_play import fastest_plausible_ms
from shared.game.puzzles import Round, answers, generate_puzzle, seed_for_date
from shared.game.results import OfficialResult
from shared.game.runs import Attempt, RoundRecord, Run
from shared.game.scope import Scope
from shared.services.completion import completion_of
from tests.fakes.fake_boards import player

Found = list[tuple[str, int]]  # each round's accepted word and its elapsed ms


def daily_puzzle(day: date) -> list[Round]:
    return generate_puzzle(seed_for_date(b"closing-pass-tests", day.isoformat()), 10, 3)


def person(puzzle: list[Round], rng: random.Random) -> Found:
    """A person: a common word each round, found in a log-normal 5-12 s."""
    found = []
    for number, r in enumerate(puzzle, start=1):
        word = rng.choice(answers(r.prompt, r.forbidden, "common.txt") or answers(r.prompt, r.forbidden))
        found.append((word, int(rng.lognormvariate(math.log(5_000 + 700 * number), 0.45))))
    return found


def one_slow_round(puzzle: list[Round], rng: random.Random) -> Found:
    """A script at the typing floor + 30 ms everywhere but the hardest round, where it waits 3-4 s."""
    hardest = min(
        range(len(puzzle)),
        key=lambda i: (len(answers(puzzle[i].prompt, puzzle[i].forbidden, "common.txt")), -i),
    )
    found = []
    for i, r in enumerate(puzzle):
        word = min(answers(r.prompt, r.forbidden, "common.txt") or answers(r.prompt, r.forbidden), key=len)
        wait = rng.randint(3_000, 4_000) if i == hardest else fastest_plausible_ms(len(word)) + 30
        found.append((word, wait))
    return found


def mimic(puzzle: list[Round], rng: random.Random) -> Found:
    """Person-like log-normal waits (a median of 2.5 s in round 1 to 6.5 s in round 10), and the
    longest word every round."""
    found = []
    for number, r in enumerate(puzzle, start=1):
        word = max(answers(r.prompt, r.forbidden), key=lambda w: (len(w), w))
        median = 2_500 + (6_500 - 2_500) * (number - 1) / max(1, len(puzzle) - 1)
        found.append(
            (word, fastest_plausible_ms(len(word)) + int(rng.lognormvariate(math.log(median), 0.25)))
        )
    return found


def play(store, scope: Scope, puzzle: list[Round], name: str, found: Found, started: datetime) -> str:
    """NAME's official run of SCOPE with FOUND, stored and completed through the ports; its id."""
    history = [
        RoundRecord(
            round=number,
            prompt=r.prompt,
            forbidden=r.forbidden,
            outcome="accepted",
            attempts=[Attempt(word=word, accepted=True, reason=None, elapsed_ms=ms)],
        )
        for number, (r, (word, ms)) in enumerate(zip(puzzle, found, strict=True), start=1)
    ]
    spent = sum(ms for _, ms in found)
    run = Run(
        run_id=f"run-{name}-{scope.id}", kind=scope.kind, date=started.date().isoformat(),
        challenge_id=scope.id if scope.kind == "challenge" else None, player=player(name), official=True,
        puzzle=puzzle, started_at=iso(started), deadline=iso(started + timedelta(seconds=180)),
        history=history,
    )  # fmt: skip
    version = store.runs.create_run(run)
    score = min(2_085, sum(100 + 8 * len(word) for word, _ in found))
    run = run.model_copy(
        update={"score": score, "completed_at": iso(started + timedelta(milliseconds=spent))}
    )
    run.ended_by = "finished"
    result = OfficialResult.of_run(run)
    completion = completion_of(result, store.results.profile_for_completion(run.player or ""))
    # On DynamoDB, the stream consumer runs once the board is played (`settle`), not after each run.
    complete = Results.complete_run if hasattr(store, "settle") else type(store.results).complete_run
    complete(store.results, run, version, completion)
    return run.run_id


def people_board(store, scope: Scope, puzzle: list[Round], count: int, seed: int = 7) -> list[str]:
    """COUNT people's runs of SCOPE (started on its day, a minute apart); their run ids."""
    rng = random.Random(seed)
    start = datetime(2026, 1, 15, 8, tzinfo=UTC)
    return [
        play(store, scope, puzzle, f"p{i:03d}", person(puzzle, rng), start + timedelta(minutes=i))
        for i in range(count)
    ]
