"""The embedded store's own server (local/moto_server.py) over HTTP: its connections kept alive."""

import http.client
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.server
REPO = Path(__file__).resolve().parents[2]
HEADERS = {
    "Content-Type": "application/x-amz-json-1.0",
    "X-Amz-Target": "DynamoDB_20120810.DescribeTable",
    "Authorization": "AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, "
    "SignedHeaders=host, Signature=0",
}


def test_the_store_keeps_a_connection_open_across_requests(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    store = subprocess.Popen(
        [sys.executable, "-m", "local.moto_server"]
        + ["--port", str(port), "--data-dir", str(tmp_path), "--table", "wordsqd"],
        cwd=REPO,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                connection.connect()
                break
            except OSError:
                assert time.monotonic() < deadline and store.poll() is None, "the store did not start"
                time.sleep(0.2)
        local_port = connection.sock.getsockname()[1]
        for _ in range(2):
            connection.request("POST", "/", json.dumps({"TableName": "wordsqd"}), HEADERS)
            reply = connection.getresponse()
            assert reply.status == 200 and json.loads(reply.read())["Table"]["TableName"] == "wordsqd"
            assert reply.getheader("Connection") != "close"
        assert connection.sock.getsockname()[1] == local_port  # the same connection both times
        connection.close()
    finally:
        store.terminate()
        store.wait(timeout=60)
