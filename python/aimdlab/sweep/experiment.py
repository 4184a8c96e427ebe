"""Experiment files: a base scenario, axes over any of its fields, replications, and the
measures to aggregate — the definition of a paper's figure or table as a sweep.

    name = "reno-buffer"
    description = "Bottleneck utilization of 4 Reno flows against the buffer size."
    scenario = "../examples/utilization.toml"   # a file (relative to this one), or a [scenario] table
    set = { duration = "60s" }                   # fields of the base scenario changed for every run
    combine = "product"                          # or "zip": the axes' i-th values together
    seeds = 3                                    # replications: a count (seeds 1..3) or a list [1, 7, 9]
    measures = ["bottleneck.utilization", "jain_index", "groups.reno.goodput_bps.mean"]

    [axes]
    "topology.dumbbell.bottleneck.queue.limit" = ["20pkt", "50pkt", "100pkt"]
    "topology.dumbbell.bottleneck.delay" = "10ms..50ms step 10ms"

    [quick]                                      # what --quick changes (default: seeds = 1)
    seeds = 1
    set = { duration = "20s" }

An axis is a list of values or a range `"FROM..TO step STEP"` (numbers, or quantities with one
unit: `"10ms..50ms step 10ms"`, `"1Mbps..5Mbps step 1Mbps"`); its key is a scenario field path
as `aimdlab run --set` takes it (`flows[0].cc.alpha`). A value may be anything the field takes,
a table or a list of tables included. A linked axis varies several fields together: its key
lists them, its values are lists with one element per field
(`"flows[0].cc, tcp.ecn" = [["reno", true], ["reno", false], ["mr_aimd", true]]`). A measure is a summary field
(`bottleneck.utilization`, `goodput_total_bps`), a statistic of a flows-table column over all
flows (`flows.goodput_bps.mean`) or over one flow group by name
(`groups.gaimd.loss_event_rate.mean`), or over every sample of the flows' time series after the
warm-up, averaged over the flows or one group's (`timeseries.a.mean`: MR-AIMD's mean additive
increase; `timeseries.gaimd.send_rate_bps.cv`: how smooth a group's rate is); statistics: mean,
median, min, max, sum, std, cv (std / mean). A measure may also be a Python function of the run's
`Result`, `module:function` (e.g. `aimdlab.papers.gaimd.accuracy:eq2_ratio`). A measure
may also be the ratio of two: `groups.gaimd.send_rate_bps.mean / groups.tcp.send_rate_bps.mean`.

Every mistake is an error naming the field: an unknown key, an empty axis, a range that does
not parse, an axis over a scenario field that does not exist (each point is validated by the
engine before anything runs), a measure that names no summary field, column or group.
"""

from __future__ import annotations

import copy
import itertools
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ..errors import ScenarioError
from ..names import plain_name
from ..scenario import load, loads, plain, regular_file, set_fields, validate
from ..units import quantity
from .measures import STATS, check_measures, is_series_measure, is_table_measure

__all__ = ["Experiment", "Point", "load_experiment", "parse_experiment", "EXPERIMENT_SCHEMA", "STATS"]



DEFAULT_MEASURES = ("bottleneck.utilization", "goodput_total_bps", "jain_index", "retransmitted_pkts", "timeouts")
"""What a sweep aggregates when its experiment names no measures."""

_KEYS = {"name", "description", "scenario", "set", "combine", "seeds", "axes", "measures", "quick"}
_QUICK_KEYS = {"seeds", "set", "axes"}

EXPERIMENT_SCHEMA: Dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "aimdlab experiment",
    "description": "A sweep: a base scenario, axes over its fields, replications and measures (aimdlab sweep).",
    "type": "object",
    "additionalProperties": False,
    "required": ["scenario"],
    "properties": {
        "name": {"type": "string", "description": "Name of the sweep (default: the file's stem)."},
        "description": {"type": "string", "description": "What the sweep shows, for its report."},
        "scenario": {
            "description": "The base scenario: a TOML file (relative to the experiment file) or an inline scenario table.",
            "oneOf": [{"type": "string"}, {"type": "object"}],
        },
        "set": {"type": "object", "description": "Scenario field path -> value, applied to the base scenario for every run."},
        "combine": {"enum": ["product", "zip"], "default": "product",
                    "description": "product: every combination of the axes' values; zip: their i-th values together."},
        "seeds": {
            "description": "Replications: a count N (seeds 1..N) or a list of seeds.",
            "oneOf": [{"type": "integer", "minimum": 1}, {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 1}],
            "default": 1,
        },
        "axes": {
            "type": "object",
            "description": "Scenario field path (as aimdlab run --set takes it) -> a list of values or a range \"FROM..TO step STEP\".",
            "additionalProperties": {"oneOf": [{"type": "array", "minItems": 1}, {"type": "string"}]},
        },
        "measures": {
            "type": "array", "items": {"type": "string"},
            "description": "Summary fields (bottleneck.utilization), flows.COLUMN.STAT, groups.GROUP.COLUMN.STAT or timeseries.[GROUP.]COLUMN.STAT "
                           "(STAT: mean, median, min, max, sum, std, cv), or a Python function of the run's Result, module:function.",
            "default": list(DEFAULT_MEASURES),
        },
        "quick": {
            "type": "object", "additionalProperties": False,
            "description": "What --quick changes: seeds, scenario fields (set) and axes.",
            "properties": {
                "seeds": {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "array", "items": {"type": "integer"}}]},
                "set": {"type": "object", "description": "Scenario field path -> value, applied to every run."},
                "axes": {"type": "object", "description": "Axes replaced under --quick."},
            },
        },
    },
}
"""JSON Schema of experiment files (`aimdlab schema --experiment`)."""


@dataclass(frozen=True)
class Point:
    """One run of a sweep: the axis values it takes, its replication and seed, and the
    scenario that runs (with the axis values and the seed applied)."""

    index: int
    """Position of the axis point in the experiment (0, 1, ...)."""
    values: Tuple[Any, ...]
    """The value of each axis, in the experiment's axis order."""
    replication: int
    """Which replication (0, 1, ...)."""
    seed: int
    """The seed of the run."""
    scenario: Dict[str, Any] = field(compare=False, hash=False)
    """The scenario that runs (a plain dict, `seed` set)."""


@dataclass
class Experiment:
    """A parsed, validated experiment."""

    name: str
    description: str
    scenario: Dict[str, Any]
    """The base scenario (a plain dict)."""
    axes: Dict[str, List[Any]]
    """Field path -> its values, in file order."""
    combine: str
    seeds: List[int]
    measures: List[str]
    quick: bool = False
    """Whether --quick applied the experiment's [quick] table."""
    source: Optional[str] = None
    """The experiment file, if it came from one."""

    def axis_points(self) -> List[Tuple[Any, ...]]:
        """The axis values of every point, in order (one empty tuple without axes)."""
        lists = list(self.axes.values())
        if not lists:
            return [()]
        if self.combine == "zip":
            return list(zip(*lists))
        return list(itertools.product(*lists))

    def points(self) -> List[Point]:
        """Every run of the sweep: each axis point × each seed, in that order."""
        out = []
        for i, values in enumerate(self.axis_points()):
            sc = self.scenario_at(values)
            for r, seed in enumerate(self.seeds):
                run = copy.deepcopy(sc)
                run["seed"] = seed
                out.append(Point(i, tuple(values), r, seed, run))
        return out

    def scenario_at(self, values: Sequence[Any]) -> Dict[str, Any]:
        """The base scenario with the axes set to `values` (a linked axis, "a, b", sets each
        of its fields to the matching element of its value)."""
        fields: Dict[str, Any] = {}
        for key, value in zip(self.axes, values):
            paths = axis_fields(key)
            if len(paths) == 1:
                fields[paths[0]] = value
            else:
                fields.update(zip(paths, value))
        return set_fields(self.scenario, fields)

    def to_dict(self) -> Dict[str, Any]:
        """The experiment as plain data (what `sweep.json` records)."""
        return {"name": self.name, "description": self.description, "scenario": self.scenario, "axes": self.axes,
                "combine": self.combine, "seeds": self.seeds, "measures": self.measures, "quick": self.quick,
                "source": self.source}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "Experiment":
        """The inverse of `to_dict`."""
        return cls(d["name"], d.get("description", ""), d["scenario"], dict(d["axes"]), d["combine"], list(d["seeds"]),
                   list(d["measures"]), bool(d.get("quick")), d.get("source"))


def axis_fields(key: str) -> List[str]:
    """The field paths an axis sets: one, or several for a linked axis (`"flows[0].cc, tcp.ecn"`)."""
    return [p.strip() for p in key.split(",")]


_RANGE = re.compile(r"^\s*(?P<lo>[^.][^ ]*?)\s*\.\.\s*(?P<hi>\S+)\s+step\s+(?P<step>\S+)\s*$")


def parse_range(text: str, where: str) -> List[Any]:
    """`"10ms..50ms step 10ms"` → `["10ms", "20ms", ..., "50ms"]`; `"0.1..0.5 step 0.1"` →
    `[0.1, 0.2, 0.3, 0.4, 0.5]`; `"1..4 step 1"` → `[1, 2, 3, 4]`. Both ends are included (an
    end that the steps do not reach exactly is not). Raises `ScenarioError` naming `where`."""
    m = _RANGE.match(text)
    if not m:
        raise ScenarioError(f'{where}: "{text}" is neither a list nor a range; expected a list [a, b, ...] or "FROM..TO step STEP", e.g. "10ms..50ms step 10ms"')
    parts = []
    for key in ("lo", "hi", "step"):
        written = m.group(key)
        q = quantity(written)
        if q is None:
            raise ScenarioError(f'{where}: "{written}" in "{text}" is not a number or a quantity such as 10ms')
        parts.append((written[: len(written) - len(q[1])].strip(), q[1]))
    units = {u for _, u in parts}
    if len(units) != 1:
        raise ScenarioError(f'{where}: "{text}" mixes units {sorted(units)}; FROM, TO and STEP take one unit')
    unit = units.pop()
    lo, hi, step = (float(n) for n, _ in parts)
    if not step > 0:
        raise ScenarioError(f'{where}: the step of "{text}" is {parts[2][0]}; expected a step above 0')
    if hi < lo:
        raise ScenarioError(f'{where}: "{text}" runs from {parts[0][0]} down to {parts[1][0]}; expected FROM <= TO')
    decimals = max(len(n.split(".")[1]) if "." in n else 0 for n, _ in parts)
    count = int(math.floor((hi - lo) / step + 1e-9)) + 1
    if count > 100_000:
        raise ScenarioError(f'{where}: "{text}" has {count} values; expected at most 100000')
    values = [round(lo + i * step, decimals) for i in range(count)]
    if decimals == 0:
        numbers: List[Any] = [int(v) for v in values]
    else:
        numbers = values
    return [f"{n!r}{unit}" for n in numbers] if unit else numbers


def _seeds(value: Any, where: str) -> List[int]:
    if isinstance(value, bool) or not isinstance(value, (int, list)):
        raise ScenarioError(f"{where}: {value!r} is not a number of replications or a list of seeds; expected e.g. 5 or [1, 2, 3]")
    if isinstance(value, int):
        if not 1 <= value <= 100_000:
            raise ScenarioError(f"{where}: {value} replications is out of range; expected 1 to 100000")
        return list(range(1, value + 1))
    if not value:
        raise ScenarioError(f"{where}: is empty; expected at least one seed")
    for i, s in enumerate(value):
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < 2**63:
            raise ScenarioError(f"{where}[{i}]: {s!r} is not a seed; expected a whole number from 0 to 2^63-1")
    if len(set(value)) != len(value):
        raise ScenarioError(f"{where}: lists a seed twice; each replication needs its own seed")
    return list(value)


def _axes(value: Any, where: str) -> Dict[str, List[Any]]:
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: expected a table of field path = list of values")
    out = {}
    for key, spec in value.items():
        at = f'{where}."{key}"'
        if isinstance(spec, str):
            values = parse_range(spec, at)
        elif isinstance(spec, list):
            values = list(spec)
            if not values:
                raise ScenarioError(f"{at}: is empty; expected at least one value")
        elif isinstance(spec, dict):
            raise ScenarioError(f'{at}: is a table; quote the whole field path as one key, e.g. "{key}.{next(iter(spec), "x")}" = [...]')
        else:
            raise ScenarioError(f"{at}: {spec!r} is not a list of values or a range; expected e.g. [1, 2, 4] or \"10ms..50ms step 10ms\"")
        plain(values, at)
        paths = axis_fields(key)
        if "seed" in paths:
            raise ScenarioError(f"{at}: the seed is not an axis: each point runs every seed of `seeds`; "
                                "write seeds = [1, 7, 9] (or a count) instead")
        if any(not p for p in paths):
            raise ScenarioError(f"{at}: an empty field path; a linked axis is written \"a.b, c.d\"")
        if len(paths) > 1:
            for j, v in enumerate(values):
                if not isinstance(v, list) or len(v) != len(paths):
                    raise ScenarioError(f"{at}[{j}]: {v!r} is not a list of {len(paths)} values, one per field of the linked axis")
        out[key] = values
    return out


def _apply_set(scenario: Dict[str, Any], sets: Any, where: str) -> Dict[str, Any]:
    """`scenario` with the fields of a `set` table (at `where`) set; errors name the field."""
    if not isinstance(sets, dict):
        raise ScenarioError(f"{where}: expected a table of field path = value")
    try:
        return set_fields(scenario, {k: plain(v, f"{where}.{k}") for k, v in sets.items()})
    except ScenarioError as e:
        raise ScenarioError(f"{where}.{e}") from None


def parse_experiment(data: Dict[str, Any], base_dir: Path, name: str, quick: bool = False, source: Optional[str] = None) -> Experiment:
    """Builds and validates an `Experiment` from an experiment table (`base_dir`: where a
    relative scenario path is looked up). Every point's scenario is validated by the engine;
    errors name the field."""
    if not isinstance(data, dict):
        raise ScenarioError("the experiment is not a table of fields")
    for key in data:
        if key not in _KEYS:
            raise ScenarioError(f"{key}: unknown field; expected one of {', '.join(sorted(_KEYS))}")
    if "scenario" not in data:
        raise ScenarioError('scenario: is missing; expected a scenario file (scenario = "base.toml") or a [scenario] table')
    base = data["scenario"]
    if isinstance(base, str):
        path = (base_dir / base) if not Path(base).is_absolute() else Path(base)
        try:
            scenario = load(path, max_memory=1 << 62)
        except FileNotFoundError:
            raise ScenarioError(f"scenario: {path}: no such file") from None
        except ScenarioError as e:
            raise ScenarioError(f"scenario: {e}") from None
    elif isinstance(base, dict):
        scenario = copy.deepcopy(base)
        try:
            validate(scenario, max_memory=1 << 62)
        except ScenarioError as e:
            raise ScenarioError(f"scenario.{e}") from None
    else:
        raise ScenarioError(f"scenario: {base!r} is not a file name or a table")
    scenario = plain(scenario, "scenario")
    scenario = _apply_set(scenario, data.get("set", {}), "set")
    for key in ("name", "description"):
        if key in data and not isinstance(data[key], str):
            raise ScenarioError(f"{key}: {data[key]!r} is not text")
    if "name" in data:  # the default folder of the sweep: results/sweeps/<name>
        plain_name(data["name"], "name")
    combine = data.get("combine", "product")
    if combine not in ("product", "zip"):
        raise ScenarioError(f'combine: "{combine}" is not a way to combine axes; expected "product" or "zip"')
    seeds = _seeds(data.get("seeds", 1), "seeds")
    axes = _axes(data.get("axes", {}), "axes")
    measures = data.get("measures", list(DEFAULT_MEASURES))
    if not isinstance(measures, list) or not measures or not all(isinstance(m, str) for m in measures):
        raise ScenarioError('measures: expected a non-empty list of names, e.g. ["bottleneck.utilization", "flows.goodput_bps.mean"]')
    if len(set(measures)) != len(measures):
        raise ScenarioError("measures: names a measure twice")
    q = data.get("quick", {})
    if not isinstance(q, dict):
        raise ScenarioError("quick: expected a table (seeds, set, axes)")
    for key in q:
        if key not in _QUICK_KEYS:
            raise ScenarioError(f"quick.{key}: unknown field; expected one of {', '.join(sorted(_QUICK_KEYS))}")
    if quick:
        seeds = _seeds(q.get("seeds", 1), "quick.seeds")
        scenario = _apply_set(scenario, q.get("set", {}), "quick.set")
        axes.update(_axes(q.get("axes", {}), "quick.axes"))
    if combine == "zip" and len({len(v) for v in axes.values()}) > 1:
        lengths = ", ".join(f"{k} {len(v)}" for k, v in axes.items())
        raise ScenarioError(f"axes: combine = \"zip\" takes axes of one length; these have {lengths}")
    exp = Experiment(data.get("name", name), data.get("description", ""), scenario, axes, combine, seeds, list(measures), quick, source)
    _validate_points(exp)
    _validate_measures(exp)
    return exp


def _probe(scenario: Dict[str, Any]):
    """A 1 ms run of `scenario` (every group started at once, a sample at 1 ms): its summary
    and time-series columns; None when the engine refuses it (each run will then say why)."""
    from ..runner import run

    probe = copy.deepcopy(scenario)
    probe.update({"duration": "1ms", "warmup": "0s", "sample_interval": "1ms"})
    probe.pop("cwnd_trace", None)
    probe.pop("pcap", None)
    for g in probe.get("flows", []):
        for key in ("start", "stop", "start_jitter"):
            g.pop(key, None)
    try:
        return run(probe)
    except (ScenarioError, RuntimeError):
        return None


def _validate_measures(exp: Experiment) -> None:
    """Checks the measures against what a run of the first point reports: the summary of a
    1 ms probe run (the summary's fields do not depend on the duration), the flows table's
    declared columns, the groups' names and the time series' columns (a controller adds its
    own, e.g. MR-AIMD's `a`: when the first point lacks one a measure names, the other points
    are probed until one has it)."""
    from .. import _core

    points = exp.axis_points()
    scenario = exp.scenario_at(points[0])
    groups = [g.get("name", f"group{i}") if isinstance(g, dict) else f"group{i}" for i, g in enumerate(scenario.get("flows", []))]
    columns = [c[1] for c in _core.columns() if c[0] == "flows"]
    summary: Dict[str, Any] = {}
    series_columns: Optional[List[str]] = None
    if not all(is_table_measure(m) for m in exp.measures):
        probed = _probe(scenario)
        if probed is None:
            return
        summary = probed.summary
        if probed.timeseries.num_rows:  # (no sampled flow: nothing to check the columns against)
            series_columns = list(probed.timeseries.column_names)
            wanted = {m.split(".")[-2] for whole in exp.measures for m in (p.strip() for p in whole.split(" / "))
                      if is_series_measure(m) and len(m.split(".")) in (3, 4)}
            for point in points[1:]:
                if wanted <= set(series_columns):
                    break
                other = _probe(exp.scenario_at(point))
                if other is not None:
                    series_columns += [c for c in other.timeseries.column_names if c not in series_columns]
    check_measures(exp.measures, summary, columns, groups, series_columns)


def _validate_points(exp: Experiment) -> None:
    """Validates the scenario of every axis point with the engine (without the memory limit,
    which each run checks itself); an error names the axis values of the point."""
    names = list(exp.axes)
    for values in exp.axis_points():
        where = ", ".join(f"{k} = {v!r}" for k, v in zip(names, values))
        try:
            validate(exp.scenario_at(values), max_memory=1 << 62)
        except ScenarioError as e:
            raise ScenarioError(f"axes ({where}): {e}") from None


def load_experiment(path: Union[str, Path], quick: bool = False) -> Experiment:
    """Reads and validates an experiment TOML file (see the module doc). Raises
    `FileNotFoundError` or `ScenarioError` with the file and the field."""
    path = regular_file(path, "an experiment file (.toml)", "experiment file")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: not UTF-8 text; save the file as UTF-8") from None
    data = loads(text, source=str(path))
    try:
        return parse_experiment(data, path.parent, path.stem, quick=quick, source=str(path))
    except ScenarioError as e:
        raise ScenarioError(f"{path}: {e}") from None
