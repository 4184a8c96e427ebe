"""Sweep measures: what a run is summed up by in a sweep's catalog.

A measure is a summary field (`bottleneck.utilization`); a statistic of a flows-table column
over all flows (`flows.goodput_bps.mean`) or one group (`groups.gaimd.loss_event_rate.mean`);
a statistic of a time-series column over each flow's samples after the warm-up, averaged over
the flows or one group's (`timeseries.a.mean`, `timeseries.gaimd.send_rate_bps.cv`); a Python
function of the run's `Result`, `module:function`; or the ratio of two (`A / B`). Statistics:
mean, median, min, max, sum, std, cv (std / mean).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, Optional, Sequence

from ..errors import MeasureError, ScenarioError
from ..imports import USER_CODE_ERRORS, ImportNameError, raised

__all__ = ["STATS", "MeasureError", "measure", "run_measures", "python_measure", "checked_python_function", "check_measures", "is_table_measure", "is_series_measure", "is_python_measure"]

STATS = ("mean", "median", "min", "max", "sum", "std", "cv")
"""The statistics a measure may take (over flows, or over a flow's samples)."""


def _measure_error(where: str, m: str, why: str) -> ScenarioError:
    return ScenarioError(f'{where}: "{m}" {why}')


def is_table_measure(name: str) -> bool:
    """Whether measure `name` reads the flows table: a statistic over flows
    (`flows.COLUMN.STAT`, `groups.GROUP.COLUMN.STAT`; `flows` alone is the summary's flow
    count), or a ratio with such a side."""
    if " / " in name:
        return any(is_table_measure(p.strip()) for p in name.split(" / "))
    parts = name.split(".")
    return parts[0] in ("flows", "groups") and len(parts) > 1


def is_series_measure(name: str) -> bool:
    """Whether measure `name` reads the per-flow time series: `timeseries.[GROUP.]COLUMN.STAT`,
    a statistic over each sampled flow's samples after the warm-up, averaged over the flows
    (of one group) — e.g. MR-AIMD's mean `a`, `timeseries.a.mean`, or GAIMD's rate smoothness,
    `timeseries.gaimd.send_rate_bps.cv` — or a ratio with such a side."""
    if " / " in name:
        return any(is_series_measure(p.strip()) for p in name.split(" / "))
    return not is_python_measure(name) and name.split(".")[0] == "timeseries"


def is_python_measure(name: str) -> bool:
    """Whether measure `name` is a Python function, `module:function`, called with each run's
    `Result` and returning a number (e.g. `aimdlab.papers.gaimd.accuracy:eq2_ratio`), or a ratio
    with such a side."""
    if " / " in name:
        return any(is_python_measure(p.strip()) for p in name.split(" / "))
    return ":" in name


def check_measures(measures: Sequence[str], summary: Dict[str, Any], flow_columns: Sequence[str], groups: Sequence[str],
                   series_columns: Optional[Sequence[str]] = None) -> None:
    """Checks each measure against a run's summary, flows-table columns, group names and
    time-series columns (unchecked when None); raises `ScenarioError` naming the measure."""
    for i, whole in enumerate(measures):
        where = f"measures[{i}]"
        if whole.count(" / ") > 1:
            raise _measure_error(where, whole, "divides more than once; a measure is NAME or NAME / NAME")
        for m in (p.strip() for p in whole.split(" / ")):
            _check_one_measure(where, m, summary, flow_columns, groups, series_columns)


def _check_one_measure(where: str, m: str, summary: Dict[str, Any], flow_columns: Sequence[str], groups: Sequence[str],
                       series_columns: Optional[Sequence[str]] = None) -> None:
    """`check_measures` for one measure (one side of a ratio)."""
    parts = m.split(".")
    if is_python_measure(m):
        try:
            checked_python_function(m)
        except ValueError as e:
            raise _measure_error(where, m, f"{e}; a Python measure is a function of the run's Result") from None
        return
    if is_series_measure(m):
        if len(parts) not in (3, 4):
            raise _measure_error(where, m, "is not timeseries.[GROUP.]COLUMN.STAT, e.g. timeseries.cwnd_pkts.mean")
        column, stat = parts[-2], parts[-1]
        if len(parts) == 4 and parts[1] not in groups:
            raise _measure_error(where, m, f"names no flow group; the groups are {', '.join(map(repr, groups))}")
        if series_columns is not None and column not in series_columns:
            raise _measure_error(where, m, f"names no column of the time series ({column!r}); its columns are {', '.join(series_columns)}")
        if stat not in STATS:
            raise _measure_error(where, m, f"takes the statistic {stat!r}; expected one of {', '.join(STATS)}")
        return
    if is_table_measure(m):
        if parts[0] == "groups":
            if len(parts) != 4:
                raise _measure_error(where, m, "is not groups.GROUP.COLUMN.STAT, e.g. groups.reno.goodput_bps.mean")
            if parts[1] not in groups:
                raise _measure_error(where, m, f"names no flow group; the groups are {', '.join(map(repr, groups))}")
            column, stat = parts[2], parts[3]
        else:
            if len(parts) != 3:
                raise _measure_error(where, m, "is not flows.COLUMN.STAT, e.g. flows.goodput_bps.mean")
            column, stat = parts[1], parts[2]
        if column not in flow_columns:
            raise _measure_error(where, m, f"names no column of the flows table ({column!r}); `aimdlab columns flows` lists them")
        if stat not in STATS:
            raise _measure_error(where, m, f"takes the statistic {stat!r}; expected one of {', '.join(STATS)}")
        return
    if not summary:
        return  # no probe summary to check against
    node: Any = summary
    for p in parts:
        if not isinstance(node, dict) or p not in node:
            keys = sorted(k for k, v in summary.items() if isinstance(v, (int, float)) and not isinstance(v, bool))
            raise _measure_error(where, m, f"is not a number of the run summary; summary fields include {', '.join(keys)}, "
                                           "bottleneck.utilization, ...; or flows.COLUMN.STAT, groups.GROUP.COLUMN.STAT")
        node = node[p]
    if isinstance(node, bool) or not isinstance(node, (int, float, type(None))):
        raise _measure_error(where, m, "is not a number of the run summary")


def _statistic(values, stat: str) -> float:
    """`stat` of the finite `values` (a pandas Series); NaN when none is finite (and for std
    and cv, when fewer than two are)."""
    values = values.astype(float)
    values = values[values.notna() & (values.abs() != math.inf)]
    if values.empty:
        return math.nan
    if stat in ("std", "cv"):
        if len(values) < 2:
            return math.nan
        std = float(values.std(ddof=1))
        if stat == "std":
            return std
        mean = float(values.mean())
        return std / mean if mean else math.nan
    return float(getattr(values, stat)())


def measure(name: str, summary: Dict[str, Any], flows, series=None, run=None) -> float:
    """The value of measure `name` (see `experiment.py`) for one run: a summary field; a
    statistic of a flows-table column over all flows or one group; a statistic of a
    time-series column over each flow's samples after the warm-up, averaged over the flows
    (all, or one group's); or a Python measure `module:function`, called with the run's
    `Result`. NaN if no value is finite. `flows`, `series` and `run` are the run's flows table
    and time series (DataFrames) and its `Result`, needed only by the measures that read them."""
    if " / " in name:
        top, bottom = (measure(part.strip(), summary, flows, series, run) for part in name.split(" / ", 1))
        return top / bottom if bottom != 0 else math.nan
    if is_python_measure(name):
        try:
            value = python_measure(name)(run)
        except USER_CODE_ERRORS as e:  # the user's code: its failure is that run's, named
            raise MeasureError(f"measures: {name} raised {raised(e)}") from None
        if value is None:
            return math.nan
        try:
            return float(value)
        except (TypeError, ValueError):
            raise MeasureError(f"measures: {name} returned {type(value).__name__} {str(value)[:60]!r}, not a number") from None
    parts = name.split(".")
    if is_series_measure(name):
        group, column, stat = (None, parts[1], parts[2]) if len(parts) == 3 else (parts[1], parts[2], parts[3])
        if column not in series.columns:
            return math.nan  # (the probe checked the column; a run without sampled flows has none)
        rows = series[series["time_s"] > summary.get("warmup_s", 0.0)]
        if group is not None:
            rows = rows[rows["flow"].isin(flows.loc[flows["group_name"] == group, "flow"])]
        per_flow = [_statistic(v, stat) for _, v in rows.groupby("flow")[column]]
        per_flow = [v for v in per_flow if math.isfinite(v)]
        return float(sum(per_flow) / len(per_flow)) if per_flow else math.nan
    if is_table_measure(name):
        if parts[0] == "groups":
            group, column, stat = parts[1], parts[2], parts[3]
            return _statistic(flows.loc[flows["group_name"] == group, column], stat)
        return _statistic(flows[parts[1]], parts[2])
    node: Any = summary
    for p in parts:
        node = node.get(p) if isinstance(node, dict) else None
    return math.nan if node is None else float(node)


def run_measures(measures: Sequence[str], summary: Dict[str, Any], flows: Callable[[], Any], series: Callable[[], Any],
                 run: Callable[[], Any]) -> Dict[str, float]:
    """Each of `measures` for one run (see `measure`); `flows`, `series` and `run` give the
    run's flows table and time series (DataFrames) and its `Result`, each called only if a
    measure reads it."""
    table = flows() if any(is_table_measure(m) or is_series_measure(m) for m in measures) else None
    samples = series() if any(is_series_measure(m) for m in measures) else None
    result = run() if any(is_python_measure(m) for m in measures) else None
    return {m: measure(m, summary, table, samples, result) for m in measures}


def python_measure(name: str) -> Callable[..., Any]:
    """The function a Python measure `module:function` names (see `aimdlab.imports`)."""
    from ..imports import import_name

    return import_name(name.strip())


def checked_python_function(name: str) -> Callable[..., Any]:
    """`python_measure(name)`, or a `ValueError` saying why it names no function (a sweep's
    Python measure, a reproduction's trace series or model)."""
    try:
        fn = python_measure(name)
    except ImportNameError as e:
        raise ValueError(f"is not an importable function module:function ({e})") from None
    if not callable(fn):
        raise ValueError("is not callable")
    return fn
