"""One Logger, Metrics and Tracer for the stateful functions (namespace WordSQD, service wordsqd).

Metric names (the dashboard and alarms in infra/ read these):
- RunsStarted, RunsCompleted, OfficialScores: counts;
- Answers: count, with dimension `reason` (`accepted` or a rejection reason code).
"""

from aws_lambda_powertools import Logger, Metrics, Tracer

NAMESPACE = "WordSQD"
SERVICE = "wordsqd"

logger = Logger(service=SERVICE)
metrics = Metrics(namespace=NAMESPACE, service=SERVICE)
tracer = Tracer(service=SERVICE)
