"""Fixtures of the browser tests (tests/browser/client.py has the helpers and says how they work)."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from tests.browser.client import (
    CHROMIUM,
    CHROMIUM_ARGS,
    CSP_WATCH,
    WAIT_MS,
    Client,
    Server,
    wait_for_function_under_csp,
)
from tests.server_process import running


@pytest.fixture(scope="session", autouse=True)
def _waits_that_the_pages_csp_allows() -> Iterator[None]:
    """Every page runs under the stage's CSP (no 'unsafe-eval'), which Playwright's own
    wait_for_function breaks: the tests' waits poll with page.evaluate instead."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Page, "wait_for_function", wait_for_function_under_csp)
        yield


def _running(data_dir: Path) -> Iterator[Server]:
    server = Server(data_dir)
    with running(server.start, server.stop) as started:
        yield started


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> Iterator[Server]:
    """The server most tests share (each test logs in as its own player). Its clock is not moved."""
    yield from _running(tmp_path_factory.mktemp("browser-data"))


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory) -> Iterator[Server]:
    """A server of the test module's own, whose clock the module moves (`server` keeps the real date)."""
    yield from _running(tmp_path_factory.mktemp("browser-clock-data"))


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium not found at {CHROMIUM}: install Debian's package (apt-get install chromium) "
            "or set CHROMIUM to its path (README: browser tests)"
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def open_client(browser: Browser, server: Server, request):
    """A factory of watched tabs: open_client(width=..., server=...). Each test fails if a tab
    it opened saw a console error (a CSP violation included), an uncaught exception or a failed
    request."""
    contexts, clients = [], []

    def make(width: int = 1280, height: int = 900, on: Server | None = None, **options) -> Client:
        target = on or server
        options.setdefault("locale", "en-US")
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=target.url)
        context.set_default_timeout(WAIT_MS)  # a hang guard: a loaded machine is slow, not failing
        context.add_init_script(CSP_WATCH)
        contexts.append(context)
        client = Client(context.new_page(), target, request.node.name)
        clients.append(client)
        return client

    yield make
    errors = [error for client in clients for error in client.errors]
    for context in contexts:
        context.close()
    assert errors == [], "the page logged errors"


def pytest_itemcollected(item: pytest.Item) -> None:
    # Playwright's driver is not our code: without in-process coverage the browser tests run ~15%
    # faster. The local server they drive is a subprocess and is still measured.
    if item.path.is_relative_to(Path(__file__).parent):
        item.add_marker(pytest.mark.no_cover)
