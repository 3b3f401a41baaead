"""Challenges in the web client (SPEC §3a): create one with options, share its link, play it, see
its board; and "Start the Daily" plays only the Daily while a challenge run is in play."""

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browser.client import assert_share_text, shown_round, wait_for_round
from tests.browser.rounds import accept, create_challenge

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


def _play_rounds(page, first: int, last: int, played: list[str], skip: int | None = None) -> None:
    for number in range(first, last + 1):
        shown, prompt, forbidden = shown_round(page)
        assert shown == number
        if number == skip:
            page.keyboard.press("Escape")
        else:
            accept(page, number, prompt, forbidden, played)
        if number < last:
            wait_for_round(page, number + 1)


def test_create_share_and_play_a_challenge_then_see_its_board(open_client):
    creator = open_client(width=390, height=844)
    page = creator.start_as("cleo-creates")
    link = create_challenge(page, rounds="5", forbidden="1")
    challenge_id = parse_qs(urlsplit(link).query)["challenge"][0]
    assert link == f"{creator.server.url}/?challenge={challenge_id}"
    assert "5 rounds (the last 1 forbidden)" in page.inner_text("#challenge-shape")
    page.click("#challenge-copy")
    page.wait_for_function(
        "document.querySelector('#challenge-status').textContent.startsWith('Link copied')"
    )
    assert page.evaluate("navigator.clipboard.readText()") == link
    creator.check_screen("09-challenge-created-390")

    # The creator plays it: 5 rounds, the last one forbidden.
    page.click("#challenge-play")
    page.wait_for_selector("#view-game:visible")
    assert page.inner_text("#run-label") == "Challenge" and page.inner_text("#rounds") == "5"
    played: list[str] = []
    _play_rounds(page, 1, 4, played)
    assert page.locator("#forbidden-banner").is_visible()
    _play_rounds(page, 5, 5, played)
    page.wait_for_selector("#view-end:visible")
    # every line pinned: the share text holds no played word
    assert_share_text(page.input_value("#share-text"), "WordSQD challenge (5 rounds)", "✅✅✅✅✅", link)
    assert page.inner_text("#end-note") == "This is your result for the challenge."
    creator.check_screen("10-end-challenge-390")

    # A friend opens the shared link: the challenge, its board, and a login to play. The board's
    # first page trails a completion by the stream consumer's second or two: a clock step of 0 s
    # makes the local server drain the stream first, as that lag would have on AWS.
    creator.server.advance_clock(0)
    friend = open_client(width=1280)
    other = friend.page
    friend.open(f"/?challenge={challenge_id}")
    other.wait_for_selector("#view-challenges:visible")
    assert other.inner_text("#challenge-play") == "Log in to play"
    assert "player-" in other.inner_text("#challenge-board tbody")
    friend.login("dex-joins")
    other.wait_for_function("document.querySelector('#challenge-play').textContent === 'Play this challenge'")
    other.click("#challenge-play")
    other.wait_for_selector("#view-game:visible")
    theirs: list[str] = []
    _play_rounds(other, 1, 1, theirs)
    wait_for_round(other, 2)

    # Away and back: the same run resumes at round 2.
    other.click("a[data-view-link=home]")
    other.wait_for_selector("#resume-run:visible")  # the link routes by hashchange, an event later
    assert other.inner_text("#resume-run") == "Resume your challenge"
    other.click("a[data-view-link=challenges]")
    other.click("#challenge-play")
    other.wait_for_selector("#view-game:visible")
    assert other.inner_text("#status").startswith("Welcome back")
    assert other.inner_text("#run-label") == "Challenge" and other.inner_text("#round") == "2"
    _play_rounds(other, 2, 5, theirs, skip=3)
    other.wait_for_selector("#view-end:visible")
    assert other.input_value("#share-text").splitlines()[1] == "✅✅➖✅✅"

    other.click("#end-board")
    other.wait_for_selector("#view-challenges:visible")
    other.wait_for_function("document.querySelectorAll('#challenge-board tbody tr').length === 2")
    mine = other.inner_text("#challenge-board tr.mine")
    assert other.inner_text("#final-score") in mine
    friend.check_screen("11-challenge-board")


def _challenge_id(server, token: str) -> str:
    status, challenge = server.request("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, token)
    assert status == 201, challenge
    return challenge["challenge_id"]


def test_start_the_daily_refuses_a_run_that_is_not_a_daily(open_client, server):
    """The client's own check of `kind` (the server's reply rewritten in the browser)."""
    client = open_client()
    page = client.start_as("rita-refuses")
    token = page.evaluate("localStorage.getItem('wordsqd.token')")
    challenge_id = _challenge_id(server, token)
    status, challenge_run = server.request("POST", f"/challenges/{challenge_id}/runs", token=token)
    assert status == 201
    page.route(
        "**/daily/runs",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(challenge_run)
        ),
    )
    page.click("#start-daily")
    page.wait_for_selector("#notice:visible")
    assert page.inner_text("#notice") == "The server answered with a run that is not a Daily: not started."
    page.wait_for_selector("#view-home:visible")  # (the login's own reads may still be re-rendering it)
    assert page.locator("#view-game").is_hidden()


def test_start_the_daily_plays_a_daily_while_a_challenge_run_is_active(open_client, server):
    """SPEC §3: runs of different scopes never block each other; POST /daily/runs only ever
    returns a Daily run, and the page shows that run, not the challenge's."""
    client = open_client()
    page = client.start_as("cody-both")
    challenge_id = _challenge_id(server, page.evaluate("localStorage.getItem('wordsqd.token')"))
    client.open(f"/?challenge={challenge_id}")
    page.click("#challenge-play")
    page.wait_for_selector("#view-game:visible")
    challenge_run = json.loads(page.evaluate("sessionStorage.getItem('wordsqd.run')"))["run_id"]

    page.click("a[data-view-link=home]")
    page.wait_for_selector("#resume-run:visible")
    assert page.inner_text("#resume-run") == "Resume your challenge"
    page.click("#start-daily")
    page.wait_for_selector("#view-game:visible, #notice:visible")
    assert page.locator("#notice").is_hidden(), page.inner_text("#notice")
    assert page.inner_text("#run-label") == "Daily · official" and page.inner_text("#rounds") == "10"
    daily_run = json.loads(page.evaluate("sessionStorage.getItem('wordsqd.run')"))["run_id"]
    assert daily_run != challenge_run
