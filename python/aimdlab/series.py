"""Time series derived from a run's sampled tables.

`queuing_delay_per_rtt` is the measure of Jasem et al., *New-AIMD: queue and end-to-end
delay* (shared/papers/new-aimd-delay.txt, "Results of the second experiment", Fig. 7a-10a:
"Average delays vs. RTT", measured "every RTT"): the mean time packets waited in the
bottleneck queue, averaged round trip by round trip.

The paper does not say how its rounds are cut. The reading here: round k starts where round
k-1 ended (round 0 at the first sample in which the link sent a packet) and lasts the flows'
mean smoothed RTT at its start (the RTT the senders themselves see, queuing included); its
value is the mean queuing delay of the packets that started transmission on the link during
the round (the link series' `queuing_delay_ms` weighted by its `tx_pkts`); the last round ends
with the last sample in which the link sent anything. Rounds are cut on
the sample grid, so the run's `sample_interval` must be well below the RTT (a round is
never shorter than one sample).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["queuing_delay_per_rtt"]


def _frame(table: Any) -> "pd.DataFrame":
    return table.to_pandas() if hasattr(table, "to_pandas") else table


def queuing_delay_per_rtt(result: Any, link: Optional[int] = None) -> "pd.DataFrame":
    """Mean queuing delay per round trip on `link` (a link index; default: the only link
    the run sampled). `result` is a `Result`, or anything with `link_timeseries` and
    `timeseries` tables. Returns a DataFrame with one row per round: `round`, `start_s`,
    `rtt_ms` (its length), `tx_pkts` and `queuing_delay_ms` (NaN when no packet left the
    queue in the round)."""
    import pandas as pd

    lts = _frame(result.link_timeseries)
    fts = _frame(result.timeseries)
    links = sorted(lts["link"].unique()) if len(lts) else []
    if link is None:
        if len(links) != 1:
            raise ValueError(f"link: the run sampled {len(links)} links ({links}); say which one")
        link = int(links[0])
    elif link not in links:
        raise ValueError(f"link: {link} was not sampled; the sampled links are {links}")
    if len(fts) == 0 or not np.isfinite(fts["srtt_ms"]).any():
        raise ValueError("timeseries: no flow was sampled with an RTT estimate, so there are no round trips to cut (set sampled_flows)")
    lt = lts[lts["link"] == link].sort_values("time_s")
    times = lt["time_s"].to_numpy()
    tx = lt["tx_pkts"].to_numpy().astype(float)
    waited = np.where(tx > 0, np.nan_to_num(lt["queuing_delay_ms"].to_numpy()) * tx, 0.0)
    rtt_at = fts.groupby("time_s")["srtt_ms"].mean()  # flows' mean srtt at each sample (NaN-skipping)
    rtt_times = rtt_at.index.to_numpy()
    rtt_ms = rtt_at.to_numpy()
    # Sample i covers (times[i-1], times[i]]; rounds start at the first sample that sent anything.
    busy = np.flatnonzero(tx > 0)
    rows = []
    if len(busy):
        step = float(times[1] - times[0]) if len(times) > 1 else math.inf
        i = int(busy[0])
        start = float(times[i - 1]) if i > 0 else float(times[i]) - step
        k, end_busy = 0, int(busy[-1])
        while i <= end_busy:  # rounds end with the last sample that sent anything
            # The RTT the senders see at the round's start: the latest finite sample at or before it.
            j = np.searchsorted(rtt_times, start + 1e-12, side="right") - 1
            finite = np.flatnonzero(np.isfinite(rtt_ms[: max(int(j), 0) + 1]))
            rtt = float(rtt_ms[finite[-1]]) if len(finite) else float(np.nanmin(rtt_ms))
            end = start + rtt / 1000.0
            last = max(i, int(np.searchsorted(times, end - 1e-12, side="left")))  # at least one sample
            last = min(last, len(times) - 1)
            n = tx[i : last + 1].sum()
            rows.append((k, start, (float(times[last]) - start) * 1000.0, int(n),
                         waited[i : last + 1].sum() / n if n else math.nan))
            start, i, k = float(times[last]), last + 1, k + 1
    return pd.DataFrame(rows, columns=["round", "start_s", "rtt_ms", "tx_pkts", "queuing_delay_ms"])
