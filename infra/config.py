"""A stage's settings: one entry of infra/stages.json, picked with `-c stage=<name>` and checked
with pydantic before anything is synthesized, so a bad deploy fails fast and says why.

Fields (defaults in brackets):
- `region` [us-east-1]: where the stage lives. No stage names its account: it comes from
  `-c account=...` or the caller's credentials (infra.edge.synth_env);
- `production` [false]: retain and protect the data (table, user pool, secrets, dead-letter
  queues, logs); requires alarm emails, an SES identity and https origins;
- `allowed_origins` [http://localhost:8000]: exact CORS origins (`scheme://host[:port]`);
- `alarm_emails` [none]: email subscriptions to the stack's alarm topics (each confirms once);
- `throttle` [rate 60,000/s, burst 30,000]: the API stage's default, sized for the rush;
- `route_throttles` [DEFAULT_ROUTE_THROTTLES]: per-route limits, keys `METHOD /path` of shared.http.routes;
- `ses` [none]: Cognito sends its mail through this SES identity;
- `self_sign_up` [true]: players create their own accounts;
- `cognito_plan` [lite]: the user pool's feature plan, `lite` or `essentials` (docs/operations.md,
  "What it costs": the same sign-in for this game, a third of the price at a million players);
- `midnight_capacity` [none]: provisioned concurrency per API function around 00:00 Central;
- `rush_players` [none]: the players the stage plans for in the ten minutes after 00:00 Central;
  scripts/preflight.py checks every quota and partition against that rush's top;
- `warm_throughput` [every on-demand table's and index's own: 12,000 read, 4,000 write units/s]:
  what the table and each GSI serve at once (`{"table": {...}, "indexes": {"due": {...}}}`); above
  the account's per-table quota (40,000 by default) it needs a raise first (scripts/preflight.py);
- `first_daily_date` [none: 2026-01-01, shared/runtime/settings.py]: the deployment's first Daily date,
  from which past Dailies can be played (the daily function's FIRST_DAILY_DATE);
- `board_shards` [32, keys.BOARD_SHARDS]: the `board` index's partitions a board is spread over (every
  table function's BOARD_SHARDS); scripts/preflight.py's board completions/s bound grows with it;
- `monthly_budget` [100]: the account's monthly AWS Budget in USD (infra/money.py), alerts at 80%
  and 100% spent and 100% forecast; prod's is `python benchmarks/cost.py`'s month for a million
  players, rounded up;
- `restored_table` [none]: use this table (restored from point-in-time recovery) instead of the
  stack's own.

Context `asset_dir` (or `$WORDSQD_ASSET_DIR`) points at the Lambda asset (default build/lambda);
`stages_file` at another stages file (tests).
"""

import json
import os
from datetime import date
from pathlib import Path
from typing import Annotated, Any, Literal

from constructs import Node
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from shared.dynamo.keys import BOARD_SHARDS
from shared.dynamo.table import INDEXES
from shared.http.routes import ROUTES
from shared.runtime.settings import MAX_BOARD_SHARDS

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ASSET_DIR = REPO_ROOT / "build" / "lambda"
STAGES_FILE = REPO_ROOT / "infra" / "stages.json"
CDK_JSON = REPO_ROOT / "cdk.json"
DEV_ORIGINS = ("http://localhost:8000",)

# The rush (SPEC §4/§6): a million players in ten minutes, 11 requests a run as measured
# (benchmarks/daily.py: 1 start, 10 answers), is 1e6 * 11 / 600 = 18,333 requests/s on average,
# about three times that at the top. The account's API Gateway quota (10,000/s by default) must be
# raised to match: scripts/preflight.py checks it before a deploy.
DEFAULT_THROTTLE_RATE = 60_000.0
DEFAULT_THROTTLE_BURST = 30_000
# Routes a script could hammer to hurt everyone, capped below the stage limit. A run starts once
# per player: 1e6 / 600 = 1,667 starts/s on average, three times that at the top of the rush.
DEFAULT_ROUTE_THROTTLES: dict[str, dict[str, float]] = {
    "POST /guest/daily/runs": {"rate": 5_000, "burst": 5_000},
    "POST /daily/runs": {"rate": 5_000, "burst": 5_000},
    "POST /challenges": {"rate": 200, "burst": 400},
    "PUT /me": {"rate": 500, "burst": 1_000},
}
ROUTE_KEYS = frozenset(f"{r.method} {r.path}" for r in ROUTES)
FUNCTION_NAMES = ("validate", "daily", "leaderboard", "moderation", "reset", "expire", "counters")

_ORIGIN_PATTERN = r"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?$"
_EMAIL_PATTERN = r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$"


class ConfigError(ValueError):
    """A stage setting that would deploy something wrong; raised before anything is synthesized."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Throttle(_Strict):
    rate: Annotated[float, Field(gt=0)]
    burst: Annotated[int, Field(gt=0)]


class SesIdentity(_Strict):
    """A verified SES identity Cognito sends from (SES must be out of its sandbox for players)."""

    from_email: Annotated[str, Field(pattern=_EMAIL_PATTERN)]
    from_name: str | None = None
    identity: Annotated[str, Field(min_length=3)]  # the verified domain or address
    region: Annotated[str, Field(pattern=r"^[a-z]{2}(-[a-z]+)+-\d$")] | None = None


class RestoredTable(_Strict):
    """A table restored from point-in-time recovery (it has a new name): the stack uses it instead
    of creating its own (docs/operations.md, "Restore from point-in-time recovery")."""

    name: Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]{3,255}$")]
    stream_arn: Annotated[
        str, Field(pattern=r"^arn:aws[a-z-]*:dynamodb:[a-z0-9-]+:\d{12}:table/.+/stream/.+$")
    ]


# What every new on-demand table and GSI can serve at once (AWS's floor for warm throughput); the
# default per-table quota is 40,000 read and 40,000 write units/s.
BASE_READ_UNITS = 12_000
BASE_WRITE_UNITS = 4_000


class WarmThroughput(_Strict):
    """DynamoDB pre-warming: the table (or an index) can serve this at once, without waiting to
    double its previous peak (on-demand's rule). Billed once per increase."""

    read_units_per_second: Annotated[int, Field(ge=BASE_READ_UNITS, le=10_000_000)] = BASE_READ_UNITS
    write_units_per_second: Annotated[int, Field(ge=BASE_WRITE_UNITS, le=10_000_000)] = BASE_WRITE_UNITS


class TableWarmThroughput(_Strict):
    """The table's warm throughput and each GSI's (an index absorbs its own writes: a table warmed
    for the rush still throttles if an index is not)."""

    table: WarmThroughput = WarmThroughput()
    indexes: dict[str, WarmThroughput] = Field(default_factory=dict)

    @field_validator("indexes")
    @classmethod
    def _known_indexes(cls, value: dict[str, WarmThroughput]) -> dict[str, WarmThroughput]:
        unknown = set(value) - set(INDEXES)
        if unknown:
            raise ValueError(f"no such index {sorted(unknown)}; the table's are {sorted(INDEXES)}")
        return value

    def index(self, name: str) -> WarmThroughput:
        return self.indexes.get(name, WarmThroughput())


class MidnightCapacity(_Strict):
    """Provisioned concurrency held on each function's alias from `start` to `end` Central time."""

    start: Annotated[str, Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")] = "23:45"
    end: Annotated[str, Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")] = "00:30"
    functions: dict[str, Annotated[int, Field(ge=1, le=10_000)]]

    @field_validator("functions")
    @classmethod
    def _known_functions(cls, value: dict[str, int]) -> dict[str, int]:
        unknown = set(value) - {"validate", "daily", "leaderboard"}
        if unknown:
            raise ValueError(f"only the API functions take midnight capacity, not {sorted(unknown)}")
        return value


class StageConfig(_Strict):
    stage: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,19}$")]
    region: Annotated[str, Field(pattern=r"^[a-z]{2}(-[a-z]+)+-\d$")] = "us-east-1"
    production: bool = False
    allowed_origins: tuple[Annotated[str, Field(pattern=_ORIGIN_PATTERN)], ...] = DEV_ORIGINS
    alarm_emails: tuple[Annotated[str, Field(pattern=_EMAIL_PATTERN)], ...] = ()
    throttle: Throttle = Throttle(rate=DEFAULT_THROTTLE_RATE, burst=DEFAULT_THROTTLE_BURST)
    route_throttles: dict[str, Throttle] = Field(
        default_factory=lambda: {k: Throttle(**v) for k, v in DEFAULT_ROUTE_THROTTLES.items()}
    )
    ses: SesIdentity | None = None
    self_sign_up: bool = True
    cognito_plan: Literal["lite", "essentials"] = "lite"
    midnight_capacity: MidnightCapacity | None = None
    rush_players: Annotated[int, Field(ge=1)] | None = None
    restored_table: RestoredTable | None = None
    warm_throughput: TableWarmThroughput = TableWarmThroughput()
    first_daily_date: date | None = None
    board_shards: Annotated[int, Field(ge=1, le=MAX_BOARD_SHARDS)] = BOARD_SHARDS
    monthly_budget: Annotated[float, Field(gt=0)] = 100.0
    asset_dir: Path = DEFAULT_ASSET_DIR

    @field_validator("allowed_origins")
    @classmethod
    def _some_origin(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if not value:
            raise ValueError("name at least one origin, e.g. https://your.site")
        return value

    @field_validator("route_throttles")
    @classmethod
    def _known_routes(cls, value: dict[str, Throttle]) -> dict[str, Throttle]:
        unknown = set(value) - ROUTE_KEYS
        if unknown:
            raise ValueError(
                f"no such route {sorted(unknown)}; routes are 'METHOD /path' of shared.http.routes"
            )
        return value

    @model_validator(mode="after")
    def _production_needs(self) -> "StageConfig":
        if self.production:
            missing = [
                what
                for what, ok in [
                    ("alarm_emails", bool(self.alarm_emails)),
                    ("ses", self.ses is not None),
                ]
                if not ok
            ]
            if missing:
                raise ValueError(f"a production stage needs {', '.join(missing)}")
            plain = [o for o in self.allowed_origins if not o.startswith("https://")]
            if plain:
                raise ValueError(f"production origins must be https: {plain}")
        for key, limit in self.route_throttles.items():
            if limit.rate > self.throttle.rate:
                raise ValueError(
                    f"route {key!r} rate {limit.rate} is above the stage rate {self.throttle.rate}"
                )
        if not self.asset_dir.is_dir():
            raise ValueError(f"Lambda asset folder {self.asset_dir} not found: run `make build`")
        return self

    @property
    def stack_name(self) -> str:
        return f"WordSQD-{self.stage}"

    @classmethod
    def load(cls, stage: str, stages: dict[str, Any], asset_dir: Path) -> "StageConfig":
        if stage not in stages:
            raise ConfigError(f"stage {stage!r} is not in the stages file; known: {sorted(stages)}")
        if "account" in stages[stage]:
            raise ConfigError(
                f"stage {stage!r}: a stage names no account; pass -c account=... or deploy with "
                "that account's credentials"
            )
        try:
            return cls(stage=stage, asset_dir=asset_dir, **stages[stage])
        except (ValidationError, TypeError) as error:
            raise ConfigError(f"stage {stage!r}: {_explain(error)}") from None

    @classmethod
    def from_context(cls, node: Node) -> "StageConfig":
        def get(key: str) -> Any:
            value = node.try_get_context(key)
            return None if value in (None, "") else value

        stage = str(get("stage") or "dev")
        stages_file = Path(get("stages_file") or STAGES_FILE)
        try:
            stages = json.loads((REPO_ROOT / stages_file).read_text())
        except (OSError, json.JSONDecodeError) as error:
            raise ConfigError(f"stages file {stages_file}: {error}") from None
        asset = get("asset_dir") or os.environ.get("WORDSQD_ASSET_DIR") or DEFAULT_ASSET_DIR
        return cls.load(stage, stages, (REPO_ROOT / asset).resolve())


def _explain(error: Exception) -> str:
    if not isinstance(error, ValidationError):
        return str(error)
    parts = []
    for item in error.errors():
        where = ".".join(str(p) for p in item["loc"]) or "stage"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


def feature_flags() -> dict[str, Any]:
    """cdk.json's context (the recommended feature flags), so `python -m infra.app` and the tests
    synthesize the same template as the CDK CLI."""
    return dict(json.loads(CDK_JSON.read_text()).get("context", {}))
