"""An item's figure over time: a paper's trace (utilization every second, a window, MR-AIMD's
`a`, the queuing delay per RTT), drawn from the run folders of the item's sweep.

    figure = { series = "link_timeseries", y = "utilization", scale = 100, label = "utilization, %",
               panels = "flows[0].count" }

`series` is a table of the run folder (`timeseries`, `link_timeseries`, `cwnd_trace`),
`queuing_delay_per_rtt` (`aimdlab.series`: x is the round), or a Python function
`module:function` of the run's `Result` returning a DataFrame (e.g. GAIMD's per-flow
accuracy, `aimdlab.papers.gaimd.accuracy:per_flow_accuracy`); `y` its column and `x` the x column
(`time_s` by default, `round` for the per-RTT series). `style = "points"` draws markers
instead of lines (a scatter). `panels` draws one panel per value of an axis (titled
`panel_label = value`), `lines` one (labelled `line_label = value`)
line per value of another within a panel; the flows of a per-flow table are drawn `each`
(the first `max_flows`), or their `sum` or `mean` at each sample. `cumulative` draws the
running sum of `y` times the sample interval (goodput in bit/s becomes data delivered).
`flow_ids = [0, 4]` picks the flows drawn; `diagonal = true` draws y = x; `log = "x"`, `"y"` or
`"xy"` draws those axes on a log scale; `band = [low, high]` shades the y values a claim accepts;
`window = [from_s, to_s]` limits the time axis; `select` picks the runs when they are not the
item's own (e.g. both protocols beside an item about one). Each line is the first seed of its
point.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from ..errors import ScenarioError
from ..plots import plain_log_axis, plain_text
from .axes import axis_values, select_rows

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..sweep import Sweep

__all__ = ["TraceSpec", "parse_trace", "trace_lines", "draw_trace"]

SERIES = ("timeseries", "link_timeseries", "cwnd_trace", "queuing_delay_per_rtt")
_KEYS = {"series", "y", "x", "scale", "label", "panels", "panel_label", "lines", "line_label", "flows", "max_flows", "cumulative", "window", "xlabel", "hline", "select", "style", "diagonal", "flow_ids", "log", "band"}


@dataclass
class TraceSpec:
    """What an item's trace figure draws (see the module doc)."""

    series: str
    y: str
    x: str = "time_s"
    scale: float = 1.0
    label: str = ""
    xlabel: str = ""
    panels: Optional[str] = None
    panel_label: str = ""
    lines: Optional[str] = None
    line_label: str = ""
    flows: str = "each"
    max_flows: int = 4
    cumulative: bool = False
    window: Optional[Tuple[float, float]] = None
    hline: Optional[float] = None
    select: Optional[Dict[str, Any]] = None
    """The runs to draw, when not the item's own `select`."""
    style: str = "lines"
    diagonal: bool = False
    """Draw the line y = x (e.g. Fig. 12's equal-window line)."""
    flow_ids: Optional[List[int]] = None
    """With `flows = "each"`: these flows rather than the first `max_flows`."""
    log: str = ""
    """The axes drawn on a log scale: "x", "y" or "xy" (e.g. loss rates and ratios, as GAIMD's Fig. 6-7)."""
    band: Optional[Tuple[float, float]] = None
    """A band of y values shaded in every panel (e.g. the 0.8-1.25 a claim accepts)."""


def parse_trace(d: Any, where: str) -> TraceSpec:
    """A `figure` table; errors name `where` and the field."""
    if not isinstance(d, dict):
        raise ScenarioError(f"{where}: expected a table, e.g. {{ series = \"link_timeseries\", y = \"utilization\" }}")
    for k in d:
        if k not in _KEYS:
            raise ScenarioError(f"{where}.{k}: unknown field; expected one of {', '.join(sorted(_KEYS))}")
    series = d.get("series")
    if not (series in SERIES or (isinstance(series, str) and ":" in series)):
        raise ScenarioError(f"{where}.series: {series!r} is not accepted; expected one of {', '.join(SERIES)} or module:function")
    if ":" in series:
        from ..sweep.measures import checked_python_function

        try:
            checked_python_function(series)
        except ValueError as e:
            raise ScenarioError(f"{where}.series: {series!r} {e}") from None
    if d.get("style", "lines") not in ("lines", "points"):
        raise ScenarioError(f"{where}.style: {d.get('style')!r} is not accepted; expected \"lines\" or \"points\"")
    if not isinstance(d.get("y"), str):
        raise ScenarioError(f"{where}.y: is missing; the column to draw, e.g. \"utilization\"")
    flows = d.get("flows", "each")
    if flows not in ("each", "sum", "mean"):
        raise ScenarioError(f"{where}.flows: {flows!r} is not accepted; expected \"each\", \"sum\" or \"mean\"")
    window = d.get("window")
    if window is not None and (not isinstance(window, list) or len(window) != 2):
        raise ScenarioError(f"{where}.window: expected [from_s, to_s]")
    if d.get("log", "") not in ("", "x", "y", "xy"):
        raise ScenarioError(f"{where}.log: {d.get('log')!r} is not accepted; expected \"x\", \"y\" or \"xy\"")
    band = d.get("band")
    if band is not None and not (isinstance(band, list) and len(band) == 2 and all(isinstance(v, (int, float)) for v in band) and band[0] < band[1]):
        raise ScenarioError(f"{where}.band: expected [low, high] with low < high")
    x = d.get("x", "round" if d["series"] == "queuing_delay_per_rtt" else "time_s")
    return TraceSpec(series=d["series"], y=d["y"], x=x, scale=float(d.get("scale", 1.0)), label=d.get("label", ""),
                     xlabel=d.get("xlabel", ""), panels=d.get("panels"), panel_label=d.get("panel_label", ""), lines=d.get("lines"),
                     line_label=d.get("line_label", ""), flows=flows, max_flows=int(d.get("max_flows", 4)),
                     cumulative=bool(d.get("cumulative", False)), window=(float(window[0]), float(window[1])) if window else None,
                     hline=d.get("hline"), select=d.get("select"), style=d.get("style", "lines"),
                     diagonal=bool(d.get("diagonal", False)), flow_ids=d.get("flow_ids"), log=d.get("log", ""),
                     band=(float(band[0]), float(band[1])) if band else None)


def _series(folder: Path, spec: TraceSpec) -> "pd.DataFrame":
    """The run's rows of `spec.series`."""
    import pandas as pd

    from ..result import Result
    from ..series import queuing_delay_per_rtt

    if spec.series == "queuing_delay_per_rtt":
        return queuing_delay_per_rtt(Result.load(folder))
    if ":" in spec.series:
        from ..sweep.measures import python_measure

        return python_measure(spec.series)(Result.load(folder))
    path = folder / f"{spec.series}.parquet"
    return pd.read_parquet(path) if path.is_file() else pd.DataFrame()


def trace_lines(sweep: "Sweep", select: Dict[str, Any], spec: TraceSpec) -> List[Tuple[Any, str, List[float], List[float]]]:
    """The figure's lines: (panel value, line label, x, y), one run (the first seed) per
    panel and line value, in the sweep's order."""
    cat = sweep.catalog.to_pandas()
    cat = select_rows(cat[cat["status"] == "ok"], select)
    panels = axis_values(cat, spec.panels) if spec.panels else [None] * len(cat)
    lines = axis_values(cat, spec.lines) if spec.lines else [None] * len(cat)
    seen: Dict[Tuple[str, str], str] = {}
    for rid, p, ln in zip(cat["run_id"], panels, lines):
        seen.setdefault((json.dumps(p), json.dumps(ln)), rid)  # the catalog lists a point's seeds in order
    out = []
    for (p, ln), rid in seen.items():
        df = _series(sweep.run_dir(rid), spec)
        if df.empty or spec.y not in df.columns:
            raise ScenarioError(f"figure.y: the runs' {spec.series} has no column {spec.y!r}" +
                                (f"; it has {', '.join(map(str, df.columns))}" if not df.empty else " (it is empty)"))
        if spec.window is not None:
            df = df[(df[spec.x] >= spec.window[0]) & (df[spec.x] <= spec.window[1])]
        name = "" if ln == "null" else f"{spec.line_label or spec.lines} = {json.loads(ln)}"
        per_flow = "flow" in df.columns and spec.series in ("timeseries", "cwnd_trace")
        if per_flow and spec.flows == "each":
            for f in (spec.flow_ids if spec.flow_ids is not None else sorted(df["flow"].unique())[: spec.max_flows]):
                part = df[df["flow"] == f]
                out.append((json.loads(p), (name + ", " if name else "") + f"flow {f}", *_xy(part, spec)))
        else:
            if per_flow:
                grouped = df.groupby(spec.x)[spec.y]
                df = (grouped.sum() if spec.flows == "sum" else grouped.mean()).reset_index()
            out.append((json.loads(p), name, *_xy(df, spec)))
    return out


def _xy(df: "pd.DataFrame", spec: TraceSpec) -> Tuple[List[float], List[float]]:
    import numpy as np

    x = df[spec.x].to_numpy(dtype=float)
    y = df[spec.y].to_numpy(dtype=float) * spec.scale
    if spec.cumulative:
        step = np.diff(x, prepend=0.0)
        y = np.cumsum(np.nan_to_num(y) * step)
    return x.tolist(), y.tolist()


@plain_text
def draw_trace(lines: List[Tuple[Any, str, List[float], List[float]]], spec: TraceSpec, title: str) -> str:
    """The figure as a PNG data URI: a panel per `panels` value (two columns)."""
    from ..plots import _matplotlib
    from ..sweep.report import png_data_uri

    plt = _matplotlib()
    panel_values = list(dict.fromkeys(json.dumps(p) for p, *_ in lines)) or ["null"]
    n = len(panel_values)
    cols = 1 if n == 1 or spec.style == "points" else 2  # (a scatter gets the page's width per panel)
    rows = (n + cols - 1) // cols
    tall = 4.2 if spec.style == "points" else 3.2  # (a scatter of many points needs the room)
    fig, axes = plt.subplots(rows, cols, figsize=(6.4 if cols == 1 else 9.6, tall * rows), squeeze=False, sharey=True)
    for k, pv in enumerate(panel_values):
        ax = axes[k // cols][k % cols]
        for p, label, x, y in lines:
            if json.dumps(p) == pv:
                if spec.style == "points":
                    ax.plot(x, y, "o", ms=3, alpha=0.8, label=label or None)
                else:
                    ax.plot(x, y, lw=1.0, label=label or None)
        if spec.band is not None:
            ax.axhspan(*spec.band, color="tab:gray", alpha=0.12, lw=0)
        if spec.hline is not None:
            ax.axhline(spec.hline, ls="--", lw=0.8, color="tab:gray")
        for axis in spec.log:
            plain_log_axis(ax, axis)
        if spec.diagonal:
            ax.axline((0, 0), slope=1, ls="--", lw=0.8, color="tab:gray", label="equal")
        if pv != "null":
            ax.set_title(f"{spec.panel_label or spec.panels} = {json.loads(pv)}", fontsize=9)
        ax.set_xlabel(spec.xlabel or {"round": "round trip", "time_s": "time, s"}.get(spec.x, spec.x))
        if k % cols == 0:
            ax.set_ylabel(spec.label or spec.y)
        ax.grid(alpha=0.3)
        if any(label for p, label, *_ in lines if json.dumps(p) == pv):
            ax.legend(fontsize=7)
    for k in range(n, rows * cols):
        axes[k // cols][k % cols].set_visible(False)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return png_data_uri(fig)
