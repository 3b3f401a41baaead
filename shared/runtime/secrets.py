"""The deployment's two secrets: the puzzle seed (Daily puzzles) and the cursor key (board cursors).

They are separate so that the function that serves boards never holds the seed of every future
Daily. Each container reads a secret once, on first use.

- seed: PUZZLE_SEED itself (local, tests), or the Secrets Manager secret PUZZLE_SEED_SECRET_ARN;
- cursor key: CURSOR_KEY itself, or the secret CURSOR_KEY_SECRET_ARN (AWS). Its AWSPREVIOUS
  version stays valid for verifying after a rotation (`cursor_keys`), so cursors in flight keep
  working; locally, without either, it is derived from the seed (one secret to set for `make run`).
"""

import hashlib
import hmac
from functools import cache
from typing import Any

from pydantic import SecretStr

from shared.dynamo.client import new_aws_client
from shared.runtime.settings import settings


def _secret_value(arn: str, stage: str = "AWSCURRENT") -> str:
    """One GetSecretValue, by botocore's client (shared/dynamo/client.py says why not boto3's):
    each secret is read once per container and kept by the functions below, so nothing is cached
    here."""
    reply = secrets_client().get_secret_value(SecretId=arn, VersionStage=stage)
    return str(reply["SecretString"])


@cache
def secrets_client() -> Any:
    return new_aws_client("secretsmanager")


@cache
def deployment_secret() -> bytes:
    """PUZZLE_SEED itself (local, tests), or the Secrets Manager secret named by
    PUZZLE_SEED_SECRET_ARN (AWS), read once per container."""
    source = settings().seed_source()
    if isinstance(source, SecretStr):
        return source.get_secret_value().encode()
    return _secret_value(source).encode()


@cache
def cursor_keys() -> tuple[bytes, ...]:
    """The keys that verify a cursor, newest first: the current key, then the previous one (for a
    grace period after a rotation). Sign with the first."""
    own, arn = settings().cursor_key, settings().cursor_key_secret_arn
    if own is not None:
        return (own.get_secret_value().encode(),)
    if arn is None:
        settings().require("cursor_key")  # never derived on AWS
        # Local and tests: derived from the seed, so the seed itself signs nothing.
        return (hmac.new(deployment_secret(), b"board-cursor", hashlib.sha256).digest(),)
    keys = [_secret_value(arn).encode()]
    try:
        previous = _secret_value(arn, "AWSPREVIOUS").encode()
    except Exception:  # no previous version before the first rotation
        previous = None
    if previous and previous != keys[0]:
        keys.append(previous)
    return tuple(keys)


def cursor_key() -> bytes:
    """The key that signs new cursors."""
    return cursor_keys()[0]


def older_cursor_keys() -> tuple[bytes, ...]:
    """Keys that still verify cursors but sign none: the previous one after a rotation."""
    return cursor_keys()[1:]
