"""Each API function's 5xx alarm (infra/route_alarms.py): its filter pattern, read as CloudWatch
Logs reads a JSON pattern, matches a 5xx of each of its routes and nothing of another function's
or below 500; the template holds one filter and one alarm per function, per-route metrics on the
stage, and Contributor Insights on the table."""

import json
import re

import pytest

from infra.functions import API_FUNCTIONS
from infra.route_alarms import PATTERN_LIMIT, server_error_pattern
from shared.http.routes import ROUTES


def _matches(pattern: str, line: dict) -> bool:
    """A JSON filter pattern of `$.status >= n`, `$.routeKey = / != "x"`, && || and parentheses."""
    body = pattern.strip()[1:-1]

    def term(match: re.Match[str]) -> str:
        field, op, value = match.groups()
        ops = {"=": "==", "!=": "!=", ">=": ">="}
        return f"({json.dumps(line.get(field))} {ops[op]} {value})"

    expression = re.sub(r'\$\.(\w+) (>=|!=|=) ("[^"]*"|\d+)', term, body)
    expression = expression.replace("&&", " and ").replace("||", " or ")
    return bool(eval(expression))  # noqa: S307 (a pattern made of the terms above only)


@pytest.mark.parametrize("function", API_FUNCTIONS)
def test_a_functions_pattern_matches_its_routes_5xx_and_nothing_else(function):
    pattern = server_error_pattern(function)
    assert len(pattern) <= PATTERN_LIMIT
    for route in ROUTES:
        key = f"{route.method} {route.path}"
        assert _matches(pattern, {"routeKey": key, "status": 502}) == (route.function == function), key
        assert not _matches(pattern, {"routeKey": key, "status": 429}), key


@pytest.mark.infra
def test_each_api_function_has_a_5xx_alarm_per_route_metrics_and_the_table_names_hot_keys(dev):
    filters = {
        r["Properties"]["MetricTransformations"][0]["MetricName"]: r["Properties"]["FilterPattern"]
        for r in dev.resources("AWS::Logs::MetricFilter").values()
    }
    alarms = {
        a["Properties"]["AlarmName"]: a["Properties"]
        for a in dev.resources("AWS::CloudWatch::Alarm").values()
    }
    for name in API_FUNCTIONS:
        assert filters[f"Api5xx{name.capitalize()}"] == server_error_pattern(name)
        assert alarms[f"WordSQD-dev-{name.capitalize()}Api5xx"]["MetricName"] == f"Api5xx{name.capitalize()}"
    _, stage = dev.only("AWS::ApiGatewayV2::Stage")
    assert stage["Properties"]["DefaultRouteSettings"]["DetailedMetricsEnabled"] is True
    _, table = dev.only("AWS::DynamoDB::Table")
    assert table["Properties"]["ContributorInsightsSpecification"] == {
        "Enabled": True,
        "Mode": "THROTTLED_KEYS",
    }
