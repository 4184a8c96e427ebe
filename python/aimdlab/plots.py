"""Figures of a run (matplotlib): the overview that `aimdlab run` writes next to its results."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple, TypeVar, Union

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


def plain_log_axis(ax: Any, axis: str = "x", subs: Optional[Tuple[float, ...]] = None) -> None:
    """Draws `axis` ("x" or "y") of `ax` on a log scale with plain tick labels (`0.01`, not
    10^-2: mathtext is off under `plain_text`) and none on the minor ticks; `subs` places the
    major ticks at those multiples of each decade (default: the decades)."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    getattr(ax, f"set_{axis}scale")("log")
    scale = getattr(ax, f"{axis}axis")
    if subs is not None:
        scale.set_major_locator(LogLocator(subs=subs))
    scale.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    scale.set_minor_formatter(NullFormatter())


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


PIXEL_COLUMNS = 1200
"""Points per drawn line: a series longer than this is reduced to each column's minimum and
maximum (the sawtooth stays; what one pixel cannot show is not drawn)."""

NAMED_FLOWS = 3
"""Flows drawn in full, by name, when there are too many to draw each (the first, middle and last)."""


def _flow_matrices(ts, columns):
    """The sampled flows' `columns` as (times × flows) arrays (NaN where a flow has no
    sample), with the sample times and the flow ids, from the Arrow time series."""
    import numpy as np

    from .result import column_numpy

    flow = column_numpy(ts, "flow")
    time_s = column_numpy(ts, "time_s")
    # The engine's series is a grid, time-major: every sampled flow at every sample time.
    restarts = np.flatnonzero(flow[1:] <= flow[:-1])  # where the flow ids start over: the next time
    first = int(restarts[0]) + 1 if len(restarts) else len(flow)
    if len(flow) % first == 0:
        grid = (len(flow) // first, first)
        if np.array_equal(flow.reshape(grid), np.broadcast_to(flow[:first], grid)) and (time_s.reshape(grid) == time_s[::first, None]).all():
            return time_s[::first], flow[:first], [column_numpy(ts, c).astype(float).reshape(grid) for c in columns]
    times, ti = np.unique(time_s, return_inverse=True)
    flows = np.unique(flow)
    fi = np.searchsorted(flows, flow)
    out = []
    for column in columns:
        m = np.full((len(times), len(flows)), np.nan)
        m[ti, fi] = column_numpy(ts, column).astype(float)
        out.append(m)
    return times, flows, out


def _moving_mean(m, window: int):
    """Each column's moving average over `window` samples (fewer at the start), NaN-aware."""
    import numpy as np

    if window <= 1:
        return m
    ok = ~np.isnan(m)
    total = np.cumsum(np.where(ok, m, 0.0), axis=0)
    count = np.cumsum(ok, axis=0)
    total[window:] = total[window:] - total[:-window]
    count[window:] = count[window:] - count[:-window]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def _bins(v, fill, columns: int):
    """`v` padded with `fill` and reshaped to `columns` rows of consecutive values."""
    import numpy as np

    k = -(-len(v) // columns)
    return np.concatenate([v, np.full(k * columns - len(v), fill)]).reshape(columns, k)


def _decimate(x, y, columns: int = PIXEL_COLUMNS):
    """`(x, y)` reduced to each of `columns` bins' minimum and maximum, in time order."""
    import numpy as np

    if len(x) <= 2 * columns:
        return x, y
    yy, xx = _bins(y, np.nan, columns), _bins(x, x[-1], columns)
    keep = ~np.all(np.isnan(yy), axis=1)
    yy, xx = yy[keep], xx[keep]
    lo, hi = np.nanargmin(yy, axis=1), np.nanargmax(yy, axis=1)
    first, second = np.minimum(lo, hi), np.maximum(lo, hi)
    rows = np.arange(len(yy))
    xs = np.column_stack([xx[rows, first], xx[rows, second]]).ravel()
    ys = np.column_stack([yy[rows, first], yy[rows, second]]).ravel()
    return xs, ys


def _envelope(x, low, high, columns: int = PIXEL_COLUMNS):
    """A band `low`-`high` over `x` reduced to `columns` bins: each bin's lowest low and
    highest high, at the bin's first x (a band drawn at the figure's resolution)."""
    import warnings

    import numpy as np

    if len(x) <= 2 * columns:
        return x, low, high
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (a bin with no flow sampled yet)
        return (_bins(x, x[-1], columns)[:, 0], np.nanmin(_bins(low, np.nan, columns), axis=1),
                np.nanmax(_bins(high, np.nan, columns), axis=1))


def _row_quantiles(m, qs):
    """Each row's quantiles `qs` over its non-NaN values (linear interpolation, as numpy's
    default), NaN for an empty row: `np.nanpercentile` without its per-row Python loop."""
    import numpy as np

    srt = np.sort(m, axis=1)  # NaN last
    n = np.sum(~np.isnan(m), axis=1)
    rows = np.arange(len(m))
    out = []
    for q in qs:
        pos = q * np.maximum(n - 1, 0)
        lo = np.floor(pos).astype(int)
        hi = np.minimum(lo + 1, np.maximum(n - 1, 0))
        frac = pos - lo
        value = srt[rows, lo] * (1 - frac) + srt[rows, hi] * frac
        out.append(np.where(n > 0, value, np.nan))
    return np.array(out)


def _draw_flows(ax, times, flows, m, scale: float, names: dict) -> None:
    """A panel of per-flow series: every flow by name when there are few; else the flows'
    range and 10th-90th percentile band, their mean in bold, and `NAMED_FLOWS` flows in full
    (so the cost does not grow with the number of flows a figure cannot show apart)."""
    import numpy as np

    if len(flows) <= MAX_LABELLED_FLOWS:
        for j, f in enumerate(flows):
            x, y = _decimate(times, m[:, j] * scale)
            ax.plot(x, y, lw=1.1, label=f"flow {f}{names.get(int(f), '')}")
        return
    low, p10, p90, high = _row_quantiles(m, (0.0, 0.1, 0.9, 1.0)) * scale
    count = np.sum(~np.isnan(m), axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(count > 0, np.nansum(m, axis=1) / np.maximum(count, 1), np.nan) * scale
    x, low, high = _envelope(times, low, high)
    ax.fill_between(x, low, high, color="tab:blue", alpha=0.10, lw=0, label=f"range of {len(flows)} flows")
    x, p10, p90 = _envelope(times, p10, p90)
    ax.fill_between(x, p10, p90, color="tab:blue", alpha=0.25, lw=0, label="10th-90th percentile")
    for j in sorted({0, len(flows) // 2, len(flows) - 1})[:NAMED_FLOWS]:
        x, y = _decimate(times, m[:, j] * scale)
        ax.plot(x, y, lw=0.7, alpha=0.9, label=f"flow {flows[j]}{names.get(int(flows[j]), '')}")
    x, y = _decimate(times, mean)
    ax.plot(x, y, color="k", lw=1.6, label=f"mean of {len(flows)} flows")


@plain_text
def overview(result: "Result", goodput_window_s: float = 1.0) -> "Figure":
    """Three stacked panels over time: cwnd per flow, bottleneck queue length, goodput per flow.

    Goodput is drawn as a moving average over `goodput_window_s` (default 1 s): per-sample
    goodput swings between zero and several times the fair share as windows arrive in bursts,
    which hides the shares one wants to compare. The raw samples are in `result.timeseries`.
    With more than ten flows, the panels draw the flows' range and 10th-90th percentile band,
    their mean in bold, and three flows (first, middle, last) in full, saying which. Series
    longer than the figure is wide are reduced to each pixel column's minimum and maximum.
    Flows with a `cwnd_trace` get their exact window as a step line and their reductions
    marked by cause (loss, timeout, ECN).
    """
    plt = _matplotlib()
    ts = result.timeseries
    summary = result.summary
    # Fixed margins rather than constrained layout: a quarter of a second less per figure.
    fig, axes = plt.subplots(3, 1, figsize=(9, 8.5), sharex=True)
    fig.subplots_adjust(left=0.09, right=0.98, top=0.925, bottom=0.06, hspace=0.28)
    ax_cwnd, ax_q, ax_gp = axes
    flows: list = []
    interval = float(ts.column("time_s")[0].as_py()) if ts.num_rows else 1.0
    window = max(1, int(round(goodput_window_s / interval)))
    # Label flows with their group and controller when the run has several groups.
    ft = result.flows
    names = {}
    if ft.num_rows and len(set(ft.column("group_name").to_pylist())) > 1:
        # (The group's name alone when it is its controller's.)
        names = {int(f): f" ({g})" if g == c else f" ({g}, {c})"
                 for f, g, c in zip(ft.column("flow").to_pylist(), ft.column("group_name").to_pylist(), ft.column("cc").to_pylist())}
    if ts.num_rows:
        times, flows_arr, (cwnd, goodput) = _flow_matrices(ts, ("cwnd_pkts", "goodput_bps"))
        flows = list(flows_arr)
        _draw_flows(ax_cwnd, times, flows_arr, cwnd, 1.0, names)
        _draw_flows(ax_gp, times, flows_arr, _moving_mean(goodput, window), 1e-6, names)
    _draw_cwnd_trace(ax_cwnd, result)
    n_all = summary.get("flows") or len(flows)
    if not flows:
        for ax in (ax_cwnd, ax_gp):
            ax.text(0.5, 0.5, 'no flow time series recorded (sampled_flows = "none")', ha="center", va="center", transform=ax.transAxes)
    sampled = "" if len(flows) in (0, n_all) else f" (sampled: {len(flows)} of {n_all} flows)"
    ax_cwnd.set_ylabel("cwnd (packets)")
    ax_cwnd.set_title("Congestion window" + sampled)
    bneck = summary.get("bottleneck") or {}
    _draw_queues(ax_q, result, bneck)
    ax_q.set_ylabel("queue (packets)")
    ax_gp.set_ylabel("goodput (Mbit/s)")
    ax_gp.set_xlabel("time (s)")
    ax_gp.set_title(f"Goodput ({window * interval:g} s moving average)" + sampled)
    if flows:
        _draw_fair_shares(ax_gp, result, flows)
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
    parts = [summary.get("name") or "scenario", f"{summary['flows']} flow{'' if summary['flows'] == 1 else 's'}", f"seed {summary['seed']}"]
    if isinstance(util, (int, float)):
        parts.append(f"utilization {100 * util:.1f}%")
    if isinstance(jain, (int, float)):
        parts.append(f"Jain {jain:.3f}")
    fig.suptitle(" · ".join(parts), fontsize=11)
    return fig


def _draw_queues(ax_q, result: "Result", bneck: dict) -> None:
    """The queue panel: every monitored link's queue, named, when there are several (a parking
    lot's hops); else the bottleneck's, with RED's average when it runs RED."""
    lts = result.link_timeseries
    if lts.num_rows:
        import numpy as np

        from .result import column_numpy

        link = column_numpy(lts, "link")
        monitored = list(dict.fromkeys(link.tolist()))
        if len(monitored) > 1:  # e.g. a parking lot's hops: every monitored link's queue, named
            link_names = dict(zip(result.links.column("link").to_pylist(), result.links.column("name").to_pylist())) \
                if result.links.num_rows else {}
            t, queue = column_numpy(lts, "time_s"), column_numpy(lts, "queue_len_pkts").astype(float)
            for k in monitored[:MAX_LABELLED_FLOWS]:
                x, y = _decimate(t[link == k], queue[link == k])
                ax_q.plot(x, y, lw=1.0, label=str(link_names.get(k, f"link {k}")))
            ax_q.legend(loc="upper right", fontsize=8, ncol=2)
            more = f", the first {MAX_LABELLED_FLOWS}" if len(monitored) > MAX_LABELLED_FLOWS else ""
            ax_q.set_title(f"Queues of the {len(monitored)} monitored links{more}")
        else:
            first = link == link[0]
            t = column_numpy(lts, "time_s")[first]
            x, y = _decimate(t, column_numpy(lts, "queue_len_pkts").astype(float)[first])
            ax_q.plot(x, y, color="tab:red", lw=1.0, label="queue")
            if "red_avg" in lts.column_names:
                avg = column_numpy(lts, "red_avg").astype(float)[first]
                if np.isfinite(avg).any():
                    x, y = _decimate(t, avg)
                    ax_q.plot(x, y, color="k", lw=1.2, ls="--", label="RED average")
                    ax_q.legend(loc="upper right", fontsize=8)
            ax_q.set_title(f"Bottleneck queue ({bneck.get('link', 'link ' + str(link[0]))})")
    else:
        ax_q.text(0.5, 0.5, "no monitored link", ha="center", va="center", transform=ax_q.transAxes)
        ax_q.set_title("Bottleneck queue")


def _draw_fair_shares(ax, result: "Result", flows: list) -> None:
    """The drawn flows' max-min fair shares (the flows table's `fair_share_bps`, from the
    topology: rate / N on a dumbbell, half a hop on a parking lot of equal hops) as dashed
    lines, one per distinct share (at most three, the most common), each naming its flows."""
    from collections import Counter

    from .result import column_numpy

    ft = result.flows
    if not ft.num_rows or "fair_share_bps" not in ft.column_names:
        return
    share_of = dict(zip(column_numpy(ft, "flow").tolist(), column_numpy(ft, "fair_share_bps").tolist()))
    counts = Counter(round(share_of[int(f)], 3) for f in flows if int(f) in share_of and share_of[int(f)] != float("inf"))
    shown = counts.most_common(3)
    for i, (share, count) in enumerate(sorted(shown, reverse=True)):
        who = "" if len(counts) == 1 else f", {count} flow{'' if count == 1 else 's'}"
        label = f"max-min fair share {share / 1e6:.3g} Mbit/s{who}"
        ax.axhline(share / 1e6, color="grey", ls=("--", ":", "-.")[i], lw=0.9, label=label)


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


