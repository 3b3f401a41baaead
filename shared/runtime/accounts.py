"""Players' accounts (the Cognito user pool): what `DELETE /me` erases last.

`CognitoAccounts` calls AdminUserGlobalSignOut (every refresh token of the user revoked) and then
AdminDeleteUser on the deployment's own pool (USER_POOL_ID; the stack grants those two actions on
that one pool, infra/permissions.py). Where no pool is set (`make run`, tests; never on AWS:
shared/runtime/settings.py), `LocalAccounts` stands in: it records whom it signed out and deleted,
and with LOCAL_SESSIONS (set by `make run`) it appends each sign-out to that file, which the local
`/local/refresh` reads (local/auth.py), so an erased player's refresh tokens stop working there too.
"""

import json
from pathlib import Path
from typing import Any

from botocore.exceptions import ClientError

from shared.dynamo.client import new_aws_client
from shared.game import clock
from shared.game.errors import Throttled

# The app client's refresh tokens (infra/api.py) and the local stand-in's (local/auth.py): each
# refresh returns a new one; the one it replaced still works for the grace (a retried request
# whose reply was lost), then never again.
REFRESH_TOKEN_DAYS = 7
REFRESH_GRACE_SECONDS = 60  # Cognito's RetryGracePeriodSeconds allows 0-60
SIGNED_OUT = "signed_out"  # a LOCAL_SESSIONS line's key: the username signed out everywhere


class CognitoAccounts:
    def __init__(self, user_pool_id: str, client: Any = None):
        self.user_pool_id = user_pool_id
        self.client = client or new_aws_client("cognito-idp")

    def sign_out(self, username: str) -> None:
        self._call("admin_user_global_sign_out", username)

    def delete_account(self, username: str) -> None:
        self._call("admin_delete_user", username)

    def _call(self, action: str, username: str) -> None:
        try:
            getattr(self.client, action)(UserPoolId=self.user_pool_id, Username=username)
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            if code == "UserNotFoundException":
                return
            if code in ("TooManyRequestsException", "LimitExceededException"):
                raise Throttled("Your account is busy; try again shortly") from error
            raise


class LocalAccounts:
    def __init__(self, sessions: Path | None = None) -> None:
        self.sessions = sessions
        self.deleted: list[str] = []
        self.signed_out: list[str] = []

    def sign_out(self, username: str) -> None:
        if username not in self.signed_out:
            self.signed_out.append(username)
        if self.sessions is not None:
            # One short line, appended whole (O_APPEND): the local token endpoint reads them all.
            line = json.dumps({SIGNED_OUT: username, "at": clock.now().timestamp()}) + "\n"
            with self.sessions.open("a", encoding="utf-8") as file:
                file.write(line)

    def delete_account(self, username: str) -> None:
        if username not in self.deleted:
            self.deleted.append(username)
