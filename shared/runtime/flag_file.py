"""Feature flags from a local JSON file (shared/runtime/flags.py), in Powertools' schema."""

import json
from pathlib import Path
from typing import Any

from aws_lambda_powertools.utilities.feature_flags.base import StoreProvider


class FileStore(StoreProvider):
    """Flags from a local JSON file, read on every evaluation (an edit applies at once)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @property
    def get_raw_configuration(self) -> dict[str, Any]:
        loaded = json.loads(self.path.read_text())
        if not isinstance(loaded, dict):
            raise ValueError(f"{self.path}: feature flags must be a JSON object")
        return loaded

    def get_configuration(self) -> dict[str, Any]:
        return self.get_raw_configuration
