"""POST /validate: judge one word by the rules of SPEC §2. Stateless: no table, no AWS client."""

from functions import init_phase  # isort: skip  (first: the init runs without the garbage collector)

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.openapi.params import Body

from shared import api
from shared.dictionary import words
from shared.models import ValidateReply, ValidateRequest
from shared.rules import judge

app = api.make_resolver()
words()  # load the dictionary during the cold start, not on the first request


@app.post("/validate", summary="Judge a word")
def validate(request: Annotated[ValidateRequest, Body()]) -> ValidateReply:
    verdict = judge(request.word, request.prompt, words(), request.forbidden or "")
    return ValidateReply(valid=verdict.valid, word=verdict.word, reason=verdict.reason)


@api.logger.inject_lambda_context
def handler(event: dict[str, Any], context: object) -> dict[str, Any]:
    return api.serve(app, event, context)


init_phase.end()  # the init is over (functions/init_phase.py)
