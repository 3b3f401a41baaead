"""A reminder's push (SPEC §4a) reaches the page's service worker and shows one notification: the
push is delivered through Chromium's DevTools protocol (ServiceWorker.deliverPushMessage), as a
push service would."""

import json

import pytest

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
    mine = [r for r in registrations if r["scopeURL"].startswith(server.url) and not r["isDeleted"]]
    assert mine, registrations
    day = server.request("GET", "/daily")[1]["date"]
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": server.url,
            "registrationId": mine[-1]["registrationId"],
            "data": json.dumps({"date": day}),
        },
    )
    shown = page.wait_for_function(
        """async () => {
          const all = await (await navigator.serviceWorker.ready).getNotifications();
          return all.length ? all.map((n) => [n.title, n.body, n.tag]) : null;
        }"""
    )
    assert shown == [
        [
            "Today's WordSQD is waiting",
            "Three letters, one word, ten rounds: your Daily is not played yet.",
            f"wordsqd-reminder-{day}",
        ]
    ]
