"""The ops functions' calls judged against their roles. The scheduled checks
(infra/lambdas/wordsqd_ops/watch.py) run against moto where moto implements the service
(CloudFormation, CodeDeploy, CloudWatch, Logs; Lambda's provisioned concurrency and account
settings, and Synthetics' engine ARN, it does not: those answer from a Stubber), with the
environment the template gives the function, and every call they make is judged against the
function's role in the synthesized template as IAM would (tests/infra/iam_eval.py). Each kind of
break is shown caught: an action missing from the role, a wrong ARN, a parameter the service
requires left out. The midnight guard's one call likewise, in the main stack and an edge stack.
(The pre-traffic hooks: test_dry_runs.py; the kill switches' reads and the suite-wide record of
every function's calls: test_suite_calls.py.)"""

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from botocore.stub import Stubber
from moto import mock_aws

from infra.lambdas.wordsqd_ops import watch
from infra.lambdas.wordsqd_ops.window import CENTRAL
from tests.infra.iam_eval import Call, Context, allowed, broken_role, denials, recording, requests

pytestmark = pytest.mark.infra

CHECKS = ("deploys", "capacity", "storage", "reset", "retention")  # in the Stubber's order; then leftover


def _function(template: dict[str, Any], handler: str) -> str:
    [found] = [
        logical
        for logical, r in template["Resources"].items()
        if r["Type"] == "AWS::Lambda::Function" and r["Properties"].get("Handler") == handler
    ]
    return found


@pytest.fixture(scope="module")
def context(prod: Any) -> Context:
    return Context.of(prod.json, prod.config.region, prod.config.stack_name)


@pytest.fixture(scope="module")
def function(prod: Any) -> str:
    return _function(prod.json, "wordsqd_ops.watch.handler")


def _lambda_client(env: dict[str, str]) -> tuple[Any, Stubber]:
    client = boto3.client("lambda")
    stub = Stubber(client)

    def configs() -> None:
        for name in json.loads(env["PLAN"]):
            stub.add_response(
                "get_provisioned_concurrency_config",
                {"RequestedProvisionedConcurrentExecutions": 1, "Status": "READY"},
                {"FunctionName": json.loads(env["FUNCTIONS"])[name], "Qualifier": env["ALIAS"]},
            )

    configs()  # the capacity check
    settings = {"AccountLimit": {"TotalCodeSize": 100}, "AccountUsage": {"TotalCodeSize": 7}}
    stub.add_response("get_account_settings", settings, {})
    configs()  # the leftover check, at noon
    stub.activate()
    return client, stub


def _synthetics_client(env: dict[str, str]) -> tuple[Any, Stubber]:
    """moto's Synthetics answers no EngineArn: GetCanary from a Stubber, as the service answers."""
    client = boto3.client("synthetics")
    stub = Stubber(client)
    for name in json.loads(env["CANARIES"]):
        engine = f"arn:aws:lambda:eu-west-1:111111111111:function:cwsyn-{name}-0a1b:3"
        stub.add_response("get_canary", {"Canary": {"Name": name, "EngineArn": engine}}, {"Name": name})
    stub.activate()
    return client, stub


@pytest.fixture
def aws(context: Context, function: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """Moto holding what the checks read, named as the template names it; the function's
    environment as the template resolves it."""
    variables = context.template["Resources"][function]["Properties"]["Environment"]["Variables"]
    env = {k: str(context.resolve(v)) for k, v in variables.items()}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("AWS_DEFAULT_REGION", context.region)
    with mock_aws():
        boto3.client("cloudformation").create_stack(
            StackName=env["STACK_NAME"],
            TemplateBody=json.dumps({"Resources": {"Topic": {"Type": "AWS::SNS::Topic"}}}),
        )
        codedeploy = boto3.client("codedeploy")
        codedeploy.create_application(applicationName=env["APPLICATION"], computePlatform="Lambda")
        for group in json.loads(env["DEPLOYMENT_GROUPS"]):
            codedeploy.create_deployment_group(
                applicationName=env["APPLICATION"],
                deploymentGroupName=group,
                serviceRoleArn=f"arn:aws:iam::123456789012:role/{group}",
            )
        lambda_, stub = _lambda_client(env)
        synthetics, synthetics_stub = _synthetics_client(env)
        logs = boto3.client("logs")
        first = json.loads(env["CANARIES"])[0]
        logs.create_log_group(logGroupName=f"/aws/lambda/cwsyn-{first}-0a1b")  # the other never ran
        clients = {
            "synthetics": synthetics,
            "logs": logs,
            "cloudformation": boto3.client("cloudformation"),
            "codedeploy": codedeploy,
            "cloudwatch": boto3.client("cloudwatch"),
            "lambda": lambda_,
        }
        yield {"env": env, "clients": clients, "stub": stub, "stubs": [stub, synthetics_stub]}


def _run(check: str, clients: dict[str, Any], at: datetime | None = None) -> dict[str, float]:
    if at is None:
        return watch.handler({"check": check}, None, clients)
    return watch.measure(check, watch.os.environ, clients, at)


def _deployment_groups(context: Context) -> int:
    """How many deployment groups the synthesized stack holds (one per canaried function)."""
    resources = context.template["Resources"].values()
    return sum(r["Type"] == "AWS::CodeDeploy::DeploymentGroup" for r in resources)


def test_every_check_runs_against_the_services_and_its_role_allows_each_call(aws, context, function):
    noon = datetime(2026, 6, 1, 12, 0, tzinfo=CENTRAL).astimezone(UTC)
    with recording(*aws["clients"].values()) as calls:
        values = {check: _run(check, aws["clients"]) for check in CHECKS}
        values["leftover"] = _run("leftover", aws["clients"], noon)  # outside the window: it reads
    for stub in aws["stubs"]:
        stub.assert_no_pending_responses()
    assert values["retention"] == {"CanaryLogsKept": 1}
    [group] = aws["clients"]["logs"].describe_log_groups(logGroupNamePrefix="/aws/lambda/cwsyn-")["logGroups"]
    assert group["retentionInDays"] == int(aws["env"]["CANARY_LOG_DAYS"]) == 365
    assert values["deploys"] == {"DeployInProgress": 0}  # the stack CREATE_COMPLETE, no deployment
    assert values["reset"] == {"ResetMissing": 1}  # no reset in moto's metrics
    groups = json.loads(aws["env"]["DEPLOYMENT_GROUPS"])
    listed = [c.params.get("deploymentGroupName") for c in calls if c.operation == "ListDeployments"]
    assert len(groups) == _deployment_groups(context) and listed == groups
    assert {(c.service, c.operation) for c in calls} == {
        ("cloudformation", "DescribeStacks"),
        ("codedeploy", "ListDeployments"),
        ("lambda", "GetProvisionedConcurrencyConfig"),
        ("lambda", "GetAccountSettings"),
        ("cloudwatch", "GetMetricData"),
        ("cloudwatch", "PutMetricData"),
        ("synthetics", "GetCanary"),
        ("logs", "PutRetentionPolicy"),
    }
    assert denials(context, function, calls) == []


def test_a_running_deployment_is_counted(aws):
    """moto starts no Lambda deployment: its listing answers with one as the service would."""
    codedeploy = aws["clients"]["codedeploy"]
    first = json.loads(aws["env"]["DEPLOYMENT_GROUPS"])[0]
    real = codedeploy.list_deployments

    def listing(**params: Any) -> dict[str, Any]:
        answer = real(**params)
        return {**answer, "deployments": ["d-1"] if params["deploymentGroupName"] == first else []}

    codedeploy.list_deployments = listing
    assert _run("deploys", aws["clients"]) == {"DeployInProgress": 1}


def test_a_missing_action_is_caught(aws, context, function):
    with recording(aws["clients"]["cloudwatch"]) as calls:
        _run("reset", aws["clients"])

    def without_get_metric_data(statement: dict[str, Any]) -> dict[str, Any]:
        actions = [a for a in statement["Action"] if a != "cloudwatch:GetMetricData"]
        return {**statement, "Action": actions} if isinstance(statement["Action"], list) else statement

    broken = broken_role(context, function, without_get_metric_data)
    assert denials(broken, function, calls) == ["cloudwatch:GetMetricData on *"]


def test_a_wrong_arn_is_caught(aws, context, function):
    """The grant as `Arn.format` wrote it from a plain dict: the resource name dropped."""
    with recording(aws["clients"]["codedeploy"]) as calls:
        _run("deploys", aws["clients"])
    wrong = context.arn("codedeploy", "deploymentgroup")

    def named_wrong(statement: dict[str, Any]) -> dict[str, Any]:
        if statement["Action"] == "codedeploy:ListDeployments":
            return {**statement, "Resource": wrong}
        return statement

    broken = broken_role(context, function, named_wrong)
    refused = denials(broken, function, [c for c in calls if c.operation == "ListDeployments"])
    assert len(refused) == _deployment_groups(context) and all(
        r.startswith("codedeploy:ListDeployments on ") for r in refused
    )


def test_a_missing_required_parameter_is_caught_by_the_service(aws, monkeypatch):
    def without_group(codedeploy: Any, application: str, groups: list[str]) -> list[str]:
        return codedeploy.list_deployments(  # type: ignore[no-any-return]
            applicationName=application, includeOnlyStatuses=watch.ACTIVE_DEPLOYMENTS
        )["deployments"]

    monkeypatch.setattr(watch, "_running", without_group)
    with pytest.raises(ClientError) as refused:
        _run("deploys", aws["clients"])
    assert refused.value.response["Error"]["Code"] == "DeploymentGroupNameRequiredException"


def test_the_evaluator_reads_conditions_as_iam_does(context):
    """LeadingKeys over ForAllValues (an absent key holds), a namespace's StringEquals, wildcards."""
    leading = {
        "Effect": "Allow",
        "Action": "dynamodb:PutItem",
        "Resource": context.arn("dynamodb", "table/t"),
        "Condition": {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["RUN#*"]}},
    }
    put = requests(context, Call("dynamodb", "PutItem", {"TableName": "t", "Item": {"pk": {"S": "RUN#1"}}}))
    assert allowed([leading], put[0])
    other = requests(context, Call("dynamodb", "PutItem", {"TableName": "t", "Item": {"pk": {"S": "TOP#1"}}}))
    assert not allowed([leading], other[0])
    namespace = {
        "Effect": "Allow",
        "Action": "cloudwatch:PutMetricData",
        "Resource": "*",
        "Condition": {"StringEquals": {"cloudwatch:namespace": watch.NAMESPACE}},
    }
    [ours] = requests(context, Call("cloudwatch", "PutMetricData", {"Namespace": watch.NAMESPACE}))
    [theirs] = requests(context, Call("cloudwatch", "PutMetricData", {"Namespace": "AWS/Lambda"}))
    assert allowed([namespace], ours) and not allowed([namespace], theirs)
    deny = {"Effect": "Deny", "Action": "cloudwatch:*", "Resource": "*"}
    assert not allowed([namespace, deny], ours)
    with pytest.raises(KeyError, match="no IAM mapping"):
        requests(context, Call("s3", "GetObject", {"Bucket": "b", "Key": "k"}))


@pytest.mark.parametrize("stack", ["WordSQD-live", "WordSQD-live-EdgeSecurity"])
def test_the_guard_reads_its_stacks_status_with_its_own_roles_grant(synth, stack, monkeypatch):
    """In the freeze, an update asks its stack's status (a rollback passes): against moto's
    CloudFormation, the call allowed by the guard's role, in the main stack and an edge stack."""
    from infra.lambdas.wordsqd_ops import guard

    template = json.loads((synth.outdir / f"{stack}.template.json").read_text())
    region = "us-east-1" if "Edge" in stack else "eu-west-1"
    monkeypatch.setenv("AWS_DEFAULT_REGION", region)
    with mock_aws():
        body = json.dumps({"Resources": {"Topic": {"Type": "AWS::SNS::Topic"}}})
        stack_id = boto3.client("cloudformation").create_stack(StackName=stack, TemplateBody=body)["StackId"]
        context = Context.of(template, region, stack)
        context.stack_id = stack_id
        event = {
            "RequestType": "Update",
            "StackId": stack_id,
            "ResourceProperties": {"WindowStart": "23:50", "WindowEnd": "00:20", "LookaheadMinutes": 5},
        }
        with recording() as calls:
            reason = guard.refusal(event, datetime(2026, 6, 1, 23, 55, tzinfo=CENTRAL), guard._stack_status)
    assert reason is not None and "Deploy refused" in reason  # CREATE_COMPLETE: no rollback
    assert [c.operation for c in calls] == ["DescribeStacks"]
    assert denials(context, _function(template, "wordsqd_ops.guard.on_event"), calls) == []


@pytest.mark.parametrize("name", ["daily", "leaderboard", "reset"])
def test_each_secret_a_function_is_told_of_is_one_its_role_may_read(prod, context, name, monkeypatch):
    """The secrets (shared/runtime/secrets.py) by the ARNs the template gives the function, both
    stages a cursor key is read at, judged against its role."""
    from shared.runtime import secrets

    logical, props = prod.functions[name]
    variables = props["Environment"]["Variables"]
    arns = [str(context.resolve(v)) for k, v in variables.items() if k.endswith("_SECRET_ARN")]
    assert arns, name
    client = boto3.client("secretsmanager")
    stub = Stubber(client)
    for arn in arns:
        for stage in ("AWSCURRENT", "AWSPREVIOUS"):
            stub.add_response(
                "get_secret_value", {"SecretString": "s"}, {"SecretId": arn, "VersionStage": stage}
            )
    stub.activate()
    monkeypatch.setattr(secrets, "secrets_client", lambda: client)
    with recording(client) as calls:
        for arn in arns:
            secrets._secret_value(arn)
            secrets._secret_value(arn, "AWSPREVIOUS")
    assert len(calls) == 2 * len(arns) and denials(context, logical, calls) == []
