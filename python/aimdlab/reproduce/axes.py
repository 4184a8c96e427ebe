"""Axis values as the sweep's tables keep them: a plain axis is a column; a linked axis
("a, b, c") is one column of JSON lists, one element per field; a table value is JSON text."""

from __future__ import annotations

import json
import math
import numbers
from typing import Any, Dict, List

from ..sweep.experiment import axis_fields

__all__ = ["same_x", "axis_values", "select_rows"]


def same_x(a: Any, b: Any) -> bool:
    """Whether two axis values are the same point (2 and 2.0 are; "10ms" and "10ms" are)."""
    if isinstance(a, numbers.Real) and isinstance(b, numbers.Real) and not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-12)
    # A table or list value is stored in the catalog as its JSON text: compare either way.
    return str(a) == str(b) or json.dumps(a) == str(b) or json.dumps(b) == str(a)


def axis_values(agg, field: str) -> List[Any]:
    """The values of `field` in a sweep table's rows (aggregate or catalog), as Python values: an axis's column, or
    the element of a linked axis ("a, b, c") that sets that field (its column holds the values
    as JSON)."""
    if field in agg.columns:
        return [v.item() if hasattr(v, "item") else v for v in agg[field]]  # numpy scalars to Python
    for column in agg.columns:
        paths = axis_fields(str(column))
        if len(paths) > 1 and field in paths:
            k = paths.index(field)
            return [json.loads(v)[k] for v in agg[column]]
    raise KeyError(f"select: {field!r} is not an axis of the sweep, nor a field of a linked axis")


def select_rows(table, select: Dict[str, Any]):
    """The rows of a sweep table (aggregate or catalog) where each selected axis, or field of
    a linked axis, has its value."""
    import numpy as np

    for axis, value in select.items():
        # A boolean array, not a list: an empty list would select no columns of an empty table.
        table = table[np.array([same_x(v, value) for v in axis_values(table, axis)], dtype=bool)]
    return table
