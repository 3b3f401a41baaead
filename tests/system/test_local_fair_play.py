"""Fair play end to end on `make run` (SPEC §3b, §3e; issue 48 item 5): the local server and its
store; a Daily board of 30 (28 simulated people and two bots) and a challenge (4 of those people
and the same bots: its pass is the same, and each run costs about 0.3 s of CPU here) played over
HTTP on the game clock; then the clock moved past the close, so that the scheduler's expiry job
starts the closing pass and its pieces run in their workers, as on AWS. Both bots end under
review on both boards, in their own view and in the moderators' queue; no person does.

The players are the benchmarks' own models, imported: people from `benchmarks/skill.py` (60%
casual, 30% good, 10% expert) and the bots of `benchmarks/find_time.py`, *one_slow* (the typing
floor + 30 ms everywhere but the hardest round, 3-4 s there) and *mimic* (a person's log-normal
waits, 2.5 s in round 1 to 6.5 s in round 10, the longest word every round). Nobody sleeps: the
36 runs start together, and each answer is sent once the game clock has reached the model's time
for it, the clock moved forward first (`POST /local/clock`; people's answers up to SLACK late,
which only makes them slower, so that the clock moves less often).
The server's clock starts on a fixed date (LOCAL_CLOCK_START) with a fixed puzzle seed, and the
challenge's puzzle is seeded too (stored through the port `POST /challenges` uses): the same
puzzles on every run. On the calendar's date the test would not be: at 30 players the model
catches the mimic on about 94% of days (docs/moderation.md), not all.
"""

import hashlib
import random
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import jwt
import pytest

from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.store import dynamo_ports
from shared.game.boards import SETTLE_SECONDS, daily_closes_at
from shared.game.clock import iso, parse_iso
from shared.game.constants import (
    CHALLENGES_PER_PLAYER_PER_DATE,
    DAILY_FORBIDDEN_ROUNDS,
    DAILY_ROUNDS,
    TIME_LIMIT_SECONDS,
)
from shared.game.puzzles import Round, generate_puzzle, seed_for_date
from shared.game.results import Challenge
from tests.system.test_local_server import Server

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from find_time import bot  # noqa: E402
from skill import MIX, PEOPLE, play  # noqa: E402

pytestmark = [pytest.mark.server, pytest.mark.xdist_group("local_fair_play")]

SEED = "fair-play-e2e"
START = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)  # noon in Chicago: the Daily of 2026-03-02
DAY = "2026-03-02"
MODERATOR = "mo"
PEOPLE_ON_THE_DAILY = 28  # and the two bots: a board of 30
PEOPLE_ON_THE_CHALLENGE = 4  # and the same two bots
BOTS = ("one_slow", "mimic")
MISS = "qzqzq"  # what a simulated person's miss sends: a word the game rejects
SLACK, ZERO = timedelta(seconds=1), timedelta(0)
Attempt = tuple[int, str | None, int, int]  # the models' (round, word or None, at ms, elapsed ms)


@dataclass
class Player:
    """One player's run driven by its model's attempts; `shown` is when its round was shown, on
    the server's clock (from the run's start and each closing attempt's elapsed_ms)."""

    token: str
    attempts: list[Attempt]
    path: str  # where its run starts
    slack: timedelta  # how late its answers may be (SLACK), so that the clock moves less often
    run: dict = field(default_factory=dict)
    shown: datetime = START
    next: int = 0

    def target(self) -> datetime:
        return self.shown + timedelta(milliseconds=self.attempts[self.next][3])

    def done(self) -> bool:
        return self.next >= len(self.attempts) or self.run["status"] != "active"


class GameClock:
    """The server's game clock as seen from here: never later than it really is (each reply's
    own instant, taken as if it came back at once), moved forward with `POST /local/clock`."""

    def __init__(self, server: Server):
        # The clock started at START before now: it reads START at least.
        self.server, self.offset = server, START - datetime.now(UTC)

    def saw(self, instant: datetime) -> None:
        self.offset = max(self.offset, instant - datetime.now(UTC))

    def now(self) -> datetime:
        return datetime.now(UTC) + self.offset

    def reach(self, instant: datetime) -> None:
        """Move the game clock on to INSTANT at least (not back: it already is)."""
        ahead = (instant - self.now()).total_seconds()
        if ahead > 0:
            status, _, body = self.server.request("POST", "/local/clock", {"advance_seconds": ahead})
            assert status == 200, body
            self.offset += timedelta(seconds=ahead)


def board(puzzle: list[Round], tokens: list[str], path: str, seed: int) -> list[Player]:
    """People of the benchmark's mix, then the two bots (the last two TOKENS), each with its
    model's attempts, their runs started at PATH."""
    rng = random.Random(seed)
    played = [play(puzzle, rng.choices(PEOPLE, MIX)[0], rng) for _ in range(len(tokens) - len(BOTS))]
    played += [bot(puzzle, kind, rng) for kind in BOTS]
    slacks = [SLACK] * (len(tokens) - len(BOTS)) + [ZERO] * len(BOTS)
    return [
        Player(token, p.attempts, path, slack) for token, p, slack in zip(tokens, played, slacks, strict=True)
    ]


def play_together(server: Server, game: GameClock, runs: list[Player]) -> None:
    """RUNS started together, then each attempt sent once the game clock has reached the model's
    time for it, never sooner: the clock moved on to the earliest time due plus its player's
    slack, and every attempt then due sent at once, each player's in its own thread. A bot's
    attempt (no slack) arrives when its model says, a request's time later; a person's, up to
    SLACK later."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        for started in [pool.submit(start, server, game, run) for run in runs]:
            started.result()
        while playing := [run for run in runs if not run.done()]:
            game.reach(min(run.target() + run.slack for run in playing))
            due = [run for run in playing if run.target() <= game.now()]
            for sent in [pool.submit(answer, server, game, run) for run in due]:
                sent.result()


def start(server: Server, game: GameClock, run: Player) -> None:
    status, _, body = server.request("POST", run.path, token=run.token)
    assert status == 201, body
    run.run, run.shown = body, parse_iso(body["started_at"])
    game.saw(run.shown)


def answer(server: Server, game: GameClock, player: Player) -> None:
    """PLAYER's next attempt (or, when its model left the round in play, a skip)."""
    number, word, _, _ = player.attempts[player.next]
    run = player.run
    path = f"/runs/{run['run_id']}"
    if run["round"] < number:  # a bot with no word left for the round
        status, _, body = server.request("POST", f"{path}/skip", {"round": run["round"]}, player.token)
        assert status == 200, body
        player.run, player.shown = body["run"], game.now()
        return
    body = {"round": number, "attempt": run["attempt"], "word": word or MISS}
    status, _, reply = server.request("POST", f"{path}/answers", body, player.token)
    if status == 409:  # the run's time ran out meanwhile: completed at its deadline
        player.run = reply["run"]
        return
    assert status == 200 and reply["accepted"] == (word is not None), (body, reply)
    player.run = reply["run"]
    player.next += 1
    record = player.run["history"][number - 1]
    arrived = player.shown + timedelta(milliseconds=record["attempts"][-1]["elapsed_ms"])
    game.saw(arrived)
    if record["outcome"]:  # the round closed with this attempt: the next one is shown now
        player.shown = arrived


def pending(rows: list[dict]) -> set[str]:
    return {row["display_name"] for row in rows if row.get("review") == "pending"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(
        tmp_path_factory.mktemp("fair-play"),
        PUZZLE_SEED=SEED,
        LOCAL_CLOCK_START=iso(START),
        LOCAL_MODERATORS=MODERATOR,
    )
    try:
        yield running.start()
    finally:
        running.kill()


def daily_puzzle(day: str) -> list[Round]:
    return generate_puzzle(seed_for_date(SEED.encode(), day), DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS)


def close(server: Server, game: GameClock, closes_at: datetime, path: str) -> dict:
    """The board at PATH once the clock is past CLOSES_AT: the expiry job completes what is left
    and starts the closing pass, whose pieces run in their workers before the clock's reply (a
    minute more, should the pass need the next job)."""
    game.reach(closes_at + timedelta(seconds=SETTLE_SECONDS + 61))
    for _ in range(3):
        status, _, board = server.request("GET", f"{path}?limit=100")
        assert status == 200, board
        if board["status"] == "closed":
            return board
        game.reach(game.now() + timedelta(seconds=60))
    return board


def stored_challenge(server: Server, token: str, made: datetime) -> Challenge:
    """A challenge stored as POST /challenges stores it (the same port, the creator's count), but
    with a seeded puzzle instead of a random one, and closing in two hours instead of seven days:
    its board closes with the Daily's (a week's jump would close a week of Dailies too)."""
    challenge = Challenge(
        challenge_id="fair-play-e2e-challenge",
        creator=jwt.decode(token, options={"verify_signature": False})["sub"],
        puzzle=generate_puzzle(hashlib.sha256(SEED.encode()).digest(), DAILY_ROUNDS, DAILY_FORBIDDEN_ROUNDS),
        created_at=iso(made),
        closes_at=iso(made + timedelta(hours=2)),
    )
    dynamo_ports("wordsqd", server.dynamodb(), board_shards=BOARD_SHARDS).runs.create_challenge(
        challenge, DAY, CHALLENGES_PER_PLAYER_PER_DATE
    )
    return challenge


def run_cases(server: Server, scope_id: str) -> set[str]:
    """The runs of SCOPE_ID in the review queue, as a moderator reads it (logged in afresh: tokens
    run on the game clock)."""
    status, _, queue = server.request(
        "GET", "/moderation/cases?kind=run&limit=100", token=server.login(MODERATOR)
    )
    assert status == 200 and queue["next_cursor"] is None, queue
    return {case["evidence"]["run_id"] for case in queue["items"] if case["evidence"]["scope_id"] == scope_id}


@pytest.mark.server
def test_a_daily_and_a_challenge_end_with_the_one_slow_round_bot_and_the_mimic_pending_and_no_person(server):
    game = GameClock(server)
    status, _, today = server.request("GET", "/daily")
    assert (status, today["date"]) == (200, DAY)
    names = [f"player-{n:02d}" for n in range(PEOPLE_ON_THE_DAILY)] + [f"bot-{kind}" for kind in BOTS]
    tokens = [server.login(name) for name in names]
    challenge = stored_challenge(server, tokens[0], game.now())
    daily = board(daily_puzzle(DAY), tokens, "/daily/runs", seed=48)
    contest = board(
        challenge.puzzle,
        tokens[PEOPLE_ON_THE_DAILY - PEOPLE_ON_THE_CHALLENGE :],
        f"/challenges/{challenge.challenge_id}/runs",
        seed=49,
    )
    play_together(server, game, daily + contest)
    bots = daily[-len(BOTS) :] + contest[-len(BOTS) :]

    board_page = close(server, game, daily_closes_at(date.fromisoformat(DAY)), f"/leaderboard/daily/{DAY}")
    assert (board_page["status"], len(board_page["rows"])) == ("closed", len(daily)), board_page
    bot_names = set()
    for name in names[-len(BOTS) :]:
        status, _, mine = server.request("GET", f"/leaderboard/daily/me?date={DAY}", token=server.login(name))
        assert (status, mine.get("review")) == (200, "pending"), mine  # the bot's own view says so
        bot_names.add(mine["display_name"])
    assert pending(board_page["rows"]) == bot_names  # and no person's row
    assert run_cases(server, DAY) == {b.run["run_id"] for b in bots if b.run["kind"] == "daily"}

    closes = parse_iso(challenge.closes_at) + timedelta(seconds=TIME_LIMIT_SECONDS)
    board_page = close(server, game, closes, f"/challenges/{challenge.challenge_id}")
    assert (board_page["status"], len(board_page["rows"])) == ("closed", len(contest)), board_page
    assert pending(board_page["rows"]) == bot_names
    assert run_cases(server, challenge.challenge_id) == {
        b.run["run_id"] for b in bots if b.run["kind"] == "challenge"
    }


def test_the_clocks_start_is_an_instant_with_its_offset():
    from local.server import clock_start  # here: the module sets the server's warning filters

    assert clock_start("2026-03-02T18:00:00Z") == START
    for wrong in ("2026-03-02T18:00:00", "noon", "2026-02-30T18:00:00Z"):
        with pytest.raises(ValueError, match="LOCAL_CLOCK_START must be an ISO 8601 instant"):
            clock_start(wrong)
