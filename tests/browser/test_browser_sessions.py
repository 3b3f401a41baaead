"""Sessions that last (SPEC §7): the page renews its id token with the refresh token before it
expires and after a 401, on the local clock, and says so when it cannot; the first login asks
for a display name. On a server of this module's own, since it moves the clock."""

import base64
import json

import pytest

from tests.browser.client import as_a_stage

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


def _claims(page) -> dict:
    token = page.evaluate("localStorage.getItem('wordsqd.token')")
    part = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def _expect_errors(client, *fragments: str) -> None:
    """Take the errors the test caused on purpose off the tab's list; any other stays."""
    for fragment in fragments:
        matching = [error for error in client.errors if fragment in error]
        assert matching, (fragment, client.errors)
        client.errors.remove(matching[0])


def test_the_token_is_renewed_before_it_expires_on_the_local_clock(open_client, clock_server):
    client = open_client(on=clock_server)
    page = client.start_as("ruth-renews")
    first = _claims(page)
    first_refresh = page.evaluate("localStorage.getItem('wordsqd.refresh')")
    assert first["exp"] - first["iat"] == 3600
    clock_server.advance_clock(3400)  # 200 s left: inside the page's 300 s margin
    page.click("a[data-view-link=me]")  # a reply's Date tells the page the server's time
    page.wait_for_function(
        f"JSON.parse(atob(localStorage.getItem('wordsqd.token').split('.')[1]"
        f".replace(/-/g, '+').replace(/_/g, '/'))).exp > {first['exp']}"
    )
    renewed = _claims(page)
    assert renewed["sub"] == first["sub"] and renewed["exp"] >= first["exp"] + 3000
    # The refresh token rotates: the page keeps the new one (the old one stops after 60 s, so the
    # second renewal below works only with it).
    assert page.evaluate("localStorage.getItem('wordsqd.refresh')") not in (None, first_refresh)
    assert page.inner_text("#who").startswith("player-") and page.locator("#logout").is_visible()
    # The page is still the same player an hour later, with no reload and no 401 on the way.
    clock_server.advance_clock(3400)
    page.click("a[data-view-link=home]")
    page.click("a[data-view-link=me]")
    page.wait_for_function(
        f"JSON.parse(atob(localStorage.getItem('wordsqd.token').split('.')[1]"
        f".replace(/-/g, '+').replace(/_/g, '/'))).exp > {renewed['exp']}"
    )
    assert page.locator("#notice").is_hidden()


def test_a_401_renews_the_token_and_the_request_goes_through(open_client, clock_server):
    client = open_client(on=clock_server)
    page = client.start_as("otto-401")
    page.click("a[data-view-link=home]")
    clock_server.advance_clock(3700)  # expired on the server; the page has not heard yet
    page.click("#start-daily")  # its first request earns a 401, renews, and is sent again
    page.wait_for_selector("#view-game:visible")
    assert page.inner_text("#run-label") == "Daily · official"
    assert page.inner_text("#who").startswith("player-") and page.locator("#notice").is_hidden()
    _expect_errors(client, "HTTP 401", "console: Failed to load resource")


def test_a_renewal_that_fails_is_said_before_a_run_starts(open_client, clock_server):
    client = open_client(on=clock_server)
    page = client.start_as("fay-fails")
    page.evaluate("localStorage.setItem('wordsqd.refresh', 'revoked')")
    clock_server.advance_clock(3700)
    client.open()  # the next visit: the token has expired and cannot be renewed
    notice = page.inner_text("#notice")
    assert "could not be renewed" in notice and "guest run" in notice
    assert page.inner_text("#start-daily") == "Start as a guest"
    assert "could not be renewed" in page.inner_text("#daily-who")
    assert page.inner_text("#who") == "Guest" and page.locator("#login-open").is_visible()
    client.check_screen("20-login-lost")
    _expect_errors(client, "HTTP 400", "console: Failed to load resource")


def test_the_first_login_asks_for_a_name_and_explains_a_refusal(open_client, clock_server):
    client = open_client(width=360, height=740, on=clock_server)
    page = client.start_as("nora-new")
    page.wait_for_selector("#name-panel:visible")
    assert "3 to 20" in page.inner_text("#name-prompt-rules")
    assert page.evaluate("document.activeElement.id") == "name-prompt"
    client.check_screen("21-name-prompt-360")
    page.fill("#name-prompt", "ab")
    page.click("#name-prompt-form button.primary")
    assert "3 to 20 characters" in page.inner_text("#name-prompt-status")
    # Another player holds "Bill": "BiII" looks the same, and the page says why in words.
    status, body = clock_server.request("POST", "/local/login", {"username": "bill-first"})
    clock_server.request("PUT", "/me", {"display_name": "Bill"}, token=body["id_token"])
    page.fill("#name-prompt", "BiII")
    page.click("#name-prompt-form button.primary")
    page.wait_for_function("document.querySelector('#name-prompt-status').textContent.includes('looks like')")
    assert "1, I and l" in page.inner_text("#name-prompt-status")
    page.fill("#name-prompt", "Nora Plays")
    page.click("#name-prompt-form button.primary")
    page.wait_for_selector("#name-panel", state="hidden")
    assert page.inner_text("#who") == "Nora Plays"
    client.open()
    assert page.locator("#name-panel").is_hidden()  # asked once: she has a name now
    _expect_errors(client, "HTTP 409", "console: Failed to load resource")


def test_not_now_skips_the_name_prompt_for_good(open_client, clock_server):
    client = open_client(on=clock_server)
    page = client.start_as("sam-skips")
    page.click("#name-prompt-skip")
    assert page.locator("#name-panel").is_hidden() and "under Stats" in page.inner_text("#notice")
    client.open()
    assert page.locator("#name-panel").is_hidden()


def test_a_cognito_login_renews_at_the_hosted_uis_token_endpoint(open_client, clock_server):
    """grant_type=refresh_token with the client id and the refresh token the code exchange gave."""
    client = open_client(on=clock_server, service_workers="block")  # as_a_stage routes its page
    page = client.page
    domain = "https://wordsqd-test.auth.us-east-1.amazoncognito.com"
    config = {
        "auth": "cognito",
        "region": "us-east-1",
        "user_pool_id": "p",
        "client_id": "client123",
        "domain": domain,
    }
    as_a_stage(page, config)  # its config.json and its CSP

    def token_endpoint(route):
        form = dict(item.split("=", 1) for item in route.request.post_data.split("&"))
        _, body = clock_server.request("POST", "/local/login", {"username": "cody-cognito"})
        reply = {"id_token": body["id_token"], "expires_in": 3600, "token_type": "Bearer"}
        if form["grant_type"] == "authorization_code":
            reply["refresh_token"] = "cognito-refresh-1"
        route.fulfill(json=reply, headers={"Access-Control-Allow-Origin": clock_server.url})

    page.route(
        f"{domain}/oauth2/authorize**",
        lambda route: route.fulfill(content_type="text/html", body="<title>x</title>"),
    )
    page.route(f"{domain}/oauth2/token", token_endpoint)
    client.open()
    page.click("#login-open")
    page.wait_for_url(f"{domain}/oauth2/authorize**")
    state = dict(item.split("=", 1) for item in page.url.split("?", 1)[1].split("&"))["state"]
    client.open(f"/?code=c&state={state}")
    page.wait_for_selector("#logout:visible")
    assert page.evaluate("localStorage.getItem('wordsqd.refresh')") == "cognito-refresh-1"
    clock_server.advance_clock(3400)
    token = page.evaluate("localStorage.getItem('wordsqd.token')")
    with page.expect_request(f"{domain}/oauth2/token") as renewal:
        page.click("a[data-view-link=me]")
    page.wait_for_function("(token) => localStorage.getItem('wordsqd.token') !== token", arg=token)
    page.wait_for_function("document.querySelector('#who').textContent.startsWith('player-')")
    assert dict(item.split("=", 1) for item in renewal.value.post_data.split("&")) == {
        "grant_type": "refresh_token",
        "client_id": "client123",
        "refresh_token": "cognito-refresh-1",
    }
    assert page.evaluate("localStorage.getItem('wordsqd.refresh')") == "cognito-refresh-1"  # kept
