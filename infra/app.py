"""The CDK app: `python -m infra.app [-c key=value ...]` (writes cdk.out/), or `cdk synth|deploy`
through cdk.json (the CLI passes its own `-c` the same way).

Context: `-c stage=prod` picks the stage's entry of infra/stages.json (see infra.config);
`-c account=...` the account (else the caller's credentials, see infra.edge.synth_env);
`-c emergency="<reason>"` the midnight guard's emergency door (infra/guard.py).
Each stage is three stacks: `WordSQD-<stage>`, and in us-east-1 `WordSQD-<stage>-EdgeSecurity`
(the web ACL) and `WordSQD-<stage>-EdgeAlarms` (CloudFront's alarms).
"""

import argparse
import os
import sys
from collections.abc import Sequence

from aws_cdk import App

from infra.checks import add_checks
from infra.config import REPO_ROOT, StageConfig, feature_flags
from infra.stack import WordSQDStack


def context_arguments(argv: Sequence[str]) -> dict[str, str]:
    """`-c key=value` (or `--context key=value`), as many as given, as the CDK CLI reads them."""
    parser = argparse.ArgumentParser(prog="python -m infra.app", description="Synthesize a WordSQD stage.")
    parser.add_argument("-c", "--context", action="append", default=[], metavar="KEY=VALUE")
    pairs = parser.parse_args(argv).context
    bad = [p for p in pairs if "=" not in p]
    if bad:
        parser.error(f"context must be KEY=VALUE, not {bad}")
    return dict(p.split("=", 1) for p in pairs)


def main(argv: Sequence[str] | None = None) -> None:
    # The CDK CLI sets CDK_OUTDIR; run directly, write where the CLI would instead of a temp dir.
    # cdk.json's feature flags are passed here too, so a direct run synthesizes what `cdk` does.
    context = {**feature_flags(), **context_arguments(argv if argv is not None else sys.argv[1:])}
    if "deployed_at" in context:  # the guard's stamp, fixed: an update that would skip the guard
        sys.exit("-c deployed_at is for the template tests only; in the freeze use -c emergency=<reason>")
    app = App(outdir=os.environ.get("CDK_OUTDIR") or str(REPO_ROOT / "cdk.out"), context=context)
    WordSQDStack(app, StageConfig.from_context(app.node))
    add_checks(app)
    app.synth()


if __name__ == "__main__":
    main()
