"""Boards, ranks, profiles and history (SPEC §4, §5). Thin: parse (a cursor into the position it
carries), call shared.services.leaderboard, players, leagues or player_data, build the reply."""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

from datetime import date as date_of
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from functions.reminders import routes as reminder_routes
from shared.game.boards import daily_closes_at
from shared.game.constants import BOARD_PAGE_DEFAULT, BOARD_PAGE_MAX
from shared.game.errors import NotFound
from shared.game.scope import Scope
from shared.http import api
from shared.http.cursors import Cursors
from shared.http.history_models import HistoryPage
from shared.http.leaderboard_models import (
    BoardPage,
    Erased,
    InvitationView,
    JoinRequest,
    LeagueBoard,
    LeagueRequest,
    LeagueView,
    LeftLeague,
    Me,
    MyLeagues,
    MyRank,
    PlayerExport,
    Profile,
    ProfileRequest,
    ScoreDistribution,
)
from shared.http.moderation_models import CorrectionsPage, ReportView, SanctionView
from shared.http.recap_models import MyRecap, Recap
from shared.runtime.observability import observed
from shared.runtime.secrets import cursor_key, older_cursor_keys
from shared.runtime.wiring import (
    boards,
    idempotency,
    leagues,
    moderation,
    player_data,
    players,
    ports,
    recaps,
    require,
)
from shared.services import appeals, cases
from shared.services.players import HISTORY_PAGE_DEFAULT, HISTORY_PAGE_MAX

# Every player route refuses an erased or banned caller (Players.admit), but DELETE /me (the
# erasure itself, which a retry after an interruption must be able to finish) and the routes that
# read the admission with their own first request (the route table's `admits`).
app = api.make_resolver(admit=lambda player, banned_ok: players().admit(player, banned_ok))
reminder_routes.register(app)
require("cursor_key", "user_pool")  # on AWS, the init stops without them (shared/runtime/settings.py)
ports()  # the DynamoDB client, made during the cold start (shared/runtime/wiring.py)
cursors = Cursors(cursor_key, older_cursor_keys)

Limit = Annotated[int, Query(ge=1, le=BOARD_PAGE_MAX)]
Cursor = Annotated[str | None, Query(max_length=1024)]


def _board(day: str | None, limit: int, cursor: str | None) -> Response[BoardPage]:
    board_day = boards().board_date(day)
    start = cursors.board_start(Scope.daily(board_day.isoformat()), cursor)
    page = boards().daily_board(board_day, start, limit)
    state, pending = moderation().review_state(page, daily_closes_at(board_day))
    reply = BoardPage.of(page, cursors.next_page(page), pending).model_copy(
        update={
            "status": state,
            "corrections": f"/leaderboard/daily/{page.scope.id}/corrections" if state == "final" else None,
        }
    )
    return api.json_response(reply, cache_control=api.board_cache_control(reply.status))


@app.get("/leaderboard/daily", summary="A page of today's Daily board")
def today_board(limit: Limit = BOARD_PAGE_DEFAULT, cursor: Cursor = None) -> Response[BoardPage]:
    return _board(None, limit, cursor)


@app.get("/leaderboard/daily/me", summary="The caller's row and rank on a Daily board")
def my_rank(date: Annotated[str | None, Query(pattern=api.DATE_PATTERN)] = None) -> MyRank:
    player = api.caller_id(app)
    try:
        mine = boards().daily_rank(date, player)
    except NotFound:  # a result a decision took off the board says so
        cases.why_unranked(moderation(), player, Scope.daily(boards().board_date(date).isoformat()))
        raise
    scope = Scope.daily(mine.day.isoformat())
    pending = moderation().open_on(scope, mine.pending & {mine.row.run_id})
    # One status for a date on every route (SPEC §4a): the board's, `final` included.
    state = moderation().board_status(scope, mine.closed, daily_closes_at(mine.day), mine.pending)
    return MyRank.of(mine, pending).model_copy(update={"status": state})


@app.get("/leaderboard/daily/<date>", summary="A page of a date's Daily board")
def date_board(
    date: api.BoardDate, limit: Limit = BOARD_PAGE_DEFAULT, cursor: Cursor = None
) -> Response[BoardPage]:
    return _board(date, limit, cursor)


@app.get("/leaderboard/daily/<date>/distribution", summary="A date's Daily score histogram")
def distribution(date: api.BoardDate) -> Response[ScoreDistribution]:
    found = boards().daily_distribution(date)
    scope = Scope.daily(found.day.isoformat())
    pending = moderation().pending_runs(scope) if found.closed else frozenset()
    state = moderation().board_status(scope, found.closed, daily_closes_at(found.day), pending)
    reply = ScoreDistribution.of(found).model_copy(update={"status": state})  # the board's status
    return api.json_response(reply, cache_control=api.board_cache_control(reply.status))


@app.get("/leaderboard/daily/<date>/corrections", summary="Decisions made after a Daily board became final")
def corrections(date: api.BoardDate) -> CorrectionsPage:
    board_day = boards().board_date(date)
    items = moderation().corrections(Scope.daily(board_day.isoformat()))
    return CorrectionsPage(date=board_day.isoformat(), items=items)


@app.get("/daily/<date>/recap", summary="A closed Daily's recap: its rounds, words played and missed")
def day_recap(date: api.BoardDate) -> Response[Recap]:
    board_day = boards().board_date(date)

    def status(scope: Scope) -> str:
        closes = daily_closes_at(board_day)
        return moderation().board_status(scope, True, closes, moderation().pending_runs(scope))

    recap, final = recaps().day_recap(board_day, status)  # 404 while live and until the closing pass
    reply = Recap.of(recap, "final" if final else "closed")
    return api.json_response(reply, cache_control=api.board_cache_control(reply.status))


@app.get("/daily/<date>/recap/me", summary="The caller's words in a closed Daily's recap")
def my_recap(date: api.BoardDate) -> MyRecap:
    board_day = boards().board_date(date)
    return MyRecap.of(board_day.isoformat(), recaps().my_words(board_day, api.caller_id(app)))


@app.get("/me", summary="The caller's profile and Daily stats")
def get_profile() -> Me:
    summary = players().me(api.caller_id(app))  # also admits the caller (docs/players.md)
    sanctions = [SanctionView.of(s, a) for s, a in appeals.with_appeals(moderation(), summary.sanctions)]
    return Me.of(summary).model_copy(update={"sanctions": sanctions})


@app.put("/me", summary="Set the caller's display name")
def put_profile(request: Annotated[ProfileRequest, Body()]) -> Profile:
    return Profile(display_name=players().set_display_name(api.caller_id(app), request.display_name))


@app.get("/me/history", summary="The caller's official results, newest first")
def history(
    limit: Annotated[int, Query(ge=1, le=HISTORY_PAGE_MAX)] = HISTORY_PAGE_DEFAULT, cursor: Cursor = None
) -> HistoryPage:
    player = api.caller_id(app)
    page = players().history(player, cursors.history_start(player, cursor), limit)
    review = moderation().under_review([(item.result.scope, item.result.run_id) for item in page.items])
    return HistoryPage.of(page, cursors.next_history(player, page.following), review)


@app.get("/me/export", summary="Everything held about the caller, as one JSON document")
def export_me() -> PlayerExport:
    exported = player_data().export(api.caller_id(app))  # also admits the caller (docs/players.md)
    held = exported.held
    sanctions = appeals.with_appeals(moderation(), held.sanctions)
    return PlayerExport.of(exported).model_copy(
        update={
            "reports": [ReportView.of(r, c) for r, c in moderation().with_cases(held.reports[:100])],
            "sanctions": [SanctionView.of(s, a) for s, a in sanctions],
            "moderation_log": held.moderation_log,
            "reminder": reminder_routes.exported(exported.player),
        }
    )


@app.delete("/me", summary="Erase the caller; their board rows stay, as 'deleted player'")
def delete_me() -> Erased:
    player_data().erase(api.caller_id(app), api.caller_username(app))
    return Erased(erased=True)


@app.post("/leagues", summary="Create a league (the caller is its creator and first member)")
def create_league(
    request: Annotated[LeagueRequest, Body()], idempotency_key: api.IdempotencyKey = None
) -> Response[LeagueView]:
    player = api.caller_id(app)
    league = idempotency().once(
        "POST /leagues",
        player,
        idempotency_key,
        request.model_dump(mode="json"),
        lambda: leagues().create(player, request.name),
        lambda made: made.league_id,
        lambda league_id: leagues().league(player, league_id),
    )
    view = LeagueView.of(league, player)
    return api.json_response(view.model_dump(mode="json"), 201)


@app.get("/me/leagues", summary="The caller's leagues")
def my_leagues() -> MyLeagues:
    player = api.caller_id(app)
    return MyLeagues(items=[LeagueView.of(league, player) for league in leagues().mine(player)])


@app.post("/leagues/join", summary="Join a league with its invite code")
def join_league(request: Annotated[JoinRequest, Body()]) -> LeagueView:
    player = api.caller_id(app)
    return LeagueView.of(leagues().join(player, request.code), player)


@app.delete("/leagues/<league_id>/members/<player>", summary="Leave a league (`me`), or remove a member")
def leave_league(league_id: api.LeagueId, player: api.MemberId) -> LeftLeague:
    leagues().remove(api.caller_id(app), api.league_id(league_id), player)
    return LeftLeague(league_id=league_id, member_id=player)


@app.post("/leagues/<league_id>/code", summary="Rotate a league's invite code (its creator)")
def rotate_league_code(league_id: api.LeagueId) -> LeagueView:
    player = api.caller_id(app)
    return LeagueView.of(leagues().rotate_code(player, api.league_id(league_id)), player)


@app.get("/leagues/invitations/<code>", summary="What a league's invite code shows anyone")
def league_invitation(code: api.InviteCode) -> Response[InvitationView]:
    reply = InvitationView.of(leagues().invitation(code))
    return api.json_response(reply, cache_control=api.board_cache_control("live"))


@app.get("/leagues/<league_id>/board", summary="A league's board for a Daily date (members only)")
def league_board(
    league_id: api.LeagueId, date: Annotated[str | None, Query(pattern=api.DATE_PATTERN)] = None
) -> LeagueBoard:
    board = leagues().board(api.caller_id(app), api.league_id(league_id), date)
    reply = LeagueBoard.of(board)
    scope = Scope.daily(reply.date)
    pending = moderation().pending_runs(scope) if reply.status == "closed" else frozenset()
    closes = daily_closes_at(date_of.fromisoformat(reply.date))
    state = moderation().board_status(scope, reply.status == "closed", closes, pending)
    return reply.model_copy(update={"status": state})  # the date's board's status (SPEC §4a)


@observed
def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    return api.serve(app, event, context)


init_phase.end()  # the init is over (functions/init_phase.py)
