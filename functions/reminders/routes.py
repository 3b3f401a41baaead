"""The reminder routes (SPEC §4a), served by the leaderboard function: `GET`, `PUT` and `DELETE
/me/reminder`. Thin: parse, call shared.services.reminders, build the reply."""

from dataclasses import asdict
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver
from aws_lambda_powertools.event_handler.openapi.params import Body

from shared.http import api
from shared.http.reminder_models import ReminderRequest, ReminderView
from shared.runtime.push import application_server_key
from shared.runtime.wiring import reminders


def exported(player: str) -> dict[str, Any] | None:
    """PLAYER's reminder as `GET /me/export` shows it (None: no reminder)."""
    held = reminders().held(player)
    return asdict(held) if held else None


def register(app: APIGatewayHttpResolver) -> None:
    """Add the reminder routes to APP (the leaderboard function's resolver)."""

    @app.get("/me/reminder", summary="The caller's reminder hour and the VAPID public key to subscribe with")
    def get_reminder() -> ReminderView:
        held = reminders().held(api.caller_id(app))
        return ReminderView(hour=held.hour if held else None, application_server_key=application_server_key())

    @app.put("/me/reminder", summary="Remind the caller at an hour (Central) by Web Push, if unplayed")
    def put_reminder(request: Annotated[ReminderRequest, Body()]) -> ReminderView:
        held = reminders().subscribe(request.reminder(api.caller_id(app)))
        return ReminderView(hour=held.hour, application_server_key=application_server_key())

    @app.delete("/me/reminder", summary="No more reminders for the caller")
    def delete_reminder() -> ReminderView:
        reminders().unsubscribe(api.caller_id(app))
        return ReminderView(hour=None, application_server_key=application_server_key())
