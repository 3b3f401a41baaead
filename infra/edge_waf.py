"""The edge's AWS WAF web ACL: per-address rate limits and AWS's managed rule groups.

A web ACL for CloudFront must live in us-east-1 (scope CLOUDFRONT), while the rest of a stage may
live anywhere, so it is a stack of its own. The stage's main stack reads the ACL's ARN through
CDK's cross-region references (an SSM parameter written here and read there); see docs/edge.md.

The limits, per client IP address, counted by WAF over a sliding five-minute window
(EVALUATION_WINDOW_S). An honest player's whole Daily is ~25 requests in 180 s (start, ten rounds
of answers and skips, the run read back); loading the page is 31 more (index.html, its 25 modules
and 3 style sheets, config.json, /daily) and reading boards a few more. So one player's heaviest
five minutes is under 100 requests, of which under 40 are public writes and at most a handful are
guest starts. The limits leave room for many players behind one address (a school's or a mobile
carrier's NAT), and still stop a script long before it can eat the API's stage throttle.
"""

from dataclasses import dataclass

from aws_cdk import ArnFormat, Aws, Duration, Fn, RemovalPolicy, Stack, Tags
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_logs as logs
from aws_cdk import aws_wafv2 as wafv2
from constructs import Construct

from infra.alarm_parts import alarm_topic, notify
from infra.config import MidnightCapacity
from infra.guard import guard_stack
from shared.http.routes import ROUTES

EVALUATION_WINDOW_S = 300

# Any request at all (page files, cached board reads, API calls): WAF counts cache hits too.
# 2,000 in 5 min is ~24 of the heaviest honest sessions (83 requests, see the tests) behind one
# address; a script sending 100 requests/s (the default stage throttle) reaches it in 20 s and is
# blocked until it slows down.
ALL_REQUESTS_LIMIT = 2_000
# The public (no-account) writes, which any script can send without signing up: POST /validate
# and POST /guest/... One guest's whole run is ~25 of them (31 with every attempt used); 500 is
# ~16 such guests at once behind one address, and a script still gets under 2 writes/s.
PUBLIC_WRITES_LIMIT = 500
# Starting a guest Daily run (POST /guest/daily/runs) writes a new run item each time; a guest
# plays one Daily a day. 50 leaves a classroom behind one address room to start theirs.
GUEST_STARTS_LIMIT = 50

# The JSON error envelope of SPEC §5, so a client reads WAF's 429 like the API's own.
THROTTLED_BODY = (
    '{"error": {"code": "throttled", "message": '
    '"Too many requests from your address; wait a minute and try again"}}'
)

# AWS's managed groups: the core rule set (OWASP-style: bad bots' user agents, oversize parts,
# cross-site scripting, local/remote file inclusion) and known bad inputs (Log4j, Java
# deserialization, exploitable paths). The core set's SizeRestrictions_BODY blocks bodies over
# 8 KiB: every legitimate body here is at most 4 KiB (SPEC §5, 413 above that), so nothing is
# overridden to count. The API's own 413 still answers bodies from 4 to 8 KiB.
MANAGED_RULE_GROUPS = ("AWSManagedRulesKnownBadInputsRuleSet", "AWSManagedRulesCommonRuleSet")

# The alarm on what the web ACL blocks (every rule, "ALL"), summed over five minutes: a script the
# rate rules stop, or real players behind one address, or a managed rule refusing a real request.
# 1,000 is more than every request of ten heaviest honest sessions (under 100 requests each in
# five minutes) blocked: no player trips it alone, anything that does is worth a look
# (docs/operations.md, "Alarms"; tests/infra/test_stack_edge.py checks it against the session).
BLOCKED_ALARM_THRESHOLD = 1_000

# The headers WAF's log must never hold: a player's JWT (a bearer credential for an hour).
REDACTED_HEADERS = ("authorization",)


@dataclass(frozen=True)
class RateRule:
    name: str
    limit: int
    # (method, EXACTLY or STARTS_WITH, path) the rule counts; empty means every request.
    scope: tuple[tuple[str, str, str], ...] = ()


def _public_write_paths() -> tuple[tuple[str, str, str], ...]:
    """The public writes of shared.http.routes as WAF matches: (method, STARTS_WITH|EXACTLY, path).
    Every public route with a {param} is matched by the literal prefix before its first {."""
    found: set[tuple[str, str, str]] = set()
    for route in ROUTES:
        if route.access != "public" or route.method == "GET":
            continue
        if "{" in route.path:
            found.add((route.method, "STARTS_WITH", route.path.split("{", 1)[0]))
        else:
            found.add((route.method, "EXACTLY", route.path))
    # One prefix rule covers longer paths under it (every /guest/runs/... route).
    return tuple(
        sorted(
            m
            for m in found
            if not any(o != m and o[1] == "STARTS_WITH" and m[2].startswith(o[2]) for o in found)
        )
    )


RATE_RULES = (
    RateRule("per-ip-all-requests", ALL_REQUESTS_LIMIT),
    RateRule("per-ip-public-writes", PUBLIC_WRITES_LIMIT, _public_write_paths()),
    RateRule("per-ip-guest-starts", GUEST_STARTS_LIMIT, (("POST", "EXACTLY", "/guest/daily/runs"),)),
)


def _visibility(metric: str) -> wafv2.CfnWebACL.VisibilityConfigProperty:
    return wafv2.CfnWebACL.VisibilityConfigProperty(
        cloud_watch_metrics_enabled=True, metric_name=metric, sampled_requests_enabled=True
    )


def _request(method: str, match: str, path: str) -> wafv2.CfnWebACL.StatementProperty:
    """METHOD and a URI path test, both as WAF byte matches (paths are case-sensitive, as in
    API Gateway). The path is URL-decoded first, so `/guest/daily/%72uns` is counted too."""
    none = [wafv2.CfnWebACL.TextTransformationProperty(priority=0, type="NONE")]
    decoded = [wafv2.CfnWebACL.TextTransformationProperty(priority=0, type="URL_DECODE")]
    return wafv2.CfnWebACL.StatementProperty(
        and_statement=wafv2.CfnWebACL.AndStatementProperty(
            statements=[
                wafv2.CfnWebACL.StatementProperty(
                    byte_match_statement=wafv2.CfnWebACL.ByteMatchStatementProperty(
                        field_to_match=wafv2.CfnWebACL.FieldToMatchProperty(method={}),
                        positional_constraint="EXACTLY",
                        search_string=method,
                        text_transformations=none,
                    )
                ),
                wafv2.CfnWebACL.StatementProperty(
                    byte_match_statement=wafv2.CfnWebACL.ByteMatchStatementProperty(
                        field_to_match=wafv2.CfnWebACL.FieldToMatchProperty(uri_path={}),
                        positional_constraint=match,
                        search_string=path,
                        text_transformations=decoded,
                    )
                ),
            ]
        )
    )


def _rate_statement(rule: RateRule) -> wafv2.CfnWebACL.StatementProperty:
    scope_down = None
    if len(rule.scope) == 1:
        scope_down = _request(*rule.scope[0])
    elif rule.scope:
        scope_down = wafv2.CfnWebACL.StatementProperty(
            or_statement=wafv2.CfnWebACL.OrStatementProperty(statements=[_request(*s) for s in rule.scope])
        )
    return wafv2.CfnWebACL.StatementProperty(
        rate_based_statement=wafv2.CfnWebACL.RateBasedStatementProperty(
            aggregate_key_type="IP",
            limit=rule.limit,
            evaluation_window_sec=EVALUATION_WINDOW_S,
            scope_down_statement=scope_down,
        )
    )


def security_stack_name(stack_name: str) -> str:
    """The us-east-1 stack's name beside the stage's stack STACK_NAME."""
    return f"{stack_name}-EdgeSecurity"


class EdgeSecurityStack(Stack):
    """The stage's CLOUDFRONT web ACL and its log, in us-east-1."""

    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        stage: str,
        account: str,
        production: bool,
        window: MidnightCapacity,
        alarm_emails: tuple[str, ...] = (),
    ) -> None:
        super().__init__(
            scope,
            id,
            env={"account": account, "region": "us-east-1"},
            cross_region_references=True,
            termination_protection=production,
            description=f"WordSQD edge firewall ({stage}): the CloudFront distribution's AWS WAF web ACL",
        )
        Tags.of(self).add("app", "wordsqd")
        Tags.of(self).add("stage", stage)
        prefix = f"wordsqd-{stage}"
        rules = []
        for priority, rule in enumerate(RATE_RULES):
            rules.append(
                wafv2.CfnWebACL.RuleProperty(
                    name=rule.name,
                    priority=priority,
                    statement=_rate_statement(rule),
                    action=wafv2.CfnWebACL.RuleActionProperty(
                        block=wafv2.CfnWebACL.BlockActionProperty(
                            custom_response=wafv2.CfnWebACL.CustomResponseProperty(
                                response_code=429,
                                custom_response_body_key="throttled",
                                response_headers=[
                                    wafv2.CfnWebACL.CustomHTTPHeaderProperty(name="retry-after", value="60")
                                ],
                            )
                        )
                    ),
                    visibility_config=_visibility(f"{prefix}-{rule.name}"),
                )
            )
        for priority, group in enumerate(MANAGED_RULE_GROUPS, start=len(rules)):
            rules.append(
                wafv2.CfnWebACL.RuleProperty(
                    name=group,
                    priority=priority,
                    statement=wafv2.CfnWebACL.StatementProperty(
                        managed_rule_group_statement=wafv2.CfnWebACL.ManagedRuleGroupStatementProperty(
                            vendor_name="AWS", name=group
                        )
                    ),
                    override_action=wafv2.CfnWebACL.OverrideActionProperty(none={}),
                    visibility_config=_visibility(f"{prefix}-{group}"),
                )
            )

        self.web_acl = wafv2.CfnWebACL(
            self,
            "WebAcl",
            name=f"{prefix}-edge",
            description="Per-address rate limits and AWS managed rules in front of WordSQD",
            scope="CLOUDFRONT",
            default_action=wafv2.CfnWebACL.DefaultActionProperty(allow={}),
            rules=rules,
            custom_response_bodies={
                "throttled": wafv2.CfnWebACL.CustomResponseBodyProperty(
                    content_type="APPLICATION_JSON", content=THROTTLED_BODY
                )
            },
            visibility_config=_visibility(f"{prefix}-edge"),
        )

        # WAF writes to a CloudWatch log group only if its name starts with aws-waf-logs-. The rest
        # is this stack's own id, so a production log group that outlived its stack (retained)
        # never collides with the one a re-created stack makes.
        stack_uuid = Fn.select(2, Fn.split("/", Aws.STACK_ID))
        log_group_name = Fn.join("", [f"aws-waf-logs-{prefix}-", stack_uuid])
        self.log_group = logs.LogGroup(
            self,
            "WafLogs",
            log_group_name=log_group_name,
            retention=logs.RetentionDays.ONE_MONTH if production else logs.RetentionDays.ONE_WEEK,
            removal_policy=RemovalPolicy.RETAIN if production else RemovalPolicy.DESTROY,
        )
        # The ARN without the ":*" that LogGroup.log_group_arn ends with: WAF rejects that form.
        log_group_arn = self.format_arn(
            service="logs",
            resource="log-group",
            resource_name=log_group_name,
            arn_format=ArnFormat.COLON_RESOURCE_NAME,
        )
        logging = wafv2.CfnLoggingConfiguration(
            self,
            "WafLogging",
            resource_arn=self.web_acl.attr_arn,
            log_destination_configs=[log_group_arn],
            # Both properties are free-form JSON in CloudFormation, hence CloudFormation's own casing.
            redacted_fields=[
                wafv2.CfnLoggingConfiguration.FieldToMatchProperty(single_header={"Name": header})
                for header in REDACTED_HEADERS
            ],
            # Log what WAF did (blocked or counted), not the millions of allowed requests of a
            # rush: CloudFront and API Gateway already account for those, at no WAF log cost.
            logging_filter={
                "DefaultBehavior": "DROP",
                "Filters": [
                    {
                        "Behavior": "KEEP",
                        "Requirement": "MEETS_ANY",
                        "Conditions": [{"ActionCondition": {"Action": a}} for a in ("BLOCK", "COUNT")],
                    }
                ],
            },
        )
        logging.node.add_dependency(self.log_group)
        self._alarm_on_blocks(stage, prefix, alarm_emails)
        # Last: the freeze holds this stack too (a new WAF in front of the old API at the rush).
        guard_stack(self, stage=stage, window=window, production=production, topic=self.topic)

    def _alarm_on_blocks(self, stage: str, prefix: str, alarm_emails: tuple[str, ...]) -> None:
        """WAF publishes a CLOUDFRONT web ACL's metrics in us-east-1 only, and an alarm watches
        and notifies in its own region: so this stack has its own alarm and its own topic, with
        the stage's alarm emails subscribed, as the stage's topic has."""
        self.topic = alarm_topic(self, "EdgeAlarmTopic", f"WordSQD-{stage} edge alarms", alarm_emails)
        blocked = cw.Metric(
            namespace="AWS/WAFV2",
            metric_name="BlockedRequests",
            # A CLOUDFRONT web ACL's series have no Region dimension; WebACL is its metric name.
            dimensions_map={"WebACL": f"{prefix}-edge", "Rule": "ALL"},
            statistic="Sum",
            period=Duration.minutes(5),
        )
        self.blocked_alarm = cw.Alarm(
            self,
            "EdgeBlocked",
            alarm_name=f"WordSQD-{stage}-EdgeBlocked",
            alarm_description=(
                "WAF blocked many requests: a script (the rate rules at work), players behind one "
                "address, or a managed rule refusing real requests. See docs/operations.md, Alarms."
            ),
            metric=blocked,
            threshold=BLOCKED_ALARM_THRESHOLD,
            comparison_operator=cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            evaluation_periods=1,
            treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
        )
        notify(self.blocked_alarm, self.topic)

    @property
    def web_acl_arn(self) -> str:
        return self.web_acl.attr_arn
