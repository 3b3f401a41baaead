"""POST /validate through Powertools' resolver, with the request validated by `ValidateRequest`:
the one definition of the route, which the OpenAPI document is generated from, and which answers
every request the handler's plain path does not (functions/validate/handler.py)."""

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Body

from shared.game.dictionary import words
from shared.game.rules import judge
from shared.http import api
from shared.http.models import ValidateReply, ValidateRequest

app = api.make_resolver()


@app.post("/validate", summary="Judge a word")
def validate(request: Annotated[ValidateRequest, Body()]) -> ValidateReply:
    verdict = judge(request.word, request.prompt, words(), request.forbidden or "")
    return ValidateReply(valid=verdict.valid, word=verdict.word, reason=verdict.reason)
