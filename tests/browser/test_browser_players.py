"""Leagues, past Dailies and a player's data in the web client (web/js/views/leagues.js,
archive.js, players.js): a league created, joined from its invite link and shown with "you are 1st
of 2", the past Dailies listed, and an account deleted after its confirmation."""

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


def test_a_league_is_created_joined_from_its_link_and_shows_where_you_stand(open_client):
    ann = open_client()
    ann.open("/#leagues")
    ann.login("leagueann")
    ann.page.click("a[data-view-link=leagues]")
    ann.page.fill("#league-name", "Office")
    ann.page.click("#league-create button")
    ann.page.wait_for_selector("#league-card:visible")
    link = ann.page.input_value("#league-link")
    assert "?league=" in link and link.endswith("#leagues")

    bob = open_client()
    bob.open(link.removeprefix(bob.server.url))
    bob.login("leaguebob")
    bob.page.click("a[data-view-link=leagues]")
    bob.page.click("#league-join button")
    bob.page.wait_for_selector("#league-card:visible")
    assert "You are in Office" in bob.page.inner_text("#leagues-status")
    bob.page.wait_for_function("document.querySelector('#league-standing').textContent !== ''")
    assert "No official result" in bob.page.inner_text("#league-standing")
    assert bob.page.locator("#league-members li").count() == 2


def test_past_dailies_are_listed_and_a_deleted_account_is_gone(open_client):
    client = open_client()
    client.open()
    client.login("goneplayer")
    client.page.click("a[data-view-link=archive]")
    client.page.wait_for_selector("#archive tbody tr")
    client.page.click("a[data-view-link=me]")
    client.page.wait_for_selector("#delete-account:visible")
    client.page.once("dialog", lambda dialog: dialog.accept())
    with client.page.expect_navigation():
        client.page.click("#delete-account")
    client.page.wait_for_selector("html[data-ready=true]")
    assert client.page.is_visible("#login-open")


# How long a module is held back while a page that did not wait for it would go on to the Daily.
HOLD_MS = 3_000


def test_a_slow_module_is_waited_for_before_any_view_is_shown(open_client):
    """js/views/leagues.js builds the leagues view, and a loaded machine can serve it after the
    other modules: held back, the page asks for nothing past its modules until it has run (main.js
    runs once its whole import graph is in), then opens on #leagues with no error. (A page that
    went on would ask for the Daily and show its first view on a view not built yet.)"""
    client = open_client()
    page = client.page
    held, seen = [], []
    page.route("**/js/views/leagues.js", lambda route: held.append(route))
    page.on("request", lambda request: seen.append(request.url.removeprefix(client.server.url)))
    page.goto(client.server.url + "/#leagues", wait_until="commit")
    with contextlib.suppress(PlaywrightTimeoutError):  # the page waits for leagues.js: as it should
        page.wait_for_event("response", lambda response: response.url.endswith("/daily"), timeout=HOLD_MS)
    seen.append("leagues.js released")
    held[0].continue_()
    page.wait_for_selector("html[data-ready=true]")
    assert seen.index("leagues.js released") < seen.index("/config.json") < seen.index("/daily"), seen
    assert page.locator("#view-leagues").is_visible()
