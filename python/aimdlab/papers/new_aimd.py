"""Jasem et al., New-AIMD's bottleneck utilization (shared/papers/new-aimd-utilization.txt): the
measure its Fig. 3-6 need beyond the run tables.

`lowest_utilization_per_second_pct` is the paper's per-second utilization, read as Table 1 is
(the flows' goodput over the bottleneck's capacity): the flows' summed goodput in each
sampling interval after the warm-up, over the capacity, and the lowest of those, in percent.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["lowest_utilization_per_second_pct"]


def lowest_utilization_per_second_pct(result: Any) -> float:
    """The lowest, over the sampling intervals after the warm-up, of the flows' summed goodput
    over the bottleneck's rate, in percent (a sweep measure; NaN without samples)."""
    series = result.timeseries.to_pandas()
    warmup_s = float(result.summary.get("warmup_s", 0.0))
    rows = series[series["time_s"] > warmup_s]
    if rows.empty:
        return math.nan
    per_interval = rows.groupby("time_s")["goodput_bps"].sum()
    return float(per_interval.min()) / float(result.summary["bottleneck"]["rate_bps"]) * 100.0
