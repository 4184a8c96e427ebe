"""Judging a paper's items: each item's points from its sweep's aggregate (or its model), its
verdict by the rules of `verdict.py`, the --quick and seed-stability checks, and the results
a reproduction collects (`ItemResult`, `PaperResult`). `aimdlab reproduce` runs the sweeps and
links the causes (`reproduce/__init__.py`); this module only reads them.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import numbers
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

from ..errors import ScenarioError
from ..sweep import Sweep, load_experiment, open_sweep
from ..sweep.experiment import axis_fields
from ..sweep.stats import mean_std_ci95
from .axes import axis_values, same_x, select_rows
from .items import Item, Judged, ModelItem, NotJudgedItem, OnSweep, SweepItem
from .notes import PLACEHOLDER, fill
from .paper import Paper
from .trace import trace_lines
from .verdict import (
    CANNOT,
    CLASSES,
    DIFFERS,
    INCONCLUSIVE,
    NOT_CHECKABLE,
    NOT_JUDGED_QUICK,
    REPRODUCED,
    RESULT,
    SENSITIVITY,
    VERDICTS,
    Verdict,
    check_claim,
    compare,
    worst,
)

__all__ = ["ItemResult", "PaperResult", "total_tally", "evaluate"]


@dataclass
class ItemResult:
    """An item's outcome: aimdlab's points along x (mean and 95 % CI, scaled), the published
    points, each point's verdict and the item's."""

    item: Item
    x: List[Any] = field(default_factory=list)
    mean: List[float] = field(default_factory=list)
    low: List[float] = field(default_factory=list)
    high: List[float] = field(default_factory=list)
    runs: List[int] = field(default_factory=list)
    group: List[Any] = field(default_factory=list)
    """Each point's value of the item's `group` axis (empty without one)."""
    points: List[Verdict] = field(default_factory=list)
    verdict: Verdict = field(default_factory=lambda: Verdict(CANNOT))
    trace: List[Any] = field(default_factory=list)
    """The item's trace figure's lines (`trace.trace_lines`), when it has one."""
    sensitivity: List[Any] = field(default_factory=list)
    """(value, ItemResult) for each other value of the item's sensitivity axis."""
    also: Dict[str, List[float]] = field(default_factory=dict)
    """The item's `also` measures' means along x, by label (drawn, not judged)."""
    plot_x: List[float] = field(default_factory=list)
    """Each point's mean of the item's `plot_x` measure (scaled), where the figure draws it."""
    stable: Optional[bool] = None
    """Whether the verdict stays the same with any one seed left out (None: not checked, as
    for sweeps of fewer than three seeds)."""
    peer: Optional["ItemResult"] = None
    """The item judged on ns-2.35's runs of the same set-ups (`reproduce.peer`), when the paper
    has them stored."""
    cause: str = ""
    """The item's note with the numbers it quotes filled from this run (`notes.fill`)."""
    tested_cause: Optional[str] = None
    """How a difference's cause was tested (set by `link_causes`): "check", "sensitivity",
    "ns-2.35" or "screen"; None when it was not, or the item does not differ."""
    screen: Optional[Any] = None
    """The stored screen of the paper's unstated parameters for this item (an `explain.Screen`), if any."""


@dataclass
class PaperResult:
    """A paper's outcome: its items' results and where its sweeps are."""

    paper: Paper
    items: List[ItemResult]
    sweeps: Dict[str, Path]
    quick: bool
    peer_provenance: Dict[str, Any] = field(default_factory=dict)
    """Where the items' ns-2.35 values came from (version, date, command), when stored."""

    def counts(self) -> Dict[str, int]:
        """How many paper results (items of class `result`) got each verdict."""
        out = {v: 0 for v in VERDICTS}
        for r in self.items:
            if r.item.kind == RESULT:
                out[r.verdict.verdict] += 1
        return out

    def shown(self) -> Dict[str, int]:
        """How many items of each other class (calibrated, sensitivity, context) are shown
        beside the results, not counted as reproductions."""
        out = {c: 0 for c in CLASSES if c != RESULT}
        for r in self.items:
            if r.item.kind != RESULT:
                out[r.item.kind] += 1
        return out

    def tally(self) -> Dict[str, int]:
        """`counts` (paper results by verdict) followed by `shown` (the other classes)."""
        return {**self.counts(), **self.shown()}


def total_tally(results: List[PaperResult]) -> Dict[str, int]:
    """`PaperResult.tally` summed over papers."""
    totals: Dict[str, int] = {}
    for r in results:
        for k, v in r.tally().items():
            totals[k] = totals.get(k, 0) + v
    return totals


def evaluate(item: Item, sweep: Union[Sweep, Path, None]) -> ItemResult:
    """An item's verdicts from its sweep's aggregate (see `ItemResult`); `sweep` is the
    sweep or its folder. With a `sensitivity` axis, the item is judged again at each other
    value of it (`ItemResult.sensitivity`)."""
    if sweep is not None and not isinstance(sweep, Sweep):
        sweep = open_sweep(sweep)
    res = _evaluate(item, sweep)
    if isinstance(item, SweepItem) and item.sensitivity is not None and sweep is not None:
        own = item.select[item.sensitivity]
        values = list(dict.fromkeys(json.dumps(v) for v in axis_values(sweep.aggregate.to_pandas(), item.sensitivity)))
        wanted = item.sensitivity_values
        for v in (json.loads(t) for t in values):
            if not same_x(v, own) and (wanted is None or any(same_x(v, w) for w in wanted)):
                other = dataclasses.replace(item, select={**item.select, item.sensitivity: v}, figure=None, sensitivity=None, kind=SENSITIVITY)
                res.sensitivity.append((v, _evaluate(other, sweep)))
    if sweep is not None and isinstance(item, SweepItem):
        _check_stability(item, res, sweep)
    quotes = sweep is not None and PLACEHOLDER.search(item.cause) is not None
    select = item.select if isinstance(item, OnSweep) else {}
    res.cause = fill(item.cause, res.x, res.mean, sweep.aggregate.to_pandas() if sweep is not None and quotes else None, select)
    return res


@dataclass
class _SeedSubset:
    """A sweep's tables with some seeds left out (what `_evaluate` reads of a sweep)."""

    experiment: Dict[str, Any]
    catalog: Any
    aggregate: Any


_LEFT_OUT: "weakref.WeakKeyDictionary[Sweep, List[Tuple[int, _SeedSubset]]]" = weakref.WeakKeyDictionary()
"""Each sweep's tables with one seed left out, by seed: built once per sweep, read by every
item judged on it."""


def _seed_subsets(sweep: Sweep) -> List[Tuple[int, _SeedSubset]]:
    """The sweep's tables with each seed left out in turn (none below three seeds)."""
    if sweep not in _LEFT_OUT:
        import pyarrow as pa  # type: ignore[import-untyped]

        from ..sweep.store import aggregate

        runs = sweep.catalog.to_pandas()
        seeds = sorted(set(int(s) for s in runs["seed"]))
        subsets = []
        for seed in seeds if len(seeds) >= 3 else []:
            kept = pa.Table.from_pandas(runs[runs["seed"] != seed], preserve_index=False)
            subsets.append((seed, _SeedSubset(sweep.experiment, kept, aggregate(kept, sweep.axes, sweep.measures))))
        _LEFT_OUT[sweep] = subsets
    return _LEFT_OUT[sweep]


def _check_stability(item: SweepItem, res: ItemResult, sweep: Sweep) -> None:
    """Judges the item again with each seed left out in turn (sweeps of three seeds or more);
    where a verdict changes, the detail says so: more seeds are needed for a stable verdict."""
    subsets = _seed_subsets(sweep)
    if not subsets or res.verdict.verdict == CANNOT:
        return
    quiet = dataclasses.replace(item, figure=None, sensitivity=None)
    changed = []
    for seed, subset in subsets:
        verdict = _evaluate(quiet, subset).verdict.verdict  # type: ignore[arg-type]
        if verdict != res.verdict.verdict:
            changed.append(f"{verdict} without seed {seed}")
    res.stable = not changed
    if changed:
        res.verdict = dataclasses.replace(res.verdict, detail=res.verdict.detail + f"; not stable over the seeds: {', '.join(changed)}")


def _evaluate(item: Item, sweep: Optional[Sweep], who: str = "aimdlab", model_args: Optional[Dict[str, Any]] = None) -> ItemResult:
    """`evaluate` at the item's own `select`; `who` ran the sweep (aimdlab, or a peer simulator
    whose runs make the catalog), as the verdict's words name it. A model's item calls its
    function with `model_args` (keyword arguments: a screen's unstated ones, `explain.py`)."""
    if isinstance(item, ModelItem):
        return _evaluate_model(item, model_args)
    assert isinstance(item, OnSweep), "an item is judged on a model or drawn from a sweep"
    return _evaluate_on_sweep(item, sweep, who)


def _evaluate_model(item: ModelItem, model_args: Optional[Dict[str, Any]]) -> ItemResult:
    """A model's item: its function's points, judged as they are (no interval, no runs)."""
    from ..imports import USER_CODE_ERRORS, raised
    from ..sweep.measures import python_measure

    res = ItemResult(item)
    try:
        values = python_measure(item.model)(**(model_args or {}))
        res.x = list(values["x"])
        res.mean = [float(v) * item.scale for v in values["y"]]
        if len(res.x) != len(res.mean):
            raise ValueError("x and y differ in length")
    except USER_CODE_ERRORS as e:  # the model is the user's code: its failure names the item
        given = f" with {model_args}" if model_args else ""
        raise ScenarioError(f"{item.id}: model {item.model} failed{given}: {raised(e)[:200]} "
                            "(expected a function returning {\"x\": [...], \"y\": [...]})") from None
    res.low = res.high = [math.nan] * len(res.x)
    res.runs = [0] * len(res.x)
    res.verdict = _judge(item, res, quick=False)
    return res


def _evaluate_on_sweep(item: OnSweep, sweep: Optional[Sweep], who: str) -> ItemResult:
    """An item drawn from a sweep: its points (and trace) from the sweep's aggregate, judged
    when it is a `SweepItem`; a `NotJudgedItem` is drawn and keeps its reason as its verdict."""
    res = ItemResult(item)
    not_judged = _not_judged_verdict(item)
    if sweep is not None and item.figure is not None:
        res.trace = trace_lines(sweep, item.select if item.figure.select is None else item.figure.select, item.figure)
    if sweep is None or (not_judged is not None and item.measure is None):
        res.verdict = not_judged or Verdict(CANNOT, detail="no sweep")
        return res
    x_axis = item.x or "x"  # (an item read from a file always has one)
    whole = sweep.aggregate.to_pandas()
    agg = select_rows(whole, item.select)
    if agg.empty:
        quick = " (a --quick run has fewer points)" if sweep.experiment.get("quick") else ""
        in_full_grid = bool(quick) and isinstance(item, SweepItem) and len(_full_grid(item)) > 0
        res.verdict = Verdict(NOT_JUDGED_QUICK if in_full_grid else CANNOT, detail=f"the sweep has no point where {item.select}{quick}")
        return res
    if item.only is not None:
        column = f"{item.only['measure']}_mean"
        if column not in agg.columns:
            raise KeyError(f"only: {item.only['measure']!r} is not a measure of the sweep")
        values = agg[column].astype(float)
        keep = values.notna()
        if "at_most" in item.only:
            keep &= values <= float(item.only["at_most"])
        if "at_least" in item.only:
            keep &= values >= float(item.only["at_least"])
        agg = agg[keep]
        if agg.empty:
            more = (bool(sweep.experiment.get("quick")) and isinstance(item, SweepItem)
                    and len(_full_grid(item)) > len(select_rows(whole, item.select)))
            res.verdict = Verdict(NOT_JUDGED_QUICK if more else CANNOT, detail=f"no point of the sweep has {item.only}"
                                  + (" (--quick runs fewer points; a full run may have some)" if more else ""))
            return res
    if item.points is not None:
        keep = [any(same_x(v, p) for p in item.points) for v in axis_values(agg, x_axis)]
        agg = agg[keep]
    # Column by column: a pandas row would turn the axis's integers into floats.
    res.x = axis_values(agg, x_axis)
    if item.plot_x is not None:
        column = f"{item.plot_x['measure']}_mean"
        if column not in agg.columns:
            raise KeyError(f"plot_x: {item.plot_x['measure']!r} is not a measure of the sweep")
        res.plot_x = [float(v) * float(item.plot_x.get("scale", 1.0)) for v in agg[column]]
    res.group = axis_values(agg, item.group) if item.group else []
    res.mean = [float(v) * item.scale for v in agg[f"{item.measure}_mean"]]
    res.low = [float(v) * item.scale for v in agg[f"{item.measure}_ci95_low"]]
    res.high = [float(v) * item.scale for v in agg[f"{item.measure}_ci95_high"]]
    res.runs = [int(v) for v in agg["runs_ok"]]
    res.also = {label: [float(v) * item.scale for v in agg[f"{m}_mean"]] for label, m in item.also.items()}
    if item.baseline is not None:
        _seed_ratios(item, res, sweep)
    if all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in res.x):
        # Along the x axis (within each series), for trends and figures.
        key = (lambda i: (str(res.group[i]), res.x[i])) if res.group else (lambda i: res.x[i])
        order = sorted(range(len(res.x)), key=key)
        res.x = [res.x[i] for i in order]
        res.mean, res.low, res.high = ([seq[i] for i in order] for seq in (res.mean, res.low, res.high))
        res.runs = [res.runs[i] for i in order]
        if res.plot_x:
            res.plot_x = [res.plot_x[i] for i in order]
        res.also = {label: [seq[i] for i in order] for label, seq in res.also.items()}
        if res.group:
            res.group = [res.group[i] for i in order]
    if not isinstance(item, SweepItem):  # drawn, not judged: the paper's values are not available
        res.verdict = not_judged or Verdict(CANNOT)
        return res
    res.verdict = _judge(item, res, quick=bool(sweep.experiment.get("quick")), who=who)
    if sweep.experiment.get("quick"):
        res.verdict = _quick_verdict(item, res, res.verdict)
    return res


def _not_judged_verdict(item: Item) -> Optional[Verdict]:
    """The verdict of an item aimdlab does not judge (its reason), None for one it judges."""
    if isinstance(item, NotJudgedItem):
        return Verdict(NOT_CHECKABLE if item.text_missing else CANNOT, detail=item.cannot)
    return None





_POINTWISE = ("at_least", "at_most", "between", "flat")  # (not crosses_down: its two ends decide)
"""Claims that a point --quick ran can break whatever the points it left out give (a flat
series' spread only grows with more points)."""


def _quick_verdict(item: SweepItem, res: ItemResult, verdict: Verdict) -> Verdict:
    """A --quick verdict, unless the quick grid left out points a full run judges and they
    could change it: then "not judged in quick mode", saying what the points it ran gave. A
    difference stands where one point run is enough to make it (published numbers and the
    pointwise claims)."""
    left_out = _left_out_by_quick(item, res)
    if not left_out or verdict.verdict in (CANNOT, NOT_CHECKABLE):
        return verdict
    if verdict.verdict == DIFFERS and (item.claim is None or item.claim["kind"] in _POINTWISE):
        return verdict
    shown = ", ".join(map(str, left_out[:6])) + (", ..." if len(left_out) > 6 else "")
    return Verdict(NOT_JUDGED_QUICK, detail=f"--quick leaves out {len(left_out)} of its points ({item.x} = {shown}), which could "
                                            f"change the verdict; on the points it ran: {verdict.verdict} — {verdict.detail}")


def _full_grid(item: SweepItem) -> Any:
    """The rows of the item's sweep, without --quick, that its `select` keeps: a table of axis
    values as the sweep's aggregate holds them (no run needed)."""
    assert item.sweep is not None, "a sweep item has its sweep"
    path = Path(item.sweep)
    return select_rows(_full_axis_table(path, path.stat().st_mtime_ns), item.select)


@functools.lru_cache(maxsize=64)
def _full_axis_table(path: Path, mtime_ns: int) -> Any:
    """Every axis point of the experiment at `path` without --quick (read once per file
    version: a quick run asks for it once per item)."""
    import pandas as pd

    full = load_experiment(path)
    rows = [{key: (json.dumps(list(v)) if len(axis_fields(key)) > 1 else json.dumps(v) if isinstance(v, (dict, list)) else v)
             for key, v in zip(full.axes, values)} for values in full.axis_points()]
    return pd.DataFrame(rows, columns=list(full.axes))


def _left_out_by_quick(item: SweepItem, res: ItemResult) -> List[Any]:
    """The item's points (x values; with `group`, [group, x]) that a full run of its sweep
    judges and the quick run did not run."""
    ran = list(zip(res.group, res.x)) if res.group else list(res.x)
    if item.published and item.claim is None:
        wanted: List[Any] = list(item.published_x)
    else:
        table = _full_grid(item)
        xs = axis_values(table, item.x or "x")
        keep = [(item.points is None or any(same_x(x, p) for p in item.points))
                and (item.at_x is None or any(same_x(x, a) for a in item.at_x)) for x in xs]
        groups = axis_values(table, item.group) if item.group else None
        wanted = [(g, x) for g, x, k in zip(groups, xs, keep) if k] if groups is not None else [x for x, k in zip(xs, keep) if k]
        if item.published:
            wanted += [x for x in item.published_x if not any(same_x(x, w) for w in wanted)]

    def same(a: Any, b: Any) -> bool:
        if isinstance(a, tuple) and isinstance(b, tuple):
            return same_x(a[0], b[0]) and same_x(a[1], b[1])
        return not isinstance(a, tuple) and not isinstance(b, tuple) and same_x(a, b)

    out: List[Any] = []
    for w in wanted:
        if not any(same(w, r) for r in ran) and not any(same(w, o) for o in out):
            out.append(list(w) if isinstance(w, tuple) else w)
    return out


def _seed_ratios(item: OnSweep, res: ItemResult, sweep: Sweep) -> None:
    """Turns `res`'s points into ratios against the item's baseline configuration, seed by
    seed: at each point, the mean of value / baseline value over the seeds both completed, and
    the 95 % Student-t interval of that mean (none with a single seed)."""
    assert item.baseline is not None and item.x is not None, "a ratio item has a baseline and an x axis"
    runs = sweep.catalog.to_pandas()
    runs = runs[runs["status"] == "ok"]
    mine = select_rows(runs, item.select)
    base = select_rows(runs, {**item.select, **item.baseline})
    for i, x in enumerate(res.x):
        where: Dict[str, Any] = {item.x: x}
        if res.group and item.group is not None:
            where[item.group] = res.group[i]
        a = select_rows(mine, where).set_index("seed")[item.measure]
        b = select_rows(base, where).set_index("seed")[item.measure]
        seeds = [sd for sd in a.index if sd in b.index and b[sd] and math.isfinite(a[sd]) and math.isfinite(b[sd])]
        n, mean, _, half = mean_std_ci95([float(a[sd]) / float(b[sd]) for sd in seeds])
        res.mean[i] = mean if n else math.nan
        res.low[i], res.high[i] = (mean - half, mean + half) if n > 1 else (math.nan, math.nan)
        res.runs[i] = n


def _judge(item: Judged, res: ItemResult, quick: bool, who: str = "aimdlab") -> Verdict:
    """The item's verdict from `who`'s points in `res` (aimdlab's, or a peer simulator's;
    fills `res.points`): its published numbers within the tolerance, and its claim. `quick`: a
    --quick run, whose missing published points are skipped."""
    outcomes: List[Verdict] = []
    if item.published:
        skipped = []
        for px, pv in zip(item.published_x, item.published):
            at = [i for i, x in enumerate(res.x) if same_x(x, px)]
            if at:
                res.points.append(compare(pv, res.mean[at[0]], item.tolerance, res.low[at[0]], res.high[at[0]], who))
            elif quick:
                skipped.append(px)  # a --quick run leaves out points; the verdict is over those it ran
                res.points.append(Verdict("", detail="not run (--quick)"))
            else:
                res.points.append(Verdict(CANNOT, detail=f"the sweep has no point {item.x} = {px}"))
        judged = [p for p in res.points if p.verdict]
        inconclusive = sum(p.verdict == INCONCLUSIVE for p in judged)
        gaps = [p.gap for p in judged if p.gap is not None]
        outcomes.append(Verdict(worst(p.verdict for p in judged),
                                detail=f"{sum(p.verdict == REPRODUCED for p in judged)} of {len(judged)} points within "
                                       f"{item.tolerance.describe()}" + (f" ({inconclusive} with the 95 % interval across the band's edge)"
                                                                          if inconclusive else "") + (f"; {who} - paper {min(gaps):+.3g} to {max(gaps):+.3g}" if gaps else "")
                                       + (f"; {len(skipped)} published point(s) not run by --quick ({item.x} = "
                                          f"{', '.join(map(str, skipped))})" if skipped else "")))
    if item.claim is not None:
        at = [i for i, x in enumerate(res.x) if item.at_x is None or any(same_x(x, a) for a in item.at_x)]
        if res.group and isinstance(item, SweepItem):  # the claim holds in each series
            parts = []
            for g in dict.fromkeys(json.dumps(v) for v in res.group):
                idx = [i for i in at if json.dumps(res.group[i]) == g]
                v = check_claim(item.claim["kind"], [res.mean[i] for i in idx], item.claim.get("threshold"),
                                [res.low[i] for i in idx], [res.high[i] for i in idx], who, item.claim.get("negligible"))
                parts.append((v.verdict, f"{item.group_label or item.group} = {json.loads(g)}: {v.detail}"))
            outcomes.append(Verdict(worst(p for p, _ in parts), detail="; ".join(d for _, d in parts)))
        else:
            outcomes.append(check_claim(item.claim["kind"], [res.mean[i] for i in at], item.claim.get("threshold"),
                                        [res.low[i] for i in at], [res.high[i] for i in at], who, item.claim.get("negligible")))
    verdict = Verdict(worst(o.verdict for o in outcomes), detail="; ".join(o.detail for o in outcomes))
    return verdict
