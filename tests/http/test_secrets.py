"""The two deployment secrets (shared/runtime/secrets.py): the cursor key is its own secret on AWS, and its
previous version keeps verifying cursors after a rotation; locally it is derived from the seed."""

import boto3
import pytest
from moto import mock_aws

from shared.runtime import secrets, wiring


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    for name in ("CURSOR_KEY", "CURSOR_KEY_SECRET_ARN", "PUZZLE_SEED_SECRET_ARN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    wiring.reset()
    yield
    monkeypatch.undo()
    wiring.reset()


def test_locally_the_cursor_key_is_derived_from_the_seed_not_the_seed_itself(monkeypatch):
    monkeypatch.setenv("PUZZLE_SEED", "local-seed")
    wiring.reset()
    [key] = secrets.cursor_keys()
    assert key != b"local-seed" and len(key) == 32
    assert secrets.cursor_key() == key


def test_cursor_key_from_its_own_secret_with_the_previous_version_after_rotation(monkeypatch):
    with mock_aws():
        client = boto3.client("secretsmanager")
        arn = client.create_secret(Name="cursor", SecretString="first-key")["ARN"]
        monkeypatch.setenv("CURSOR_KEY_SECRET_ARN", arn)
        monkeypatch.setenv("PUZZLE_SEED", "never-used-for-cursors")
        wiring.reset()  # a container started with them
        assert secrets.cursor_keys() == (b"first-key",)  # no previous before the first rotation

        client.put_secret_value(SecretId=arn, SecretString="second-key")  # a rotation
        wiring.reset()  # a new container
        assert secrets.cursor_keys() == (b"second-key", b"first-key")
        assert secrets.cursor_key() == b"second-key"  # signs with the new one
