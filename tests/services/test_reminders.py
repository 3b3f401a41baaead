"""Reminders (SPEC §4a) through the leaderboard function and the two jobs, on the in-memory fakes
and on DynamoDB (moto): a subscription at an hour, sent by the minute's scan only if the day's
Daily is unplayed, once a day, stopped after seven ignored, removed by DELETE /me/reminder and
DELETE /me; and the Web Push itself (pywebpush's encryption and VAPID), decrypted as a browser
would."""

import base64
import json
import os
from datetime import UTC, datetime, timedelta

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from functions.leaderboard.handler import handler as leaderboard_handler
from functions.reminders import scan, send
from local.events import LambdaContext
from shared.game import clock
from shared.game.daily_date import CENTRAL
from shared.game.reminders import IGNORED_LIMIT, Reminder, send_minute
from shared.runtime import push, wiring
from shared.services.reminders import PushOutcome, message
from tests.conftest import Api
from tests.fakes.fake_boards import official, player
from tests.fakes.fake_store import FakePorts, complete_official

call = Api(leaderboard_handler)
DAY = datetime(2026, 1, 15, tzinfo=CENTRAL)  # a winter day, 00:00 Central
P256DH = base64.urlsafe_b64encode(b"\x04" + bytes(64)).decode().rstrip("=")
AUTH = base64.urlsafe_b64encode(bytes(16)).decode().rstrip("=")
BODY = {
    "subscription": {"endpoint": "https://push.example/s/1", "keys": {"p256dh": P256DH, "auth": AUTH}},
    "hour": 19,
}


class Pushes:
    """A push service stand-in: what was pushed, and what it answers."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes]] = []
        self.answer = PushOutcome.SENT

    def push(self, reminder: Reminder, payload: bytes) -> PushOutcome:
        self.sent.append((reminder.player, payload))
        return self.answer


@pytest.fixture(params=["fake", "dynamo"])
def pushes(request):
    clock.travel_to(DAY.replace(hour=12).astimezone(UTC))
    if request.param == "dynamo":
        request.getfixturevalue("table")
    else:
        wiring.reset(FakePorts())
    sent = Pushes()
    wiring.reminders().push = lambda: sent
    yield sent
    wiring.reset()


def at(day: int, name: str = "ann", hour: int = 19) -> datetime:
    """The instant NAME's reminder at HOUR goes out on day DAY (0: DAY)."""
    minute = send_minute(player(name), hour)
    return (DAY + timedelta(days=day, minutes=minute)).astimezone(UTC)


def scan_at(instant: datetime) -> dict:
    clock.travel_to(instant)
    event = {"source": "wordsqd.schedule", "scheduled_time": instant.isoformat().replace("+00:00", "Z")}
    return scan.handler(event, LambdaContext(aws_request_id="scan"))


def played(name: str, day: int) -> None:
    date = (DAY + timedelta(days=day)).date().isoformat()
    done = (DAY + timedelta(days=day, hours=20)).astimezone(UTC).isoformat().replace("+00:00", "Z")
    complete_official(wiring.ports(), official(name, 500, completed_at=done, day=date))


def test_a_subscription_is_held_at_its_hour_and_removed_in_one_request(pushes):
    status, reply, _ = call("PUT", "/me/reminder", BODY, user="ann")
    assert status == 200 and reply["hour"] == 19, reply
    assert len(base64.urlsafe_b64decode(reply["application_server_key"] + "=")) == 65
    assert call("GET", "/me/reminder", user="ann")[1]["hour"] == 19
    assert (
        call("GET", "/me/export", user="ann")[1]["reminder"]["endpoint"] == BODY["subscription"]["endpoint"]
    )
    assert call("PUT", "/me/reminder", {**BODY, "hour": 7}, user="ann")[1]["hour"] == 7  # moved
    assert scan_at(at(0, hour=19)) == {"queued": 0} and scan_at(at(1, hour=7)) == {"queued": 1}
    assert call("DELETE", "/me/reminder", user="ann")[1]["hour"] is None
    assert call("GET", "/me/reminder", user="ann")[1]["hour"] is None
    assert scan_at(at(2, hour=7)) == {"queued": 0}


@pytest.mark.parametrize(
    "body",
    [
        {**BODY, "hour": 24},
        {**BODY, "hour": -1},
        {**BODY, "hour": "19"},
        {"hour": 19},
        {**BODY, "subscription": {**BODY["subscription"], "endpoint": "http://push.example/s/1"}},
        {**BODY, "subscription": {**BODY["subscription"], "endpoint": "javascript:alert(1)"}},
        {**BODY, "subscription": {"endpoint": "https://push.example/s/1", "keys": {"p256dh": P256DH}}},
        {
            **BODY,
            "subscription": {"endpoint": "https://push.example/s/1", "keys": {"p256dh": AUTH, "auth": AUTH}},
        },
    ],
)
def test_a_bad_hour_endpoint_or_keys_is_400(pushes, body):
    status, reply, _ = call("PUT", "/me/reminder", body, user="ann")
    assert status == 400 and reply["error"]["code"] == "bad_request", reply


def test_sent_once_a_day_and_only_while_the_daily_is_unplayed(pushes):
    call("PUT", "/me/reminder", BODY, user="ann")
    call("PUT", "/me/reminder", BODY, user="bob")
    played("bob", 0)  # bob played before his hour
    scan_at(at(0, "bob"))
    scan_at(at(0))
    scan_at(at(0))  # the same minute again (a retried schedule): nothing more
    assert pushes.sent == [(player("ann"), json.dumps({"date": "2026-01-15"}).encode())]
    call("PUT", "/me/reminder", BODY, user="ann")  # subscribing again sends no second one that day
    scan_at(at(0))
    # a batch delivered twice (SQS is at least once) sends once
    held = wiring.reminders().held(player("ann"))
    assert send.handler(
        {"Records": [{"messageId": "m", "body": message("2026-01-15", [held])}]},
        LambdaContext(aws_request_id="send"),
    )
    assert len(pushes.sent) == 1
    scan_at(at(1))
    assert len(pushes.sent) == 2


def test_an_official_run_started_and_not_finished_counts_as_played(pushes):
    from functions.daily.handler import handler as daily_handler

    call("PUT", "/me/reminder", BODY, user="ann")
    clock.travel_to(at(0) - timedelta(minutes=1))
    assert Api(daily_handler)("POST", "/daily/runs", user="ann")[0] == 201  # still in play at the send
    scan_at(at(0))
    assert pushes.sent == []


def test_stopped_after_seven_ignored_and_a_played_day_starts_the_count_again(pushes):
    call("PUT", "/me/reminder", BODY, user="ann")
    scan_at(at(0))
    played("ann", 0)  # played after the reminder: not ignored
    for day in range(1, IGNORED_LIMIT + 3):
        scan_at(at(day))
    assert len(pushes.sent) == 1 + IGNORED_LIMIT  # day 0, then days 1-7 ignored, then no more
    assert call("GET", "/me/reminder", user="ann")[1]["hour"] is None


def test_a_subscription_the_push_service_says_is_gone_is_removed(pushes):
    call("PUT", "/me/reminder", BODY, user="ann")
    pushes.answer = PushOutcome.GONE
    scan_at(at(0))
    assert wiring.reminders().held(player("ann")) is None


def test_delete_me_removes_the_reminder_and_an_erased_player_cannot_subscribe(pushes):
    call("PUT", "/me/reminder", BODY, user="ann")
    assert call("DELETE", "/me", user="ann")[0] == 200
    assert scan_at(at(0)) == {"queued": 0}
    assert wiring.ports().reminders.reminder(player("ann")) is None
    assert wiring.ports().reminders.delete_reminder(player("ann")) is False
    status, reply, _ = call("PUT", "/me/reminder", BODY, user="ann")
    assert status == 401, reply


class Session:
    """requests' session as pywebpush uses it: what it POSTs, answered with STATUS."""

    def __init__(self, status: int) -> None:
        self.status, self.posts = status, []

    def post(self, url, data=None, headers=None, timeout=None):
        self.posts.append((url, data, headers))
        return type("Reply", (), {"status_code": self.status, "reason": "", "text": "", "headers": {}})()


def test_the_push_is_encrypted_for_the_browser_and_signed_with_the_vapid_key(monkeypatch):
    monkeypatch.setitem(os.environ, "VAPID_KEY", "a-test-vapid-secret")
    push.vapid_private_key.cache_clear()
    browser = ec.generate_private_key(ec.SECP256R1())
    public = browser.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    secret = os.urandom(16)
    b64 = lambda raw: base64.urlsafe_b64encode(raw).decode().rstrip("=")  # noqa: E731
    reminder = Reminder("p", "https://push.example/s/1", b64(public), b64(secret), 19)
    session = Session(201)
    assert push.WebPush(session).push(reminder, b'{"date": "2026-01-15"}') is PushOutcome.SENT
    url, data, headers = session.posts[0]
    assert url == reminder.endpoint and headers["content-encoding"] == "aes128gcm"
    assert http_ece.decrypt(data, private_key=browser, auth_secret=secret) == b'{"date": "2026-01-15"}'
    assert f"k={push.application_server_key()}" in headers["authorization"]
    assert push.WebPush(Session(410)).push(reminder, b"{}") is PushOutcome.GONE
    assert push.WebPush(Session(500)).push(reminder, b"{}") is PushOutcome.FAILED
    push.vapid_private_key.cache_clear()
