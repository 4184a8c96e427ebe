"""A measure's unit (`measure_unit`, for the sweep tables' Parquet metadata and the figures'
labels) and the range its true mean can take (`measure_bounds`), so that a confidence interval
does not claim values no run could produce (a utilization above 1, a Jain index above 1, a
negative count).

Both come from the engine's declarations (`aimdlab columns`: each result column and each
number of the summary with its unit and range, `monitor/unit.rs`), looked up by what the
measure reads: `flows.COLUMN.STAT` and `groups.GROUP.COLUMN.STAT` a flows-table column,
`timeseries.[GROUP.]COLUMN.STAT` a time-series column, anything else a number of the summary
(`bottleneck.utilization`, `jain_index`). A controller's own state variable, a Python measure
(`module:function`) and any name the engine does not declare are left unbounded, with no unit.

The aggregate's Student-t interval (`stats.mean_std_ci95`) is symmetric around the mean; near
a bound it runs past it (five runs at utilization 0.999 ± 0.002 give an upper end of 1.001).
The aggregate clips the interval to the measure's range. Coverage is unchanged: the true
mean lies inside the range, so the clipped interval holds it whenever the symmetric one does.
A statistic moves the range: a sum of values at least 0 has no upper bound, a standard
deviation and a coefficient of variation are at least 0 (the latter with unit 1), and a ratio
of two measures at least 0 is at least 0, unit 1.
"""

from __future__ import annotations

import functools
import math
from typing import Dict, Optional, Tuple

__all__ = ["clip_interval", "measure_bounds", "measure_unit"]

_STATS = {"mean", "median", "min", "max", "sum", "std", "cv"}
_UNBOUNDED = (-math.inf, math.inf)
_TABLE_OF_PREFIX = {"flows": "flows", "groups": "flows", "timeseries": "timeseries"}


@functools.lru_cache(maxsize=1)
def _declared() -> Dict[Tuple[str, str], Tuple[str, float, float]]:
    """(table, name) → (unit, low, high), as the engine declares them."""
    from .. import _core

    return {(table, name): (unit, low, high) for table, name, unit, _, low, high in _core.columns()}


def _stat_and_field(name: str) -> Tuple[Optional[str], str]:
    """(the statistic a measure ends in, or None; the field it is of): `flows.goodput_bps.mean`
    → ("mean", "goodput_bps"), `bottleneck.utilization` → (None, "utilization")."""
    parts = name.strip().split(".")
    stat = parts[-1] if len(parts) > 1 and parts[-1] in _STATS else None
    return stat, parts[-2] if stat else parts[-1]


def _declaration(name: str) -> Optional[Tuple[str, float, float]]:
    """The engine's (unit, low, high) of the column or summary number one measure (not a
    ratio) reads, or None when it declares none."""
    if ":" in name:  # a Python measure: its own
        return None
    stat, field = _stat_and_field(name)
    prefix = name.strip().split(".")[0]
    if stat is not None and prefix in _TABLE_OF_PREFIX:
        return _declared().get((_TABLE_OF_PREFIX[prefix], field))
    return _declared().get(("summary", name.strip()))


def _field_bounds(name: str) -> Tuple[float, float]:
    """The range of one measure (not a ratio)."""
    found = _declaration(name)
    if found is None:
        return _UNBOUNDED
    _, low, high = found
    stat = _stat_and_field(name)[0]
    if stat == "sum":
        return (low, math.inf)
    if stat in ("std", "cv"):
        return (0.0, math.inf)
    return (low, high)


def measure_bounds(measure: str) -> Tuple[float, float]:
    """(low, high): the range of `measure`'s values, from the engine's declarations (see the
    module doc)."""
    if " / " in measure:
        parts = [_field_bounds(p) for p in measure.split(" / ")]
        return (0.0, math.inf) if all(low >= 0 for low, _ in parts) else _UNBOUNDED
    return _field_bounds(measure)


def clip_interval(measure: str, low: float, high: float) -> Tuple[float, float]:
    """The interval [low, high] clipped to `measure`'s range (NaN stays NaN)."""
    lo_bound, hi_bound = measure_bounds(measure)
    if not math.isnan(low):
        low = min(max(low, lo_bound), hi_bound)
    if not math.isnan(high):
        high = max(min(high, hi_bound), lo_bound)
    return low, high


def measure_unit(measure: str) -> str:
    """The unit of `measure`'s values, as the engine declares the column it reads: `bit/s`,
    `packets`, `bytes`, `ms`, `s`; `1` for a fraction, a ratio or a coefficient of variation;
    empty for a count, or a name the engine does not declare (a Python measure)."""
    if " / " in measure:
        return "1"
    found = _declaration(measure)
    if _stat_and_field(measure)[0] == "cv":
        return "1"
    return found[0] if found is not None else ""
