"""The CDK app: `python -m infra.app` (writes cdk.out/), or `cdk synth|deploy` through cdk.json.

Context: `-c stage=prod -c allowed_origins=https://play.example.com` (see infra.config), and
`-c account=... -c region=...` unless the stage config names them (see infra.edge.synth_env).
Each stage is two stacks: `WordSQD-<stage>` and its us-east-1 `WordSQD-<stage>-EdgeSecurity`.
"""

import os

from aws_cdk import App

from infra.checks import add_checks
from infra.config import REPO_ROOT, StageConfig
from infra.stack import WordSQDStack


def main() -> None:
    # The CDK CLI sets CDK_OUTDIR; run directly, write where the CLI would instead of a temp dir.
    app = App(outdir=os.environ.get("CDK_OUTDIR") or str(REPO_ROOT / "cdk.out"))
    WordSQDStack(app, StageConfig.from_context(app.node))
    add_checks(app)
    app.synth()


if __name__ == "__main__":
    main()
