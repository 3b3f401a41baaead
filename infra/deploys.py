"""Safe deploys: every function's `live` alias moves to a new version by CodeDeploy, 10% of the
traffic for 5 minutes first, and rolls back by itself if that function's error-rate or p99 alarm
fires (infra/operations.py) or the deployment fails or is stopped.

The background jobs shift the same way: the expiry job runs five times and the stream consumer
sees every new result during the canary; the daily reset rarely runs inside one, so its alarms
guard it on the next midnight (docs/operations.md says how to roll it back by hand).

Each group tells the alarm topic when a deployment fails, stops or rolls back (CodeDeploy
triggers, published with the group's role). Nothing here knows the clock: the pipeline starts a
deploy only when its canaries finish before the midnight window (scripts/deploy_window.py).
"""

from collections.abc import Mapping, Sequence

from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_codedeploy as codedeploy
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from constructs import Construct

from infra.checks import acknowledge

DEPLOYMENT_CONFIG = codedeploy.LambdaDeploymentConfig.CANARY_10_PERCENT_5_MINUTES
DEPLOYMENT_CONFIG_MINUTES = 5  # how long DEPLOYMENT_CONFIG keeps an alias weighted
# What a person hears about (a success is not news).
TRIGGER_EVENTS = ("DeploymentFailure", "DeploymentStop", "DeploymentRollback")


class Deploys(Construct):
    def __init__(
        self,
        scope: Construct,
        id: str,
        *,
        stage: str,
        aliases: Mapping[str, lambda_.Alias],
        alarms: Mapping[str, Sequence[cw.IAlarm]],
        topic: sns.ITopic,
    ) -> None:
        super().__init__(scope, id)
        self.application = codedeploy.LambdaApplication(
            self, "Application", application_name=f"WordSQD-{stage}"
        )
        self.groups: dict[str, codedeploy.LambdaDeploymentGroup] = {}
        for name, alias in aliases.items():
            group = codedeploy.LambdaDeploymentGroup(
                self,
                f"{name.capitalize()}Group",
                application=self.application,
                alias=alias,
                deployment_config=DEPLOYMENT_CONFIG,
                alarms=list(alarms[name]),
                auto_rollback=codedeploy.AutoRollbackConfig(
                    failed_deployment=True, stopped_deployment=True, deployment_in_alarm=True
                ),
            )
            topic.grant_publish(group.role)
            cfn = group.node.default_child
            assert isinstance(cfn, codedeploy.CfnDeploymentGroup)
            cfn.trigger_configurations = [
                codedeploy.CfnDeploymentGroup.TriggerConfigProperty(
                    trigger_name=f"{name}-to-alarm-topic",
                    trigger_target_arn=topic.topic_arn,
                    trigger_events=list(TRIGGER_EVENTS),
                )
            ]
            acknowledge(
                group,
                "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]",
                "AWS's own narrow CodeDeploy role for Lambda (alias updates, alarm reads only).",
            )
            self.groups[name] = group
