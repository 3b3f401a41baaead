"""Safe deploys: every function's `live` alias moves to a new version by CodeDeploy, 10% of the
traffic for 5 minutes first, and rolls back by itself if that function's error-rate or p99 alarm
fires (infra/operations.py) or the deployment fails or is stopped.

The background jobs and the queue workers shift the same way, and first each one's new version
answers a dry run (a pre-traffic hook, infra/lambdas/wordsqd_ops/canary.py): the reset never runs
inside a canary (no deploy may run at midnight), and the expiry job's few calls in 5 minutes, or
a queue's at a quiet hour, judge little.

Each group tells the alarm topic when a deployment fails, stops or rolls back (CodeDeploy
triggers, published with the group's role). Nothing here knows the clock: the pipeline starts a
deploy only when its canaries finish before the midnight window (scripts/deploy_window.py).
"""

from collections.abc import Mapping, Sequence

from aws_cdk import Stack
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_codedeploy as codedeploy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from constructs import Construct

from infra.checks import acknowledge
from infra.ops_functions import LogPolicy, ops_function

DEPLOYMENT_CONFIG = codedeploy.LambdaDeploymentConfig.CANARY_10_PERCENT_5_MINUTES
DEPLOYMENT_CONFIG_MINUTES = 5  # how long DEPLOYMENT_CONFIG keeps an alias weighted
# What a person hears about (a success is not news).
TRIGGER_EVENTS = ("DeploymentFailure", "DeploymentStop", "DeploymentRollback")
# The jobs whose new version answers a dry run before any traffic shifts (functions/dry_run.py).
DRY_RUN_JOBS = ("reset", "expire", "counters", "closing", "remind", "push")


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
        logs_: LogPolicy,
    ) -> None:
        super().__init__(scope, id)
        self.application = codedeploy.LambdaApplication(
            self, "Application", application_name=f"WordSQD-{stage}"
        )
        self.groups: dict[str, codedeploy.LambdaDeploymentGroup] = {}
        for name, alias in aliases.items():
            hook = self._dry_run(name, alias, logs_) if name in DRY_RUN_JOBS else None
            group = codedeploy.LambdaDeploymentGroup(
                self,
                f"{name.capitalize()}Group",
                application=self.application,
                alias=alias,
                deployment_config=DEPLOYMENT_CONFIG,
                alarms=list(alarms[name]),
                pre_hook=hook,
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
            if hook is not None:
                hook_id = Stack.of(self).get_logical_id(hook.node.default_child)  # type: ignore[arg-type]
                acknowledge(
                    group,
                    f"AwsSolutions-IAM5[Resource::<{hook_id}.Arn>:*]",
                    "CodeDeploy invokes its pre-traffic hook, this one function (the grant names versions).",
                )
            self.groups[name] = group

    def _dry_run(self, name: str, alias: lambda_.Alias, logs_: LogPolicy) -> lambda_.Function:
        """The pre-traffic hook that invokes NAME's new version with the dry-run event."""
        hook = ops_function(
            self,
            f"{name.capitalize()}DryRun",
            handler="wordsqd_ops.canary.handler",
            description=f"WordSQD pre-traffic dry run of {name}",
            logs_=logs_,
        )
        # The new version's ARN, spelled as the function's ARN and the version's number.
        target = f"{alias.version.lambda_.function_arn}:{alias.version.version}"
        hook.add_environment("TARGET", target)
        hook.add_to_role_policy(iam.PolicyStatement(actions=["lambda:InvokeFunction"], resources=[target]))
        return hook
