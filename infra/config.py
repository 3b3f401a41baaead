"""A stage's settings, read once from CDK context (`cdk deploy -c stage=prod -c allowed_origins=...`).

| context key | default | meaning |
|---|---|---|
| `stage` | `dev` | names the stack (`WordSQD-<stage>`); `prod` retains data and protects it |
| `allowed_origins` | `http://localhost:8000` (required for `prod`) | comma-separated CORS origins |
| `throttle_rate` | 100 | API default steady-state requests per second |
| `throttle_burst` | 200 | API default burst |
| `alarm_topic_arn` | none | an existing SNS topic that every alarm notifies |
| `asset_dir` | `$WORDSQD_ASSET_DIR` or `build/lambda` | the Lambda asset folder (`make build`) |
"""

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from constructs import Node

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ASSET_DIR = REPO_ROOT / "build" / "lambda"
PRODUCTION_STAGE = "prod"
DEV_ORIGINS = ("http://localhost:8000",)
DEFAULT_THROTTLE_RATE = 100.0
DEFAULT_THROTTLE_BURST = 200

_STAGE = re.compile(r"^[a-z][a-z0-9-]{0,19}$")
# An origin is exactly what a browser sends in the Origin header: scheme, host, optional port.
_ORIGIN = re.compile(r"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?$")


class ConfigError(ValueError):
    """A context value that would deploy something wrong; raised before anything is synthesized."""


@dataclass(frozen=True)
class StageConfig:
    stage: str
    allowed_origins: tuple[str, ...]
    asset_dir: Path
    throttle_rate: float = DEFAULT_THROTTLE_RATE
    throttle_burst: int = DEFAULT_THROTTLE_BURST
    alarm_topic_arn: str | None = None

    def __post_init__(self) -> None:
        if not _STAGE.match(self.stage):
            raise ConfigError(f"stage {self.stage!r}: use 1-20 of a-z, 0-9, '-', starting a-z")
        if not self.allowed_origins:
            raise ConfigError(
                f"stage {self.stage!r} needs -c allowed_origins=https://your.site[,https://...]"
            )
        for origin in self.allowed_origins:
            if not _ORIGIN.match(origin):
                raise ConfigError(f"allowed origin {origin!r} must look like https://host[:port]")
            if self.production and not origin.startswith("https://"):
                raise ConfigError(f"allowed origin {origin!r}: production origins must be https")
        if self.throttle_rate <= 0 or self.throttle_burst <= 0:
            raise ConfigError("throttle_rate and throttle_burst must be positive")
        if not self.asset_dir.is_dir():
            raise ConfigError(f"Lambda asset folder {self.asset_dir} not found: run `make build`")

    @property
    def production(self) -> bool:
        return self.stage == PRODUCTION_STAGE

    @property
    def stack_name(self) -> str:
        return f"WordSQD-{self.stage}"

    @classmethod
    def from_context(cls, node: Node) -> "StageConfig":
        def get(key: str) -> Any:
            value = node.try_get_context(key)
            return None if value in (None, "") else value

        stage = str(get("stage") or "dev")
        origins = get("allowed_origins")
        if origins is None:
            # Production must name its site; any other stage may fall back to `make run`'s page.
            allowed = () if stage == PRODUCTION_STAGE else DEV_ORIGINS
        else:
            # `-c` gives a string; a cdk.json context entry may already be a list.
            parts = origins.split(",") if isinstance(origins, str) else origins
            allowed = tuple(p.strip() for p in parts if p.strip())
        asset = get("asset_dir") or os.environ.get("WORDSQD_ASSET_DIR") or DEFAULT_ASSET_DIR
        return cls(
            stage=stage,
            allowed_origins=allowed,
            asset_dir=(REPO_ROOT / asset).resolve(),
            throttle_rate=float(get("throttle_rate") or DEFAULT_THROTTLE_RATE),
            throttle_burst=int(get("throttle_burst") or DEFAULT_THROTTLE_BURST),
            alarm_topic_arn=get("alarm_topic_arn"),
        )
