"""Jasem et al., New-AIMD's bottleneck utilization (shared/papers/new-aimd-utilization.txt): the
measure its Fig. 3-6 need beyond the run tables.

`lowest_utilization_per_second_pct` is the paper's per-second utilization, read as Table 1 is
(the flows' goodput over the bottleneck's capacity): the flows' summed goodput in each
sampling interval after the warm-up, over the capacity, and the lowest of those, in percent.

`busy_until_done_pct` (new-aimd-delay.txt's 12 % claim) is the share of time the bottleneck
transmits from the first flow's start until the last transfer completes: the idle time a
faster window rule could win back.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["lowest_utilization_per_second_pct", "busy_until_done_pct"]


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


def busy_until_done_pct(result: Any) -> float:
    """The bottleneck's busy time, in percent, over the sampling intervals from the first
    flow's start to the last finite transfer's completion (a sweep measure; NaN when a transfer
    did not complete)."""
    flows = result.flows.to_pandas()
    done = flows["completion_time_s"]
    if done.isna().any():
        return math.nan
    start_s = float(flows["start_s"].min())
    end_s = float((flows["start_s"] + done).max())
    links = result.links.to_pandas()
    index = int(links.loc[links["name"] == result.summary["bottleneck"]["link"], "link"].iloc[0])
    series = result.link_timeseries.to_pandas()
    bottleneck = series[series["link"] == index]
    during = bottleneck[(bottleneck["time_s"] > start_s) & (bottleneck["time_s"] <= end_s)]
    return float(during["utilization"].mean()) * 100.0 if not during.empty else math.nan
