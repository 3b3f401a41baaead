"""A queue and the function that drains it: an encrypted SQS queue, its dead-letter queue, and
Lambda's event source on the worker's `live` alias (infra/functions.py), so the messages go to the
version CodeDeploy has shifted to, canary included (infra/deploys.py). Used twice: the closing
pass's pieces (infra/closing.py) and the reminders (infra/reminders.py).

A message the worker reports failed (partial batch response) is delivered again after the
visibility timeout, `max_receives` times in all, then kept in the dead-letter queue for 14 days.
"""

from typing import Any

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_event_sources as sources
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.checks import acknowledge

DEAD_LETTER_RETENTION = Duration.days(14)


class QueueWorker(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        worker: lambda_.Alias,
        visibility_timeout: Duration,
        max_receives: int,
        batch_size: int,
        max_concurrency: int,
        removal: RemovalPolicy,
        retention: Duration | None = None,
    ) -> None:
        super().__init__(scope, id)

        def encrypted(name: str, **options: Any) -> sqs.Queue:
            return sqs.Queue(
                self,
                name,
                encryption=sqs.QueueEncryption.SQS_MANAGED,
                enforce_ssl=True,
                removal_policy=removal,
                **options,
            )

        self.dead_letters = encrypted("Undelivered", retention_period=DEAD_LETTER_RETENTION)
        acknowledge(self.dead_letters, "AwsSolutions-SQS3", "This queue is itself a dead-letter queue.")
        self.queue = encrypted(
            "Queue",
            visibility_timeout=visibility_timeout,
            retention_period=retention,
            dead_letter_queue=sqs.DeadLetterQueue(max_receive_count=max_receives, queue=self.dead_letters),
        )
        worker.add_event_source(
            sources.SqsEventSource(
                self.queue,
                batch_size=batch_size,
                report_batch_item_failures=True,
                max_concurrency=max_concurrency,
            )
        )

    def feed(self, sender: lambda_.Function, variable: str) -> None:
        """SENDER may send to the queue, whose URL it reads from VARIABLE."""
        self.queue.grant_send_messages(sender)
        sender.add_environment(variable, self.queue.queue_url)
