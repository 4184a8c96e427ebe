"""Yang & Lam, "General AIMD Congestion Control" (shared/papers/gaimd.txt): the series its
reproduction draws beyond the run tables.

`window_phase` is Fig. 12's view (§3.1): the window of a GAIMD flow against that of a TCP flow
with the same RTT, sample by sample, so that a trace crossing the equal-window line y = x shows
the two taking turns at the larger window.
"""

from __future__ import annotations

from typing import Any

__all__ = ["window_phase"]


def window_phase(result: Any):
    """The cwnd of the first flow of group "gaimd" and of the first of group "tcp" at each
    sample (a `timeseries` with both flows sampled): a DataFrame with `time_s`, `tcp_cwnd_pkts`
    and `gaimd_cwnd_pkts`."""
    flows = result.flows.to_pandas()
    ts = result.timeseries.to_pandas()
    first = {}
    for group in ("gaimd", "tcp"):
        ids = flows.loc[flows["group_name"] == group, "flow"]
        if ids.empty:
            raise ValueError(f'the run has no flow group named "{group}"')
        first[group] = int(ids.iloc[0])
    g = ts[ts["flow"] == first["gaimd"]][["time_s", "cwnd_pkts"]].rename(columns={"cwnd_pkts": "gaimd_cwnd_pkts"})
    t = ts[ts["flow"] == first["tcp"]][["time_s", "cwnd_pkts"]].rename(columns={"cwnd_pkts": "tcp_cwnd_pkts"})
    if g.empty or t.empty:
        raise ValueError("timeseries: the first GAIMD and TCP flows were not sampled (set sampled_flows)")
    return g.merge(t, on="time_s")
