"""cfn-lint and cdk-nag (AWS Solutions) are clean, and every acknowledged finding is accounted for."""

import hashlib
import json
import re
from importlib.metadata import version
from pathlib import Path

import pytest
from aws_cdk import App, Stack
from aws_cdk import aws_sqs as sqs
from cfnlint.api import ManualArgs, lint_file

from infra.checks import add_checks
from shared.http.routes import ROUTES

pytestmark = pytest.mark.infra  # synthesizes the CDK app

# cfn-lint's W3005 flags the DependsOn that CDK's Function adds on its own role, which the GetAtt
# of the role already implies: redundant, harmless, and not ours to remove.
CFN_LINT_IGNORED = ["W3005"]

# Every cdk-nag rule this app acknowledges. Adding one must be deliberate: update this list and
# the table in docs/operations.md together. A logical id inside a finding reads as <id>.
EXPECTED_ACKNOWLEDGEMENTS = {
    "AwsSolutions-APIG4",  # the public routes of SPEC §5
    "AwsSolutions-COG2",  # MFA optional, not required
    "AwsSolutions-COG8",  # Essentials tier, not Plus
    "AwsSolutions-SMG4",  # the seed and the cursor key rotate by hand
    "AwsSolutions-L1",  # Python pinned to the asset's
    "AwsSolutions-SQS3",  # the dead-letter queues have no dead-letter queue
    "AwsSolutions-SNS2",  # the alarm topic: CloudWatch cannot publish to an AWS-managed-key topic
    "AwsSolutions-IAM5[Resource::*]",  # X-Ray, dynamodb:ListStreams
    # CodeDeploy's own role for Lambda deployments
    "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]",
    # The edge (infra/edge.py; the reasons are there and in docs/edge.md):
    "AwsSolutions-S1",  # the site bucket holds only the deployed web client
    "AwsSolutions-CFR1",  # no geo restriction for a worldwide game
    "AwsSolutions-CFR3",  # no CloudFront access logs: WAF and API Gateway log
    "AwsSolutions-CFR4",  # the default *.cloudfront.net certificate
    # CDK's own BucketDeployment function, which copies web/ into the site bucket:
    "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]",
    "AwsSolutions-IAM5[Action::s3:GetObject*]",
    "AwsSolutions-IAM5[Action::s3:GetBucket*]",
    "AwsSolutions-IAM5[Action::s3:List*]",
    "AwsSolutions-IAM5[Action::s3:DeleteObject*]",
    "AwsSolutions-IAM5[Action::s3:Abort*]",
    "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::<assets>/*]",
    "AwsSolutions-IAM5[Resource::arn:aws:s3:::<assets>/*]",
    "AwsSolutions-IAM5[Resource::<id>/*]",
    # The scheduled checks (infra/watch.py): Scheduler's grant on the function and its versions.
    "AwsSolutions-IAM5[Resource::<id>:*]",
    # The outside probes' role, Synthetics' own (infra/outside.py): their artifacts and logs.
    "AwsSolutions-IAM5[Resource::<id>/probe/*]",
    "AwsSolutions-IAM5[Resource::<id>/midnightprobe/*]",
    "AwsSolutions-IAM5[Resource::arn:aws:logs:<region>:<account>:log-group:/aws/lambda/cwsyn-*]",
    "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<region>:<account>:log-group:/aws/lambda/cwsyn-*]",
}


def cfn_lint_findings(template: Path, cache: pytest.Cache) -> list[str]:
    """cfn-lint's findings on TEMPLATE. cfn-lint's answer depends only on the template's bytes, its
    own version and the ignored checks, so a clean answer is remembered under a hash of the three
    in pytest's cache (.pytest_cache, as ruff and mypy keep theirs): a run whose templates did not
    change does not lint them again (about 10 s of CPU). Findings are never remembered."""
    digest = hashlib.sha256(template.read_bytes())
    digest.update(f"{version('cfn-lint')} {sorted(CFN_LINT_IGNORED)}".encode())
    key = f"wordsqd/cfn-lint-clean/{digest.hexdigest()}"
    if cache.get(key, False):
        return []
    findings = [str(m) for m in lint_file(template, config=ManualArgs(ignore_checks=CFN_LINT_IGNORED))]
    if not findings:
        cache.set(key, True)
    return findings


@pytest.mark.no_cover  # cfn-lint is not our code: traced by coverage it runs twice as slowly
def test_cfn_lint_is_clean_on_every_stack(synth, pytestconfig):
    """Each stage's three stacks: the stage stack and its us-east-1 EdgeSecurity and EdgeAlarms stacks."""
    manifest = json.loads((synth.outdir / "manifest.json").read_text())
    stacks = [a for a in manifest["artifacts"].values() if a["type"] == "aws:cloudformation:stack"]
    assert len(stacks) == 3 * len(synth.stacks)
    for stack in stacks:
        template = synth.outdir / stack["properties"]["templateFile"]
        assert cfn_lint_findings(template, pytestconfig.cache) == [], template.name


def test_cfn_lint_does_find_a_broken_template(tmp_path, pytestconfig):
    """A canary: a template with an unknown resource property has a finding, and it is found
    again on the next call (findings are never taken from the cache)."""
    template = tmp_path / "broken.template.json"
    queue = {"Type": "AWS::SQS::Queue", "Properties": {"NoSuchProperty": 1}}
    template.write_text(json.dumps({"Resources": {"Queue": queue}}))
    first = cfn_lint_findings(template, pytestconfig.cache)
    assert first and any("NoSuchProperty" in finding for finding in first)
    assert cfn_lint_findings(template, pytestconfig.cache) == first


def test_cdk_nag_is_clean(synth):
    # add_checks registers cdk-nag as a validation plugin: any unacknowledged finding, error or
    # warning, fails app.synth(); the report says which.
    report = synth.outdir / "validation-report.json"
    details = report.read_text() if report.exists() else ""
    assert synth.validation_error is None, details


def test_cdk_nag_does_run_on_synth(tmp_path):
    """A canary: the same add_checks on a queue that breaks AWS Solutions rules fails the synth,
    so a clean result above means the rules ran and passed, not that they never ran."""
    app = App(outdir=str(tmp_path))
    sqs.Queue(Stack(app, "Canary"), "PlainQueue")
    add_checks(app)
    with pytest.raises(RuntimeError, match="ValidationFailed"):
        app.synth()
    report = json.loads((tmp_path / "validation-report.json").read_text())
    rules = {v["ruleName"] for plugin in report["pluginReports"] for v in plugin["violations"]}
    assert {"AwsSolutions-SQS3", "AwsSolutions-SQS4"} <= rules


def _acknowledged(resource):
    return resource.get("Metadata", {}).get("cdk_nag", {}).get("rules_to_suppress", [])


@pytest.mark.parametrize("stage", ["dev", "prod"])
def test_every_acknowledgement_is_expected_and_justified_in_one_line(synth, stage):
    found = set()
    for resource in synth.stacks[stage].json["Resources"].values():
        for rule in _acknowledged(resource):
            reason = rule["reason"]
            assert reason.strip() and "\n" not in reason and len(reason) <= 100, rule
            rule_id = re.sub(r"<[A-Za-z0-9]+\.Arn>", "<id>", rule["id"])
            rule_id = re.sub(r"logs:[a-z0-9-]+:[0-9]{12}:", "logs:<region>:<account>:", rule_id)
            found.add(re.sub(r"cdk-[a-z0-9]+-assets-[0-9]{12}-[a-z0-9-]+", "<assets>", rule_id))
    assert found == EXPECTED_ACKNOWLEDGEMENTS


def test_only_public_routes_are_acknowledged_as_unauthorized(dev):
    acknowledged = {
        route["Properties"]["RouteKey"]
        for route in dev.resources("AWS::ApiGatewayV2::Route").values()
        if any(rule["id"] == "AwsSolutions-APIG4" for rule in _acknowledged(route))
    }
    public = {f"{r.method} {r.path}" for r in ROUTES if r.access == "public"}
    assert acknowledged == public | {"$default"}  # the catch-all answers only 404/405
