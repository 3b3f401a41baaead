"""`make run`'s HTTP framing (#39) over raw sockets: a request line it cannot take, or a body
shorter than its Content-Length, gets a 400 in the SPEC §5 envelope, with its status line, and
the connection closed; the server never waits on such a body for ever (its read is bounded by
LOCAL_BODY_TIMEOUT_SECONDS, short here)."""

import json
import socket

import pytest

from tests.conftest import LocalServer

pytestmark = [pytest.mark.server, pytest.mark.xdist_group("local_server_http")]

HANG_GUARD = 120.0  # a guard against a server that never answers, not a timing


@pytest.fixture(scope="module")
def http_server(tmp_path_factory):
    server = LocalServer(tmp_path_factory.mktemp("local-http"), LOCAL_BODY_TIMEOUT_SECONDS="0.5")
    try:
        yield server.start()
    finally:
        server.stop()


def _exchange(server: LocalServer, raw: bytes, close_sending: bool = False) -> tuple[bytes, bytes]:
    """Send RAW and read until the server closes the connection: (status line and headers, body)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=HANG_GUARD) as sock:
        sock.sendall(raw)
        if close_sending:
            sock.shutdown(socket.SHUT_WR)
        reply = b""
        while chunk := sock.recv(65536):  # b"" once the server has closed the connection
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    return head, body


def _refused_400(head: bytes, body: bytes) -> str:
    status_line, *headers = head.split(b"\r\n")
    assert status_line.startswith(b"HTTP/1.1 400 "), head
    names = {line.split(b":", 1)[0].lower(): line.split(b":", 1)[1].strip() for line in headers}
    assert names[b"content-type"] == b"application/json" and names[b"connection"] == b"close"
    assert int(names[b"content-length"]) == len(body)
    error = json.loads(body)["error"]
    assert error["code"] == "bad_request"
    return error["message"]


@pytest.mark.parametrize(
    "request_line",
    [
        b"GET /daily HTTP/2.0",
        b"GET /daily HTTP/0.9",
        b"GET /daily",  # HTTP/0.9's form: http.server would reply without a status line
        b"GET /daily HTTP/1.1 more",
        b"HELLO",
        b"GET /daily HTTP/1.x",
    ],
)
def test_a_malformed_request_line_or_another_protocol_is_400_with_a_status_line_and_closes(
    http_server, request_line
):
    head, body = _exchange(http_server, request_line + b"\r\nHost: x\r\n\r\n")
    assert "HTTP/1.1" in _refused_400(head, body)


def test_a_body_shorter_than_its_content_length_is_400_once_it_stops_coming_and_closes(http_server):
    raw = b'POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"prompt"'
    head, body = _exchange(http_server, raw)  # the client keeps its side open, sending nothing
    assert "shorter than its Content-Length" in _refused_400(head, body)


def test_a_body_cut_short_by_the_client_closing_its_side_is_400_and_closes(http_server):
    raw = b"PUT /me HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{}"
    head, body = _exchange(http_server, raw, close_sending=True)
    assert "shorter than its Content-Length" in _refused_400(head, body)


def test_a_whole_body_on_a_kept_open_connection_is_still_served(http_server):
    payload = b'{"prompt": "TMR", "word": "timer"}'
    raw = (
        b"POST /validate HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
        + b"Content-Length: %d\r\n\r\n" % len(payload)
        + payload
    )
    head, body = _exchange(http_server, raw)
    assert head.startswith(b"HTTP/1.1 200 ") and json.loads(body)["valid"] is True
