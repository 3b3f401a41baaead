"""The two SQS senders on moto (not a Stubber's replies): the closing pass's pieces and the
reminder scan's batches go through one sender (shared/runtime/piece_queue.py `SqsQueue`), on a
botocore client (shared/dynamo/client.py `new_aws_client`), in SendMessageBatch requests of ten."""

import json

import boto3
from moto import mock_aws

from shared.game.reminders import Reminder
from shared.runtime.piece_queue import SqsQueue
from shared.runtime.push import ReminderQueue
from shared.services.reminders import read_message


def _received(sqs, url: str) -> list[str]:
    bodies = []
    while reply := sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages"):
        bodies += [m["Body"] for m in reply]
        sqs.delete_message_batch(
            QueueUrl=url,
            Entries=[{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(reply)],
        )
    return bodies


@mock_aws
def test_pieces_are_sent_in_batches_of_ten_and_each_arrives_once():
    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="pieces")["QueueUrl"]
    pieces = [{"scope": "d2026-12-05", "phase": 1, "shard": n} for n in range(23)]
    calls = []
    queue = SqsQueue(url)
    queue.client.meta.events.register("provide-client-params.sqs.*", lambda params, **_: calls.append(params))

    queue.send(pieces)

    assert [len(c["Entries"]) for c in calls] == [10, 10, 3]
    assert sorted((json.loads(b) for b in _received(sqs, url)), key=lambda p: p["shard"]) == pieces


@mock_aws
def test_a_reminder_batch_is_one_message_the_sender_reads_back():
    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="reminders")["QueueUrl"]
    batch = [
        Reminder("p1", "https://push.example/s/1", "key", "secret", 19),
        Reminder("p2", "https://push.example/s/2", "k2", "s2", 20, "2026-12-04", 3),
    ]

    ReminderQueue(url).send("2026-12-05", batch)

    (body,) = _received(sqs, url)
    assert read_message(body) == ("2026-12-05", batch)


@mock_aws
def test_a_queue_that_does_not_exist_is_an_error_not_a_silent_loss():
    queue = SqsQueue("https://sqs.us-east-1.amazonaws.com/123456789012/no-such-queue")
    try:
        queue.send([{"scope": "d2026-12-05"}])
    except Exception as error:  # botocore's QueueDoesNotExist, or the refused entries
        assert (
            "no-such-queue" in str(error)
            or "NonExistentQueue" in str(error)
            or "does not exist" in str(error)
        )
    else:
        raise AssertionError("a send to a missing queue succeeded")
