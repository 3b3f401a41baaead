"""One Logger, Metrics and Tracer for the stateful functions (namespace WordSQD, service wordsqd).

Metric names (the dashboard and alarms in infra/ read these):
- RunsStarted, RunsCompleted, OfficialScores: counts;
- ImplausibleRuns: official runs kept off the boards by fair play (SPEC §3b), with a warning log
  line each (`event`, run id, player, scope, the too-fast answers' letters and milliseconds);
- Answers: count, with dimension `reason` (`accepted` or a rejection reason code);
- ExpiryFailures: due runs an expiry pass could not complete (tried again by the next pass).

The Tracer patches botocore only (the one library whose calls it traces: DynamoDB and Secrets
Manager requests), not every library X-Ray knows. It records no replies and no exceptions: the
stack sets POWERTOOLS_TRACER_CAPTURE_RESPONSE and POWERTOOLS_TRACER_CAPTURE_ERROR to false on
every function, because a reply holds a guest run's id (its only credential) and live words.
X-Ray's botocore patch records only each request's table name and operation, never keys or items.
"""

from collections.abc import Callable
from typing import Any, TypeVar

from aws_lambda_powertools import Logger, Metrics, Tracer

NAMESPACE = "WordSQD"
SERVICE = "wordsqd"
TRACED_MODULES = ("botocore",)

E = TypeVar("E")
R = TypeVar("R")

logger = Logger(service=SERVICE)
metrics = Metrics(namespace=NAMESPACE, service=SERVICE)
tracer = Tracer(service=SERVICE, patch_modules=TRACED_MODULES)


def observed(handler: Callable[[E, Any], R]) -> Callable[[E, Any], R]:
    """A function's entry point inside the three: the Lambda context on every log line, the
    invocation traced, the metrics flushed when it returns."""
    return logger.inject_lambda_context(tracer.capture_lambda_handler(metrics.log_metrics(handler)))
