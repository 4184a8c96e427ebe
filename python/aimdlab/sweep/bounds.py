"""What a measure's name says: its unit (`measure_unit`, for the sweep tables' Parquet
metadata) and the range a measure's true mean can take, so that a confidence interval does not claim
values no run could produce (a utilization above 1, a Jain index above 1, a negative count).

The aggregate's Student-t interval (`stats.mean_std_ci95`) is symmetric around the mean; near
a bound it runs past it (five runs at utilization 0.999 ± 0.002 give an upper end of 1.001).
The aggregate clips the interval to the measure's range. Coverage is unchanged: the true
mean lies inside the range, so the clipped interval holds it whenever the symmetric one does.

The range comes from the measure's name, as the engine's columns and summary name them:
fractions (`utilization`, `jain_index`, loss and mark rates, `receiver_p`) lie in [0, 1];
quantities with a unit (`_bps`, `_pkts`, `_bytes`, `_ms`, `_s`) and counts (`timeouts`,
`drops`, ...) are at least 0; a ratio of two such measures (`a / b`) is at least 0. A Python
measure (`module:function`) and any name not recognised are left unbounded.
"""

from __future__ import annotations

import math
from typing import Optional, Tuple

__all__ = ["clip_interval", "measure_bounds", "measure_unit"]

_FRACTIONS = {"utilization", "jain_index", "loss_rate", "loss_event_rate", "ecn_event_rate", "receiver_p", "drop_rate",
              "mark_rate", "timeout_fraction"}
_NONNEGATIVE_SUFFIXES = ("_bps", "_pkts", "_bytes", "_ms", "_s", "_events", "_drops")
_COUNTS = {"timeouts", "drops", "marks", "events", "flows", "retransmissions", "fast_retransmits", "timeout_sequences",
           "ecn_reductions", "loss_events", "loss_reductions", "app_drops", "a", "a_prime"}
_STATS = {"mean", "median", "min", "max", "sum", "std", "cv"}
_UNBOUNDED = (-math.inf, math.inf)


def _stat_and_field(name: str) -> Tuple[Optional[str], str]:
    """(the statistic a measure ends in, or None; the field it is of): `flows.goodput_bps.mean`
    → ("mean", "goodput_bps"), `bottleneck.utilization` → (None, "utilization")."""
    parts = name.strip().split(".")
    stat = parts[-1] if len(parts) > 1 and parts[-1] in _STATS else None
    return stat, parts[-2] if stat else parts[-1]


def _field_bounds(name: str) -> Tuple[float, float]:
    """The range of one measure (not a ratio)."""
    if ":" in name:  # a Python measure: its own
        return _UNBOUNDED
    stat, field = _stat_and_field(name)
    if field in _FRACTIONS:
        low, high = 0.0, 1.0
    elif field in _COUNTS or field.endswith(_NONNEGATIVE_SUFFIXES) or field.endswith("_pkts_max"):
        low, high = 0.0, math.inf
    else:
        return _UNBOUNDED
    if stat == "sum":
        return (low, math.inf)
    if stat in ("std", "cv"):
        return (0.0, math.inf)
    return (low, high)


def measure_bounds(measure: str) -> Tuple[float, float]:
    """(low, high): the range of `measure`'s values, from its name (see the module doc)."""
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


_SUFFIX_UNITS = (("_bps", "bit/s"), ("_pkts", "packets"), ("_bytes", "bytes"), ("_ms", "ms"), ("_s", "s"))


def measure_unit(measure: str) -> str:
    """The unit of `measure`'s values, from its name: `bit/s`, `packets`, `bytes`, `ms`, `s`,
    `1` for a fraction, a ratio or a coefficient of variation; empty for a count or a name not
    recognised (a Python measure)."""
    if " / " in measure:
        return "1"
    if ":" in measure:
        return ""
    stat, field = _stat_and_field(measure)
    if stat == "cv":
        return "1"
    if field in _FRACTIONS:
        return "1"
    for suffix, unit in _SUFFIX_UNITS:
        if field.endswith(suffix):
            return unit
    return ""
