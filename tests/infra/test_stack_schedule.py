"""The reset schedule: Central midnight, whatever the season, with retries and a dead-letter queue."""

import json

import pytest

pytestmark = pytest.mark.infra  # synthesizes the CDK app


def test_schedule_is_midnight_in_chicago_time(dev):
    _, schedule = dev.only("AWS::Scheduler::Schedule")
    props = schedule["Properties"]
    assert props["ScheduleExpression"] == "cron(0 0 * * ? *)"
    assert props["ScheduleExpressionTimezone"] == "America/Chicago"
    assert props["FlexibleTimeWindow"] == {"Mode": "OFF"}
    assert props["State"] == "ENABLED"


def test_schedule_invokes_the_reset_function_with_retries_and_a_dead_letter_queue(dev):
    reset_id, _ = dev.functions["reset"]
    queue_id, _ = dev.only("AWS::SQS::Queue")
    _, schedule = dev.only("AWS::Scheduler::Schedule")
    target = schedule["Properties"]["Target"]
    assert target["Arn"] == {"Fn::GetAtt": [reset_id, "Arn"]}
    assert target["RetryPolicy"]["MaximumRetryAttempts"] >= 1
    assert target["DeadLetterConfig"] == {"Arn": {"Fn::GetAtt": [queue_id, "Arn"]}}
    assert json.loads(target["Input"])["scheduled_time"] == "<aws.scheduler.scheduled-time>"


def test_schedule_role_may_invoke_only_the_reset_function(dev):
    reset_id, _ = dev.functions["reset"]
    _, schedule = dev.only("AWS::Scheduler::Schedule")
    role_id = schedule["Properties"]["Target"]["RoleArn"]["Fn::GetAtt"][0]
    role = dev.json["Resources"][role_id]["Properties"]
    [trust] = role["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {"Service": "scheduler.amazonaws.com"}
    assert "aws:SourceAccount" in trust["Condition"]["StringEquals"]
    [policy] = [
        p for p in dev.resources("AWS::IAM::Policy").values() if {"Ref": role_id} in p["Properties"]["Roles"]
    ]
    invoke = [
        s
        for s in policy["Properties"]["PolicyDocument"]["Statement"]
        if s["Action"] == "lambda:InvokeFunction"
    ]
    reset_arn = {"Fn::GetAtt": [reset_id, "Arn"]}
    assert [s["Resource"] for s in invoke] == [[reset_arn, {"Fn::Join": ["", [reset_arn, ":*"]]}]]


def test_function_failures_also_reach_the_dead_letter_queue(dev):
    # Scheduler invokes asynchronously: a function error is retried by Lambda, then parked.
    reset_id, _ = dev.functions["reset"]
    queue_id, _ = dev.only("AWS::SQS::Queue")
    dev.template.has_resource_properties(
        "AWS::Lambda::EventInvokeConfig",
        {
            "FunctionName": {"Ref": reset_id},
            "MaximumRetryAttempts": 2,
            "DestinationConfig": {"OnFailure": {"Destination": {"Fn::GetAtt": [queue_id, "Arn"]}}},
        },
    )


def test_dead_letter_queue_is_encrypted_and_refuses_plain_http(dev):
    queue_id, queue = dev.only("AWS::SQS::Queue")
    assert queue["Properties"]["SqsManagedSseEnabled"] is True
    _, policy = dev.only("AWS::SQS::QueuePolicy")
    assert {
        "Action": "sqs:*",
        "Condition": {"Bool": {"aws:SecureTransport": "false"}},
        "Effect": "Deny",
        "Principal": {"AWS": "*"},
        "Resource": {"Fn::GetAtt": [queue_id, "Arn"]},
    } in policy["Properties"]["PolicyDocument"]["Statement"]
