"""The CDK app: `python -m infra.app` (writes cdk.out/), or `cdk synth|deploy` through cdk.json.

Context: `-c stage=prod` picks the stage's entry of infra/stages.json (see infra.config).
`-c account=...` only when the stage config names no account (see infra.edge.synth_env); the
region is always the stage config's.
Each stage is two stacks: `WordSQD-<stage>` and its us-east-1 `WordSQD-<stage>-EdgeSecurity`.
"""

import os

from aws_cdk import App

from infra.checks import add_checks
from infra.config import REPO_ROOT, StageConfig, feature_flags
from infra.stack import WordSQDStack


def main() -> None:
    # The CDK CLI sets CDK_OUTDIR; run directly, write where the CLI would instead of a temp dir.
    # cdk.json's feature flags are passed here too, so a direct run synthesizes what `cdk` does.
    app = App(outdir=os.environ.get("CDK_OUTDIR") or str(REPO_ROOT / "cdk.out"), context=feature_flags())
    WordSQDStack(app, StageConfig.from_context(app.node))
    add_checks(app)
    app.synth()


if __name__ == "__main__":
    main()
