"""Server errors by the function that answered: each API function's 5xx counted from the API's
access log (`status` and `routeKey`, infra/api.py), so `<Fn>Api5xx` names which function is
failing where `Api5xx` only says the API is. A metric filter's pattern is at most 1,024
characters: a function with many routes is matched as "none of the other functions' routes"
(every route belongs to exactly one function, shared/http/routes.py)."""

from collections.abc import Callable, Iterable

from aws_cdk import Duration
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_logs as logs
from constructs import Construct

from shared.http.routes import ROUTES
from shared.runtime.observability import NAMESPACE

FUNCTION_5XX_THRESHOLD = 5  # server errors in 5 minutes, one function's routes
PATTERN_LIMIT = 1024  # CloudWatch Logs' longest filter pattern


def _any(keys: Iterable[str]) -> str:
    return " || ".join(f'$.routeKey = "{k}"' for k in keys)


def _none(keys: Iterable[str]) -> str:
    return " && ".join(f'$.routeKey != "{k}"' for k in keys)


def server_error_pattern(function: str) -> str:
    """The filter pattern of FUNCTION's 5xx answers."""
    own = [f"{r.method} {r.path}" for r in ROUTES if r.function == function]
    others = [f"{r.method} {r.path}" for r in ROUTES if r.function != function]
    patterns = [f"{{ $.status >= 500 && ({_any(own)}) }}", f"{{ $.status >= 500 && {_none(others)} }}"]
    pattern = min(patterns, key=len)
    if len(pattern) > PATTERN_LIMIT:
        raise ValueError(f"{function}: no filter pattern of its routes fits {PATTERN_LIMIT} characters")
    return pattern


def function_5xx_alarms(
    scope: Construct,
    *,
    stage: str,
    access_logs: logs.ILogGroup,
    functions: Iterable[str],
    alarm: Callable[..., cw.Alarm],
) -> None:
    for name in functions:
        count = logs.MetricFilter(
            scope,
            f"{name.capitalize()}ServerErrors",
            log_group=access_logs,
            filter_pattern=logs.FilterPattern.literal(server_error_pattern(name)),
            metric_namespace=f"{NAMESPACE}/{stage}",
            metric_name=f"Api5xx{name.capitalize()}",
            metric_value="1",
        ).metric(period=Duration.minutes(5), statistic=cw.Stats.SUM)
        alarm(
            f"{name.capitalize()}Api5xx",
            count,
            FUNCTION_5XX_THRESHOLD,
            f"{name}'s routes answered {FUNCTION_5XX_THRESHOLD}+ server errors (5xx) in 5 minutes.",
        )
