"""Web Push for reminders (SPEC §4a): the VAPID key (a secret like the others), the sender (the
standard protocol's encryption and VAPID signature by pywebpush, never hand-written crypto) and
the queue from the scan to the sender (SQS on AWS; locally and in tests, delivered at once).

| variable | used by | meaning |
|---|---|---|
| VAPID_KEY | reminder sender, leaderboard (local, tests) | the secret the VAPID key is made from |
| VAPID_KEY_SECRET_ARN | the same (AWS) | a secret holding it (neither: from the seed, not on AWS) |
| VAPID_SUBJECT | reminder sender (optional) | the `sub` claim: a mailto: or https: contact |
| REMINDER_QUEUE_URL | reminder scan (AWS) | the SQS queue the scan fills and the sender drains |

The secret is any string (Secrets Manager generates it as it does the seed): the P-256 private key
is derived from it, so a deployment needs no key ceremony, and rotating the secret is rotating the
key (subscriptions made with the old public key then end with 403s, and the page subscribes again).
"""

import base64
import hashlib
import hmac
import os
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from shared.game.reminders import Reminder
from shared.runtime.edge_settings import SettingsError
from shared.runtime.secrets import _secret_value, deployment_secret
from shared.runtime.settings import settings
from shared.runtime.sqs import SqsSender
from shared.services.reminders import PushOutcome, message

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ec import EllipticCurvePrivateKey

P256_ORDER = int("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16)
PUSH_TTL_SECONDS = 4 * 3600  # a reminder a push service holds longer than this is stale
PUSH_TIMEOUT_SECONDS = 5


@cache
def vapid_private_key() -> "EllipticCurvePrivateKey":
    # cryptography is imported by what uses the key alone: the other routes' init never pays it
    from cryptography.hazmat.primitives.asymmetric import ec

    own, arn = os.environ.get("VAPID_KEY"), os.environ.get("VAPID_KEY_SECRET_ARN")
    if own:
        secret = own.encode()
    elif arn:
        secret = _secret_value(arn).encode()
    elif settings().environment == "aws":
        raise SettingsError("wordsqd: invalid environment: WORDSQD_ENV=aws and VAPID_KEY_SECRET_ARN not set")
    else:  # local and tests: from the seed, one secret to set for `make run`
        secret = hmac.new(deployment_secret(), b"vapid", hashlib.sha256).digest()
    scalar = int.from_bytes(hashlib.sha256(b"wordsqd-vapid" + secret).digest(), "big") % (P256_ORDER - 1) + 1
    return ec.derive_private_key(scalar, ec.SECP256R1())


def application_server_key() -> str:
    """The VAPID public key as the page's PushManager.subscribe takes it (base64url, unpadded)."""
    from cryptography.hazmat.primitives import serialization

    point = (
        vapid_private_key()
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()


class WebPush:
    """Sends a reminder's payload to its subscription's push service (pywebpush: aes128gcm
    encryption and a VAPID JWT). SESSION: requests' session, or a stand-in in tests."""

    def __init__(self, session: Any = None) -> None:
        self.session = session

    def push(self, reminder: Reminder, payload: bytes) -> PushOutcome:
        from py_vapid import Vapid  # type: ignore[import-untyped]  # the sender's alone: not in others' init
        from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

        subject = os.environ.get("VAPID_SUBJECT") or "mailto:reminders@wordsqd.invalid"
        try:
            webpush(
                {"endpoint": reminder.endpoint, "keys": {"p256dh": reminder.p256dh, "auth": reminder.auth}},
                payload,
                vapid_private_key=Vapid(private_key=vapid_private_key()),
                vapid_claims={"sub": subject},
                ttl=PUSH_TTL_SECONDS,
                timeout=PUSH_TIMEOUT_SECONDS,
                requests_session=self.session,
            )
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            return PushOutcome.GONE if status in (404, 410) else PushOutcome.FAILED
        except OSError:  # refused, reset, timed out (requests' errors are OSErrors)
            return PushOutcome.FAILED
        return PushOutcome.SENT


class ReminderQueue:
    """The reminder queue on AWS: one message a batch."""

    def __init__(self, url: str, client: Any = None) -> None:
        self.sqs = SqsSender(url, client)

    def send(self, day: str, batch: Sequence[Reminder]) -> None:
        self.sqs.send_bodies([message(day, batch)])


class InstantQueue:
    """Locally and in tests: the message is delivered at once, through the same encoding."""

    def __init__(self, consume: Callable[[str], object]) -> None:
        self.consume = consume

    def send(self, day: str, batch: Sequence[Reminder]) -> None:
        self.consume(message(day, batch))


def reminder_queue(consume: Callable[[str], object]) -> ReminderQueue | InstantQueue:
    url = os.environ.get("REMINDER_QUEUE_URL")
    if url:
        return ReminderQueue(url)
    if settings().environment == "aws":
        raise SettingsError("wordsqd: invalid environment: WORDSQD_ENV=aws and REMINDER_QUEUE_URL not set")
    return InstantQueue(consume)
