"""How the browser tests play a run and drive the pages they share (tests/browser/client.py has the
harness and the round-level helpers)."""

from collections.abc import Callable

from playwright.sync_api import Page

from tests.browser.client import answer_for, shown_round, submit, wait_for_round


def answer(page: Page, prompt: str, forbidden: str, played: list[str]) -> str:
    """Submit a word the round accepts, not one of PLAYED (it is added to them); the status line."""
    played.append(answer_for(prompt, forbidden, avoid=played))
    return submit(page, played[-1])


def accept(page: Page, number: int, prompt: str, forbidden: str, played: list[str]) -> None:
    """Round NUMBER answered with a word the page says it accepted."""
    assert answer(page, prompt, forbidden, played).startswith("Accepted:")


def answered(page: Page, number: int, prompt: str, forbidden: str, played: list[str]) -> None:
    """Round NUMBER answered with a word the round accepts, whatever the page then says."""
    answer(page, prompt, forbidden, played)


# How a test plays one round: (page, round number, prompt, forbidden letters, the words played so far).
PlayRound = Callable[[Page, int, str, str, list[str]], object]


def play_rounds(page: Page, rounds: int = 10, each_round: PlayRound = accept) -> list[str]:
    """Play the run on the game screen from round 1 to its end screen, each round as EACH_ROUND
    plays it (by default an accepted word); the words played."""
    played: list[str] = []
    for number in range(1, rounds + 1):
        _, prompt, forbidden = shown_round(page)
        each_round(page, number, prompt, forbidden, played)
        if number < rounds:
            wait_for_round(page, number + 1)
    page.wait_for_selector("#view-end:visible")
    return played


def create_challenge(page: Page, rounds: str, forbidden: str) -> str:
    """Create a challenge of ROUNDS rounds (the last FORBIDDEN forbidden) under Challenges; its link."""
    page.click("a[data-view-link=challenges]")
    page.select_option("#challenge-rounds", rounds)
    page.select_option("#challenge-forbidden", forbidden)
    page.click("#challenge-create")
    page.wait_for_selector("#challenge-card:visible")
    return page.input_value("#challenge-link")


def applied_unanswered(route) -> None:
    """Let the server apply the request, and lose its reply on the way to the page."""
    route.fetch()
    route.abort("aborted")


def start_daily(page: Page) -> None:
    """Start today's Daily from the home view: the game screen shows round 1."""
    page.click("#start-daily")
    page.wait_for_selector("#view-game:visible")
