"""The deployment's secret: it seeds the Daily puzzles and signs board cursors."""

import hashlib
import hmac
from functools import cache

from pydantic import SecretStr

from shared.settings import settings


@cache
def deployment_secret() -> bytes:
    """PUZZLE_SEED itself (local, tests), or the Secrets Manager secret named by
    PUZZLE_SEED_SECRET_ARN (AWS), read once per container."""
    source = settings().seed_source()
    if isinstance(source, SecretStr):
        return source.get_secret_value().encode()
    from aws_lambda_powertools.utilities.parameters import get_secret

    return str(get_secret(source)).encode()


def cursor_key() -> bytes:
    """A key derived from the secret for signing cursors, so the seed itself signs nothing."""
    return hmac.new(deployment_secret(), b"board-cursor", hashlib.sha256).digest()
