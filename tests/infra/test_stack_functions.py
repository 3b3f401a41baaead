"""The ten functions: runtime, architecture, handlers, logs, tracing, environment, aliases and
least-privilege roles (exactly infra/permissions.py ACCESS, nothing more)."""

import json
from pathlib import Path

import pytest

from infra.aws_roots import AWS_ROOTS_FILE
from infra.build_asset import PYTHON_VERSION
from infra.functions import ALIAS, FUNCTIONS, RUNTIME
from infra.permissions import ACCESS, MODERATION_WRITES, STREAM_ACTIONS

pytestmark = pytest.mark.infra  # synthesizes the CDK app

REPO_ROOT = Path(__file__).resolve().parents[2]
# Chosen from measurement (docs/operations.md, "Memory sizes")
MEMORY = {
    "validate": 1769,
    "daily": 1769,
    "leaderboard": 1769,
    "moderation": 1769,
    "reset": 512,
    "expire": 1769,
    "counters": 1024,
    "closing": 1769,
    "remind": 512,
    "push": 512,
}
BASE_ACTIONS = {
    "logs:CreateLogStream",
    "logs:PutLogEvents",
    "xray:PutTraceSegments",
    "xray:PutTelemetryRecords",
}
# Async invocation failures of the scheduled jobs and the stream's failed batches go to a queue.
QUEUE_ACTIONS = {"sqs:SendMessage", "sqs:GetQueueAttributes", "sqs:GetQueueUrl"}
SECRET_ACTIONS = {"secretsmanager:GetSecretValue", "secretsmanager:DescribeSecret"}
# A queue worker's event source (infra/queue_worker.py).
CONSUME_ACTIONS = {
    "sqs:ReceiveMessage",
    "sqs:ChangeMessageVisibility",
    "sqs:GetQueueUrl",
    "sqs:DeleteMessage",
    "sqs:GetQueueAttributes",
}


def test_there_is_one_function_per_entry_point(dev):
    assert set(dev.functions) == set(FUNCTIONS) == set(ACCESS)


def test_runtime_matches_the_python_the_asset_is_built_for():
    assert RUNTIME.name == f"python{PYTHON_VERSION}"


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_function_platform_handler_and_logging(dev, name):
    _, props = dev.functions[name]
    module, function = FUNCTIONS[name].handler.split(":")
    assert props["Handler"] == f"{module}.{function}"
    assert props["Runtime"] == f"python{PYTHON_VERSION}"
    assert props["Architectures"] == ["arm64"]
    assert props["MemorySize"] == MEMORY[name]
    longest = {"reset": 900, "closing": 300, "push": 60}  # a queue's visibility timeout is longer
    assert 1 <= props["Timeout"] <= longest.get(name, 59)  # expire, the scan: before the next minute
    assert props["TracingConfig"] == {"Mode": "Active"}
    logging = props["LoggingConfig"]
    assert logging["LogFormat"] == "JSON"
    assert logging["ApplicationLogLevel"] == "INFO"
    assert logging["SystemLogLevel"] == "INFO"  # keeps the REPORT and init-duration lines
    log_group = dev.json["Resources"][logging["LogGroup"]["Ref"]]
    assert log_group["Type"] == "AWS::Logs::LogGroup"
    assert log_group["Properties"]["RetentionInDays"] > 0


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_tracer_captures_no_response_and_no_error(dev, name):
    """Guest run ids (a guest run's only credential) and live words are in replies and may be in
    exception messages: neither goes to X-Ray."""
    env = dev.functions[name][1]["Environment"]["Variables"]
    assert env["POWERTOOLS_TRACER_CAPTURE_RESPONSE"] == "false"
    assert env["POWERTOOLS_TRACER_CAPTURE_ERROR"] == "false"
    assert env["POWERTOOLS_SERVICE_NAME"] == "wordsqd"
    assert env["POWERTOOLS_METRICS_NAMESPACE"] == "WordSQD"


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_function_is_told_it_runs_on_aws_so_nothing_local_stands_in(dev, name):
    """WORDSQD_ENV=aws: a missing user pool, seed or cursor key stops the init (fail closed)."""
    assert dev.functions[name][1]["Environment"]["Variables"]["WORDSQD_ENV"] == "aws"


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_function_trusts_the_asset_s_aws_roots_alone(dev, name):
    """botocore's CA bundle is the asset's Amazon Trust Services roots, in Lambda's code folder
    (tests/infra/test_lambda_asset.py checks the file holds exactly them)."""
    env = dev.functions[name][1]["Environment"]["Variables"]
    assert env["AWS_CA_BUNDLE"] == f"/var/task/{AWS_ROOTS_FILE}"


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_function_switches_off_pydantic_plugin_lookup(dev, name):
    """Pydantic's plugin lookup reads every installed distribution's entry points when the first
    model is built: a cold-start cost for plugins the asset does not ship."""
    assert dev.functions[name][1]["Environment"]["Variables"]["PYDANTIC_DISABLE_PLUGINS"] == "__all__"


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_environment_names_only_what_the_function_may_use(dev, name):
    env = dev.functions[name][1]["Environment"]["Variables"]
    table_id, _ = dev.only("AWS::DynamoDB::Table")
    [seed_id] = [i for i in dev.resources("AWS::SecretsManager::Secret") if "PuzzleSeed" in i]
    [cursor_id] = [i for i in dev.resources("AWS::SecretsManager::Secret") if "CursorKey" in i]
    access = ACCESS[name]
    assert env.get("TABLE_NAME") == ({"Ref": table_id} if access.table else None)
    assert env.get("PUZZLE_SEED_SECRET_ARN") == ({"Ref": seed_id} if "seed" in access.secrets else None)
    assert env.get("CURSOR_KEY_SECRET_ARN") == ({"Ref": cursor_id} if "cursor" in access.secrets else None)
    [pool_id] = dev.resources("AWS::Cognito::UserPool")
    assert env.get("USER_POOL_ID") == ({"Ref": pool_id} if access.user_pool else None)
    assert env.get("FIRST_DAILY_DATE") == ("2026-01-01" if name == "daily" else None)  # TEST_STAGES
    assert env.get("BOARD_SHARDS") == ("40" if access.table else None)  # the stage's `board_shards`


def test_the_leaderboard_function_gets_the_cursor_key_never_the_seed(dev):
    env = dev.functions["leaderboard"][1]["Environment"]["Variables"]
    assert "CURSOR_KEY_SECRET_ARN" in env and "PUZZLE_SEED_SECRET_ARN" not in env
    _, statements = _role_statements(dev, "leaderboard")
    [reader] = [s for s in statements if "secretsmanager:GetSecretValue" in _actions([s])]
    # the cursor key, and the reminders' VAPID key (the page's public key: infra/reminders.py)
    read = sorted(
        r["Ref"]
        for r in (reader["Resource"] if isinstance(reader["Resource"], list) else [reader["Resource"]])
    )
    assert len(read) == 2 and "CursorKey" in read[0] and "VapidKey" in read[1]


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
    roles = {dev.functions[name][1]["Role"]["Fn::GetAtt"][0] for name in FUNCTIONS}
    assert len(roles) == len(FUNCTIONS)
    for role_id in roles:
        assert "ManagedPolicyArns" not in dev.json["Resources"][role_id]["Properties"]


@pytest.mark.parametrize("stage", ["dev", "prod"])
def test_no_role_anywhere_has_a_wildcard_or_scan_on_the_table(synth, stage):
    """Every policy of the stack, CDK's own roles included (the web client's BucketDeployment has
    `s3:Abort*` and the like on its buckets): no DynamoDB action is a wildcard, a Scan or a table
    description, a batch write only the counters' and moderation's (each deletes the top's inbox
    items: a lifted void is counted again) and the leaderboard's (an erasure's deletes), each
    limited to the partition keys it may write, and nothing but a DynamoDB action names the table. Our
    functions' roles have no wildcard action at all."""
    stack = synth.stacks[stage]
    table_id, _ = stack.only("AWS::DynamoDB::Table")
    ours = {_role_statements(stack, name)[0] for name in FUNCTIONS}
    batch_writers = {_role_statements(stack, name)[0] for name in ("counters", "leaderboard", "moderation")}
    for policy_id, policy in stack.resources("AWS::IAM::Policy").items():
        own = bool(ours & {r["Ref"] for r in policy["Properties"]["Roles"]})
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            actions = _actions([statement])
            for action in actions:
                assert not (own and "*" in action), (policy_id, action)
                if action.lower().startswith("dynamodb:"):
                    assert "*" not in action, (policy_id, action)
                    assert action not in {"dynamodb:Scan", "dynamodb:DescribeTable"}
                    if action == "dynamodb:BatchWriteItem":
                        assert {r["Ref"] for r in policy["Properties"]["Roles"]} <= batch_writers
                        assert "dynamodb:LeadingKeys" in json.dumps(statement["Condition"])
            if table_id in json.dumps(statement.get("Resource")):
                assert all(a.startswith("dynamodb:") for a in actions), (policy_id, actions)
    assert ours  # the roles were found


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_each_role_has_exactly_the_declared_actions(dev, name):
    access = ACCESS[name]
    expected = set(BASE_ACTIONS)
    if access.table:
        expected |= access.table.actions() | (STREAM_ACTIONS if access.table.stream else set())
    if access.secrets:
        expected |= SECRET_ACTIONS
    expected |= set(access.user_pool)
    if name in {"reset", "expire", "counters", "closing", "remind"}:  # (the closing worker: its successors)
        expected |= QUEUE_ACTIONS
    if name in {"closing", "push"}:
        expected |= CONSUME_ACTIONS
    if name == "push":  # the VAPID key, to sign (infra/reminders.py)
        expected |= SECRET_ACTIONS
    if name in {"daily", "leaderboard", "moderation"}:  # the kill switches (infra/switches.py)
        expected |= {"appconfig:StartConfigurationSession", "appconfig:GetLatestConfiguration"}
    _, statements = _role_statements(dev, name)
    assert _actions(statements) == expected


@pytest.mark.parametrize("name", sorted(n for n in ACCESS if ACCESS[n].table))
def test_queries_reach_only_the_declared_indexes(dev, name):
    """Query on the named indexes; on the base table only where declared, and then only on the
    declared partition keys (the leaderboard reads a player's own PLAYER# partition)."""
    table_id, _ = dev.only("AWS::DynamoDB::Table")
    table_arn = {"Fn::GetAtt": [table_id, "Arn"]}
    access = ACCESS[name].table
    _, statements = _role_statements(dev, name)
    queries = [s for s in statements if "dynamodb:Query" in _actions([s])]
    on_indexes = [s for s in queries if s["Resource"] != table_arn]
    resources = [
        r for s in on_indexes for r in (s["Resource"] if isinstance(s["Resource"], list) else [s["Resource"]])
    ]
    assert resources == [{"Fn::Join": ["", [table_arn, f"/index/{index}"]]} for index in access.indexes]
    on_table = [s for s in queries if s["Resource"] == table_arn]
    if access.own_partition_queries:
        [statement] = on_table
        assert _actions([statement]) == {"dynamodb:Query"}
        assert statement["Condition"] == {
            "ForAllValues:StringLike": {"dynamodb:LeadingKeys": list(access.own_partition_queries)}
        }
    else:
        assert on_table == []
    item_statements = [
        s
        for s in statements
        if _actions([s]) & {"dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"}
    ]
    assert all(s["Resource"] == table_arn for s in item_statements)


@pytest.mark.parametrize(
    "name, prefixes",
    [
        (
            "leaderboard",
            [
                "PLAYER#*",
                "NAME#*",
                "TOP#*",
                "LEAGUE#*",
                "LEAGUECODE#*",
                "RUN#*",
                "CHALLENGE#*",
                "IDEMPOTENCY#*",
                "MODFINAL#*",
                "REMIND#*",
                "RECAP#*",
            ],
        ),
        ("moderation", ["PLAYER#*", "NAME#*", "TOP#*", "RUN#*", *MODERATION_WRITES]),
        ("reset", ["PUZZLE#*"]),
        ("counters", ["PLAYER#*", "COUNT#*", "TOP#*"]),
        ("push", ["REMIND#*", "PLAYER#*"]),
    ],
)
def test_writes_are_limited_to_their_partition_keys(dev, name, prefixes):
    """moderation writes what its decisions reach and the moderation items, the audit log among
    them; leaderboard writes only players' items (profile, the rename's record), name claims,
    leagues and their codes, and (erasing a player) runs, the creator of a challenge and the name
    on the player's rows in boards' top items; reset only puzzles, counters only rank counters,
    the `counted` mark and renamed names on official results and boards' top items:
    dynamodb:LeadingKeys on every write statement."""
    _, statements = _role_statements(dev, name)
    writes = [
        s
        for s in statements
        if _actions([s])
        & {"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem"}
    ]
    assert writes
    for statement in writes:
        assert statement["Condition"] == {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": prefixes}}


def test_validate_touches_neither_table_nor_secret(dev):
    _, statements = _role_statements(dev, "validate")
    assert _actions(statements) == BASE_ACTIONS


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_function_is_invoked_through_its_live_alias(dev, name):
    logical_id, _ = dev.functions[name]
    aliases = [
        a["Properties"]
        for a in dev.resources("AWS::Lambda::Alias").values()
        if a["Properties"]["FunctionName"] == {"Ref": logical_id}
    ]
    assert [a["Name"] for a in aliases] == [ALIAS]
    version_id = aliases[0]["FunctionVersion"]["Fn::GetAtt"][0]
    assert dev.json["Resources"][version_id]["Type"] == "AWS::Lambda::Version"


def test_only_the_user_pool_actions_declared_are_granted_and_on_the_stacks_own_pool_alone(dev):
    """DELETE /me signs the caller out everywhere and deletes their Cognito user:
    AdminUserGlobalSignOut and AdminDeleteUser on this stack's pool, nothing wider (no wildcard
    resource, no other pool)."""
    assert set(ACCESS["leaderboard"].user_pool) == {
        "cognito-idp:AdminUserGlobalSignOut",
        "cognito-idp:AdminDeleteUser",
    }
    pool_id, _ = dev.only("AWS::Cognito::UserPool")
    for name in sorted(FUNCTIONS):
        _, statements = _role_statements(dev, name)
        granted = [s for s in statements if any(a.startswith("cognito-idp:") for a in _actions([s]))]
        assert {a for s in granted for a in _actions([s])} == set(ACCESS[name].user_pool), name
        for statement in granted:
            assert pool_id in json.dumps(statement["Resource"]), name
