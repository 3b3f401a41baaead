"""A reminder's push (SPEC §4a) reaches the page's service worker and shows one notification: the
push is delivered through Chromium's DevTools protocol (ServiceWorker.deliverPushMessage), as a
push service would."""

import base64
import json
import os
from datetime import datetime, timedelta

import http_ece
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from shared.game.clock import parse_iso
from shared.game.daily_date import CENTRAL
from shared.game.reminders import send_minute

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


def test_a_push_delivered_to_the_service_worker_shows_the_reminder(open_client, server):
    client = open_client(width=360, height=780)
    client.page.context.grant_permissions(["notifications"], origin=server.url)
    page = client.page
    cdp = page.context.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    client.open()
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")  # sw.js registered
    page.wait_for_function("!!navigator.serviceWorker.controller")
    day = server.request("GET", "/daily")[1]["date"]
    shown = pushed_and_shown(page, cdp, registrations, server.url, json.dumps({"date": day}))
    assert shown == [
        [
            "Today's WordSQD is waiting",
            "Three letters, one word, ten rounds: your Daily is not played yet.",
            f"wordsqd-reminder-{day}",
        ]
    ]


def test_the_page_turns_a_reminder_on_and_off_in_one_tap_and_its_push_reaches_the_service_worker(
    open_client, clock_server
):
    """#me's Reminder: the hour picked, the browser's subscription (PushManager stubbed with a
    subscription to make run's push stand-in: Chromium offline has no push service) sent with PUT
    /me/reminder; the clock moved to the send minute, the stand-in gets the encrypted push, which
    decrypts with the subscription's key and, delivered to the service worker, shows the
    notification. "Turn reminders off" is one tap (DELETE /me/reminder)."""
    browser_key, secret = ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
    point = browser_key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    subscription = {
        "endpoint": f"{clock_server.url}/local/push",
        "keys": {"p256dh": _b64(point), "auth": _b64(secret)},
    }
    client = open_client(width=360, height=780, on=clock_server)
    page = client.page
    page.context.grant_permissions(["notifications"], origin=clock_server.url)
    page.add_init_script(STUB_PUSH_MANAGER.replace("SUBSCRIPTION", json.dumps(subscription)))
    client.open()
    client.login("rita-remind")
    page.get_by_role("link", name="Stats").first.click()
    page.get_by_label("Remind me at (Central time)").select_option("21")
    page.get_by_role("button", name="Remind me").click()
    page.wait_for_function("document.querySelector('#reminder-status').textContent.startsWith('Reminder on')")
    token = clock_server.request("POST", "/local/login", {"username": "rita-remind"})[1]["id_token"]
    reminder = clock_server.request("GET", "/me/reminder", token=token)[1]
    assert reminder["hour"] == 21
    server_key = _unb64(reminder["application_server_key"])
    assert base64.b64decode(page.evaluate("window.stubbedKey")) == server_key  # as subscribe takes it
    page.get_by_role("button", name="Turn reminders off").click()  # off in one tap
    page.wait_for_function("document.querySelector('#reminder-status').textContent === 'Reminders off.'")
    assert clock_server.request("GET", "/me/reminder", token=token)[1]["hour"] is None
    assert page.evaluate("window.stubbedUnsubscribed") is True
    page.get_by_role("button", name="Remind me").click()  # and on again, for the push
    page.wait_for_function("document.querySelector('#reminder-status').textContent.startsWith('Reminder on')")
    assert page.evaluate("window.stubbedSubscribes") == 2
    page.evaluate("window.keepOldSubscription()")  # the VAPID key rotated: the old subscription is replaced
    with page.expect_response(lambda r: r.url.endswith("/me/reminder") and r.request.method == "PUT") as put:
        page.get_by_role("button", name="Remind me").click()
    assert put.value.status == 200
    assert page.evaluate("[window.stubbedSubscribes, window.stubbedUnsubscribed]") == [3, True]
    sub = jwt.decode(token, options={"verify_signature": False})["sub"]
    now = parse_iso(clock_server.request("POST", "/guest/daily/runs")[1]["started_at"]).astimezone(CENTRAL)
    day = now.date() + timedelta(days=1)
    send_at = datetime(day.year, day.month, day.day, tzinfo=CENTRAL) + timedelta(minutes=send_minute(sub, 21))
    clock_server.advance_clock((send_at - now).total_seconds())
    [pushed] = clock_server.request("GET", "/local/push")[1]["pushes"]
    # Sent as a push service takes it (pywebpush): aes128gcm, and a VAPID JWT (RFC 8292) for the
    # endpoint's origin, signed with the key the browser subscribed with.
    assert pushed["headers"]["content-encoding"] == "aes128gcm"
    vapid = dict(part.strip().split("=", 1) for part in pushed["headers"]["authorization"][6:].split(","))
    assert pushed["headers"]["authorization"].startswith("vapid ") and _unb64(vapid["k"]) == server_key
    signer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), server_key)
    claims = jwt.decode(vapid["t"], signer, algorithms=["ES256"], audience=clock_server.url)
    assert claims["sub"].startswith("mailto:")
    data = http_ece.decrypt(
        base64.urlsafe_b64decode(pushed["body"]), private_key=browser_key, auth_secret=secret
    )
    assert json.loads(data) == {"date": day.isoformat()}

    cdp = page.context.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    page.wait_for_function("!!navigator.serviceWorker.controller")
    shown = pushed_and_shown(page, cdp, registrations, clock_server.url, data.decode())
    tags = [tag for _, _, tag in shown]
    assert tags == [f"wordsqd-reminder-{day.isoformat()}"]


def pushed_and_shown(page, cdp, registrations: list[dict], origin: str, data: str) -> list:
    """Deliver DATA as a push to ORIGIN's service worker (its newest live registration, as the
    DevTools protocol reported it) and return the notifications it shows: [title, body, tag] each.
    A push the browser drops (its worker stopping or restarting on a loaded machine) is delivered
    again, up to six times, ten seconds each; a reminder's tag is the day's, so a second delivery
    replaces the first notification rather than adding one."""
    for _ in range(6):
        mine = [r for r in registrations if r["scopeURL"].startswith(origin) and not r["isDeleted"]]
        assert mine, registrations
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": origin, "registrationId": mine[-1]["registrationId"], "data": data},
        )
        try:
            return page.wait_for_function(
                """async () => {
                  const all = await (await navigator.serviceWorker.ready).getNotifications();
                  return all.length ? all.map((n) => [n.title, n.body, n.tag]) : null;
                }""",
                timeout=10_000,
            )
        except PlaywrightTimeoutError:
            continue
    raise AssertionError("no notification after six pushes")


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# Headless Chromium cannot subscribe: PushManager.subscribe rejects "Registration failed -
# permission denied" with notifications and push granted (it has no push service: Chrome's is
# Google's FCM, online). A subscription to the local push stand-in stands in for it (the page
# passes the server's key, sends what toJSON gives); the push itself reaches the real service worker.
STUB_PUSH_MANAGER = """
(() => {
  let current = null;
  PushManager.prototype.getSubscription = async function () { return current; };
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.stubbedKey = btoa(String.fromCharCode(...key));
    current = {
      options: { userVisibleOnly: true, applicationServerKey: key.buffer },
      toJSON: () => ({ ...SUBSCRIPTION, expirationTime: null }),
      unsubscribe: async () => { window.stubbedUnsubscribed = true; current = null; return true; },
    };
    window.stubbedSubscribes = (window.stubbedSubscribes || 0) + 1;
    return current;
  };
  // a subscription the browser kept from an older VAPID key
  window.keepOldSubscription = () => {
    current = { ...current, options: { applicationServerKey: new Uint8Array(65).buffer } };
    window.stubbedUnsubscribed = false;
  };
})();
"""
