"""The edge (#12, #14): CloudFront in front of the web client and the API, AWS WAF in us-east-1.

The behaviour tests read the synthesized CacheBehaviors back and match paths against them the way
CloudFront does (first pattern in order, `*` matching anything), so they check what CloudFront will
do with each route of shared.http.routes, not how infra.edge chose the patterns.
"""

import json
import re
from fnmatch import fnmatchcase
from pathlib import Path
from urllib.parse import unquote

import pytest
from aws_cdk import App
from aws_cdk import aws_cloudfront as cloudfront
from cfnlint.api import ManualArgs, lint_file

from infra import edge_waf
from infra.edge import SYNTH_ONLY_ACCOUNT, VIEWER_ADDRESS_PATHS, api_behaviours, synth_env
from infra.functions import API_FUNCTIONS
from shared.http import page_headers
from shared.http.routes import ORIGIN_HEADER, ROUTES, Route
from shared.runtime.edge_settings import ORIGIN_SECRET_VARIABLE

pytestmark = pytest.mark.infra  # synthesizes the CDK app

# CloudFront's managed policies, by their fixed ids.
CACHING_DISABLED = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad"
ALL_VIEWER_EXCEPT_HOST_HEADER = "b689b0a8-53d0-40ab-baf2-68738e2966ac"
CORS_CUSTOM_ORIGIN = "59781a5b-3903-41f3-afcb-af62929ccde1"
ALL_METHODS = {"GET", "HEAD", "OPTIONS", "PUT", "PATCH", "POST", "DELETE"}

# The reads the brief names as public and the same for everyone (SPEC §6).
EDGE_CACHED_READS = {
    ("GET", "/daily"),
    ("GET", "/daily/{date}"),
    ("GET", "/leaderboard/daily"),
    ("GET", "/leaderboard/daily/{date}"),
    ("GET", "/challenges/{challenge_id}"),
    ("GET", "/leaderboard/daily/{date}/distribution"),
    ("GET", "/leaderboard/daily/{date}/corrections"),
    ("GET", "/challenges/{challenge_id}/corrections"),
    ("GET", "/leagues/invitations/{code}"),
    ("GET", "/daily/{date}/recap"),
}


def _sample(path: str) -> str:
    """A concrete request path for a route: each {param} becomes a plausible value."""
    return re.sub(
        r"\{([^}]+)\}", lambda m: "2026-03-08" if m.group(1) == "date" else "AbCdEfGh12345678", path
    )


@pytest.fixture(scope="module", params=["dev", "prod"])
def stage(request, synth):
    return synth.stacks[request.param]


@pytest.fixture(scope="module")
def security(synth):
    """The dev stage's us-east-1 stack: (its template JSON, its manifest environment)."""
    name = edge_waf.security_stack_name(synth.stacks["dev"].config.stack_name)
    manifest = json.loads((synth.outdir / "manifest.json").read_text())
    template = json.loads((synth.outdir / f"{name}.template.json").read_text())
    return template, manifest["artifacts"][name]["environment"]


def _environment(synth, stack_name: str) -> tuple[str, str]:
    """(account, region) of a synthesized stack, from the cloud assembly's manifest."""
    manifest = json.loads((synth.outdir / "manifest.json").read_text())
    account, region = manifest["artifacts"][stack_name]["environment"].removeprefix("aws://").split("/")
    return account, region


@pytest.fixture(scope="module")
def dev_env(synth, dev):
    return _environment(synth, dev.config.stack_name)


def _resources(template: dict, type_: str) -> dict[str, dict]:
    return {k: r for k, r in template["Resources"].items() if r["Type"] == type_}


def _web_acl(security) -> dict:
    [acl] = _resources(security[0], "AWS::WAFv2::WebACL").values()
    return acl["Properties"]


def _distribution(synth) -> dict:
    _, distribution = synth.only("AWS::CloudFront::Distribution")
    return distribution["Properties"]["DistributionConfig"]


def _site_bucket(synth) -> tuple[str, dict]:
    """The web client's bucket (the outside probes' artifacts have one of their own)."""
    [(bucket_id, bucket)] = [
        (k, b)
        for k, b in synth.resources("AWS::S3::Bucket").items()
        if not k.startswith("OutsideCanaryArtifacts")
    ]
    return bucket_id, bucket


def _behaviour_for(synth, path: str) -> dict | None:
    """The cache behaviour CloudFront picks for PATH (None: the default one, the site bucket)."""
    for behaviour in _distribution(synth)["CacheBehaviors"]:
        # CloudFront's wildcards are fnmatch's `*` and `?` (no `[`, which fnmatch would read as a set).
        assert "[" not in behaviour["PathPattern"]
        if fnmatchcase(path, behaviour["PathPattern"]):
            return behaviour
    return None


# --- The web ACL and its stack ---------------------------------------------------------------


def test_web_acl_stack_is_in_us_east_1_with_cloudfront_scope(security, dev_env):
    _, environment = security
    account, _ = dev_env
    assert environment == f"aws://{account}/us-east-1"
    assert _web_acl(security)["Scope"] == "CLOUDFRONT"


@pytest.mark.parametrize("stage_name", ["dev", "prod"])
def test_distribution_uses_the_web_acl_across_regions(synth, stage_name):
    """The ACL's ARN is an output of the us-east-1 stack that the stage stack reads with
    `Fn::GetStackOutput` (cdk.json makes cross-stack references weak): the same for a stage in
    us-east-1 (dev here) and one elsewhere (prod here, eu-west-1). No export couples the stacks,
    and no custom resource copies the value between regions."""
    stage = synth.stacks[stage_name]
    name = edge_waf.security_stack_name(stage.config.stack_name)
    security = json.loads((synth.outdir / f"{name}.template.json").read_text())
    [acl_id] = _resources(security, "AWS::WAFv2::WebACL")
    reference = _distribution(stage)["WebACLId"]["Fn::GetStackOutput"]
    assert reference["StackName"] == name and reference["Region"] == "us-east-1"
    output = security["Outputs"][reference["OutputName"]]
    assert output["Value"] == {"Fn::GetAtt": [acl_id, "Arn"]}
    assert "Export" not in output
    # CloudFormation resolves a stack's outputs at deploy time: the ACL's stack goes first.
    manifest = json.loads((synth.outdir / "manifest.json").read_text())
    assert name in manifest["artifacts"][stage.config.stack_name]["dependencies"]
    for template in (security, stage.json):
        assert not [r for r in template["Resources"].values() if "CrossRegionExport" in r["Type"]]


def test_the_test_stages_cover_a_stage_in_us_east_1_and_one_elsewhere(synth, dev, prod):
    # The region is the stage config's (default us-east-1); only the account may come from
    # context, the CLI's credentials or, for synth alone, a placeholder.
    assert _environment(synth, dev.config.stack_name) == (SYNTH_ONLY_ACCOUNT, "us-east-1")
    assert _environment(synth, prod.config.stack_name) == (SYNTH_ONLY_ACCOUNT, "eu-west-1")


def _rate_rules(security) -> dict[str, dict]:
    return {r["Name"]: r for r in _web_acl(security)["Rules"] if "RateBasedStatement" in r["Statement"]}


def test_rate_rules_limit_each_client_address_and_answer_429_in_the_error_envelope(security):
    acl = _web_acl(security)
    rules = _rate_rules(security)
    assert {name: r["Statement"]["RateBasedStatement"]["Limit"] for name, r in rules.items()} == {
        "per-ip-all-requests": 2_000,
        "per-ip-public-writes": 500,
        "per-ip-guest-starts": 50,
    }
    for rule in rules.values():
        statement = rule["Statement"]["RateBasedStatement"]
        assert statement["AggregateKeyType"] == "IP"
        assert statement["EvaluationWindowSec"] == 300
        response = rule["Action"]["Block"]["CustomResponse"]
        assert response["ResponseCode"] == 429
        body = acl["CustomResponseBodies"][response["CustomResponseBodyKey"]]
        assert body["ContentType"] == "APPLICATION_JSON"
        assert json.loads(body["Content"])["error"]["code"] == "throttled"
    # Rate limits come first: a flood is stopped before the managed rules spend effort on it.
    managed = [r["Priority"] for r in acl["Rules"] if "ManagedRuleGroupStatement" in r["Statement"]]
    assert max(r["Priority"] for r in rules.values()) < min(managed)


def _matches(statement: dict | None, method: str, path: str) -> bool:
    """WAF's evaluation of the statements this ACL uses (and/or, byte matches on method and path)."""
    if statement is None:
        return True
    if "AndStatement" in statement:
        return all(_matches(s, method, path) for s in statement["AndStatement"]["Statements"])
    if "OrStatement" in statement:
        return any(_matches(s, method, path) for s in statement["OrStatement"]["Statements"])
    match = statement["ByteMatchStatement"]
    [transformation] = match["TextTransformations"]
    if "Method" in match["FieldToMatch"]:
        field = method
        assert transformation["Type"] == "NONE"
    else:
        field = unquote(path)
        assert transformation["Type"] == "URL_DECODE"  # %-encoding does not dodge the limits
    wanted = match["SearchString"]
    return {"EXACTLY": field == wanted, "STARTS_WITH": field.startswith(wanted)}[
        match["PositionalConstraint"]
    ]


def _counted_by(security, rule: str, method: str, path: str) -> bool:
    statement = _rate_rules(security)[rule]["Statement"]["RateBasedStatement"]
    return _matches(statement.get("ScopeDownStatement"), method, path)


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r.method} {r.path}")
def test_public_write_rule_counts_every_public_write_and_nothing_else(security, route: Route):
    public_write = route.access == "public" and route.method != "GET"
    assert _counted_by(security, "per-ip-public-writes", route.method, _sample(route.path)) == public_write


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r.method} {r.path}")
def test_guest_start_rule_counts_only_guest_daily_starts(security, route: Route):
    expected = (route.method, route.path) == ("POST", "/guest/daily/runs")
    assert _counted_by(security, "per-ip-guest-starts", route.method, _sample(route.path)) == expected


# One player's busiest five minutes: load the page, play a whole Daily as a guest with every slot
# used (3 attempts in each of 10 rounds, reading the run back after each), then read boards.
# The page load: the page, every module and style sheet it loads (web/js, web/css), its config.
WEB = Path(__file__).resolve().parents[2] / "web"
PAGE_FILES = sorted(f"/{p.relative_to(WEB)}" for p in [*WEB.glob("js/**/*.js"), *WEB.glob("css/*.css")])
PAGE_LOAD = [("GET", p) for p in ("/", *PAGE_FILES, "/config.json", "/daily")]
RUN = "/guest/runs/AbCdEfGh12345678"
ENCODED_GUEST_START = "/guest/daily/%72uns"
HONEST_SESSION = (
    PAGE_LOAD
    + [("POST", "/guest/daily/runs")]
    + [("POST", f"{RUN}/answers") for _ in range(30)]
    + [("GET", RUN) for _ in range(10)]
    + [("GET", "/leaderboard/daily")] * 5
    + [("GET", "/leaderboard/daily/2026-03-07")] * 5
)
# The limits must leave room for at least this many such players behind one address (NAT).
PLAYERS_PER_ADDRESS = 5


@pytest.mark.parametrize("rule", ["per-ip-all-requests", "per-ip-public-writes", "per-ip-guest-starts"])
def test_one_players_heaviest_five_minutes_stay_far_under_every_rate_limit(security, rule):
    limit = _rate_rules(security)[rule]["Statement"]["RateBasedStatement"]["Limit"]
    counted = sum(_counted_by(security, rule, method, path) for method, path in HONEST_SESSION)
    assert counted > 0, "the session does exercise the rule"
    assert counted * PLAYERS_PER_ADDRESS * 2 <= limit


def test_a_script_at_the_stage_throttle_crosses_every_limit_within_20_seconds(security):
    """A script sending 100 requests/s (the default stage throttle) crosses every limit in its
    first 20 s; WAF then blocks it after its detection lag (usually under 30 s, says AWS)."""
    for name, rule in _rate_rules(security).items():
        assert rule["Statement"]["RateBasedStatement"]["Limit"] / 100 <= 20, name


def test_managed_rule_groups_block_without_overrides(security):
    groups = {
        r["Statement"]["ManagedRuleGroupStatement"]["Name"]: r
        for r in _web_acl(security)["Rules"]
        if "ManagedRuleGroupStatement" in r["Statement"]
    }
    assert set(groups) == {"AWSManagedRulesCommonRuleSet", "AWSManagedRulesKnownBadInputsRuleSet"}
    for rule in groups.values():
        statement = rule["Statement"]["ManagedRuleGroupStatement"]
        assert statement["VendorName"] == "AWS"
        assert rule["OverrideAction"] == {"None": {}}  # the groups' own actions: block
        # SizeRestrictions_BODY blocks bodies over 8 KiB; every legit body is at most 4 KiB.
        assert "RuleActionOverrides" not in statement and "ExcludedRules" not in statement


def test_waf_logs_blocked_and_counted_requests_with_authorization_redacted(security, dev_env):
    template, _ = security
    [logging] = _resources(template, "AWS::WAFv2::LoggingConfiguration").values()
    props = logging["Properties"]
    [acl_id] = _resources(template, "AWS::WAFv2::WebACL")
    assert props["ResourceArn"] == {"Fn::GetAtt": [acl_id, "Arn"]}
    # Without the ":*" that a LogGroup's own ARN ends with (WAF refuses it). The stack has an
    # account and a region, so CDK writes the partition out (cdk.json's partition-literals flag).
    # The group's name ends with the stack's own id, so a retained group never collides with the
    # one a re-created stack makes ("already exists").
    stack_uuid = {"Fn::Select": [2, {"Fn::Split": ["/", {"Ref": "AWS::StackId"}]}]}
    name = {"Fn::Join": ["", ["aws-waf-logs-wordsqd-dev-", stack_uuid]]}
    assert props["LogDestinationConfigs"] == [
        {
            "Fn::Join": [
                "",
                [f"arn:aws:logs:us-east-1:{dev_env[0]}:log-group:aws-waf-logs-wordsqd-dev-", stack_uuid],
            ]
        }
    ]
    # (the other log group is the midnight guard's, tests/infra/test_midnight_guard.py)
    [group] = [
        g for g in _resources(template, "AWS::Logs::LogGroup").values() if "LogGroupName" in g["Properties"]
    ]
    assert group["Properties"]["LogGroupName"] == name
    assert group["Properties"]["RetentionInDays"] == 7
    assert props["RedactedFields"] == [{"SingleHeader": {"Name": "authorization"}}]
    kept = props["LoggingFilter"]["Filters"][0]
    assert props["LoggingFilter"]["DefaultBehavior"] == "DROP"
    assert kept["Behavior"] == "KEEP"
    assert {c["ActionCondition"]["Action"] for c in kept["Conditions"]} == {"BLOCK", "COUNT"}


def test_edge_security_stack_passes_cfn_lint_and_acknowledges_only_the_topic_and_guard(security, synth):
    template, _ = security
    name = edge_waf.security_stack_name(synth.stacks["dev"].config.stack_name)
    # W3005: the DependsOn CDK's custom resource provider adds on its own role (as in
    # test_stack_checks.py): redundant, harmless, and not ours to remove.
    matches = lint_file(
        Path(synth.outdir / f"{name}.template.json"), config=ManualArgs(ignore_checks=["W3005"])
    )
    assert [str(m) for m in matches] == []
    # cdk-nag runs over this stack too (test_stack_checks.py); the alarm topic needs the exception
    # the stage's own alarm topic has (SNS2: no KMS key for alarm notices).
    acknowledged = {
        logical_id: [rule["id"] for rule in r["Metadata"]["cdk_nag"]["rules_to_suppress"]]
        for logical_id, r in template["Resources"].items()
        if "cdk_nag" in r.get("Metadata", {})
    }
    [(topic_id, _)] = _resources(template, "AWS::SNS::Topic").items()
    [(policy_id, _)] = _resources(template, "AWS::SNS::TopicPolicy").items()
    # and the midnight guard's function its runtime, as every function of the stage's own stack.
    [guard_id] = [k for k in _resources(template, "AWS::Lambda::Function") if k.startswith("MidnightGuard")]
    assert acknowledged == {
        topic_id: ["AwsSolutions-SNS2"],
        policy_id: ["AwsSolutions-SNS2"],
        guard_id: ["AwsSolutions-L1"],
    }


# --- The distribution's behaviours ------------------------------------------------------------


def _public_reads_policy(synth) -> dict:
    [(policy_id, policy)] = synth.resources("AWS::CloudFront::CachePolicy").items()
    return policy_id, policy["Properties"]["CachePolicyConfig"]


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r.method} {r.path}")
def test_every_route_reaches_the_api_cached_only_if_public_and_the_same_for_everyone(stage, route: Route):
    behaviour = _behaviour_for(stage, _sample(route.path))
    assert behaviour is not None, "an API path must not fall through to the site bucket"
    api_origins = [o for o in _distribution(stage)["Origins"] if "CustomOriginConfig" in o]
    [api_origin] = api_origins
    assert behaviour["TargetOriginId"] == api_origin["Id"]
    assert set(behaviour["AllowedMethods"]) == ALL_METHODS  # a wrong method still gets the JSON 405
    assert behaviour["ViewerProtocolPolicy"] == "https-only"  # never a redirect that drops a POST body

    if (route.method, route.path) in EDGE_CACHED_READS:
        policy_id, _ = _public_reads_policy(stage)
        assert behaviour["CachePolicyId"] == {"Ref": policy_id}
        assert behaviour["CachedMethods"] == ["GET", "HEAD"]
        assert behaviour["OriginRequestPolicyId"] == CORS_CUSTOM_ORIGIN  # no Authorization
    elif route.path in VIEWER_ADDRESS_PATHS:
        assert behaviour["CachePolicyId"] == CACHING_DISABLED
        assert behaviour["OriginRequestPolicyId"] == {"Ref": _viewer_address_policy(stage)[0]}
    else:
        # Player routes, every write, guest runs: never from a cache, with the caller's token.
        assert behaviour["CachePolicyId"] == CACHING_DISABLED
        assert behaviour["OriginRequestPolicyId"] == ALL_VIEWER_EXCEPT_HOST_HEADER


def _viewer_address_policy(synth) -> tuple[str, dict]:
    policy_id, policy = synth.only("AWS::CloudFront::OriginRequestPolicy")
    return policy_id, policy["Properties"]["OriginRequestPolicyConfig"]


def test_a_guest_report_reaches_the_api_with_the_viewers_address_and_nothing_it_does_not_need(stage):
    """Behind CloudFront the API's sourceIp is the edge's: the guest report quota (SPEC §3e) is
    per viewer only if CloudFront adds CloudFront-Viewer-Address (shared/http/viewer.py)."""
    _, config = _viewer_address_policy(stage)
    headers = config["HeadersConfig"]
    assert headers["HeaderBehavior"] == "whitelist"
    assert {h.lower() for h in headers["Headers"]} == {
        "cloudfront-viewer-address",
        "origin",
        "access-control-request-method",
        "access-control-request-headers",
    }
    assert config["CookiesConfig"] == {"CookieBehavior": "none"}
    assert config["QueryStringsConfig"] == {"QueryStringBehavior": "none"}


def test_the_viewers_address_is_forwarded_only_on_public_routes():
    routes = (Route("POST", "/guest/reports", "moderation", "player", "required"),)
    with pytest.raises(ValueError, match="only on public routes"):
        api_behaviours(routes)


def test_every_public_read_of_the_route_table_except_runs_is_cached_at_the_edge():
    public_reads = {(r.method, r.path) for r in ROUTES if r.method == "GET" and r.access == "public"}
    runs = {(m, p) for m, p in public_reads if "{run_id}" in p}
    assert public_reads - runs == EDGE_CACHED_READS


@pytest.mark.parametrize(
    "path, cached",
    [
        ("/leaderboard/daily/me", False),  # a player's own rank: the literal beats the date pattern
        ("/leaderboard/daily/2026-03-08", True),
        ("/challenges/AbCdEfGh12345678/runs", False),
        ("/challenges/AbCdEfGh12345678", True),
        ("/challenges", False),
        ("/daily/runs", False),
        ("/daily/2026-03-08/runs", False),
        ("/daily/2026-03-08/recap", True),
        ("/daily/2026-03-08/recap/me", False),  # a player's own words: never from a cache
        ("/guest/daily/2026-03-08/runs", False),
        ("/daily/2026-03-08", True),
        ("/daily", True),
    ],
)
def test_overlapping_patterns_take_the_right_behaviour(dev, path, cached):
    behaviour = _behaviour_for(dev, path)
    assert (behaviour["CachePolicyId"] != CACHING_DISABLED) == cached


def test_cached_reads_follow_the_origins_max_age_keyed_on_page_and_date_never_on_the_caller(stage):
    _, config = _public_reads_policy(stage)
    assert (config["MinTTL"], config["DefaultTTL"]) == (0, 0)  # no Cache-Control: not cached
    assert config["MaxTTL"] >= 3600  # a closed board's hour is honoured
    key = config["ParametersInCacheKeyAndForwardedToOrigin"]
    assert key["QueryStringsConfig"]["QueryStringBehavior"] == "whitelist"
    assert set(key["QueryStringsConfig"]["QueryStrings"]) == {"limit", "cursor", "date"}
    assert key["HeadersConfig"] == {"HeaderBehavior": "whitelist", "Headers": ["origin"]}
    assert key["CookiesConfig"] == {"CookieBehavior": "none"}
    assert key["EnableAcceptEncodingGzip"] and key["EnableAcceptEncodingBrotli"]


def test_everything_else_is_the_web_client_from_a_private_bucket_through_origin_access_control(stage):
    config = _distribution(stage)
    assert _behaviour_for(stage, "/") is None and _behaviour_for(stage, "/js/main.js") is None
    assert config["DefaultRootObject"] == "index.html"
    default = config["DefaultCacheBehavior"]
    [site] = [o for o in config["Origins"] if o["Id"] == default["TargetOriginId"]]
    assert "S3OriginConfig" in site and site["S3OriginConfig"]["OriginAccessIdentity"] == ""
    oac_id = site["OriginAccessControlId"]["Fn::GetAtt"][0]
    assert (
        stage.json["Resources"][oac_id]["Properties"]["OriginAccessControlConfig"]["SigningBehavior"]
        == "always"
    )
    assert default["ViewerProtocolPolicy"] == "redirect-to-https"

    bucket_id, bucket = _site_bucket(stage)
    assert bucket["Properties"]["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    [policy] = [
        p
        for p in stage.resources("AWS::S3::BucketPolicy").values()
        if p["Properties"]["Bucket"] == {"Ref": bucket_id}
    ]
    readers = [
        s
        for s in policy["Properties"]["PolicyDocument"]["Statement"]
        if s["Effect"] == "Allow" and s["Action"] == "s3:GetObject"
    ]
    [reader] = readers
    assert reader["Principal"] == {"Service": "cloudfront.amazonaws.com"}
    distribution_id, _ = stage.only("AWS::CloudFront::Distribution")
    assert {"Ref": distribution_id} in reader["Condition"]["StringEquals"]["AWS:SourceArn"]["Fn::Join"][1]


def test_security_headers_on_the_site_and_the_api(stage):
    [(policy_id, policy)] = stage.resources("AWS::CloudFront::ResponseHeadersPolicy").items()
    headers = policy["Properties"]["ResponseHeadersPolicyConfig"]["SecurityHeadersConfig"]
    assert headers["StrictTransportSecurity"]["AccessControlMaxAgeSec"] >= 31_536_000
    assert headers["ContentTypeOptions"]["Override"]
    assert headers["FrameOptions"]["FrameOption"] == "DENY"
    config = _distribution(stage)
    for behaviour in [config["DefaultCacheBehavior"], *config["CacheBehaviors"]]:
        assert behaviour["ResponseHeadersPolicyId"] == {"Ref": policy_id}


def test_the_cloudfront_policy_is_the_pages_one_definition_that_make_run_serves_too(stage):
    """shared/http/page_headers.py, header by header; the CSP with only Cognito's origins added
    (the Hosted UI's domain is a reference to the stack's user pool domain)."""
    [policy] = stage.resources("AWS::CloudFront::ResponseHeadersPolicy").values()
    headers = policy["Properties"]["ResponseHeadersPolicyConfig"]["SecurityHeadersConfig"]
    [domain_id] = stage.resources("AWS::Cognito::UserPoolDomain")
    parts = headers["ContentSecurityPolicy"]["ContentSecurityPolicy"]["Fn::Join"][1]
    assert all(isinstance(p, str) or p == {"Ref": domain_id} for p in parts), parts
    csp = "".join(p if isinstance(p, str) else "<domain>" for p in parts)
    hosted_ui = f"https://<domain>.auth.{stage.config.region}.amazoncognito.com"
    cognito_api = f"https://cognito-idp.{stage.config.region}.amazonaws.com"
    assert csp == page_headers.content_security_policy(
        connect=(hosted_ui, cognito_api), form_action=(hosted_ui,)
    )
    assert headers["ContentSecurityPolicy"]["Override"]
    assert headers["StrictTransportSecurity"] == {
        "AccessControlMaxAgeSec": page_headers.HSTS_MAX_AGE_SECONDS,
        "IncludeSubdomains": page_headers.HSTS_INCLUDE_SUBDOMAINS,
        "Override": True,
    }
    assert headers["ContentTypeOptions"] == {"Override": True}  # CloudFront's is always nosniff
    assert page_headers.CONTENT_TYPE_OPTIONS == "nosniff"
    assert headers["FrameOptions"] == {"FrameOption": page_headers.FRAME_OPTIONS, "Override": True}
    assert headers["ReferrerPolicy"] == {"ReferrerPolicy": page_headers.REFERRER_POLICY, "Override": True}


def test_the_managed_policy_ids_above_are_the_policies_they_are_named_after(dev):
    assert cloudfront.CachePolicy.CACHING_DISABLED.cache_policy_id == CACHING_DISABLED
    assert (
        cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.origin_request_policy_id
        == ALL_VIEWER_EXCEPT_HOST_HEADER
    )
    assert cloudfront.OriginRequestPolicy.CORS_CUSTOM_ORIGIN.origin_request_policy_id == CORS_CUSTOM_ORIGIN


# --- The web client's deployment and sign-in ------------------------------------------------


def test_web_client_is_deployed_with_a_config_json_for_the_stages_cognito(dev, dev_env):
    [deployment] = dev.resources("Custom::CDKBucketDeployment").values()
    props = deployment["Properties"]
    bucket_id, _ = _site_bucket(dev)
    assert props["DestinationBucketName"] == {"Ref": bucket_id}
    distribution_id, _ = dev.only("AWS::CloudFront::Distribution")
    assert props["DistributionId"] == {"Ref": distribution_id}  # a deploy invalidates the edge
    assert props["Prune"] is True

    # Two sources: web/ without its local config.json, and the generated config.json.
    files_asset, config_asset = props["SourceObjectKeys"]
    files = Path(dev.template_file).parent / f"asset.{files_asset.removesuffix('.zip')}"
    assert (files / "index.html").is_file() and not (files / "config.json").exists()
    config_dir = Path(dev.template_file).parent / f"asset.{config_asset.removesuffix('.zip')}"
    # Values known only at deploy time are markers the deployment replaces with JSON strings.
    markers = props["SourceMarkers"][1]
    text = (config_dir / "config.json").read_text()
    for marker in markers:
        text = text.replace(marker, json.dumps(marker))
    config = json.loads(text)

    def resolved(value: str):
        return markers.get(value, value)

    assert set(config) == {"auth", "region", "user_pool_id", "client_id", "domain"}
    assert config["auth"] == "cognito"
    region = dev_env[1]
    assert config["region"] == region
    pool_id, _ = dev.only("AWS::Cognito::UserPool")
    client_id, _ = dev.only("AWS::Cognito::UserPoolClient")
    domain_id, _ = dev.only("AWS::Cognito::UserPoolDomain")
    assert {"Ref": pool_id} in resolved(config["user_pool_id"])["Fn::Join"][1]
    assert {"Ref": client_id} in resolved(config["client_id"])["Fn::Join"][1]
    domain = resolved(config["domain"])["Fn::Join"][1]
    assert domain == ['"https://', {"Ref": domain_id}, f'.auth.{region}.amazoncognito.com"']


def _site_url(synth) -> dict:
    distribution_id, _ = synth.only("AWS::CloudFront::Distribution")
    return {"Fn::Join": ["", ["https://", {"Fn::GetAtt": [distribution_id, "DomainName"]}, "/"]]}


def test_cognito_client_callback_urls_are_the_distribution_and_the_configured_origins(synth, dev, prod):
    expected = [
        (dev, ["http://localhost:8000/", _site_url(dev)]),
        (prod, ["https://play.example.com/", "https://www.example.com/", _site_url(prod)]),
    ]
    for stage, urls in expected:
        _, client = stage.only("AWS::Cognito::UserPoolClient")
        assert client["Properties"]["CallbackURLs"] == urls
        assert client["Properties"]["LogoutURLs"] == urls
        assert client["Properties"]["AllowedOAuthFlows"] == ["code"]
        assert set(client["Properties"]["AllowedOAuthScopes"]) == {"openid", "email", "profile"}
        _, domain = stage.only("AWS::Cognito::UserPoolDomain")
        account, _ = _environment(synth, stage.config.stack_name)
        assert domain["Properties"]["Domain"] == f"wordsqd-{stage.config.stage}-{account}"


# --- Pure helpers (no synth) ------------------------------------------------------------------


def test_a_pattern_whose_routes_disagree_on_caching_is_refused():
    routes = (
        Route("GET", "/things/{thing_id}", "daily", "public"),
        Route("PUT", "/things/{thing_id}", "daily", "player"),
    )
    with pytest.raises(ValueError, match="disagree"):
        api_behaviours(routes)


def test_stage_account_comes_from_context_then_the_cli_then_a_placeholder(monkeypatch):
    class Configured:
        region = "ap-southeast-2"

    class Unconfigured:
        region = "us-west-2"

    monkeypatch.delenv("CDK_DEFAULT_ACCOUNT", raising=False)
    monkeypatch.setenv("CDK_DEFAULT_REGION", "eu-central-1")  # never used: the region is the stage's
    bare = App().node
    context = App(context={"account": "333333333333", "region": "eu-north-1"}).node
    assert (synth_env(Configured(), context).account, synth_env(Configured(), context).region) == (
        "333333333333",
        "ap-southeast-2",
    )
    assert (synth_env(Unconfigured(), context).account, synth_env(Unconfigured(), context).region) == (
        "333333333333",
        "us-west-2",
    )
    monkeypatch.setenv("CDK_DEFAULT_ACCOUNT", "444444444444")
    assert synth_env(Unconfigured(), bare).account == "444444444444"
    monkeypatch.delenv("CDK_DEFAULT_ACCOUNT")
    assert (synth_env(Unconfigured(), bare).account, synth_env(Unconfigured(), bare).region) == (
        SYNTH_ONLY_ACCOUNT,
        "us-west-2",
    )


def test_a_percent_encoded_guest_start_is_counted_like_a_plain_one(security):
    assert _counted_by(security, "per-ip-guest-starts", "POST", ENCODED_GUEST_START)
    assert _counted_by(security, "per-ip-public-writes", "POST", ENCODED_GUEST_START)


# --- The edge proves itself to the API: the execute-api address alone is refused --------------


def _secret_reference(synth, name: str) -> dict:
    """The CloudFormation dynamic reference to the secret NAME's value: resolved at deploy."""
    [secret_id] = [i for i in synth.resources("AWS::SecretsManager::Secret") if name in i]
    return {"Fn::Join": ["", ["{{resolve:secretsmanager:", {"Ref": secret_id}, ":SecretString:::}}"]]}


def test_cloudfront_sends_the_api_the_origin_secret_from_secrets_manager(stage):
    [api_origin] = [o for o in _distribution(stage)["Origins"] if "CustomOriginConfig" in o]
    assert api_origin["OriginCustomHeaders"] == [
        {"HeaderName": ORIGIN_HEADER, "HeaderValue": _secret_reference(stage, "OriginSecret")}
    ]


def test_the_api_functions_and_only_they_are_given_the_origin_secret(stage):
    expected = _secret_reference(stage, "OriginSecret")
    for name, (_, function) in stage.functions.items():
        env = function["Environment"]["Variables"]
        assert env.get(ORIGIN_SECRET_VARIABLE) == (expected if name in API_FUNCTIONS else None), name
    assert "OriginSecret" not in json.dumps(stage.json["Outputs"])  # no output names it


# --- What WAF blocks is alarmed on, in us-east-1 where its metrics are -------------------------


def test_an_alarm_watches_what_the_web_acl_blocks_and_notifies_a_topic_of_its_own_region(security):
    template, _ = security
    [alarm] = [
        a
        for a in _resources(template, "AWS::CloudWatch::Alarm").values()
        if not a["Properties"]["AlarmName"].endswith("EmergencyDeploy")  # the guard's door
    ]
    props = alarm["Properties"]
    acl_metric = _web_acl(security)["VisibilityConfig"]["MetricName"]
    assert (props["Namespace"], props["MetricName"], props["Statistic"], props["Period"]) == (
        "AWS/WAFV2",
        "BlockedRequests",
        "Sum",
        300,
    )
    # A CLOUDFRONT web ACL's series: WebACL (its metric name) and Rule, no Region.
    assert sorted(props["Dimensions"], key=lambda d: d["Name"]) == [
        {"Name": "Rule", "Value": "ALL"},
        {"Name": "WebACL", "Value": acl_metric},
    ]
    assert props["Threshold"] == edge_waf.BLOCKED_ALARM_THRESHOLD
    assert props["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"
    assert props["TreatMissingData"] == "notBreaching"
    [(topic_id, _)] = _resources(template, "AWS::SNS::Topic").items()
    assert props["AlarmActions"] == props["OKActions"] == [{"Ref": topic_id}]


def test_the_stages_alarm_emails_are_subscribed_to_the_edge_topic_too(synth):
    name = edge_waf.security_stack_name(synth.stacks["prod"].config.stack_name)
    template = json.loads((synth.outdir / f"{name}.template.json").read_text())
    emails = {r["Properties"]["Endpoint"] for r in _resources(template, "AWS::SNS::Subscription").values()}
    assert emails == set(synth.stacks["prod"].config.alarm_emails) and emails


def test_the_blocked_alarm_takes_more_than_a_crowd_of_honest_players_behind_one_address():
    """Even if every request of the heaviest honest sessions of a NAT's players were blocked in
    the alarm's five minutes, they would not fire it alone: it is for scripts and for many."""
    assert len(HONEST_SESSION) * PLAYERS_PER_ADDRESS * 2 <= edge_waf.BLOCKED_ALARM_THRESHOLD
