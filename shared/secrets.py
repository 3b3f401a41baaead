"""The deployment's secret: it seeds the Daily puzzles and signs board cursors."""

import hashlib
import hmac
from functools import cache

from shared.settings import settings


@cache
def deployment_secret() -> bytes:
    """PUZZLE_SEED itself (local, tests), or the Secrets Manager secret named by
    PUZZLE_SEED_SECRET_ARN (AWS), read once per container."""
    config = settings()
    if config.puzzle_seed:
        return config.puzzle_seed.encode()
    if not config.puzzle_seed_secret_arn:
        raise RuntimeError("Set PUZZLE_SEED or PUZZLE_SEED_SECRET_ARN")
    from aws_lambda_powertools.utilities.parameters import get_secret

    return str(get_secret(config.puzzle_seed_secret_arn)).encode()


def cursor_key() -> bytes:
    """A key derived from the secret for signing cursors, so the seed itself signs nothing."""
    return hmac.new(deployment_secret(), b"board-cursor", hashlib.sha256).digest()
