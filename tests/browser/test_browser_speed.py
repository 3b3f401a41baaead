"""The speed bonus as it is earned and the unranked reason (SPEC §3, §3b, §5 `speed_bonus`,
`ranked`, `unranked_reason`), shown from the replies' fields; replies without them (a server that
does not score speed) show neither. The fields are added to the server's real replies here."""

import json

import pytest

from tests.browser.client import answer_for, shown_round, submit, wait_for_round

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


def _with(route, change) -> None:
    response = route.fetch()
    body = response.json()
    change(body)
    route.fulfill(response=response, body=json.dumps(body))


def test_an_accepted_answer_says_its_speed_bonus_and_the_meter_counts_down(open_client):
    client = open_client(width=360, height=740)
    page = client.page

    def answers(route):
        _with(route, lambda body: body.update(speed_bonus=21) if body.get("accepted") else None)

    page.route("**/guest/runs/*/answers", answers)
    client.open()
    page.click("#start-daily")
    page.wait_for_selector("#view-game:visible")
    assert page.locator("#speed").is_hidden()  # nothing said yet about speed scoring
    _, prompt, forbidden = shown_round(page)
    said = submit(page, answer_for(prompt, forbidden))
    assert "(21 for speed)" in said
    wait_for_round(page, 2)
    page.wait_for_selector("#speed:visible")
    assert page.inner_text("#speed-now") in {f"+{3 * (10 - s)}" for s in range(0, 3)}


def test_a_run_off_the_board_for_implausible_speed_says_why(open_client):
    client = open_client(width=360, height=740)
    page = client.page

    def skips(route):
        def unranked(body):
            if body["run"]["status"] == "completed":
                body["run"].update(ranked=False, unranked_reason="implausible_speed")

        _with(route, unranked)

    page.route("**/runs/*/skip", skips)
    client.open()
    client.login("quinn-quick")
    page.click("#name-prompt-skip")
    page.click("#start-daily")
    page.wait_for_selector("#view-game:visible")
    for number in range(1, 11):
        page.click("#skip")
        if number < 10:
            wait_for_round(page, number + 1)
    page.wait_for_selector("#view-end:visible")
    note = page.inner_text("#end-note")
    assert note.startswith("Not ranked:") and "faster than a person" in note and "stats" in note
    page.wait_for_selector("#end-streak-item:visible")
    assert page.locator("#end-rank").is_hidden()  # no rank for a run off the board
