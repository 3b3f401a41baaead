"""The server-side roster of moderators (SPEC §3e: removing a moderator takes effect within a
minute). A moderator's ID token carries the `cognito:groups` claim for its lifetime (up to an
hour), so the moderation routes also ask the user pool itself whether the caller is still in the
group (AdminListGroupsForUser on the deployment's own pool), and each container keeps the answer
ROSTER_SECONDS at most. Locally (no pool: `make run`, tests) LOCAL_MODERATORS is the roster when it
is set; unset, the verified claim alone decides (docs/moderation.md, "Removing a moderator").
"""

import os
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from shared.dynamo.client import new_aws_client
from shared.game.moderation import MODERATORS_GROUP
from shared.runtime.settings import settings

ROSTER_SECONDS = 55.0  # a removed moderator's last request through a warm container: under a minute


class CognitoRoster:
    def __init__(self, user_pool_id: str, client: Any = None, clock: Callable[[], float] = time.monotonic):
        self.user_pool_id = user_pool_id
        self.client = client or new_aws_client("cognito-idp")
        self.clock = clock
        self._known: dict[str, tuple[float, bool]] = {}

    def is_moderator(self, username: str) -> bool:
        now = self.clock()
        known = self._known.get(username)
        if known is not None and now - known[0] < ROSTER_SECONDS:
            return known[1]
        reply = self.client.admin_list_groups_for_user(
            UserPoolId=self.user_pool_id, Username=username, Limit=60
        )
        member = any(group.get("GroupName") == MODERATORS_GROUP for group in reply.get("Groups", []))
        self._known[username] = (now, member)
        return member


class LocalRoster:
    def is_moderator(self, username: str) -> bool:
        listed = os.environ.get("LOCAL_MODERATORS")
        if listed is None:
            return True  # tests: the verified claim decides
        return username in {name.strip() for name in listed.split(",")}


@cache
def roster() -> CognitoRoster | LocalRoster:
    pool = settings().user_pool_id
    return CognitoRoster(pool) if pool else LocalRoster()
