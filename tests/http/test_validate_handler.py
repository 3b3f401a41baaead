"""POST /validate through real API Gateway v2 events: SPEC §5 shapes, statuses and the error envelope."""

import base64
import json

import pytest

from functions.validate.handler import handler
from local.events import LambdaContext, http_event
from tests.conftest import Api, printed_by_a_fresh_interpreter

call = Api(handler)


def assert_error(status, body, expected_status, code=None):
    assert status == expected_status
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    if code:
        assert body["error"]["code"] == code
    assert "Traceback" not in body["error"]["message"]


def test_spec_example_timer_for_tmr_with_forbidden_letters():
    status, body, raw = call("POST", "/validate", {"prompt": "TMR", "word": "Timer", "forbidden": "AEO"})
    # TIMER contains E, which AEO forbids
    assert (status, body) == (200, {"valid": False, "word": "timer", "reason": "forbidden_letter"})
    status, body, raw = call("POST", "/validate", {"prompt": "TMR", "word": "Timer", "forbidden": "ABC"})
    assert (status, body) == (200, {"valid": True, "word": "timer", "reason": None})
    assert raw["headers"]["Content-Type"] == "application/json"


def test_prompt_and_forbidden_are_case_insensitive():
    assert call("POST", "/validate", {"prompt": "tmr", "word": "timer", "forbidden": "abc"})[1]["valid"]


def test_meter_for_tmr_is_rejected_with_letter_order():
    assert call("POST", "/validate", {"prompt": "TMR", "word": "meter"})[1] == {
        "valid": False,
        "word": "meter",
        "reason": "letter_order",
    }


def test_empty_forbidden_means_classic_mode():
    assert call("POST", "/validate", {"prompt": "BRD", "word": "braid", "forbidden": ""})[1]["valid"]
    assert call("POST", "/validate", {"prompt": "BRD", "word": "braid", "forbidden": None})[1]["valid"]


@pytest.mark.parametrize(
    "body",
    [
        {"word": "timer"},
        {"prompt": "TM", "word": "timer"},
        {"prompt": "TMRS", "word": "timer"},
        {"prompt": "T-R", "word": "timer"},
        {"prompt": "ТMR", "word": "timer"},  # Cyrillic Т
        {"prompt": "TMR\n", "word": "timer"},
        {"prompt": 123, "word": "timer"},
        {"prompt": "TMR"},
        {"prompt": "TMR", "word": 5},
        {"prompt": "TMR", "word": None},
        {"prompt": "TMR", "word": ["timer"]},
        {"prompt": "TMR", "word": "timer", "forbidden": "AB"},
        {"prompt": "TMR", "word": "timer", "forbidden": "AAB"},
        {"prompt": "TMR", "word": "timer", "forbidden": "TAB"},  # overlaps the prompt
        {"prompt": "TMR", "word": "timer", "forbidden": 7},
        {"prompt": "TMR", "word": "timer", "extra": 1},
    ],
)
def test_malformed_requests_get_400_with_the_envelope(body):
    status, reply, _ = call("POST", "/validate", body)
    assert_error(status, reply, 400, "bad_request")


@pytest.mark.parametrize("raw", ["{not json", "[]", '"timer"', "null", "", "\xff"])
def test_bodies_that_are_not_a_json_object_get_400(raw):
    status, reply, _ = call("POST", "/validate", raw_body=raw)
    assert_error(status, reply, 400)


def test_body_over_4_kib_gets_413():
    big = {"prompt": "TMR", "word": "t" * 5000}
    assert_error(*call("POST", "/validate", big)[:2], 413, "payload_too_large")


def test_body_size_is_counted_in_bytes_not_characters():
    word = "é" * 2100  # 2,100 characters, 4,200 bytes
    assert_error(
        *call("POST", "/validate", raw_body=json.dumps({"prompt": "TMR", "word": word}, ensure_ascii=False))[
            :2
        ],
        413,
    )


def test_a_base64_body_is_decoded_before_judging():
    body = json.dumps({"prompt": "TMR", "word": "timer"}).encode()
    event = http_event("POST", "/validate", raw_body=body)
    assert event["isBase64Encoded"] is True and base64.b64decode(event["body"]) == body
    reply = handler(event, LambdaContext(aws_request_id="test"))
    assert (reply["statusCode"], json.loads(reply["body"])["valid"]) == (200, True)


def test_a_long_word_is_judged_too_long_not_refused():
    assert call("POST", "/validate", {"prompt": "TMR", "word": "t" * 46})[1]["reason"] == "too_long"


def test_wrong_method_is_405_and_unknown_route_is_404():
    status, body, raw = call("GET", "/validate")
    assert_error(status, body, 405, "method_not_allowed")
    assert raw["headers"]["Allow"] == "POST"  # RFC 9110
    assert_error(*call("POST", "/nope")[:2], 404, "not_found")


def test_a_json_body_sent_with_a_form_content_type_is_still_read_as_json():
    body = {"prompt": "TMR", "word": "timer"}
    headers = {"content-type": "application/x-www-form-urlencoded"}
    assert call("POST", "/validate", body, headers=headers)[:2] == (
        200,
        {"valid": True, "word": "timer", "reason": None},
    )


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ('{"prompt": "TMR", "word": "\\ud800x"}', "a lone surrogate cannot be stored or echoed"),
        ("[" * 3000, "deep nesting must not reach the JSON parser's recursion limit"),
        (b"\xff\xfe{}", "a base64 body that is not UTF-8"),
    ],
)
def test_odd_bodies_are_400_never_500(raw, why):
    status, reply, _ = call("POST", "/validate", raw_body=raw)
    assert status == 400, why
    assert_error(status, reply, 400, "bad_request")


def test_the_kelvin_sign_does_not_lowercase_into_a_letter():
    status, reply, _ = call("POST", "/validate", {"prompt": "KTE", "word": "\u212aite"})
    assert (status, reply["valid"], reply["reason"]) == (200, False, "not_letters")
    assert reply["word"] == "\u212aite"


# The handler judges a well-formed request itself, without the resolver (a cheaper cold start);
# everything else goes to the resolver. Both must answer every request alike, byte for byte.

from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from functions.validate import handler as validate_module  # noqa: E402
from functions.validate.routes import app  # noqa: E402
from shared.http import api  # noqa: E402

LETTERS = st.text(alphabet="AaBbEeMmOoRrTtZz", min_size=0, max_size=4)
ODD = st.sampled_from(["", "TM", "TMRS", "T-R", "TM'", "ТМR", "tmr\n", "ABA", " AB", "ÀBC", "1AB"])
STRINGS = st.one_of(LETTERS, ODD, st.text(max_size=12))
VALUES = st.one_of(STRINGS, st.none(), st.integers(), st.booleans(), st.lists(st.integers(), max_size=2))
WORDS = st.one_of(
    st.sampled_from(["timer", "METER", "alley", "alone", "braid", "dogs", "t-mr", "tim'er", "tímer", ""]),
    st.sampled_from(["timer", "METER", "alley", "alone", "braid", "dogs", "bread", "zoo"]),
    st.text(max_size=20),
    st.integers(),
    st.none(),
)


# Mostly well-formed, so both paths are compared often; near misses and odd values the rest.
PROMPTS = st.sampled_from(["TMR", "tmr", "ALL", "BRD", "DGS", "tMr", "ZZZ"])
FORBIDDEN = st.sampled_from(["AEO", "aeo", "TAB", "XYZ", "ABA", "", "BRD", "MOZ"])


WELL_FORMED_OR_NEAR = st.fixed_dictionaries(
    {"prompt": st.one_of(PROMPTS, LETTERS, ODD, VALUES), "word": WORDS},
    optional={"forbidden": st.one_of(FORBIDDEN, LETTERS, ODD, VALUES)},
)
BODIES = st.one_of(
    WELL_FORMED_OR_NEAR,
    WELL_FORMED_OR_NEAR,
    WELL_FORMED_OR_NEAR,
    WELL_FORMED_OR_NEAR.map(lambda body: {**body, "extra": 1}),
    st.dictionaries(st.sampled_from(["prompt", "word", "forbidden", "Prompt"]), VALUES, max_size=3),
    VALUES,
)


# Requests the plain path takes, or nearly: valid prompts, any word, a forbidden set that may
# repeat a letter or share one with the prompt.
PLAIN = st.fixed_dictionaries(
    {
        "prompt": PROMPTS,
        "word": st.one_of(
            st.sampled_from(["timer", "METER", "alley", "alone", "braid", "dogs"]), st.text(max_size=20)
        ),
    },
    optional={"forbidden": st.one_of(FORBIDDEN, st.none())},
)


def same_reply(body: object, method: str = "POST") -> None:
    event = http_event(method, "/validate", body)
    through_the_resolver = api.serve(app, event, LambdaContext(aws_request_id="r"))
    assert handler(event, LambdaContext(aws_request_id="h")) == through_the_resolver


@settings(max_examples=300)
@given(body=PLAIN)
def test_the_handlers_plain_path_answers_a_well_formed_request_exactly_as_the_resolver(body):
    same_reply(body)


@settings(max_examples=300)
@given(body=BODIES, method=st.sampled_from(["POST", "POST", "POST", "GET"]))
@example(body={"prompt": "TMR", "word": 5}, method="POST")
@example(body={"prompt": "TMR", "word": None, "forbidden": "AEO"}, method="POST")
@example(body={"prompt": "TMR", "word": "timer", "extra": 1}, method="POST")
@example(body={"prompt": "TMR", "word": "timer", "forbidden": 7}, method="POST")
@example(body={"prompt": "TM", "word": "timer"}, method="POST")
@example(body={"prompt": "TMR", "word": "timer"}, method="GET")
def test_the_handler_answers_any_other_request_exactly_as_the_resolver(body, method):
    same_reply(body, method)


def test_the_plain_path_takes_the_well_formed_requests_and_only_those():
    """So the property above compares both paths, not the resolver with itself."""
    plain = [
        {"prompt": "tmr", "word": "timer"},
        {"prompt": "TMR", "word": "Timer", "forbidden": "aeo"},
        {"prompt": "BRD", "word": "braid", "forbidden": None},
        {"prompt": "DGS", "word": "dog's", "forbidden": ""},
    ]
    other = [
        {"prompt": "TM", "word": "timer"},
        {"prompt": "TMR"},
        {"prompt": "TMR", "word": 5},
        {"prompt": "TMR", "word": "timer", "forbidden": "AAB"},
        {"prompt": "TMR", "word": "timer", "forbidden": "TAB"},
        {"prompt": "TMR", "word": "timer", "extra": 1},
    ]
    for body in plain:
        assert validate_module.plain_reply(http_event("POST", "/validate", body)) is not None, body
    for body in other:
        assert validate_module.plain_reply(http_event("POST", "/validate", body)) is None, body
    with pytest.raises(validate_module.Refused):  # refused before routing, on either path
        validate_module.plain_reply(http_event("POST", "/validate", ["TMR", "timer"]))


def test_the_resolver_is_not_loaded_to_judge_a_well_formed_word():
    """Checked in a fresh interpreter: importing the handler and judging TIMER for TMR loads neither
    the resolver's module nor pydantic."""
    code = (
        "import sys, json\n"
        "from functions.validate.handler import handler\n"
        "from local.events import LambdaContext, http_event\n"
        "reply = handler(http_event('POST', '/validate', {'prompt': 'TMR', 'word': 'timer'}), "
        "LambdaContext(aws_request_id='x'))\n"
        "assert json.loads(reply['body'])['valid'] is True, reply\n"
        "heavy = ('pydantic', 'functions.validate.routes', 'shared.http.api')\n"
        "loaded = [m for m in heavy if m in sys.modules]\n"
        "print(loaded)\n"
    )
    assert printed_by_a_fresh_interpreter(code) == "[]"


def test_validate_compiles_no_route_pattern_in_its_init_or_to_judge_a_well_formed_word():
    """Checked in a fresh interpreter: the route table's path patterns (shared/http/routes.py) are
    compiled on first use, and neither validate's init nor its plain path uses them."""
    code = (
        "import json\n"
        "from functions.validate.handler import handler\n"
        "from shared.http.routes import _patterns\n"
        "compiled = [_patterns.cache_info().currsize]\n"
        "from local.events import LambdaContext, http_event\n"
        "plain = http_event('POST', '/validate', {'prompt': 'TMR', 'word': 'timer'})\n"
        "wrong_method = http_event('GET', '/validate')\n"
        "_patterns.cache_clear()  # the test's own event builder matched the paths\n"
        "reply = handler(plain, LambdaContext(aws_request_id='x'))\n"
        "assert json.loads(reply['body'])['valid'] is True, reply\n"
        "compiled.append(_patterns.cache_info().currsize)\n"
        "reply = handler(wrong_method, LambdaContext(aws_request_id='y'))\n"
        "assert reply['statusCode'] == 405, reply  # the resolver matched the path: compiled now\n"
        "compiled.append(_patterns.cache_info().currsize)\n"
        "print(compiled)\n"
    )
    assert printed_by_a_fresh_interpreter(code) == "[0, 0, 1]"
