"""The moderation function (SPEC §3e): reports, the review queue, decisions, the audit log and
appeals. Its own function so that its role alone may write the audit log (infra/permissions.py);
its routes are functions/moderation/routes.py."""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

from typing import Any

from functions.moderation import routes
from shared.http import api
from shared.runtime.observability import observed
from shared.runtime.wiring import players, ports, require

# Every player route refuses an erased or banned caller (Players.admit), but the appeals, which a
# banned player may make (the route table's `admits`).
app = api.make_resolver(admit=lambda player, banned_ok: players().admit(player, banned_ok))
routes.register(app)
require("cursor_key", "user_pool")  # on AWS, the init stops without them (shared/runtime/settings.py)
ports()  # the DynamoDB client, made during the cold start (shared/runtime/wiring.py)


@observed
def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    return api.serve(app, event, context)


init_phase.end()  # the init is over (functions/init_phase.py)
