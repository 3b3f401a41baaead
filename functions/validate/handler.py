"""POST /validate: judge one word by the rules of SPEC §2. Stateless: no table, no AWS client.

The function the most players call cold, so its init loads only the word list, the rules and
the pre-routing checks (shared/http/gateway.py): no resolver, no pydantic. A well-formed request (the
route, a JSON object with a valid `prompt`, a string `word` and an optional valid `forbidden`, no
other field) is judged right here, the reply built as the resolver builds it; anything else goes
to the resolver (functions/validate/routes.py, imported on first need), which answers it exactly
as before: its 400s, 404s and 405s. `ValidateRequest` (shared/http/models.py) stays the definition of
a valid request: tests/http/test_validate_handler.py checks this path against the resolver's on
generated requests, so the two cannot drift. docs/operations.md, "Cold starts", has the figures.
"""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

import json
import re
from typing import Any

from shared.game.constants import FORBIDDEN_LETTERS, PROMPT_LENGTH
from shared.game.dictionary import words
from shared.game.rules import judge
from shared.http.gateway import Refused, checked_event, logger

ROUTE_KEY = "POST /validate"
FIELDS = {"prompt", "word", "forbidden"}
_LETTERS = re.compile("[A-Za-z]+")

words()  # load the dictionary during the cold start, not on the first request


def plain_reply(event: dict[str, Any]) -> dict[str, Any] | None:
    """The reply to a well-formed POST /validate, or None: the resolver answers anything else.
    Raises Refused for what the checks before routing refuse (as the resolver's path does)."""
    if event.get("routeKey") != ROUTE_KEY:
        return None
    checked = checked_event(event)
    body = json.loads(checked["body"]) if "body" in checked else None
    if not isinstance(body, dict) or not {"prompt", "word"} <= body.keys() <= FIELDS:
        return None
    prompt, word, forbidden = body["prompt"], body["word"], body.get("forbidden")
    if not isinstance(word, str) or not _letters(prompt, PROMPT_LENGTH):
        return None
    prompt = prompt.upper()
    if forbidden is not None and forbidden != "":
        if not _letters(forbidden, FORBIDDEN_LETTERS):
            return None
        forbidden = forbidden.upper()
        if len(set(forbidden)) != FORBIDDEN_LETTERS or set(forbidden) & set(prompt):
            return None
    verdict = judge(word, prompt, words(), forbidden or "")
    reply = {"valid": verdict.valid, "word": verdict.word, "reason": verdict.reason}
    return {
        "statusCode": 200,
        "body": json.dumps(reply, separators=(",", ":")),
        "isBase64Encoded": False,
        "headers": {"Content-Type": "application/json"},
        "cookies": [],
    }


def _letters(value: object, length: int) -> bool:
    return isinstance(value, str) and len(value) == length and _LETTERS.fullmatch(value) is not None


@logger.inject_lambda_context
def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    try:
        reply = plain_reply(event)
    except Refused as refused:
        return refused.reply
    if reply is not None:
        return reply
    from functions.validate.routes import app
    from shared.http import api

    return api.serve(app, event, context)


def __getattr__(name: str) -> Any:
    """`app`, the route's resolver, for what describes the function (functions/openapi.py merges
    each handler module's `app`) without loading it at every cold start."""
    if name == "app":
        from functions.validate.routes import app

        return app
    raise AttributeError(name)


init_phase.end()  # the init is over (functions/init_phase.py)
