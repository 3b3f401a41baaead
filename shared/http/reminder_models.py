"""`PUT /me/reminder`'s body and the reminder replies (SPEC §4a): the browser's PushSubscription
as `PushSubscription.toJSON()` gives it, and the hour (Central) before midnight to be reminded."""

import base64
import binascii
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import Field, StrictStr, ValidationInfo, field_validator

from shared.game.reminders import LAST_HOUR, Reminder
from shared.http.models import JsonInt, Model, Request
from shared.runtime.settings import settings

LOCAL_HOSTS = ("127.0.0.1", "localhost")  # `make run`'s push stand-in (local/push.py)
Base64Url = Annotated[StrictStr, Field(min_length=16, max_length=200, pattern=r"^[A-Za-z0-9_-]+={0,2}$")]
# Each key's length once decoded, and the refusal of another.
KEY_BYTES = {
    "p256dh": (65, "must be an uncompressed P-256 point: 65 bytes, base64url"),
    "auth": (16, "must be 16 bytes, base64url"),
}


def _decoded_length(value: str) -> int:
    try:
        return len(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
    except (binascii.Error, ValueError):
        return -1


class PushKeys(Request):
    p256dh: Base64Url = Field(description="the browser's P-256 public key (65 bytes, base64url)")
    auth: Base64Url = Field(description="the browser's auth secret (16 bytes, base64url)")

    @field_validator(*KEY_BYTES)
    @classmethod
    def _of_its_length(cls, value: str, info: ValidationInfo) -> str:
        length, refusal = KEY_BYTES[str(info.field_name)]
        if _decoded_length(value) != length:
            raise ValueError(refusal)
        return value


class PushSubscription(Request):
    # URL characters alone (RFC 3986): push services' endpoints are ASCII, and the body stays
    # under the API's 4 KB whatever is sent.
    endpoint: StrictStr = Field(
        max_length=1024,
        pattern=r"^https?://[A-Za-z0-9._~:/?#@!$&'()*+,;=%\[\]-]+$",
        description="the push service's https URL",
    )
    keys: PushKeys
    expirationTime: float | None = Field(default=None, description="as toJSON() gives it; not used")

    @field_validator("endpoint")
    @classmethod
    def _https(cls, value: str) -> str:
        parts = urlsplit(value)
        local = settings().environment != "aws" and parts.hostname in LOCAL_HOSTS
        if not (parts.scheme == "https" or (local and parts.scheme == "http")) or not parts.hostname:
            raise ValueError("must be an https URL")
        return value


class ReminderRequest(Request):
    subscription: PushSubscription
    hour: JsonInt = Field(
        ge=0, le=LAST_HOUR, description="the hour (America/Chicago) to be reminded: 0 to 23", examples=[19]
    )

    def reminder(self, player: str) -> Reminder:
        keys = self.subscription.keys
        return Reminder(player, self.subscription.endpoint, keys.p256dh, keys.auth, self.hour)


class ReminderView(Model):
    hour: int | None = Field(description="the hour (America/Chicago) of the caller's reminder; null: none")
    application_server_key: str = Field(
        description="the VAPID public key (base64url) for PushManager.subscribe's applicationServerKey"
    )


class ReminderDeleted(Model):
    deleted: bool = Field(description="whether there was a reminder to remove")
