"""scripts/smoke.py against answers that are not the API's: CloudFront's and WAF's error pages are
HTML, and a stage warming up answers them for a while. Each is a failure to report and retry,
never a crash."""

import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import smoke  # noqa: E402

HTML = b"<html><body><h1>403 ERROR</h1>The request could not be satisfied.</body></html>"


class _Html(BaseHTTPRequestHandler):
    calls = 0

    def _answer(self) -> None:
        type(self).calls += 1
        self.send_response(403 if self.command == "GET" else 502)
        self.send_header("content-type", "text/html")
        self.end_headers()
        self.wfile.write(HTML)

    do_GET = do_POST = _answer

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def html_site():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Html)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Html.calls = 0
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def test_an_html_error_page_is_a_result_not_a_crash(html_site):
    status, body = smoke.call(html_site, "GET", "/daily")
    assert status == 403 and "could not be satisfied" in body["not_json"]
    assert smoke.checks(html_site)  # failures, in words


def test_html_answers_are_retried_every_attempt_then_reported(html_site, capsys):
    assert smoke.main(["--url", html_site, "--attempts", "3", "--interval", "0"]) == 1
    err = capsys.readouterr().err
    assert [line.split(":")[0] for line in err.splitlines()] == ["attempt 1", "attempt 2", "attempt 3"]
    assert "GET /daily: 403" in err and "Traceback" not in err
    assert _Html.calls == 3 * 4  # every check, every attempt
