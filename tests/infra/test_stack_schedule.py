"""The jobs: the reset at Central midnight whatever the season, the expiry job every minute, both
through their aliases with retries and the dead-letter queue; the counters on the table's stream."""

import json

import pytest
from aws_cdk.assertions import Match

from infra.schedule import COUNTERS_RETRIES

pytestmark = pytest.mark.infra  # synthesizes the CDK app


def _alias(synth, name):
    logical_id, _ = synth.functions[name]
    [alias_id] = [
        k
        for k, a in synth.resources("AWS::Lambda::Alias").items()
        if a["Properties"]["FunctionName"] == {"Ref": logical_id}
    ]
    return alias_id


def _schedules(synth):
    """The jobs' schedules (the scheduled checks and probes have theirs: test_scheduled_checks.py)."""
    return {
        s["Properties"]["Description"].split(" ")[1]: s["Properties"]
        for s in synth.resources("AWS::Scheduler::Schedule").values()
        if '"job"' in s["Properties"]["Target"].get("Input", "")
    }


def _queue(synth, part):
    [queue_id] = [k for k in synth.resources("AWS::SQS::Queue") if part in k]
    return queue_id


def test_reset_is_midnight_in_chicago_time(dev):
    [props] = [s for s in _schedules(dev).values() if s["ScheduleExpression"].startswith("cron")]
    assert props["ScheduleExpression"] == "cron(0 0 * * ? *)"
    assert props["ScheduleExpressionTimezone"] == "America/Chicago"
    assert props["FlexibleTimeWindow"] == {"Mode": "OFF"}
    assert props["State"] == "ENABLED"


def test_expire_runs_every_minute(dev):
    [props] = [s for s in _schedules(dev).values() if s["ScheduleExpression"].startswith("rate")]
    assert props["ScheduleExpression"] == "rate(1 minute)"
    assert props["FlexibleTimeWindow"] == {"Mode": "OFF"}


@pytest.mark.parametrize("job, expression", [("reset", "cron(0 0 * * ? *)"), ("expire", "rate(1 minute)")])
def test_schedules_invoke_the_live_alias_with_retries_and_the_dead_letter_queue(dev, job, expression):
    [props] = [s for s in _schedules(dev).values() if s["ScheduleExpression"] == expression]
    target = props["Target"]
    assert target["Arn"] == {"Ref": _alias(dev, job)}
    assert target["RetryPolicy"]["MaximumRetryAttempts"] >= 1
    assert target["DeadLetterConfig"] == {"Arn": {"Fn::GetAtt": [_queue(dev, "DeadLetters"), "Arn"]}}
    event = json.loads(target["Input"])
    assert event["scheduled_time"] == "<aws.scheduler.scheduled-time>" and event["job"] == job


def test_schedule_role_may_invoke_only_the_two_job_aliases(dev):
    [role_id] = {s["Target"]["RoleArn"]["Fn::GetAtt"][0] for s in _schedules(dev).values()}
    role = dev.json["Resources"][role_id]["Properties"]
    [trust] = role["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {"Service": "scheduler.amazonaws.com"}
    assert "aws:SourceAccount" in trust["Condition"]["StringEquals"]
    [policy] = [
        p for p in dev.resources("AWS::IAM::Policy").values() if {"Ref": role_id} in p["Properties"]["Roles"]
    ]
    [invoke] = [
        s
        for s in policy["Properties"]["PolicyDocument"]["Statement"]
        if s["Action"] == "lambda:InvokeFunction"
    ]
    assert sorted(r["Ref"] for r in invoke["Resource"]) == sorted(
        [_alias(dev, "expire"), _alias(dev, "reset")]
    )


@pytest.mark.parametrize("job", ["reset", "expire"])
def test_function_failures_also_reach_the_dead_letter_queue(dev, job):
    # Scheduler invokes asynchronously: a function error is retried by Lambda, then parked.
    logical_id, _ = dev.functions[job]
    dev.template.has_resource_properties(
        "AWS::Lambda::EventInvokeConfig",
        {
            "FunctionName": {"Ref": logical_id},
            "Qualifier": Match.any_value(),  # the alias's name, read from its ARN
            "DestinationConfig": {
                "OnFailure": {"Destination": {"Fn::GetAtt": [_queue(dev, "DeadLetters"), "Arn"]}}
            },
        },
    )


def test_counters_consume_new_official_results_and_renames_from_the_stream(dev):
    [mapping] = [  # the stream's (the closing pass's queue has its own: infra/closing.py)
        m
        for m in dev.resources("AWS::Lambda::EventSourceMapping").values()
        if "StartingPosition" in m["Properties"]
    ]
    props = mapping["Properties"]
    table_id, table = dev.only("AWS::DynamoDB::Table")
    assert table["Properties"]["StreamSpecification"] == {"StreamViewType": "NEW_IMAGE"}
    assert props["EventSourceArn"] == {"Fn::GetAtt": [table_id, "StreamArn"]}
    assert props["FunctionName"]["Fn::Join"][1][1] == ":live"
    assert props["BisectBatchOnFunctionError"] is True
    assert props["MaximumBatchingWindowInSeconds"] >= 1
    assert props["MaximumRetryAttempts"] == COUNTERS_RETRIES
    assert props["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert props["DestinationConfig"] == {
        "OnFailure": {"Destination": {"Fn::GetAtt": [_queue(dev, "CounterFailures"), "Arn"]}}
    }
    official, renames = [json.loads(f["Pattern"]) for f in props["FilterCriteria"]["Filters"]]
    assert official == {
        "eventName": ["INSERT"],
        "dynamodb": {"NewImage": {"sk": {"S": [{"prefix": "OFFICIAL#"}]}}},
    }
    assert renames == {"eventName": ["INSERT", "MODIFY"], "dynamodb": {"Keys": {"sk": {"S": ["RENAME"]}}}}


@pytest.mark.parametrize("part", ["DeadLetters", "CounterFailures"])
def test_dead_letter_queues_are_encrypted_and_refuse_plain_http(dev, part):
    queue_id = _queue(dev, part)
    queue = dev.json["Resources"][queue_id]
    assert queue["Properties"]["SqsManagedSseEnabled"] is True
    assert queue["Properties"]["MessageRetentionPeriod"] == 14 * 24 * 3600
    statements = [
        s
        for p in dev.resources("AWS::SQS::QueuePolicy").values()
        if p["Properties"]["Queues"] == [{"Ref": queue_id}]
        for s in p["Properties"]["PolicyDocument"]["Statement"]
    ]
    assert {
        "Action": "sqs:*",
        "Condition": {"Bool": {"aws:SecureTransport": "false"}},
        "Effect": "Deny",
        "Principal": {"AWS": "*"},
        "Resource": {"Fn::GetAtt": [queue_id, "Arn"]},
    } in statements
