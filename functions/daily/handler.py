"""Runs and challenges (SPEC §3, §3a, §5): start, read, answer and skip; create and play challenges.

Thin: parse (a cursor into the position it carries), call shared.services.game or leaderboard,
build the reply. Player routes take the caller from the verified JWT claims; guest routes take no
caller, and a guest run's unguessable id is its credential.
"""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from shared.game.boards import challenge_closes_at
from shared.game.clock import parse_iso
from shared.game.constants import BOARD_PAGE_DEFAULT, BOARD_PAGE_MAX
from shared.game.dictionary import words
from shared.game.runs import Run
from shared.game.scope import Scope
from shared.http import api
from shared.http.cursors import Cursors
from shared.http.models import (
    AnswerReply,
    AnswerRequest,
    ChallengeRequest,
    ChallengeSummary,
    ChallengeView,
    DailyInfo,
    MyChallenges,
    PastDaily,
    RunView,
    SkipReply,
    SkipRequest,
)
from shared.http.moderation_models import ChallengeCorrections
from shared.http.practice_models import NO_ROUND, GuestPracticeRequest, PracticeRequest
from shared.runtime.observability import observed
from shared.runtime.secrets import cursor_key, older_cursor_keys
from shared.runtime.wiring import boards, game, idempotency, moderation, players, ports, require
from shared.services.leaderboard import TOP
from shared.services.practice import start_practice

# Every player route refuses an erased or banned caller (Players.admit), reading their admission
# with its first request: a start in its transaction, a run's routes with the run itself
# (the route table's `admits`; docs/players.md, "Admission").
app = api.make_resolver(admit=lambda player, banned_ok: players().admit(player, banned_ok))
DEFAULT_CHALLENGE = ChallengeRequest()  # POST /challenges with no body
words()  # load the dictionary during the cold start, not on the first answer
require("seed", "cursor_key")  # on AWS, the init stops without them (shared/runtime/settings.py)
ports()  # and make the DynamoDB client (shared/runtime/wiring.py)
cursors = Cursors(cursor_key, older_cursor_keys)


def _started(run_and_created: tuple[Run, bool]) -> Response[RunView]:
    run, created = run_and_created
    return api.json_response(RunView.from_run(run).model_dump(mode="json"), 201 if created else 200)


def _answer(run_id: str, player: str | None, request: AnswerRequest) -> AnswerReply:
    result, run = game().answer(api.run_id(run_id), player, request.round, request.attempt, request.word)
    return AnswerReply.model_validate(
        {
            "accepted": result.accepted,
            "reason": result.reason,
            "points": result.points,
            "speed_bonus": result.speed_bonus,
            "run": RunView.from_run(run),
        }
    )


def _skip(run_id: str, player: str | None, request: SkipRequest) -> SkipReply:
    return SkipReply(run=RunView.from_run(game().skip(api.run_id(run_id), player, request.round)))


@app.get("/daily", summary="Today's Daily: date, rounds, time limit, status, next reset")
def daily() -> Response[DailyInfo]:
    today = game().daily_info()
    until_reset = (today.resets_at - game().now()).total_seconds()
    reply = DailyInfo.of(today).model_dump(mode="json")
    return api.json_response(reply, cache_control=api.daily_cache_control(until_reset))


@app.post("/daily/runs", summary="Start (or resume) the caller's Daily run")
def start_daily() -> Response[RunView]:
    return _started(game().start_daily(api.caller_id(app)))


@app.post("/guest/daily/runs", summary="Start a guest Daily run")
def start_guest_daily() -> Response[RunView]:
    return _started(game().start_daily(None))


@app.get("/daily/<date>", summary="A Daily date's details (past Dailies are played as practice)")
def past_daily(date: api.BoardDate) -> Response[PastDaily]:
    details = game().past_daily(date)
    until_reset = (details.resets_at - game().now()).total_seconds()
    cache = api.daily_cache_control(until_reset) if details.live else api.PAST_DAILY_CACHE_CONTROL
    return api.json_response(PastDaily.of(details).model_dump(mode="json"), cache_control=cache)


@app.post("/daily/<date>/runs", summary="Start (or resume) the caller's practice run of a past Daily")
def start_past_daily(date: api.BoardDate) -> Response[RunView]:
    return _started(game().start_past_daily(api.caller_id(app), date))


@app.post("/guest/daily/<date>/runs", summary="Start a guest practice run of a past Daily")
def start_guest_past_daily(date: api.BoardDate) -> Response[RunView]:
    return _started(game().start_past_daily(None, date))


@app.post("/daily/<date>/practice", summary="An unranked run of one round, or of the caller's missed rounds")
def start_round_practice(
    date: api.BoardDate, request: Annotated[PracticeRequest, Body()] = NO_ROUND
) -> Response[RunView]:
    return _started((start_practice(game(), date, request.round, api.caller_id(app)), True))


@app.post("/guest/daily/<date>/practice", summary="An unranked run of one round of a past Daily")
def start_guest_round_practice(
    date: api.BoardDate, request: Annotated[GuestPracticeRequest, Body()]
) -> Response[RunView]:
    return _started((start_practice(game(), date, request.round), True))


@app.get("/runs/<run_id>", summary="The caller's run")
def get_run(run_id: api.RunId) -> RunView:
    return RunView.from_run(game().get_run(api.run_id(run_id), api.caller_id(app)))


@app.post("/runs/<run_id>/answers", summary="Submit a word for a slot (round, attempt)")
def answer(run_id: api.RunId, request: Annotated[AnswerRequest, Body()]) -> AnswerReply:
    return _answer(run_id, api.caller_id(app), request)


@app.post("/runs/<run_id>/skip", summary="Skip the round in play")
def skip(run_id: api.RunId, request: Annotated[SkipRequest, Body()]) -> SkipReply:
    return _skip(run_id, api.caller_id(app), request)


@app.get("/guest/runs/<run_id>", summary="A guest run")
def get_guest_run(run_id: api.RunId) -> RunView:
    return RunView.from_run(game().get_run(api.run_id(run_id), None))


@app.post("/guest/runs/<run_id>/answers", summary="Submit a word in a guest run")
def guest_answer(run_id: api.RunId, request: Annotated[AnswerRequest, Body()]) -> AnswerReply:
    return _answer(run_id, None, request)


@app.post("/guest/runs/<run_id>/skip", summary="Skip a round in a guest run")
def guest_skip(run_id: api.RunId, request: Annotated[SkipRequest, Body()]) -> SkipReply:
    return _skip(run_id, None, request)


@app.post("/challenges", summary="Create a challenge")
def create_challenge(
    request: Annotated[ChallengeRequest, Body()] = DEFAULT_CHALLENGE,
    idempotency_key: api.IdempotencyKey = None,
) -> Response[ChallengeView]:
    player = api.caller_id(app)
    challenge = idempotency().once(
        "POST /challenges",
        player,
        idempotency_key,
        request.model_dump(mode="json"),
        lambda: game().create_challenge(player, request.rounds, request.forbidden_rounds),
        lambda made: made.challenge_id,
        game().challenge,
    )
    board = boards().challenge_board(challenge, TOP, BOARD_PAGE_DEFAULT)
    return api.json_response(ChallengeView.of(board, cursors.next_page(board.page)).model_dump(), 201)


@app.get("/challenges/<challenge_id>", summary="A challenge's details and its board")
def get_challenge(
    challenge_id: api.ChallengeId,
    limit: Annotated[int, Query(ge=1, le=BOARD_PAGE_MAX)] = BOARD_PAGE_DEFAULT,
    cursor: Annotated[str | None, Query(max_length=1024)] = None,
) -> Response[ChallengeView]:
    challenge = game().challenge(api.challenge_id(challenge_id))
    start = cursors.board_start(Scope.challenge(challenge.challenge_id), cursor)
    board = boards().challenge_board(challenge, start, limit)
    closes = challenge_closes_at(parse_iso(challenge.closes_at))
    state, pending = moderation().review_state(board.page, closes)
    view = ChallengeView.of(board, cursors.next_page(board.page), pending).model_copy(
        update={
            "status": state,
            "corrections": f"/challenges/{challenge.challenge_id}/corrections" if state == "final" else None,
        }
    )
    return api.json_response(view.model_dump(), cache_control=api.board_cache_control(view.status))


@app.get("/challenges/<challenge_id>/corrections", summary="A final challenge board's corrections")
def challenge_corrections(challenge_id: api.ChallengeId) -> ChallengeCorrections:
    challenge = game().challenge(api.challenge_id(challenge_id))
    items = moderation().corrections(Scope.challenge(challenge.challenge_id))
    return ChallengeCorrections(challenge_id=challenge.challenge_id, items=items)


@app.get("/me/challenges", summary="The challenges the caller made, newest first")
def my_challenges() -> MyChallenges:
    now = game().now()
    created = game().created_challenges(api.caller_id(app))
    return MyChallenges(items=[ChallengeSummary.of(challenge, now) for challenge in created])


@app.post("/challenges/<challenge_id>/runs", summary="Play a challenge")
def start_challenge(challenge_id: api.ChallengeId) -> Response[RunView]:
    return _started(game().start_challenge(api.caller_id(app), api.challenge_id(challenge_id)))


@observed
def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    return api.serve(app, event, context)


init_phase.end()  # the init is over (functions/init_phase.py)
