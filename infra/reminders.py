"""Reminders (SPEC §4a; docs/players.md "Reminders"): the VAPID key's secret, the scan every minute, the
queue it fills and the sender that drains it.

- The scan (infra/functions.py `remind`: functions/reminders/scan.py), on EventBridge Scheduler
  every minute through its `live` alias, reads the send minute's subscriptions, one query per
  shard (`REMIND#<minute>#<shard>` partitions only), and sends them to the queue in batches of 50.
- The sender (`push`: functions/reminders/send.py), on the queue (infra/queue_worker.py), reads
  each player's slot of the day and official result of the last send's day (GetItem), marks the
  send (a conditional UpdateItem) or ends the subscription (DeleteItem), then pushes over HTTPS to
  the browser's push service. A message that fails is retried (partial batch response) and then
  kept in the dead-letter queue, as is a scan that fails after its retries; any message there
  alarms (infra/stack.py). Both deploy by canary like the other functions (infra/deploys.py).
- The VAPID key is made from a secret Secrets Manager generates (shared/runtime/push.py), read by
  the sender (to sign) and the leaderboard function (to give the page the public key).
"""

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_lambda_destinations as destinations
from aws_cdk import aws_scheduler as scheduler
from aws_cdk import aws_scheduler_targets as targets
from aws_cdk import aws_secretsmanager as secretsmanager
from constructs import Construct

from infra.checks import acknowledge
from infra.functions import FUNCTIONS, Functions
from infra.queue_worker import QueueWorker
from infra.scheduler_role import scheduler_role

SEND_BATCH = 5  # messages per invocation: 250 reminders
# The sender's cap (the queue's event source), not a reservation: at P seconds a push, it drains
# SEND_CONCURRENCY / P reminders a second (docs/data-model.md, "Reminders").
SEND_CONCURRENCY = 100
SEND_RETRIES = 3  # receives before a message goes to the dead-letter queue
SCAN_MAX_EVENT_AGE = Duration.minutes(5)  # a scan later than this would remind at the wrong time


class Reminders(Construct):
    def __init__(self, scope: Construct, id: str, *, functions: Functions, production: bool) -> None:
        super().__init__(scope, id)
        removal = RemovalPolicy.RETAIN if production else RemovalPolicy.DESTROY
        self.vapid_key = secretsmanager.Secret(
            self,
            "VapidKey",
            description="WordSQD reminders: the secret the VAPID (Web Push) key is made from",
            generate_secret_string=secretsmanager.SecretStringGenerator(
                password_length=64, exclude_punctuation=True
            ),
            removal_policy=removal,
        )
        acknowledge(
            self.vapid_key,
            "AwsSolutions-SMG4",
            "Rotating it changes the VAPID key: every browser must subscribe again (docs/players.md).",
        )
        send_timeout = FUNCTIONS["push"].timeout
        self.sends = QueueWorker(
            self,
            "Sends",
            worker=functions.aliases["push"],
            visibility_timeout=Duration.seconds(send_timeout.to_seconds() * 6),  # Lambda's advice
            retention=Duration.hours(1),  # a reminder an hour late is no reminder
            max_receives=SEND_RETRIES,
            batch_size=SEND_BATCH,
            max_concurrency=SEND_CONCURRENCY,
            removal=removal,
        )
        self.dead_letters = self.sends.dead_letters
        self.sends.feed(functions.by_name["remind"], "REMINDER_QUEUE_URL")
        for function in (functions.by_name["push"], functions.by_name["leaderboard"]):
            self.vapid_key.grant_read(function)
            function.add_environment("VAPID_KEY_SECRET_ARN", self.vapid_key.secret_arn)

        scan = functions.aliases["remind"]
        # A scan that fails after Lambda's retries lands in the dead-letter queue too (it alarms).
        scan.configure_async_invoke(
            retry_attempts=1,
            max_event_age=SCAN_MAX_EVENT_AGE,
            on_failure=destinations.SqsDestination(self.dead_letters),
        )
        role = scheduler_role(self, "InvokeRole", "EventBridge Scheduler: invoke the WordSQD reminder scan")
        self.schedule = scheduler.Schedule(
            self,
            "EveryMinute",
            description="WordSQD: queue the reminders of this minute (America/Chicago)",
            schedule=scheduler.ScheduleExpression.rate(Duration.minutes(1)),
            target=targets.LambdaInvoke(
                scan,
                input=scheduler.ScheduleTargetInput.from_object(
                    {
                        "source": "wordsqd.reminders",
                        "scheduled_time": scheduler.ContextAttribute.scheduled_time,
                    }
                ),
                retry_attempts=2,
                max_event_age=SCAN_MAX_EVENT_AGE,
                dead_letter_queue=self.dead_letters,
                role=role,
            ),
        )
