"""cdk-nag's AWS Solutions rules, and the one way this app acknowledges a finding."""

from aws_cdk import Acknowledgment, App, Validations
from cdk_nag import AwsSolutionsChecks
from constructs import IConstruct


def add_checks(app: App) -> None:
    """cdk-nag 3 is a policy-validation plugin (the v2 `Aspects` form no longer works): any
    finding that is not acknowledged fails the synth. Acknowledgements are also written into
    the template's Metadata (`cdk_nag.rules_to_suppress`), an audit trail a reviewer can read."""
    Validations.of(app).add_plugins(
        AwsSolutionsChecks(app, verbose=True, write_suppressions_to_cloud_formation=True)
    )


def acknowledge(scope: IConstruct, rule: str, reason: str) -> None:
    """Accept one cdk-nag finding on `scope` and everything under it, with its one-line reason."""
    Validations.of(scope).acknowledge(Acknowledgment(id=rule, reason=reason))
