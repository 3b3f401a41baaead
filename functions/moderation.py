"""The moderation routes (SPEC §3e), served by the leaderboard function, and the ban guard every
player route of the daily and leaderboard functions passes through. Thin: parse, check the caller's
role, call shared.services.moderation, build the reply."""

import base64
import binascii
from typing import Annotated

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from shared.game.errors import BadRequest, Forbidden, NotFound
from shared.game.moderation import ReportKind, is_moderator
from shared.http import api
from shared.http.gateway import caller_claims
from shared.http.moderation_models import (
    CASE_ID_PATTERN,
    CasePage,
    CaseSummary,
    CaseWithEvidence,
    DecisionRequest,
    GuestReportRequest,
    LogPage,
    MyReports,
    ReportRequest,
    ReportView,
)
from shared.runtime.wiring import moderation
from shared.services.moderation_store import CasePosition

PAGE_MAX = 100
PAGE_DEFAULT = 50
Limit = Annotated[int, Query(ge=1, le=PAGE_MAX)]
Cursor = Annotated[str | None, Query(max_length=256)]
CaseId = Annotated[str, Path(pattern=CASE_ID_PATTERN, description="a case id")]


def _moderator(app: APIGatewayHttpResolver) -> str:
    """The caller, if a moderator (the `cognito:groups` claim names `moderators`); else 403."""
    player = api.caller_id(app)
    if not is_moderator(caller_claims(app.current_event.raw_event).get("cognito:groups")):
        raise Forbidden("Moderators only", "not_a_moderator")
    return player


def _encode(position: str) -> str:
    return base64.urlsafe_b64encode(position.encode()).decode().rstrip("=")


def _decode(cursor: str) -> str:
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError) as error:
        raise BadRequest("That cursor is not one of ours", "invalid_cursor") from error
    if "#" not in text:
        raise BadRequest("That cursor is not one of ours", "invalid_cursor")
    return text


def register(app: APIGatewayHttpResolver) -> None:
    """Add the moderation routes to APP (the leaderboard function's resolver)."""

    @app.post("/reports", summary="Report a name, a run or a word (SPEC §3e)")
    def report(request: Annotated[ReportRequest, Body()]) -> Response[ReportView]:
        filed, case = moderation().report(api.caller_id(app), request.kind, request.target, request.reason)
        return api.json_response(ReportView.of(filed, case).model_dump(mode="json"), 201)

    @app.post("/guest/reports", summary="A guest reports a word the game refused")
    def guest_report(request: Annotated[GuestReportRequest, Body()]) -> Response[ReportView]:
        stored = moderation().runs.get_run(request.run_id)
        if stored is None or stored.run.player is not None:
            raise NotFound("No such run", "run_not_found")
        filed, case = moderation().report(f"guest:{request.run_id}", "word", request.target, request.reason)
        return api.json_response(ReportView.of(filed, case).model_dump(mode="json"), 201)

    @app.get("/me/reports", summary="The caller's reports and their outcomes, newest first")
    def my_reports() -> MyReports:
        mine = moderation().my_reports(api.caller_id(app))
        return MyReports(items=[ReportView.of(r, c) for r, c in mine])

    @app.get("/moderation/cases", summary="Open cases, oldest first, with their evidence (moderators)")
    def cases(kind: ReportKind | None = None, limit: Limit = PAGE_DEFAULT, cursor: Cursor = None) -> CasePage:
        _moderator(app)
        after = None
        if cursor is not None:
            opened_at, _, case_id = _decode(cursor).rpartition("#")
            after = CasePosition(opened_at, case_id)
        views = moderation().open_cases(kind, after, limit + 1)
        more = len(views) > limit
        views = views[:limit]
        following = _encode(f"{views[-1].case.opened_at}#{views[-1].case.case_id}") if more else None
        return CasePage(items=[CaseWithEvidence.with_evidence(v) for v in views], next_cursor=following)

    @app.post("/moderation/cases/<case_id>/decision", summary="Decide a case (moderators)")
    def decide(case_id: CaseId, request: Annotated[DecisionRequest, Body()]) -> CaseSummary:
        moderator = _moderator(app)
        decided = moderation().decide(moderator, case_id, request.action, request.reason, request.until)
        return CaseSummary.of(decided)

    @app.get("/moderation/log", summary="The audit log of decisions, newest first (moderators)")
    def log(limit: Limit = PAGE_DEFAULT, cursor: Cursor = None) -> LogPage:
        _moderator(app)
        after = _decode(cursor) if cursor is not None else None
        entries = moderation().audit_log(after, limit + 1)
        more = len(entries) > limit
        entries = entries[:limit]
        following = _encode(f"{entries[-1].decided_at}#{entries[-1].case_id}") if more else None
        return LogPage(items=entries, next_cursor=following)
