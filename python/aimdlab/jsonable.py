"""Values as JSON holds them, for every JSON aimdlab writes or prints (`--json`, a
crosscheck's record): NaN and infinity as null, paths as text, numpy scalars as numbers."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

__all__ = ["jsonable"]


def jsonable(value: Any) -> Any:
    """`value` as JSON can hold it: NaN and infinity as null, paths as text, numpy scalars as
    numbers, tuples as lists."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if hasattr(value, "item") and callable(value.item) and type(value).__module__ == "numpy":
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
