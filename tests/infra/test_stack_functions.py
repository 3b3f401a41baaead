"""The four functions: runtime, architecture, handlers, logs, tracing, environment and roles."""

from pathlib import Path

import pytest

from infra.build_asset import PYTHON_VERSION
from infra.functions import RUNTIME
from shared.routes import HANDLERS, RESET_HANDLER

pytestmark = pytest.mark.infra  # synthesizes the CDK app

REPO_ROOT = Path(__file__).resolve().parents[2]
ENTRY_POINTS = {**HANDLERS, "reset": RESET_HANDLER}
MEMORY = {"validate": 512, "daily": 1024, "leaderboard": 1024, "reset": 1024}
TABLE_USERS = {"daily", "leaderboard", "reset"}
# leaderboard signs board cursors with a key derived from the secret (shared/secrets.py).
SEED_USERS = {"daily", "leaderboard", "reset"}


def test_there_is_one_function_per_entry_point(dev):
    assert set(dev.functions) == set(ENTRY_POINTS)


def test_runtime_matches_the_python_the_asset_is_built_for():
    assert RUNTIME.name == f"python{PYTHON_VERSION}"


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_function_platform_handler_and_logging(dev, name):
    _, props = dev.functions[name]
    module, function = ENTRY_POINTS[name].split(":")
    assert props["Handler"] == f"{module}.{function}"
    # The handler module is a file of the repository, so it is in the asset too.
    assert (REPO_ROOT / (module.replace(".", "/") + ".py")).is_file()
    assert props["Runtime"] == f"python{PYTHON_VERSION}"
    assert props["Architectures"] == ["arm64"]
    assert props["MemorySize"] == MEMORY[name]
    assert 1 <= props["Timeout"] <= (900 if name == "reset" else 29)  # API Gateway waits 30 s
    assert props["TracingConfig"] == {"Mode": "Active"}
    logging = props["LoggingConfig"]
    assert logging["LogFormat"] == "JSON"
    # An explicit log group of the stack, with a retention.
    log_group_id = logging["LogGroup"]["Ref"]
    log_group = dev.json["Resources"][log_group_id]
    assert log_group["Type"] == "AWS::Logs::LogGroup"
    assert log_group["Properties"]["RetentionInDays"] > 0


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_environment_comes_from_one_place(dev, name):
    _, props = dev.functions[name]
    env = props["Environment"]["Variables"]
    assert env["POWERTOOLS_SERVICE_NAME"] == "wordsqd"
    assert env["POWERTOOLS_METRICS_NAMESPACE"] == "WordSQD"
    table_id, _ = dev.only("AWS::DynamoDB::Table")
    secret_id, _ = dev.only("AWS::SecretsManager::Secret")
    assert env.get("TABLE_NAME") == ({"Ref": table_id} if name in TABLE_USERS else None)
    assert env.get("PUZZLE_SEED_SECRET_ARN") == ({"Ref": secret_id} if name in SEED_USERS else None)


def _role_statements(synth, function_name):
    """Every policy statement attached to the function's own role."""
    _, props = synth.functions[function_name]
    role_id = props["Role"]["Fn::GetAtt"][0]
    statements = []
    for policy in synth.resources("AWS::IAM::Policy").values():
        if {"Ref": role_id} in policy["Properties"]["Roles"]:
            statements += policy["Properties"]["PolicyDocument"]["Statement"]
    return role_id, statements


def _actions(statements):
    return {a for s in statements for a in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])}


def test_each_function_has_its_own_role_without_managed_policies(dev):
    roles = {dev.functions[name][1]["Role"]["Fn::GetAtt"][0] for name in ENTRY_POINTS}
    assert len(roles) == len(ENTRY_POINTS)
    for role_id in roles:
        assert "ManagedPolicyArns" not in dev.json["Resources"][role_id]["Properties"]


def test_validate_touches_neither_table_nor_secret(dev):
    _, statements = _role_statements(dev, "validate")
    actions = _actions(statements)
    assert not {a for a in actions if a.startswith(("dynamodb:", "secretsmanager:"))}
    assert actions == {
        "logs:CreateLogStream",
        "logs:PutLogEvents",
        "xray:PutTraceSegments",
        "xray:PutTelemetryRecords",
    }


@pytest.mark.parametrize("name", sorted(TABLE_USERS))
def test_table_users_read_and_write_the_table_and_its_indexes(dev, name):
    table_id, _ = dev.only("AWS::DynamoDB::Table")
    _, statements = _role_statements(dev, name)
    [grant] = [s for s in statements if "dynamodb:PutItem" in s["Action"]]
    assert {
        "dynamodb:GetItem",
        "dynamodb:Query",
        "dynamodb:UpdateItem",
        "dynamodb:ConditionCheckItem",
    } <= set(grant["Action"])
    table_arn = {"Fn::GetAtt": [table_id, "Arn"]}
    assert grant["Resource"] == [table_arn, {"Fn::Join": ["", [table_arn, "/index/*"]]}]


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_only_the_stateful_functions_read_the_secret(dev, name):
    secret_id, _ = dev.only("AWS::SecretsManager::Secret")
    _, statements = _role_statements(dev, name)
    readers = [s for s in statements if "secretsmanager:GetSecretValue" in _actions([s])]
    if name in SEED_USERS:
        assert [s["Resource"] for s in readers] == [{"Ref": secret_id}]
    else:
        assert readers == []
