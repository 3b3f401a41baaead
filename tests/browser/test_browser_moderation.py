"""Moderation in the web client (web/moderation.js, SPEC §3e): a moderator works the queue and
decides a case, which the audit log then shows; a non-moderator never sees the view; a player
reports a board row and a word the game refused; a result under review, then voided, is explained
on the end screen, the board and history. The browser tests share one server: every test makes
its own players and finds its own rows and cases, never assuming an empty board or queue."""

import json
import time

import pytest

from tests.browser.client import MODERATOR, Server, answer_for, wait_for_round, word_failing

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]


def token_of(server: Server, username: str) -> str:
    status, body = server.request("POST", "/local/login", {"username": username})
    assert status == 200, body
    return body["id_token"]


def today(server: Server) -> str:
    return server.request("GET", "/daily")[1]["date"]


def play_named(server: Server, username: str, name: str) -> str:
    """USERNAME names themself NAME and plays today's Daily over HTTP, three rounds answered at a
    person's pace, the rest skipped; returns their token."""
    token = token_of(server, username)
    assert server.request("PUT", "/me", {"display_name": name}, token=token)[0] == 200
    _, run = server.request("POST", "/daily/runs", token=token)
    used: set[str] = set()
    while run["status"] == "active":
        if run["round"] <= 3:
            word = answer_for(run["prompt"], run["forbidden"], used)
            used.add(word)
            server.advance_clock(3)  # no sooner than a person could type it (SPEC §3b)
            body = {"round": run["round"], "attempt": run["attempt"], "word": word}
            status, reply = server.request("POST", f"/runs/{run['run_id']}/answers", body, token)
        else:
            status, reply = server.request(
                "POST", f"/runs/{run['run_id']}/skip", {"round": run["round"]}, token
            )
        assert status == 200, reply
        run = reply["run"]
    on_board(server, name)
    return token


def on_board(server: Server, name: str) -> None:
    """Wait until NAME is on today's board: the local counters worker puts a completed run there a
    moment after the reply, later on a loaded machine, and a page that read the board sooner would
    not show it (polled, never timed: at most a minute)."""
    for _ in range(300):
        rows = server.request("GET", "/leaderboard/daily")[1]["rows"]
        if name in [row["display_name"] for row in rows]:
            return
        time.sleep(0.2)
    raise AssertionError(f"{name} never reached today's board")


def report_run(server: Server, reporter: str, name: str) -> None:
    body = {"kind": "run", "target": f"{today(server)}:{name}", "reason": "too fast to be true"}
    status, reply = server.request("POST", "/reports", body, token_of(server, reporter))
    assert status == 201, reply


def reload_at(client, path: str) -> None:
    """Load PATH afresh (a goto that changes only the hash would not reload the page)."""
    client.page.goto(client.server.url + path)
    client.page.reload()
    client.page.wait_for_selector("html[data-ready=true]")


def case_about(server: Server, shown: str) -> dict:
    token = token_of(server, MODERATOR)
    cursor, found = None, []
    while True:
        query = "?kind=run&limit=100" + (f"&cursor={cursor}" if cursor else "")
        _, page = server.request("GET", "/moderation/cases" + query, token=token)
        found += [case for case in page["items"] if case["shown"] == shown]
        cursor = page["next_cursor"]
        if found or not cursor:
            return found[0]


def test_a_moderator_works_the_queue_decides_a_case_and_the_log_shows_it(open_client, server):
    play_named(server, "mq-suspect", "Mq Suspect")
    report_run(server, "mq-reporter", "Mq Suspect")
    shown = f"{today(server)}:Mq Suspect"
    client = open_client()
    page = client.start_as(MODERATOR)
    page.click("#name-prompt-skip")
    page.click("#moderation-tab")
    opener = page.locator(f"#cases button[aria-label='Open the case about {shown}']")
    opener.click()
    page.wait_for_selector("#case-card:visible")
    assert page.inner_text("#case-title") == f"Run: {shown}"
    attempts = page.locator("#case-attempts tbody tr")
    assert attempts.count() == 3  # the three rounds answered, each against its floor
    assert "accepted" in attempts.nth(0).inner_text() and " s" in attempts.nth(0).inner_text()
    assert page.locator("svg.timeline circle.accepted").count() == 3
    assert page.locator("svg.timeline line.floor").count() == 3
    enabled = page.eval_on_selector_all(
        "#decision-buttons button:not([disabled])", "bs => bs.map(b => b.dataset.action)"
    )
    assert enabled == ["dismiss", "void_result", "rank_ban", "ban"]
    client.check_screen("moderation-case")
    page.fill("#decision-reason", "scripted pace")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#decision-buttons button[data-action=void_result]")
    page.wait_for_function("document.querySelector('#moderation-status').textContent.startsWith('Decided')")
    assert page.locator("#case-card").is_hidden()
    assert opener.count() == 0
    page.wait_for_function("document.querySelector('#mod-log tbody').textContent.includes('scripted pace')")
    first = page.inner_text("#mod-log tbody tr:first-child")
    assert "void result" in first and "scripted pace" in first
    rows = server.request("GET", "/leaderboard/daily")[1]["rows"]
    assert "Mq Suspect" not in [row["display_name"] for row in rows]


def test_a_player_who_is_no_moderator_never_sees_the_view(open_client):
    client = open_client()
    page = client.page
    asked = []
    page.on("request", lambda request: "/moderation/" in request.url and asked.append(request.url))
    client.open()
    client.login("no-mod-player")
    page.click("#name-prompt-skip")
    assert page.locator("#moderation-tab").is_hidden()
    client.open("/#moderation")
    page.wait_for_selector("#view-home:visible")
    assert page.locator("#view-moderation").is_hidden() and page.locator("#moderation-tab").is_hidden()
    assert asked == []


def test_a_player_reports_a_board_row_and_a_refused_word(open_client, server):
    play_named(server, "rr-target", "Rr Target")
    client = open_client()
    page = client.start_as("rr-reporter")
    page.click("#name-prompt-skip")
    page.click("a[data-view-link=board]")
    button = page.locator("#board button[aria-label='Report Rr Target']")
    button.wait_for(state="attached")
    assert button.is_hidden()  # the board's rows stay one line until the player asks to report
    page.click("#board-report")  # the board's report mode
    button.click()
    page.wait_for_selector("#report-dialog[open]")
    page.check("input[name=report-kind][value=run]")
    page.fill("#report-reason", "twelve letters in a second")
    client.check_screen("moderation-report-row")
    page.click("#report-send")
    page.wait_for_function("document.querySelector('#report-status').textContent.startsWith('Report sent')")
    page.click("#report-cancel")

    page.click("a[data-view-link=home]")
    page.click("#start-daily")
    page.wait_for_selector("#view-game:visible")
    prompt = "".join(page.locator("#prompt-tiles span").all_inner_texts())
    forbidden = (
        "".join(page.locator("#forbidden-tiles span").all_inner_texts())
        if page.locator("#forbidden-banner").is_visible()
        else ""
    )
    refused = word_failing(prompt, forbidden, "not_a_word")
    page.fill("#word", refused)
    page.press("#word", "Enter")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Rejected')")
    for number in range(1, 11):
        wait_for_round(page, number)
        page.click("#skip")
    page.wait_for_selector("#view-end:visible")
    page.wait_for_selector("#refused-words:visible")
    page.click(f"#refused-list button[aria-label='Report: this is a word ({refused.upper()})']")
    assert page.input_value("#report-reason") == "This is a word"
    page.click("#report-send")
    page.wait_for_function("document.querySelector('#report-status').textContent.startsWith('Report sent')")
    page.click("#report-cancel")
    mine = server.request("GET", "/me/reports", token=token_of(server, "rr-reporter"))[1]["items"]
    assert sorted((r["kind"], r["target"]) for r in mine) == [
        ("run", f"{today(server)}:Rr Target"),
        ("word", refused),
    ]


def test_a_result_under_review_then_voided_is_explained_on_the_end_screen_the_board_and_history(
    open_client, server
):
    client = open_client()
    page = client.start_as("pr-player")
    page.fill("#name-prompt", "Pr Player")
    page.click("#name-prompt-form button.primary")
    page.wait_for_selector("#name-panel", state="hidden")
    page.click("#start-daily")
    page.wait_for_selector("#view-game:visible")
    for number in range(1, 11):
        wait_for_round(page, number)
        page.click("#skip")
    page.wait_for_selector("#end-rank:visible")
    report_run(server, "pr-reporter", "Pr Player")

    reload_at(client, "/#play")  # the end screen again, read afresh
    page.wait_for_function("document.querySelector('#end-rank').textContent.includes('Under review')")
    client.check_screen("moderation-end-pending")
    page.click("#end-board")
    page.wait_for_function("document.querySelector('#my-row').textContent.includes('Under review')")
    assert page.get_attribute("#board tr.mine .review-mark", "title").startswith("Under review")
    assert page.locator("#board-review-hint").is_visible()
    page.click("a[data-view-link=me]")
    page.wait_for_selector("#history-review:visible")
    assert "Under review" in page.inner_text("#history-review")

    case = case_about(server, f"{today(server)}:Pr Player")
    body = {"action": "void_result", "reason": "a test of the void"}
    status, reply = server.request(
        "POST", f"/moderation/cases/{case['case_id']}/decision", body, token_of(server, MODERATOR)
    )
    assert status == 200, reply
    reload_at(client, "/#play")
    page.wait_for_function(
        "document.querySelector('#end-note').textContent.startsWith('Not ranked: a moderator')"
    )
    assert page.locator("#end-rank").is_hidden()
    page.click("#end-board")
    page.wait_for_function(
        "document.querySelector('#my-row').textContent.includes('a moderator reviewed it')"
    )
    page.click("a[data-view-link=me]")
    page.wait_for_selector("#history-review:visible")
    assert "voided by a moderator" in page.inner_text("#history-review")
    assert page.inner_text("#history tbody tr:first-child td[data-label=Rank]") == "voided"


def test_a_final_board_lists_its_corrections_when_opened(open_client, server):
    """A final page links its corrections (SPEC §4): the board shows them under it, read only when
    the player opens the section. The server's replies are rewritten in the browser to a final
    board with one correction (the shared server's clock stays where the other tests need it)."""
    token = token_of(server, "fc-maker")
    status, challenge = server.request("POST", "/challenges", {"rounds": 5, "forbidden_rounds": 0}, token)
    assert status == 201, challenge
    challenge_id = challenge["challenge_id"]
    path = f"/challenges/{challenge_id}/corrections"
    final = {**challenge, "open": False, "status": "final", "corrections": path}
    correction = {
        "rank": 1,
        "display_name": "Zed",
        "action": "void_result",
        "reason_code": "report",
        "decided_at": "2026-12-20T10:00:00.000Z",
        "case_id": "0" * 24,
    }
    reads: list[str] = []

    def fulfill(body: dict):
        def handle(route):
            reads.append(route.request.url)
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

        return handle

    client = open_client()
    page = client.page
    page.route(f"**/challenges/{challenge_id}", fulfill(final))
    page.route(f"**{path}", fulfill({"challenge_id": challenge_id, "items": [correction]}))
    client.open(f"/?challenge={challenge_id}")
    page.wait_for_selector("#challenge-board-corrections")
    assert page.text_content("#challenge-board-status") == "final"
    assert not any(url.endswith("/corrections") for url in reads)  # read when opened, not before
    page.click("#challenge-board-corrections summary")
    page.wait_for_selector("#challenge-board-corrections li")
    shown = page.inner_text("#challenge-board-corrections li")
    assert shown.startswith("rank 1, Zed: result voided (report, ")


def test_a_player_reports_a_row_of_their_league_board(open_client, server):
    """The league board's rows have the Daily board's Report action: a run reported from it names
    its date's Daily (the league board is that board's members)."""
    play_named(server, "lr-target", "Lr Target")
    reporter = token_of(server, "lr-reporter")
    status, league = server.request("POST", "/leagues", {"name": "Reporters"}, reporter)
    assert status == 201, league
    joined = server.request("POST", "/leagues/join", {"code": league["code"]}, token_of(server, "lr-target"))
    assert joined[0] == 200, joined
    client = open_client()
    page = client.page
    client.open("/#leagues")
    client.login("lr-reporter")
    page.click("#name-prompt-skip")
    page.click("a[data-view-link=leagues]")
    page.click("#league-list button:has-text('Reporters')")
    button = page.locator("#league-board button[aria-label='Report Lr Target']")
    button.wait_for(state="attached")
    page.click("#league-board-report")
    button.click()
    page.wait_for_selector("#report-dialog[open]")
    page.fill("#report-reason", "a script's pace")
    page.click("#report-send")
    page.wait_for_function("document.querySelector('#report-status').textContent.startsWith('Report sent')")
    mine = server.request("GET", "/me/reports", token=reporter)[1]["items"]
    assert [(r["kind"], r["target"]) for r in mine] == [("run", f"{today(server)}:Lr Target")]
