"""The web client's figures in Chromium against `python -m local.server` (SPEC §7): layout shift
while the home page loads, Enter-to-feedback for answers, and the page's bytes.

- CLS: the sum of the layout-shift entries (PerformanceObserver, `hadRecentInput` excluded) from
  navigation until one second after the page says it is ready, at 360×740 and 1280×800.
- Enter to feedback: a guest Daily played through the page; for each answer, from the Enter
  keydown to the status line's change (performance.now() in the page), accepted and rejected
  answers alternating; median and p90 over ANSWERS answers.
- Bytes: each file the page loads (index.html, its modules in js/ and styles in css/, config.json,
  the manifest and its icon), raw and gzip -9 (what a compressing edge would send).
- Requests: those a first load of the home page makes, until it says it is ready.
- Lighthouse (optional): benchmarks/lighthouse_flow.mjs at its mobile and desktop presets, when
  LIGHTHOUSE_DIR names a folder outside the repository where `npm install lighthouse` was run
  (nothing is downloaded here; without it the step says so and is skipped).
Figures, not assertions; the local server runs on this machine, so network time is ~0.
`PYTHONPATH=. [LIGHTHOUSE_DIR=/tmp/lh] .venv/bin/python benchmarks/web_client.py`.
"""

import gzip
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).parents[1]))
from shared.game.dictionary import words  # noqa: E402
from tests.browser.client import (
    CHROMIUM,
    CHROMIUM_ARGS,
    Server,
    answer_for,
    shown_round,
    wait_for_function_under_csp,
    wait_for_round,
    word_failing,
)  # noqa: E402

WEB = Path(__file__).parents[1] / "web"
FILES = [
    "index.html",
    *sorted(p.relative_to(WEB).as_posix() for p in (WEB / "js").rglob("*.js")),
    *sorted(p.relative_to(WEB).as_posix() for p in (WEB / "css").rglob("*.css")),
    "config.json",
    "manifest.webmanifest",
    "icon.svg",
]
ANSWERS = 20
CLS_OBSERVER = (
    "window.__cls = 0; new PerformanceObserver((list) => { for (const e of list.getEntries())"
    " if (!e.hadRecentInput) window.__cls += e.value; }).observe({type: 'layout-shift', buffered: true});"
)
FEEDBACK_PROBE = """
  window.__feedback = [];
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.target.id !== 'word') return;
    const t0 = performance.now();
    const status = document.querySelector('#status');
    const before = status.textContent;
    const watch = new MutationObserver(() => {
      if (status.textContent === before) return;
      window.__feedback.push(performance.now() - t0);
      watch.disconnect();
    });
    watch.observe(status, {childList: true, characterData: true, subtree: true});
  }, true);
"""


def cls(browser, url: str, width: int, height: int) -> float:
    context = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
    page = context.new_page()
    page.add_init_script(CLS_OBSERVER)
    page.goto(url)
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_timeout(1000)
    value = page.evaluate("window.__cls")
    context.close()
    return value


def first_load_requests(browser, url: str) -> list[str]:
    context = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="block")
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url.removeprefix(url)))
    page.goto(url + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_timeout(1000)
    context.close()
    return requests


def lighthouse(url: str) -> None:
    folder = os.environ.get("LIGHTHOUSE_DIR", "")
    if not folder or not (Path(folder) / "node_modules" / "lighthouse").is_dir() or not shutil.which("node"):
        print(
            "lighthouse: not installed, skipped (run `npm install lighthouse` in a folder outside the"
            " repository and set LIGHTHOUSE_DIR to it; Node.js 20 or later)"
        )
        return
    word_list = Path(tempfile.mkdtemp(prefix="web-bench-words-")) / "words.txt"
    word_list.write_text("\n".join(sorted((w for w in words() if len(w) >= 4), key=lambda w: (len(w), w))))
    script = Path(__file__).parent / "lighthouse_flow.mjs"
    for preset in ("mobile", "desktop"):
        subprocess.run(["node", str(script), folder, url + "/", preset, str(word_list), CHROMIUM], check=True)


def feedback_times(browser, url: str) -> list[float]:
    context = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="block")
    page = context.new_page()
    page.add_init_script(FEEDBACK_PROBE)
    times: list[float] = []
    while len(times) < ANSWERS:
        page.goto(url)
        page.wait_for_selector("html[data-ready=true]")
        page.click("#start-daily")
        page.wait_for_selector("#view-game:visible")
        played: list[str] = []
        for number in range(1, 11):
            _, prompt, forbidden = shown_round(page)
            for word in (
                word_failing(prompt, forbidden, "not_a_word"),
                answer_for(prompt, forbidden, avoid=played),
            ):
                count = page.evaluate("window.__feedback.length")
                page.fill("#word", word)
                page.press("#word", "Enter")
                wait_for_function_under_csp(page, f"window.__feedback.length > {count}")
            played.append(word)
            if number < 10:
                wait_for_round(page, number + 1)
        times += page.evaluate("window.__feedback")
    context.close()
    return times[:ANSWERS]


def main() -> None:
    total_raw = total_gzip = 0
    for name in FILES:
        if not (WEB / name).exists():
            continue
        data = (WEB / name).read_bytes()
        packed = len(gzip.compress(data, 9))
        total_raw, total_gzip = total_raw + len(data), total_gzip + packed
        print(f"bytes {name:22} {len(data):7,} raw {packed:7,} gzip")
    print(f"bytes {'page total':22} {total_raw:7,} raw {total_gzip:7,} gzip")
    server = Server(Path(tempfile.mkdtemp(prefix="web-bench-"))).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for width, height in ((360, 740), (1280, 800)):
                print(f"CLS home {width}x{height}: {cls(browser, server.url + '/', width, height):.4f}")
            times = sorted(feedback_times(browser, server.url + "/"))
            p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
            print(
                f"Enter to feedback over {len(times)} answers: "
                f"median {statistics.median(times):.0f} ms, p90 {p90:.0f} ms"
            )
            requests = first_load_requests(browser, server.url)
            print(f"requests on a first load of home: {len(requests)}: {' '.join(requests)}")
            browser.close()
        lighthouse(server.url)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
