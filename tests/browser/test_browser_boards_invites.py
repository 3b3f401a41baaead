"""Boards for phones (one-line rows from 320 to 1440 px, the player's row pinned with a jump to
it, nothing broken mid-word) and a challenge link as an invitation, played by a second player."""

import pytest

from shared.game.puzzles import answers
from tests.browser.client import Server, wait_for_round
from tests.browser.rounds import answered, create_challenge, play_rounds, start_daily
from tests.server_process import running

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.xdist_group("browser")]

WIDTHS = [320, 360, 414, 768, 1024, 1280, 1440]


@pytest.fixture(scope="module")
def board_server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("browser-board-data"))
    with running(server.start, server.stop) as started:
        yield started


def _play(server: Server, username: str, rounds: int) -> None:
    """An official Daily over HTTP: ROUNDS answered (longest words first), the rest skipped."""
    _, body = server.request("POST", "/local/login", {"username": username})
    token = body["id_token"]
    server.request("PUT", "/me", {"display_name": f"Bo {username[-2:]} the Longest Name"[:20]}, token=token)
    _, run = server.request("POST", "/daily/runs", token=token)
    used: set[str] = set()
    while run["status"] == "active":
        if run["round"] <= rounds:
            word = next(
                w
                for w in sorted(answers(run["prompt"], run["forbidden"]), key=len, reverse=True)
                if w not in used
            )
            used.add(word)
            server.advance_clock(3)  # no sooner than a person could type it (SPEC §3b), on the local clock
            _, reply = server.request(
                "POST",
                f"/runs/{run['run_id']}/answers",
                {"round": run["round"], "attempt": run["attempt"], "word": word},
                token,
            )
        else:
            _, reply = server.request("POST", f"/runs/{run['run_id']}/skip", {"round": run["round"]}, token)
        run = reply["run"]


def _broken_lines(page) -> list[str]:
    """Board cells whose text takes more than one line, and headings or numbers cut mid-word."""
    return page.evaluate(
        """() => {
          const bad = [];
          for (const cell of document.querySelectorAll('table.board th, table.board td')) {
            if (!cell.getClientRects().length || !cell.textContent) continue;
            const range = document.createRange();
            range.selectNodeContents(cell);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) bad.push(`${cell.dataset.label || cell.className}: ${cell.textContent}`);
            // A heading or a number is never cut short (a long name or word list may end in "…").
            const whole = cell.tagName === 'TH' || cell.classList.contains('num');
            if (whole && cell.scrollWidth > cell.clientWidth) bad.push(`cut: ${cell.textContent}`);
          }
          for (const row of document.querySelectorAll('table.board tbody tr')) {
            const h = row.getBoundingClientRect().height;
            if (h > 48) bad.push(`row of ${Math.round(h)} px: ${row.textContent}`);
          }
          return bad;
        }"""
    )


def _one_line_at_every_width(client, screen: str) -> None:
    """The page's rows unbroken and nothing sideways at every one of WIDTHS; checked as SCREEN at 360 px."""
    page = client.page
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 740})
        assert _broken_lines(page) == [], width
        assert client.layout_overflow() == [], width
    page.set_viewport_size({"width": 360, "height": 740})
    client.check_screen(screen)


def test_board_rows_are_one_line_from_320_to_1440_px_with_my_row_pinned(open_client, board_server):
    for number in range(14):
        _play(board_server, f"bo-{number:02d}", 10 - number % 7)
    client = open_client(width=360, height=740, on=board_server)
    page = client.start_as("bo-me")
    page.click("#name-prompt-skip")
    page.click("a[data-view-link=home]")
    start_daily(page)
    page.click("#skip")  # a low score: her row is far down the board
    for number in range(2, 11):
        wait_for_round(page, number)
        page.click("#skip")
    page.wait_for_selector("#view-end:visible")
    page.click("#end-board")
    page.wait_for_selector("#board tr.mine")
    page.wait_for_selector("#jump-mine:visible")
    _one_line_at_every_width(client, "26-board-one-line-360")
    page.click("#jump-mine")
    page.wait_for_function("document.activeElement.classList.contains('mine')")
    assert page.evaluate(
        "(() => { const r = document.querySelector('#board tr.mine').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight; })()"
    )
    # The pinned line stays at the top while the board scrolls.
    assert page.evaluate("document.querySelector('#my-row-bar').getBoundingClientRect().top") == 0
    assert page.inner_text("#my-row").startswith("You: rank 15 of 15")

    # A closed board, words and all, still one line per row.
    board_server.advance_clock(24 * 3600 + 600)
    client.open("/#board")
    yesterday = board_server.request("GET", "/daily")[1]["date"]
    from datetime import date, timedelta

    page.fill("#board-day", (date.fromisoformat(yesterday) - timedelta(days=1)).isoformat())
    page.dispatch_event("#board-day", "change")
    page.wait_for_selector("#board.closed")
    _one_line_at_every_width(client, "27-board-closed-360")


def test_a_challenge_link_is_an_invitation_a_second_player_accepts(open_client, server):
    creator = open_client(width=390, height=844)
    page = creator.start_as("ivy-invites")
    page.fill("#name-prompt", "Ivy")
    page.click("#name-prompt-form button.primary")
    page.wait_for_function("document.querySelector('#who').textContent === 'Ivy'")
    link = create_challenge(page, rounds="5", forbidden="0")
    assert page.inner_text("#challenge-title") == "Your challenge: share the link, then play it yourself"
    page.click("#challenge-play")
    page.wait_for_selector("#view-game:visible")
    play_rounds(page, rounds=5, each_round=answered)
    page.wait_for_function("document.querySelector('#final-score').textContent !== ''")
    score = int(page.text_content("#final-score"))
    # Her challenges, with their boards, under Challenges.
    page.click("a[data-view-link=challenges]")
    page.wait_for_selector("#my-challenges-card:visible")
    assert "5 rounds" in page.inner_text("#my-challenges")

    friend = open_client(width=360, height=740, has_touch=True, is_mobile=True)
    phone = friend.page
    friend.open(link.removeprefix(server.url))
    title = phone.inner_text("#challenge-title")
    assert title == f"Ivy challenged you: beat {score:,}"
    box = phone.locator("#challenge-title").bounding_box()
    assert box["y"] + box["height"] <= 740 and phone.locator("#challenge-play").bounding_box()["y"] < 740
    assert phone.inner_text("#challenge-play") == "Log in to play"
    friend.check_screen("28-invitation-360")
    phone.click("#challenge-play")
    phone.fill("#username", "fred-friend")
    phone.click("#login-form button.primary")
    phone.wait_for_selector("#logout:visible")
    phone.click("#name-prompt-skip")
    assert "challenge=" in phone.url and phone.locator("#challenge-card").is_visible()
    phone.wait_for_function("document.querySelector('#challenge-play').textContent === 'Play this challenge'")
    phone.click("#challenge-play")
    phone.wait_for_selector("#view-game:visible")
    assert phone.inner_text("#run-label") == "Challenge" and phone.inner_text("#rounds") == "5"
