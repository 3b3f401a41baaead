"""The pieces every stack's alarms are made of: the topic they notify, the notify action, the
wall-clock window, and the metrics the functions and Lambda publish (infra/operations.py, the
edge's alarms)."""

from collections.abc import Mapping, Sequence

from aws_cdk import Aws, Duration
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from constructs import Construct

from infra.checks import acknowledge
from shared.runtime.observability import NAMESPACE, SERVICE

PERIOD = Duration.minutes(5)
FAST_PERIOD = Duration.minutes(1)  # per-function alarms: CodeDeploy's canary lasts 5 minutes

# Who publishes to an alarm topic: CloudWatch (alarms) and CodeDeploy (deployment triggers).
ALARM_PUBLISHERS = ("cloudwatch.amazonaws.com", "codedeploy.amazonaws.com")


def alarm_topic(scope: Construct, id: str, display_name: str, emails: Sequence[str]) -> sns.Topic:
    """An SNS topic for alarms (TLS only), each of EMAILS subscribed (each confirms once).

    Its policy (which replaces SNS's default one once the TLS-only statement is added) lets
    ALARM_PUBLISHERS publish, for this account's resources only: without it CloudWatch's
    notifications are refused and no one is paged."""
    topic = sns.Topic(scope, id, display_name=display_name, enforce_ssl=True)
    acknowledge(
        topic,
        "AwsSolutions-SNS2",
        "Alarm notices hold no data; a KMS key would need a key policy for CloudWatch.",
    )
    allow_publishers(topic, "AlarmPublishers", ALARM_PUBLISHERS)
    for email in emails:
        topic.add_subscription(subscriptions.EmailSubscription(email))
    return topic


def allow_publishers(topic: sns.ITopic, sid: str, services: Sequence[str]) -> None:
    """Let SERVICES publish to TOPIC, for this account's resources only."""
    topic.add_to_resource_policy(
        iam.PolicyStatement(
            sid=sid,
            actions=["sns:Publish"],
            principals=[iam.ServicePrincipal(service) for service in services],
            resources=[topic.topic_arn],
            conditions={"StringEquals": {"aws:SourceAccount": Aws.ACCOUNT_ID}},
        )
    )


def notify(alarm: cw.Alarm, topic: sns.ITopic) -> cw.Alarm:
    """ALARM and OK both go to TOPIC."""
    action = cw_actions.SnsAction(topic)
    alarm.add_alarm_action(action)
    alarm.add_ok_action(action)
    return alarm


def wall_clock(alarm: cw.Alarm, timezone: str) -> None:
    """Evaluate ALARM over whole periods of the wall clock in TIMEZONE (CloudWatch's
    WallClockWindow; the CDK's Alarm does not take it yet) instead of a sliding window."""
    cfn = alarm.node.default_child
    assert isinstance(cfn, cw.CfnAlarm)
    cfn.add_property_override("EvaluationWindow", {"WallClockWindow": {"Timezone": timezone}})


def game_metric(name: str) -> cw.Metric:
    """A counter that the functions publish with Powertools (namespace WordSQD, service wordsqd)."""
    return cw.Metric(
        namespace=NAMESPACE,
        metric_name=name,
        dimensions_map={"service": SERVICE},
        statistic=cw.Stats.SUM,
        period=PERIOD,
    )


def sum_of(metrics: Mapping[str, cw.IMetric], label: str, period: Duration = PERIOD) -> cw.MathExpression:
    """The sum of several counters. Each is FILLed with 0 first: CloudWatch publishes throttle
    counts only where they happened, and `a + b` has no value where either series is missing."""
    return cw.MathExpression(
        expression=" + ".join(f"FILL({key}, 0)" for key in metrics),
        using_metrics=dict(metrics),
        label=label,
        period=period,
    )


def version_metric(alias: lambda_.Alias, version: lambda_.IVersion, name: str, stat: str) -> cw.Metric:
    """NAME of the invocations that VERSION served through ALIAS: a canary's own series, not the
    whole alias's, where 90% of the calls still go to the old version. Lambda publishes
    ExecutedVersion only beside Resource (`<function>:<alias>`), never with FunctionName alone."""
    return cw.Metric(
        namespace="AWS/Lambda",
        metric_name=name,
        dimensions_map={
            "FunctionName": alias.version.lambda_.function_name,
            "Resource": f"{alias.version.lambda_.function_name}:{alias.alias_name}",
            "ExecutedVersion": version.version,
        },
        statistic=stat,
        period=FAST_PERIOD,
    )
