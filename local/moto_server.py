"""moto's DynamoDB server for `make run` (local/store.py starts it as a child process).

It is `python -m moto.server`, less one thing: moto records every model instance it ever creates
(for its dashboard), and its TransactWriteItems deep-copies the whole table to roll back with,
so each transaction's copy would be kept for good: gigabytes after a few thousand completions
(`make rush`). Here instances are created without that record.
"""

from typing import Any

from moto.core.common_models import BaseModel
from moto.server import main


def _untracked(cls: type, *args: Any, **kwargs: Any) -> Any:
    return object.__new__(cls)


BaseModel.__new__ = _untracked  # type: ignore[method-assign,assignment]

if __name__ == "__main__":
    main()
