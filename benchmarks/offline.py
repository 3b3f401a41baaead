"""The environment every benchmark runs in: fake AWS credentials, in-process moto, quiet Powertools."""

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "WORDSQD_ENV": "test",
    "TABLE_NAME": "wordsqd-bench",
    "PUZZLE_SEED": "bench-seed",
    "POWERTOOLS_SERVICE_NAME": "wordsqd",
    "POWERTOOLS_METRICS_NAMESPACE": "WordSQD",
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_DISABLED": "true",
    "POWERTOOLS_LOG_LEVEL": "WARNING",
}


def use_offline_env() -> None:
    """Set ENV (and drop any real DynamoDB endpoint) before the game's modules are imported."""
    sys.path.insert(0, str(REPO))
    os.environ.update(ENV)
    os.environ.pop("AWS_ENDPOINT_URL_DYNAMODB", None)
