"""Kill switches on AppConfig (shared/runtime/flags.py reads them): an application, an
environment and a freeform profile in Powertools' feature-flags schema, every switch on, deployed
all at once. An operator turns one off with a new hosted version deployed by AppConfig (the
runbook's "Kill switches"), no stack deploy; the API functions read it within a minute."""

import json
from collections.abc import Iterable

from aws_cdk import Stack
from aws_cdk import aws_appconfig as appconfig
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from shared.runtime.flags import APPCONFIG, SWITCHES

ALL_ON = {switch: {"default": True} for switch in SWITCHES}


class KillSwitches(Construct):
    def __init__(self, scope: Construct, id: str, *, stage: str, readers: Iterable[lambda_.Function]) -> None:
        super().__init__(scope, id)
        self.application = appconfig.CfnApplication(self, "Application", name=f"WordSQD-{stage}")
        self.environment = appconfig.CfnEnvironment(
            self, "Environment", application_id=self.application.ref, name=stage
        )
        self.profile = appconfig.CfnConfigurationProfile(
            self,
            "Profile",
            application_id=self.application.ref,
            name="kill-switches",
            location_uri="hosted",
            type="AWS.Freeform",
        )
        self.version = appconfig.CfnHostedConfigurationVersion(
            self,
            "AllOn",
            application_id=self.application.ref,
            configuration_profile_id=self.profile.ref,
            content=json.dumps(ALL_ON, sort_keys=True),
            content_type="application/json",
            description="Every switch on (the stack's own version)",
        )
        self.deployment = appconfig.CfnDeployment(
            self,
            "Deployment",
            application_id=self.application.ref,
            environment_id=self.environment.ref,
            configuration_profile_id=self.profile.ref,
            configuration_version=self.version.ref,
            deployment_strategy_id="AppConfig.AllAtOnce",
        )
        stack = Stack.of(self)
        configuration = stack.format_arn(
            service="appconfig",
            resource="application",
            resource_name=(
                f"{self.application.ref}/environment/{self.environment.ref}/configuration/{self.profile.ref}"
            ),
        )
        for function in readers:
            function.add_to_role_policy(
                iam.PolicyStatement(
                    actions=["appconfig:StartConfigurationSession", "appconfig:GetLatestConfiguration"],
                    resources=[configuration],
                )
            )
            for variable, value in zip(
                APPCONFIG, (self.application.ref, self.environment.ref, self.profile.ref), strict=True
            ):
                function.add_environment(variable, value)
