"""The Cognito Hosted UI login (authorization code + PKCE) against a stand-in identity provider
served by Playwright, and the countdown in the player's zone. The client's pure helpers are
checked without a page, by node --test (tests/web/)."""

import base64
import hashlib
import json
import urllib.request
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import pytest

from tests.browser.client import as_a_stage

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


def _jwt(claims: dict) -> str:
    def part(data: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'HS256'})}.{part(claims)}.c2ln"


def test_cognito_login_is_the_hosted_ui_code_flow_with_pkce(open_client, server):
    """With a Cognito config the page sends the player to the Hosted UI with an S256 challenge,
    then exchanges the code and its verifier at /oauth2/token and keeps the id token. The Hosted
    UI is a stand-in here; the id token it hands back is a local one, so the API accepts it."""
    client = open_client(service_workers="block")  # as_a_stage routes its page
    page = client.page
    domain = "https://wordsqd-test.auth.us-east-1.amazoncognito.com"
    config = {
        "auth": "cognito",
        "region": "us-east-1",
        "user_pool_id": "us-east-1_test",
        "client_id": "client123",
        "domain": domain,
    }
    as_a_stage(page, config)  # its config.json and its CSP
    authorize, exchange = [], []

    def hosted_ui(route):
        authorize.append(route.request.url)
        route.fulfill(
            content_type="text/html", body="<!doctype html><title>Sign in</title><main>Sign in</main>"
        )

    status, body = server.request("POST", "/local/login", {"username": "cora-cognito"})
    assert status == 200
    id_token = body["id_token"]

    def token_endpoint(route):
        exchange.append(route.request.post_data)
        route.fulfill(
            json={"id_token": id_token, "access_token": _jwt({}), "token_type": "Bearer", "expires_in": 3600},
            headers={"Access-Control-Allow-Origin": server.url},
        )

    page.route(f"{domain}/oauth2/authorize**", hosted_ui)
    page.route(f"{domain}/oauth2/token", token_endpoint)
    client.open()
    page.click("#login-open")
    page.wait_for_url(f"{domain}/oauth2/authorize**")
    query = {k: v[0] for k, v in parse_qs(urlsplit(authorize[0]).query).items()}
    assert {k: query[k] for k in ("response_type", "client_id", "redirect_uri", "code_challenge_method")} == {
        "response_type": "code",
        "client_id": "client123",
        "redirect_uri": server.url + "/",
        "code_challenge_method": "S256",
    }
    assert "openid" in query["scope"].split()

    # The Hosted UI sends the player back with a code and the same state.
    page.goto(f"{server.url}/?code=the-code&state={query['state']}")
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_selector("#logout:visible")
    sent = {k: v[0] for k, v in parse_qs(exchange[0]).items()}
    verifier = sent.pop("code_verifier")
    assert sent == {
        "grant_type": "authorization_code",
        "client_id": "client123",
        "code": "the-code",
        "redirect_uri": server.url + "/",
    }
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    assert challenge == query["code_challenge"]
    assert page.evaluate("localStorage.getItem('wordsqd.token')") == id_token
    assert "code=" not in page.url and page.evaluate("sessionStorage.getItem('wordsqd.pkce')") is None
    assert page.inner_text("#who").startswith("player-")


def server_now(server) -> datetime:
    """The server's game clock, from a reply's Date header (as the page learns it)."""
    with urllib.request.urlopen(server.url + "/daily", timeout=30) as reply:
        return parsedate_to_datetime(reply.headers["Date"])


def test_the_countdown_runs_to_the_next_daily_in_the_players_local_time(open_client, server):
    """GET /daily's `resets_at` (midnight Central), counted down and shown in the browser's zone."""
    client = open_client(timezone_id="Asia/Tokyo")
    page = client.page
    opened = server_now(server)  # the game clock, which earlier tests may have moved
    client.open()
    countdown = page.inner_text("#countdown")
    read = server_now(server) + timedelta(seconds=1)  # a Date header is to the second
    resets_at = server.request("GET", "/daily")[1]["resets_at"]
    at = datetime.fromisoformat(resets_at.replace("Z", "+00:00"))
    shown = 0
    for part in countdown.split(":"):
        shown = shown * 60 + int(part)
    # The page counted at some instant between OPENED and READ, however slowly a loaded machine
    # runs it, on the server's clock learnt from a Date header (to the second) and shown to the second.
    slack = 2
    earliest, latest = (at - read).total_seconds() - slack, (at - opened).total_seconds() + slack
    assert earliest <= shown <= latest, (countdown, earliest, latest)
    tokyo = at.astimezone(ZoneInfo("Asia/Tokyo"))
    assert page.inner_text("#reset-local") == f"(at {tokyo.strftime('%-I:%M %p')} your time)"
