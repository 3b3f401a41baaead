"""Test set-up: a fake AWS environment, a fresh moto table per test, and API Gateway v2 events."""

import json
import os

import pytest

os.environ.update(
    {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "TABLE_NAME": "wordsqd-test",
        "PUZZLE_SEED": "test-seed",
        "POWERTOOLS_SERVICE_NAME": "wordsqd",
        "POWERTOOLS_METRICS_NAMESPACE": "WordSQD",
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_LOG_LEVEL": "WARNING",
    }
)
os.environ.pop("AWS_ENDPOINT_URL_DYNAMODB", None)

from local.events import LambdaContext, http_event  # noqa: E402
from shared import clock, wiring  # noqa: E402


@pytest.fixture(autouse=True)
def _real_clock():
    clock.reset()
    yield
    clock.reset()


@pytest.fixture
def table():
    """A fresh in-process moto DynamoDB with the game's table, and fresh cached wiring."""
    import boto3
    from moto import mock_aws

    from shared.table import create_table_request

    with mock_aws():
        boto3.client("dynamodb").create_table(**create_table_request(os.environ["TABLE_NAME"]))
        for cached in (wiring.store, wiring.game, wiring.boards):
            cached.cache_clear()
        yield os.environ["TABLE_NAME"]
        for cached in (wiring.store, wiring.game, wiring.boards):
            cached.cache_clear()


def player_claims(name: str) -> dict:
    return {"sub": f"sub-{name}", "cognito:username": name, "token_use": "id"}


class Api:
    """Calls a Lambda handler with real API Gateway v2 events; returns (status, json body)."""

    def __init__(self, handler):
        self.handler = handler

    def __call__(self, method, path, body=None, *, user=None, query=None, raw_body=None, headers=None):
        event = http_event(
            method,
            path,
            body,
            query=query,
            raw_body=raw_body,
            headers=headers,
            claims=player_claims(user) if user else None,
        )
        reply = self.handler(event, LambdaContext(aws_request_id="test"))
        return reply["statusCode"], json.loads(reply["body"]) if reply.get("body") else None, reply
