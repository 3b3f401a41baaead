"""`make run` answers every request in the SPEC §5 envelope (#8): HEAD, TRACE and any method it
does not serve, malformed `/local/*` bodies and empty bodies whatever the Content-Type, over HTTP."""

import json

import pytest

pytestmark = [pytest.mark.server, pytest.mark.xdist_group("local_server_envelope")]


def _envelope(raw: bytes) -> dict:
    body = json.loads(raw)
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    return body["error"]


@pytest.mark.parametrize(
    ("path", "allow"), [("/validate", "POST"), ("/daily", "GET"), ("/", "GET"), ("/me", "DELETE, GET, PUT")]
)
def test_trace_is_405_in_the_envelope_with_allow(local_server, path, allow):
    status, headers, raw = local_server.request("TRACE", path)
    assert status == 405 and headers["Content-Type"] == "application/json"
    assert headers["Allow"] == allow  # RFC 9110: a 405 lists the methods the path serves
    assert _envelope(raw)["code"] == "method_not_allowed"


@pytest.mark.parametrize("method", ["HEAD", "TRACE", "PROPFIND", "BREW"])
def test_any_method_on_an_unknown_path_is_404_in_the_envelope(local_server, method):
    status, headers, raw = local_server.request(method, "/no/such/route")
    assert status == 404 and headers["Content-Type"] == "application/json"
    if method == "HEAD":
        assert raw == b"" and int(headers["Content-Length"]) > 0  # the headers of the reply, no body
    else:
        assert _envelope(raw)["code"] == "not_found"


def test_head_has_the_headers_of_the_envelope_and_no_body(local_server):
    status, headers, raw = local_server.request("HEAD", "/daily")
    assert status == 405 and headers["Content-Type"] == "application/json"
    assert raw == b"" and int(headers["Content-Length"]) > 0
    # The connection stays usable: the next request on it is answered normally.
    status, _, raw = local_server.request("PROPFIND", "/daily")
    assert status == 405 and _envelope(raw)["code"] == "method_not_allowed"


@pytest.mark.parametrize(
    "raw",
    [b"", b"{not json", b"\xff\xfe", b"[" * 100_000, b"null", b"[]", b'"alice"', b'{"username": 5}'],
    ids=["empty", "not-json", "not-utf8", "deep", "null", "array", "string", "wrong-type"],
)
@pytest.mark.parametrize("path", ["/local/login", "/local/refresh", "/local/clock"])
def test_malformed_local_bodies_are_400_in_the_envelope(local_server, path, raw):
    status, headers, reply = local_server.request("POST", path, raw, {"Content-Type": "application/json"})
    # /local/clock exists only with LOCAL_CLOCK_CONTROL=1; without it the path is unknown (404).
    expected = 404 if path == "/local/clock" else 400
    assert status == expected and headers["Content-Type"] == "application/json"
    assert _envelope(reply)["code"] in ("bad_request", "not_found", "invalid_grant")


@pytest.mark.parametrize("content_type", ["text/plain", "multipart/form-data", "APPLICATION/JSON", None])
def test_an_empty_body_is_400_over_http_whatever_the_content_type(local_server, content_type):
    headers = {"Content-Type": content_type} if content_type else {}
    status, _, raw = local_server.request("POST", "/validate", b"", headers)
    assert status == 400 and _envelope(raw)["code"] == "bad_request"
    token = local_server.login("empty-body")
    status, _, raw = local_server.request("PUT", "/me", b"", {**headers, "Authorization": f"Bearer {token}"})
    assert status == 400 and _envelope(raw)["code"] == "bad_request"


def test_a_malformed_request_line_is_answered_in_the_envelope(local_server):
    import socket

    with socket.create_connection(("127.0.0.1", local_server.port), timeout=120) as sock:
        sock.sendall(b"GET /daily HTTP/1.1\r\nX-Long: " + b"x" * 70_000 + b"\r\n\r\n")
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.split(b" ", 2)[1] == b"431"
    assert b"application/json" in head
    assert _envelope(body)["code"] == "request_header_fields_too_large"


@pytest.mark.parametrize(
    ("method", "path"),
    [("OPTIONS", "/daily"), ("GET", "/challenges"), ("POST", "/nowhere"), ("POST", "/validate")],
)
def test_one_connection_carries_request_after_request_each_body_read_whatever_the_answer(
    local_server, method, path
):
    # As a browser keeps its connection open: a body left unread would be read as the start of
    # the next request (400 "Bad request syntax"), whatever the answer to its own was.
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", local_server.port, timeout=120)
    try:
        for _ in range(2):
            connection.request(
                method, path, body=b'{"word": "braid"}', headers={"Content-Type": "application/json"}
            )
            first = connection.getresponse()
            first.read()
            assert not first.will_close
            connection.request("GET", "/daily")
            second = connection.getresponse()
            assert second.status == 200, second.read()
            assert json.loads(second.read())["date"]
    finally:
        connection.close()


def test_a_refusal_that_leaves_the_body_unread_says_it_closes_the_connection(local_server):
    # 413 before the body is read: the connection cannot carry another request, and the reply
    # says so, or a client would send its next request on a connection about to close.
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", local_server.port, timeout=120)
    try:
        connection.putrequest("POST", "/validate")
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(11 * 1024 * 1024))
        connection.endheaders()
        reply = connection.getresponse()
        assert reply.status == 413 and _envelope(reply.read())["code"] == "payload_too_large"
        assert reply.getheader("Connection") == "close" and reply.will_close
    finally:
        connection.close()
