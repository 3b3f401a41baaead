"""Sending to an SQS queue on AWS, a part the closing pass's piece queue
(shared/runtime/piece_queue.py) and the reminder queue (shared/runtime/push.py) share."""

from typing import Any

_SQS_BATCH = 10  # SendMessageBatch's limit


class SqsSender:
    """Bodies sent to the queue at URL in SendMessageBatch requests of ten. The client is
    botocore's, as every client of the functions (shared/dynamo/client.py `new_aws_client`: no
    boto3 import), made on first send."""

    def __init__(self, url: str, client: Any = None):
        self.url = url
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            from shared.dynamo.client import new_aws_client

            self._client = new_aws_client("sqs")
        return self._client

    def send_bodies(self, bodies: list[str]) -> None:
        for start in range(0, len(bodies), _SQS_BATCH):
            entries = [
                {"Id": str(i), "MessageBody": body}
                for i, body in enumerate(bodies[start : start + _SQS_BATCH])
            ]
            reply = self.client.send_message_batch(QueueUrl=self.url, Entries=entries)
            if reply.get("Failed"):
                raise RuntimeError(
                    f"{self.url} refused {len(reply['Failed'])} messages: {reply['Failed'][0]}"
                )
