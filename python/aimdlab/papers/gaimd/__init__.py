"""Yang & Lam, "General AIMD Congestion Control" (shared/papers/gaimd.txt): the series its
reproduction draws beyond the run tables.

`tcp_friendly_alpha`, `rate_ratio_to` and `rate_ratio_td` are the analytic model of §3
(eq. 2, 6, 7; Fig. 10 and 11) in the form `aimdlab reproduce` judges a model item: a function
returning `{"x": [...], "y": [...]}`.

`window_phase` is Fig. 12's view (§3.1): the window of a GAIMD flow against that of a TCP flow
with the same RTT, sample by sample, so that a trace crossing the equal-window line y = x shows
the two taking turns at the larger window.
"""

from __future__ import annotations

from typing import Any

__all__ = ["window_phase", "equal_window_crossings", "synchronous_window_ratio", "tcp_friendly_alpha", "rate_ratio_to", "rate_ratio_td", "alpha_star_eq2", "alpha_star_full",
           "td_minus_to", "to_minus_optimum", "gaimd_normalized_rate", "tcp_normalized_rate"]

THRESHOLDS = [0.1, 0.2, 0.3, 0.5, 0.7]
"""Fig. 9's weight-function thresholds."""

BETAS = [0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9]
"""The β at which Fig. 10's curves are compared."""

T0_OVER_RTT = 4.0
"""T0 = 4 RTT, the ratio the paper's §3 curves assume."""

LOSS_PCT = [0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0]
"""The loss rates (%) Fig. 11's ratios are read at."""


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


def equal_window_crossings(result: Any) -> float:
    """Fig. 12's crossings (a sweep measure): how often, after the warm-up, the trace of
    `window_phase` crosses the equal-window line, i.e. the sign of the GAIMD window minus the
    TCP window changes from one sample to the next (equal windows are skipped)."""
    phase = window_phase(result)
    phase = phase[phase["time_s"] > float(result.summary.get("warmup_s", 0.0))]
    signs = [s for s in (phase["gaimd_cwnd_pkts"] - phase["tcp_cwnd_pkts"]).apply(lambda d: (d > 0) - (d < 0)) if s != 0]
    return float(sum(1 for a, b in zip(signs, signs[1:]) if a != b))


def equal_window_gap(result: Any) -> float:
    """Fig. 12's "the trace will not converge to the equal window size curve" (a sweep
    measure): over the second half of the run, the mean distance between the GAIMD and the TCP
    window of `window_phase`, as a fraction of their mean window (0: the trace sits on the line)."""
    phase = window_phase(result)
    start = float(result.summary.get("warmup_s", 0.0))
    half = phase[phase["time_s"] > start + (float(phase["time_s"].max()) - start) / 2]
    mean = float((half["gaimd_cwnd_pkts"] + half["tcp_cwnd_pkts"]).mean()) / 2
    return float((half["gaimd_cwnd_pkts"] - half["tcp_cwnd_pkts"]).abs().mean()) / mean if mean > 0 else float("nan")


def synchronous_window_ratio():
    """Fig. 12's model with synchronous feedback (§3.1 and its [5], Chiu-Jain eq. (1) with a
    rule per user): a GAIMD(0.31, 0.875) user and a TCP user told the same congestion signal;
    the mean GAIMD load over the mean TCP load after the first half of 40,000 steps, against the
    goal load X_goal (the link's capacity in packets)."""
    from ...models import chiu_jain

    goals = [20, 50, 100, 200, 400]
    ratios = []
    for goal in goals:
        x = chiu_jain.simulate([1.0, 10.0], goal, [chiu_jain.gaimd(0.31, 0.875), chiu_jain.aimd()], 40000)["x"][20000:]
        ratios.append(float(x[:, 0].mean() / x[:, 1].mean()))
    return {"x": goals, "y": ratios}


def tcp_friendly_alpha():
    """Fig. 10: the TCP-friendly α of eq. (7) (matching the TO terms), α = 4(1 − β²)/3, for
    β from 0.5 to 0.95 (the α = 0.31 at β = 7/8 and 0.58 at 3/4 the paper uses)."""
    from ...models import gaimd as model

    betas = [0.5, 0.6, 0.7, 0.75, 0.8, 0.875, 0.9, 0.95]
    return {"x": betas, "y": [float(model.tcp_friendly_alpha_to(b)) for b in betas]}


def _ratio(alpha: float, beta: float):
    from ...models import gaimd as model

    return {"x": LOSS_PCT, "y": [float(model.normalized_rate(alpha, beta, p / 100.0, 1.0, T0_OVER_RTT)) for p in LOSS_PCT]}


def rate_ratio_to():
    """Fig. 11: T(α, 7/8) / T(1, 1/2) against the loss rate (%), α from eq. (7) (0.3125)."""
    from ...models import gaimd as model

    return _ratio(float(model.tcp_friendly_alpha_to(0.875)), 0.875)


def rate_ratio_td():
    """Fig. 11: the same with α from eq. (6), matching the TD terms (0.2)."""
    from ...models import gaimd as model

    return _ratio(float(model.tcp_friendly_alpha_td(0.875)), 0.875)


def alpha_star_eq2(t0_over_rtt: float = T0_OVER_RTT, b: int = 1):
    """Fig. 9: the α* minimizing eq. (8) for β = 7/8, T0 = 4 RTT, against the weight
    threshold, with T from eq. (2); `b` packets per ACK (the paper's b, not given for Fig. 9)."""
    from ...models import gaimd as model

    return {"x": THRESHOLDS, "y": [model.tcp_friendly_alpha_error_min(0.875, th, t0_over_rtt, b) for th in THRESHOLDS]}


def alpha_star_full(t0_over_rtt: float = T0_OVER_RTT, b: int = 1):
    """The same with T from the Appendix's full eq. (55)."""
    from ...models import gaimd as model

    return {"x": THRESHOLDS, "y": [model.tcp_friendly_alpha_error_min(0.875, th, t0_over_rtt, b, full=True) for th in THRESHOLDS]}


def td_minus_to():
    """Fig. 10: the TCP-friendly α of eq. (6) minus that of eq. (7), against β."""
    from ...models import gaimd as model

    return {"x": BETAS, "y": [float(model.tcp_friendly_alpha_td(b) - model.tcp_friendly_alpha_to(b)) for b in BETAS]}


def to_minus_optimum():
    """Fig. 10: eq. (7)'s α minus the error-minimizing α* at a 40 % threshold, against β."""
    from ...models import gaimd as model

    return {"x": BETAS, "y": [float(model.tcp_friendly_alpha_to(b)) - model.tcp_friendly_alpha_error_min(b, 0.4, T0_OVER_RTT) for b in BETAS]}


def to_over_optimum(t0_over_rtt: float = T0_OVER_RTT, b: int = 1):
    """Fig. 10: eq. (7)'s α over the error-minimizing α* at a 40 % threshold, minus 1 (the
    relative gap), against β; T0 = `t0_over_rtt` RTT and `b` packets per ACK (Fig. 10 gives
    neither: Fig. 9's 4 RTT and one ACK per packet by default)."""
    from ...models import gaimd as model

    return {"x": BETAS, "y": [float(model.tcp_friendly_alpha_to(beta)) / model.tcp_friendly_alpha_error_min(beta, 0.4, t0_over_rtt, b) - 1
                              for beta in BETAS]}


def _normalized(result, group: str) -> float:
    flows = result.flows.to_pandas()
    rate = float(result.summary["bottleneck"]["rate_bps"])
    share = rate / len(flows)
    return float(flows.loc[flows["group_name"] == group, "send_rate_bps"].mean()) / share


def gaimd_normalized_rate(result) -> float:
    """Fig. 13-20's y axis (a sweep measure): the GAIMD flows' mean sending rate over the fair
    share, the bottleneck's rate divided by the number of flows (1: an equal share)."""
    return _normalized(result, "gaimd")


def tcp_normalized_rate(result) -> float:
    """The same for the TCP flows (group "tcp")."""
    return _normalized(result, "tcp")
