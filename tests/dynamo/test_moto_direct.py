"""The embedded store's short way to moto's handlers (local/moto_server.py `direct`): the same
replies as moto's own app, for the requests it takes, and moto's app for the rest."""

import json
import zlib

import pytest
from moto import mock_aws
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from werkzeug.test import Client

from local.moto_server import create_table, direct

TABLE = "wordsqd"


def signed(target: str, service: str = "dynamodb") -> dict[str, str]:
    return {
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": target,
        "Authorization": f"AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/{service}/aws4_request, "
        "SignedHeaders=host, Signature=0",
    }


class Fallback:
    """moto's app, counting the requests handed to it."""

    def __init__(self):
        self.app = DomainDispatcherApplication(create_backend_app)
        self.calls = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.app(environ, start_response)


@pytest.fixture
def clients():
    with mock_aws():
        create_table("us-east-1", TABLE)
        fallback = Fallback()
        yield Client(direct(fallback)), Client(DomainDispatcherApplication(create_backend_app)), fallback


REQUESTS = [
    ("DynamoDB_20120810.DescribeTable", "dynamodb", {"TableName": TABLE}),
    ("DynamoDB_20120810.DescribeTable", "dynamodb", {"TableName": "missing"}),  # a 400
    (
        "DynamoDB_20120810.GetItem",
        "dynamodb",
        {"TableName": TABLE, "Key": {"pk": {"S": "a"}, "sk": {"S": "b"}}},
    ),
    ("DynamoDB_20120810.PutItem", "dynamodb", {"TableName": TABLE, "Item": {"pk": {"S": "a"}}}),  # no sk: 400
    ("DynamoDBStreams_20120810.ListStreams", "dynamodb", {"TableName": TABLE}),
]


@pytest.mark.parametrize(
    ("target", "service", "body"), REQUESTS, ids=[f"{t}-{i}" for i, (t, _, _) in enumerate(REQUESTS)]
)
def test_the_store_answers_dynamodb_requests_as_motos_own_app_does(clients, target, service, body):
    short, moto_app, fallback = clients
    ours = short.post("/", data=json.dumps(body), headers=signed(target, service))
    theirs = moto_app.post("/", data=json.dumps(body), headers=signed(target, service))
    assert fallback.calls == 0
    assert ours.status_code == theirs.status_code
    assert ours.get_json() == theirs.get_json()
    for header in ("x-amz-crc32", "x-amzn-requestid", "content-type", "date"):  # Date: the server's
        assert (header in ours.headers) == (header in theirs.headers), header
    if "x-amz-crc32" in ours.headers:  # botocore checks it against the body
        assert int(ours.headers["x-amz-crc32"]) == zlib.crc32(ours.data)


def test_the_store_hands_other_requests_to_motos_app(clients):
    short, _, fallback = clients
    reply = short.get("/moto-api/")
    assert fallback.calls == 1
    assert reply.status_code == 200
