"""The moderation routes (SPEC §3e), served by the moderation function (functions/moderation/
handler.py). Thin: parse, check the caller's role, call shared.services.moderation (cases, appeals),
build the reply."""

import base64
import binascii
import hashlib
import hmac
from typing import Annotated

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query
from aws_lambda_powertools.metrics import MetricUnit

from shared.game.cases import client_of
from shared.game.daily_date import daily_date
from shared.game.errors import BadRequest, Forbidden
from shared.game.moderation import Case, CaseKind, LogEntry, is_moderator
from shared.http import api
from shared.http.gateway import caller_claims
from shared.http.moderation_models import (
    CASE_ID_PATTERN,
    AppealRequest,
    AppealView,
    CasePage,
    CaseSummary,
    CaseWithEvidence,
    DecisionRequest,
    GuestReportRequest,
    LogPage,
    LogView,
    MyAppeals,
    MyReports,
    ReportRequest,
    ReportView,
)
from shared.http.viewer import viewer_address
from shared.runtime.observability import metrics
from shared.runtime.roster import roster
from shared.runtime.secrets import cursor_keys
from shared.runtime.wiring import moderation, players
from shared.services import appeals, cases
from shared.services.moderation_store import CasePosition

PAGE_MAX = 100
PAGE_DEFAULT = 50
Limit = Annotated[int, Query(ge=1, le=PAGE_MAX)]
Cursor = Annotated[str | None, Query(max_length=256)]
CaseId = Annotated[str, Path(pattern=CASE_ID_PATTERN, description="a case id")]


def _moderator(app: APIGatewayHttpResolver) -> str:
    """The caller, if a moderator: the `cognito:groups` claim names `moderators` and the roster
    (the user pool, asked at most once a minute: shared/runtime/roster.py) still does; else 403."""
    player = api.caller_id(app)
    if not is_moderator(caller_claims(app.current_event.raw_event).get("cognito:groups")):
        raise Forbidden("Moderators only", "not_a_moderator")
    if not roster().is_moderator(api.caller_username(app)):
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
    """Add the moderation routes to APP (the moderation function's resolver)."""

    @app.post("/reports", summary="Report a name, a run or a word (SPEC §3e)")
    def report(request: Annotated[ReportRequest, Body()]) -> Response[ReportView]:
        filed, case = moderation().report(api.caller_id(app), request.kind, request.target, request.reason)
        _opened(case)
        return api.json_response(ReportView.of(filed, case).model_dump(mode="json"), 201)

    @app.post("/guest/reports", summary="A guest reports a word judged in their own run")
    def guest_report(request: Annotated[GuestReportRequest, Body()]) -> Response[ReportView]:
        service = moderation()
        address = viewer_address(app.current_event.raw_event)
        client = client_of(address, daily_date(service.now()).isoformat(), _client_salt())
        filed, case = cases.guest_report(service, request.run_id, request.target, request.reason, client)
        _opened(case)
        return api.json_response(ReportView.of(filed, case).model_dump(mode="json"), 201)

    @app.get("/me/reports", summary="The caller's reports and their outcomes, newest first")
    def my_reports() -> MyReports:
        mine = moderation().my_reports(api.caller_id(app))
        return MyReports(items=[ReportView.of(r, c) for r, c in mine])

    @app.get("/moderation/cases", summary="Open cases, oldest first, with their evidence (moderators)")
    def queue(kind: CaseKind | None = None, limit: Limit = PAGE_DEFAULT, cursor: Cursor = None) -> CasePage:
        moderator = _moderator(app)
        after = None
        if cursor is not None:
            opened_at, _, case_id = _decode(cursor).rpartition("#")
            after = CasePosition(opened_at, case_id)
        views = moderation().open_cases(kind, after, limit + 1, moderator)
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
        return LogPage(items=LogView.named(entries, names_of(entries)), next_cursor=following)

    @app.post("/me/appeals", summary="Appeal a sanction, once (SPEC §3e)")
    def appeal(request: Annotated[AppealRequest, Body()]) -> Response[AppealView]:
        player = api.caller_id(app)
        case = appeals.appeal(moderation(), player, request.sanction, request.reason)
        _opened(case)
        (sanction,) = [s for s in moderation().sanctions(player) if s.case_id == request.sanction]
        return api.json_response(AppealView.of(sanction, case).model_dump(mode="json"), 201)

    @app.get("/me/appeals", summary="The caller's appeals and their rulings")
    def my_appeals() -> MyAppeals:
        mine = appeals.my_appeals(moderation(), api.caller_id(app))
        return MyAppeals(items=[AppealView.of(s, a) for s, a in mine])


def names_of(entries: list[LogEntry]) -> dict[str, str]:
    """The name each moderator and player of ENTRIES shows now (their default name if none)."""
    return cases.shown_names(players().names, [p for e in entries for p in (e.moderator, e.subject) if p])


def _opened(case: Case) -> None:
    """A new case (its first report, or an appeal): the opening rate's metric (SPEC §3e)."""
    if case.count <= 1:
        metrics.add_metric(name="CasesOpened", unit=MetricUnit.Count, value=1)


def _client_salt() -> bytes:
    return hmac.new(cursor_keys()[0], b"report-client", hashlib.sha256).digest()
