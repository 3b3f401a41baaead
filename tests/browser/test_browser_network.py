"""Requests that get no reply (web/js/lib/http.js): an answer whose reply is lost on the way is
sent once more with the same slot and word, and the server's replay (SPEC §5 "Retries are safe")
is what the page shows; it counts once. So is a league's creation, with its Idempotency-Key: one
league is made. The timeout itself is checked by node --test
(tests/web/http.test.mjs): a page test would wait for it."""

import json
import urllib.request

import pytest

from tests.browser.client import answer_for, run_id_of, shown_round, submit, wait_for_round
from tests.browser.rounds import applied_unanswered

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


def test_an_answer_whose_reply_is_lost_is_sent_once_more_and_counts_once(open_client):
    client = open_client()
    page = client.page
    client.open()
    sent: list[str] = []

    def lose_the_first_reply(route):
        sent.append(route.request.post_data or "")
        if len(sent) == 1:
            applied_unanswered(route)  # the server applies the answer, its reply never reaches the page
        else:
            route.continue_()

    page.route("**/answers", lose_the_first_reply)
    page.click("#start-daily")
    wait_for_round(page, 1)
    _, prompt, forbidden = shown_round(page)
    word = answer_for(prompt, forbidden)
    status = submit(page, word)

    assert status.startswith(f"Accepted: {word.upper()}"), status
    slot = {"round": 1, "attempt": 1, "word": word}
    assert len(sent) == 2 and json.loads(sent[0]) == json.loads(sent[1]) == slot  # the same, again
    wait_for_round(page, 2)
    url = f"{client.server.url}/guest/runs/{run_id_of(page)}"
    with urllib.request.urlopen(url, timeout=60) as response:  # a hang guard
        run = json.load(response)
    first = next(round_ for round_ in run["history"] if round_["round"] == 1)
    assert [attempt["word"] for attempt in first["attempts"]] == [word]  # applied once
    assert page.inner_text("#score") == str(run["score"])


def test_a_league_whose_creation_reply_is_lost_is_sent_once_more_with_its_key_and_made_once(open_client):
    client = open_client()
    page = client.page
    client.open("/#leagues")
    client.login("retrier")
    page.click("a[data-view-link=leagues]")
    keys: list[str | None] = []

    def lose_the_first_reply(route):
        if route.request.method != "POST":  # GET /me/leagues
            route.continue_()
            return
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:
            applied_unanswered(route)  # the server makes the league, its reply never reaches the page
        else:
            route.continue_()

    page.route("**/leagues", lose_the_first_reply)
    page.fill("#league-name", "Retry Club")
    page.click("#league-create button")
    page.wait_for_selector("#league-card:visible")

    assert len(keys) == 2 and keys[0] and keys[0] == keys[1]  # the same request, again
    assert "Retry Club is ready" in page.inner_text("#leagues-status")
    page.wait_for_selector("#league-list li")
    assert page.locator("#league-list li").all_inner_texts() == ["Retry Club (1)"]  # made once
