"""Figures of a run (matplotlib): the overview that `aimdlab run` writes next to its results."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TypeVar, Union

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from .result import Result

__all__ = ["overview", "save_figure"]

MAX_LABELLED_FLOWS = 10


_Draw = TypeVar("_Draw", bound=Callable[..., Any])


def plain_text(draw: _Draw) -> _Draw:
    """Draws with matplotlib's mathtext off: names and values from scenarios are text, so a `$`
    in them is a dollar sign, not the start of a formula that fails to parse."""

    @functools.wraps(draw)
    def drawn(*args: Any, **kwargs: Any) -> Any:
        import matplotlib

        with matplotlib.rc_context({"text.parse_math": False}):
            return draw(*args, **kwargs)

    return drawn  # type: ignore[return-value]


def _matplotlib():
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


#: How the cwnd panel marks a traced flow's window reductions (`cwnd_trace`).
_CAUSE_MARKERS = (("loss", "x", "tab:red"), ("timeout", "v", "tab:purple"), ("ecn", "o", "tab:orange"))


def _draw_cwnd_trace(ax, result: "Result") -> None:
    """Over the sampled windows: the exact window of the traced flows (at most ten) as a
    step line, and their reductions marked by cause."""
    if not result.cwnd_trace.num_rows:
        return
    tr = result.cwnd_trace.to_pandas()
    traced = sorted(tr["flow"].unique())[:MAX_LABELLED_FLOWS]
    tr = tr[tr["flow"].isin(traced)]
    for i, f in enumerate(traced):
        d = tr[tr["flow"] == f]
        label = f"exact cwnd of {'flow ' + str(f) if len(traced) == 1 else str(len(traced)) + ' traced flows'}" if i == 0 else None
        ax.step(d["time_s"], d["cwnd_pkts"], where="post", lw=0.6, color="k", alpha=0.7, label=label)
    cause = tr["cause"].astype(str)
    for name, marker, color in _CAUSE_MARKERS:
        e = tr[cause == name]
        if len(e):
            ax.plot(e["time_s"], e["cwnd_pkts"], ls="none", marker=marker, ms=5, mew=1.2, color=color, mfc="none", label=f"{name} cut ({len(e)})")


@plain_text
def overview(result: "Result", goodput_window_s: float = 1.0) -> "Figure":
    """Three stacked panels over time: cwnd per flow, bottleneck queue length, goodput per flow.

    Goodput is drawn as a moving average over `goodput_window_s` (default 1 s): per-sample
    goodput swings between zero and several times the fair share as windows arrive in bursts,
    which hides the shares one wants to compare. The raw samples are in `result.timeseries`.
    With more than ten flows, individual flows are drawn thin and unlabelled, and the mean
    across flows is drawn bold. Flows with a `cwnd_trace` get their exact window as a step
    line and their reductions marked by cause (loss, timeout, ECN).
    """
    plt = _matplotlib()
    ts = result.timeseries.to_pandas()
    lts = result.link_timeseries.to_pandas()
    summary = result.summary
    fig, axes = plt.subplots(3, 1, figsize=(9, 8.5), sharex=True, constrained_layout=True)
    ax_cwnd, ax_q, ax_gp = axes
    flows = sorted(ts["flow"].unique()) if len(ts) else []
    many = len(flows) > MAX_LABELLED_FLOWS
    interval = float(ts["time_s"].iloc[0]) if len(ts) else 1.0
    window = max(1, int(round(goodput_window_s / interval)))
    if len(ts):
        ts = ts.assign(goodput_smooth_bps=ts.groupby("flow")["goodput_bps"].transform(
            lambda g: g.rolling(window, min_periods=1).mean()))
    # Label flows with their group and controller when the run has several groups.
    ft = result.flows.to_pandas()
    names = {}
    if len(ft) and ft["group_name"].nunique() > 1:
        names = {int(r.flow): f" ({r.group_name}, {r.cc})" for r in ft.itertuples()}
    for f in flows:
        d = ts[ts["flow"] == f]
        kw = dict(lw=0.5, alpha=0.35) if many else dict(lw=1.1, label=f"flow {f}{names.get(int(f), '')}")
        ax_cwnd.plot(d["time_s"], d["cwnd_pkts"], **kw)
        ax_gp.plot(d["time_s"], d["goodput_smooth_bps"] / 1e6, **kw)
    if many and len(ts):
        mean = ts.groupby("time_s")[["cwnd_pkts", "goodput_smooth_bps"]].mean()
        ax_cwnd.plot(mean.index, mean["cwnd_pkts"], color="k", lw=1.6, label=f"mean of {len(flows)} flows")
        ax_gp.plot(mean.index, mean["goodput_smooth_bps"] / 1e6, color="k", lw=1.6, label=f"mean of {len(flows)} flows")
    _draw_cwnd_trace(ax_cwnd, result)
    n_all = summary.get("flows") or len(flows)
    if not flows:
        for ax in (ax_cwnd, ax_gp):
            ax.text(0.5, 0.5, 'no flow time series recorded (sampled_flows = "none")', ha="center", va="center", transform=ax.transAxes)
    sampled = "" if len(flows) in (0, n_all) else f" (sampled: {len(flows)} of {n_all} flows)"
    ax_cwnd.set_ylabel("cwnd (packets)")
    ax_cwnd.set_title("Congestion window" + sampled)
    bneck = summary.get("bottleneck") or {}
    if len(lts):
        link0 = lts["link"].iloc[0]
        d = lts[lts["link"] == link0]
        ax_q.plot(d["time_s"], d["queue_len_pkts"], color="tab:red", lw=1.0, label="queue")
        if "red_avg" in d and d["red_avg"].notna().any():
            ax_q.plot(d["time_s"], d["red_avg"], color="k", lw=1.2, ls="--", label="RED average")
            ax_q.legend(loc="upper right", fontsize=8)
        ax_q.set_title(f"Bottleneck queue ({bneck.get('link', 'link ' + str(link0))})")
    else:
        ax_q.text(0.5, 0.5, "no monitored link", ha="center", va="center", transform=ax_q.transAxes)
        ax_q.set_title("Bottleneck queue")
    ax_q.set_ylabel("queue (packets)")
    ax_gp.set_ylabel("goodput (Mbit/s)")
    ax_gp.set_xlabel("time (s)")
    ax_gp.set_title(f"Goodput ({window * interval:g} s moving average)" + sampled)
    if bneck.get("rate_bps") and flows:
        share = bneck["rate_bps"] / n_all / 1e6
        label = "bottleneck rate" if n_all == 1 else f"fair share (rate / {n_all})"
        ax_gp.axhline(share, color="grey", ls="--", lw=0.9, label=label)
    warmup = summary.get("warmup_s") or 0
    for ax in axes:
        if warmup > 0:
            ax.axvspan(0, warmup, color="grey", alpha=0.08, lw=0)
        ax.grid(True, alpha=0.3)
        ax.set_ylim(bottom=0)
    for ax in (ax_cwnd, ax_gp):
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="upper right", fontsize=8, ncol=2)
    util = bneck.get("utilization")
    jain = summary.get("jain_index")
    parts = [summary.get("name") or "scenario", f"{summary['flows']} flows", f"seed {summary['seed']}"]
    if isinstance(util, (int, float)):
        parts.append(f"utilization {100 * util:.1f}%")
    if isinstance(jain, (int, float)):
        parts.append(f"Jain {jain:.3f}")
    fig.suptitle(" · ".join(parts), fontsize=11)
    return fig


def save_figure(fig: "Figure", path: Union[str, Path], dpi: int = 130) -> Path:
    """Saves `fig` (format from the suffix: .png, .pdf, .svg) atomically and closes it."""
    import io

    from .result import write_atomic

    plt = _matplotlib()
    path = Path(path)
    buf = io.BytesIO()
    try:
        fig.savefig(buf, format=path.suffix.lstrip(".").lower() or "png", dpi=dpi)
    finally:
        plt.close(fig)
    write_atomic(path, buf.getvalue())  # whole or absent, even on a full disk
    return path


