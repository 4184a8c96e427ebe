"""A paper's reproduction, as data: `experiments/<paper>/paper.toml` lists every figure, table
and claim of the paper with where it is in the text, the sweep that reproduces it, the
published numbers and the tolerance that counts as reproduced — or why it cannot be.

    id = "new-aimd-utilization"
    title = "Experimental Evaluation of Bottleneck Link Utilization with New-AIMD"
    paper = "new-aimd-utilization.txt"          # in shared/papers/
    citation = "H. N. Jasem et al., ..., Journal of Computer Science 5(12), 2009."
    ran_on = "NCTUns (the Linux TCP stack)"

    [[items]]
    id = "table-1"
    title = "Table 1: average bottleneck utilization against the number of flows"
    where = "Results and Discussion, Table 1"
    sweep = "table1.toml"                       # an experiment file beside this one
    x = "flows[0].count"                        # the sweep axis the paper's numbers run along
    measure = "goodput_total_bps"               # a measure of that sweep
    scale = 2e-5                                # times aimdlab's value: here bit/s -> % of 5 Mbit/s
    label = "utilization, %"
    tolerance = { abs = 0.5 }                   # and/or rel = 0.05
    published = { x = [2, 3, 4, 5], value = [94.74, 94.69, 94.60, 94.49] }
    cause = "why aimdlab differs, when it does"

    [[items]]                                   # a qualitative claim over the same points
    claim = { kind = "at_least", threshold = 94 }   # at_least, at_most, flat, increasing, decreasing

    [[items]]                                   # what cannot be reproduced, and why
    cannot = "The figures are images; their values are not in the available text."

    [[items]]                                   # ... while aimdlab still draws its own figure
    cannot = "The figure is an image."
    sweep = "table1.toml"
    figure = { series = "link_timeseries", y = "utilization", panels = "flows[0].count" }

    [[items]]                                   # the text holding its values is missing
    text_missing = "Only the front matter and introduction survive: this table's values do not."

    [[unstated]]                                # a set-up parameter the paper does not give
    id = "buffer"
    what = "the bottleneck's buffer"
    field = "topology.dumbbell.bottleneck.queue.limit"
    values = ["50pkt", "250pkt"]                # the values a careful reader would try
    why = "The paper gives none; 50 is ns-2's default."

`aimdlab reproduce PAPER --explain ITEM` screens the unstated parameters for what would close
an item's difference (`explain.py`); a stored screen is the difference's tested cause.
`class` says what kind of item it is (`verdict.CLASSES`): `"result"` (the default), a
number or claim of the paper on a set-up it describes, counted by verdict; `"calibrated"`
(a free parameter fitted to the paper's own numbers), `"sensitivity"` (another reading of a
result, with `of = "result id"`) or `"context"` (aimdlab's own measure, a claim true by
construction, a set-up aimdlab had to invent; with `of`, a check of a result's cause): shown
with their verdicts, never counted as paper results. `threshold_from` says where a tolerance or claim threshold comes from (required
where there is one). A result that differs names the item that tested its cause in `cause_tested_by`
(the id of a sensitivity or context item with `of` = the result, or "sensitivity" for the
result's own axis); otherwise its verdict says "cause not tested".

`axis_labels = { "flows[0].count" = "flows" }` at the top names the axes in words for every
item that does not give its own `xlabel` or `group_label`; `points = [...]` keeps only those x
values; `plot_x = { measure = "...", scale = 100, label = "loss rate, %", log = true }` draws
the figure against another measure's means (the paper's own axis).

`select = { "axis" = value }` keeps the rows of a sweep with more axes than `x`;
`baseline = { "axis" = other }` divides each point by the point of the same x where those axes
take the other values (a ratio between two configurations of the same sweep; its 95 % interval
is then not given). `model = "module:function"` judges the paper's analytic model, as aimdlab
evaluates it, instead of a sweep (the function returns `{"x": [...], "y": [...]}`).
`also = { "TCP" = "measure" }` draws more measures beside the judged one. An item that
`cannot` be reproduced may still give `sweep`, `x` and `measure` for aimdlab's figure. An item
whose values are in a part of the paper's text that is missing says so with `text_missing`
(the reason) instead of `cannot`: it is "not checkable: text missing", counted apart from the
paper results that cannot be reproduced (it takes the same optional figure keys).
A trend claim may state the change too small to count, `negligible` (a fraction of the mean:
`claim = { kind = "decreasing", negligible = 0.01 }`): a series whose every interval lies inside
that band around the mean is flat, and differs from the claimed trend (an equivalence test).
A `cause` that quotes a number of the run writes a placeholder (`{min}`, `{max}`, `{mean at
X}`, `{MEASURE at AXIS=V; AXIS=V}`; `notes.py`), filled from the run when the page is written.
`crosses_down` (with a threshold) claims a crossover: above the threshold at the first point
judged, below it at the last (both sides shown; `at_x` picks the two).
`at_x = [...]` judges a claim at those x values only (the figure still
shows every point). `sensitivity = "axis"` judges the item again at every other value of
an axis of readings the paper leaves open (e.g. the stack profile), shown beside its verdict
(`sensitivity = { axis = "name", values = [...] }` picks the values).
`group = "axis"` splits the points into one series per value of another
axis (claims then hold per series); `only = { measure = "...", at_most = v }` keeps the points
where another measure's mean lies within bounds. `figure` draws a trace from the sweep's run folders (see `trace.py`),
beside a measure's verdict or for a figure whose numbers are not in the text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

from ..errors import ScenarioError
from ..names import plain_name
from ..scenario import loads
from ..sweep.measures import checked_python_function
from .notes import check_placeholders
from .trace import TraceSpec, parse_trace
from .unstated import Unstated, parse_unstated
from .verdict import CALIBRATED, CLASSES, RESULT, SENSITIVITY, Tolerance
from .words import field_words

__all__ = ["Item", "Paper", "load_paper", "find_experiments", "check_fields", "CLAIM_KINDS"]

_PAPER_KEYS = {"id", "title", "paper", "citation", "ran_on", "summary", "items", "axis_labels", "unstated"}
_TEXT = (str, "text")
_TABLE = (dict, "a table")
_LIST = (list, "a list")
_ITEM_TYPES: Dict[str, Any] = {
    **{k: _TEXT for k in ("id", "title", "where", "sweep", "x", "measure", "label", "cannot", "text_missing", "cause", "group", "xlabel", "group_label",
                          "model", "name", "class", "of", "cause_tested_by", "threshold_from")},
    "sensitivity": ((str, dict), "an axis name or { axis = \"...\", values = [...] }"),
    **{k: _TABLE for k in ("tolerance", "published", "claim", "select", "baseline", "figure", "only", "also", "plot_x")},
    **{k: _LIST for k in ("at_x", "points")},
    "scale": ((int, float), "a finite number"),
}
"""Each item key's TOML type, checked before the item is read (a wrong type names its field)."""
_ITEM_KEYS = set(_ITEM_TYPES)


@dataclass
class Item:
    """One figure, table or claim of a paper."""

    id: str
    """A plain name, unique in the paper: the item's anchor on its page and its name for
    `--explain`."""
    title: str
    """The figure, table or claim in words, as the page heads it."""
    where: str
    """Where it is in the paper (section, figure, the sentence quoted)."""
    kind: str = RESULT
    """The item's class (`verdict.CLASSES`, `class` in paper.toml); only results are counted."""
    of: Optional[str] = None
    """The id of a result this item serves: the result a sensitivity item reads differently,
    or the result whose cause a context item checks."""
    threshold_from: str = ""
    """Where the item's tolerance or claim threshold comes from: the paper's own words where it
    gives them, else the convention aimdlab reads them by (required for a judged threshold)."""
    cause_tested_by: Optional[str] = None
    """For a result: the sensitivity or context item of it (or `"sensitivity"`, its own axis)
    that tested the cause of a difference."""
    sweep: Optional[Path] = None
    """The experiment file (beside paper.toml) whose runs judge the item."""
    x: Optional[str] = None
    """The sweep axis (or a field of a linked axis) the paper's numbers run along."""
    measure: Optional[str] = None
    """A measure the sweep aggregates (`"A / B"` a ratio of two), judged at each point."""
    scale: float = 1.0
    """What aimdlab's value is multiplied by before it is set beside the paper's (units)."""
    label: str = ""
    """The measure in words (the figure's y axis)."""
    tolerance: Tolerance = field(default_factory=Tolerance)
    """How far from a published number still counts as reproduced: `{ abs = 0.5 }` and/or
    `{ rel = 0.05 }` (either suffices)."""
    published_x: List[Any] = field(default_factory=list)
    """The x values of the paper's numbers (`published = { x = [...], value = [...] }`)."""
    published: List[float] = field(default_factory=list)
    """The paper's numbers, one per x value."""
    claim: Optional[Dict[str, Any]] = None
    """A qualitative claim over the points: `{ kind = "...", threshold = ..., negligible = ... }`
    (`CLAIM_KINDS`; `verdict.check_claim`)."""
    cannot: Optional[str] = None
    """Why the item is not judged (its reason, shown on the page)."""
    text_missing: bool = False
    """Whether the reason is that the paper's text holding the values is missing (`text_missing`
    in paper.toml instead of `cannot`): the item is then "not checkable", counted apart."""
    cause: str = ""
    """Why aimdlab differs, or what the reader should know: shown under the item; numbers of
    the run are written as placeholders (`notes.py`)."""
    select: Dict[str, Any] = field(default_factory=dict)
    """The rows of a sweep with more axes than `x`: axis (or field of a linked axis) = value."""
    baseline: Optional[Dict[str, Any]] = None
    """Rows to divide by, point by point: `select` with these axis values replaced (the item
    is then a ratio against another configuration of the same sweep, e.g. New-AIMD over AIMD)."""
    figure: Optional[TraceSpec] = None
    """A trace drawn from the sweep's runs (`trace.py`)."""
    xlabel: str = ""
    """The x axis's name on the figure and in the table (default: the paper's `axis_labels`,
    else the schema's description of the field)."""
    group_label: str = ""
    """The group axis's name on the figure (defaults as for `xlabel`)."""
    name: str = ""
    """The judged measure's name in the figure's legend (with `also`)."""
    also: Dict[str, str] = field(default_factory=dict)
    """More measures drawn beside the judged one, by label (e.g. the TCP flows' rate beside
    GAIMD's), not judged."""
    at_x: Optional[List[Any]] = None
    """The x values a claim is judged at (default: every point; the figure shows them all)."""
    model: Optional[str] = None
    """A Python function `module:function` returning `{"x": [...], "y": [...]}`: the paper's
    analytic model evaluated by aimdlab, judged in place of a sweep."""
    sensitivity: Optional[str] = None
    """An axis (or a field of a linked axis) of readings the paper leaves open: the item is
    judged at `select`'s value, and again at each other value of this axis, shown beside."""
    sensitivity_label: str = ""
    """The sensitivity axis's name in words (the paper's `axis_labels`, else the schema's)."""
    sensitivity_values: Optional[List[Any]] = None
    """The values of the sensitivity axis to judge it at (default: every other one)."""
    group: Optional[str] = None
    """An axis that splits the item's points into series (one line each; claims hold per series)."""
    only: Optional[Dict[str, Any]] = None
    """`{ measure = M, at_most = v }` (and/or `at_least`): keep the points whose mean of measure
    M lies within the bounds, e.g. the loss rates where the paper claims accuracy."""
    points: Optional[List[Any]] = None
    """The x values the item keeps (default: every point of the sweep), e.g. the rows a
    paper's table has when the sweep shares its axis with another table."""
    plot_x: Optional[Dict[str, Any]] = None
    """`{ measure = M, scale = s, label = "...", log = true }`: the figure draws each point at
    its mean of measure M instead of its x value (the paper's own axis, e.g. GAIMD's loss rate
    where the sweep varies the number of sources), on a log scale with `log`."""


@dataclass
class Paper:
    """A paper's reproduction: its metadata and items."""

    id: str
    """A plain name: the paper's folder, its report's folder and its name on the command line."""
    title: str
    """The paper's subject in words, as the index and its page head it."""
    paper: str
    """The paper's text as the project keeps it (for its developers; not shown on the pages)."""
    ran_on: str
    """The simulator or stack the paper's own results come from."""
    summary: str
    """What the paper does and how aimdlab reads it, the page's opening paragraph."""
    items: List[Item]
    """Its figures, tables and claims (`[[items]]`)."""
    folder: Path
    """Where its paper.toml and experiment files are."""
    citation: str = ""
    """The paper as a reader cites it: authors, title, venue, year (shown on its page and in
    the index)."""
    unstated: List[Unstated] = field(default_factory=list)
    """The parameters of the set-up the paper does not state, with plausible values
    (`[[unstated]]`; what `aimdlab reproduce PAPER --explain ITEM` screens, `explain.py`)."""

    def sweeps(self) -> List[Path]:
        """The experiment files its items use, each once, in order."""
        return list(dict.fromkeys(i.sweep for i in self.items if i.sweep is not None))


def _err(path: Path, where: str, what: str) -> ScenarioError:
    return ScenarioError(f"{path}: {where}: {what}")


def _plain(path: Path, value: str, where: str) -> None:
    try:
        plain_name(value, where)
    except ScenarioError as e:
        raise ScenarioError(f"{path}: {e}") from None


CLAIM_KINDS = ("at_least", "at_most", "between", "flat", "increasing", "decreasing", "crosses_down")
"""The qualitative claims an item can check (verdict.check_claim)."""


def _claim(claim: Any, path: Path, at: str) -> Optional[Dict[str, Any]]:
    """An item's `claim` table, checked: a known kind and the threshold it needs."""
    if claim is None:
        return None
    if not isinstance(claim, dict) or claim.get("kind") not in CLAIM_KINDS:
        kind = claim.get("kind") if isinstance(claim, dict) else claim
        raise _err(path, f"{at}.claim.kind", f"{kind!r} is not a claim; expected one of {', '.join(CLAIM_KINDS)}")
    for k in claim:
        if k not in ("kind", "threshold", "negligible"):
            raise _err(path, f"{at}.claim.{k}", "unknown field; expected kind, threshold, negligible")
    kind, threshold = claim["kind"], claim.get("threshold")
    if "negligible" in claim and (kind not in ("increasing", "decreasing") or not is_number(claim["negligible"])
                                  or not 0 < claim["negligible"] < 1):
        raise _err(path, f"{at}.claim.negligible", "a trend's negligible band: a fraction of the mean between 0 and 1 "
                                                    "(increasing and decreasing only)")
    if kind == "between":
        if not (isinstance(threshold, list) and len(threshold) == 2 and all(is_number(v) for v in threshold) and threshold[0] <= threshold[1]):
            raise _err(path, f"{at}.claim.threshold", "between takes [low, high]")
    elif kind in ("at_least", "at_most", "flat", "crosses_down"):
        if not is_number(threshold):
            raise _err(path, f"{at}.claim.threshold", f"{kind} takes a number" + (" (the largest spread, a fraction of the mean)" if kind == "flat" else ""))
    elif threshold is not None:
        raise _err(path, f"{at}.claim.threshold", f"{kind} takes no threshold")
    return claim


def _subtable(d: Any, fields: Dict[str, Any], path: Path, at: str) -> Dict[str, Any]:
    """`d`, a table whose keys are among `fields` (key → (check, what it expects)), each
    value passing its check; else an error naming `at.key`."""
    for k, v in d.items():
        if k not in fields:
            raise _err(path, f"{at}.{k}", f"unknown field; expected one of {', '.join(sorted(fields))}")
        check, words = fields[k]
        if not check(v):
            raise _err(path, f"{at}.{k}", f"{v!r} is not {words}")
    return d


_NUMBER = (lambda v: is_number(v), "a finite number")
_NON_NEGATIVE = (lambda v: is_number(v) and v >= 0, "a finite number >= 0")
_WORDS = (lambda v: isinstance(v, str), "text")
_FLAG = (lambda v: isinstance(v, bool), "true or false")
_VALUES = (lambda v: isinstance(v, list) and bool(v), "a non-empty list")
_NUMBERS = (lambda v: isinstance(v, list) and bool(v) and all(is_number(x) for x in v), "a non-empty list of finite numbers")


def _judged_by(item: Item, d: Dict[str, Any], path: Path, at: str) -> None:
    """Reads what an item is judged by: its published numbers with their tolerance, and/or
    its claim (one of them at least)."""
    tol = _subtable(d.get("tolerance", {}), {"abs": _NON_NEGATIVE, "rel": _NON_NEGATIVE}, path, f"{at}.tolerance")
    item.tolerance = Tolerance(tol.get("abs"), tol.get("rel"))
    pub = d.get("published")
    if pub is not None:
        _subtable(pub, {"x": _VALUES, "value": _NUMBERS}, path, f"{at}.published")
        if len(pub.get("x", [])) != len(pub.get("value", [])) or not pub.get("x"):
            raise _err(path, f"{at}.published", "expected { x = [...], value = [...] } of one length")
        item.published_x, item.published = list(pub["x"]), [float(v) for v in pub["value"]]
        if item.tolerance.abs is None and item.tolerance.rel is None:
            raise _err(path, f"{at}.tolerance", "is missing: say what counts as reproduced (abs and/or rel)")
    item.claim = _claim(d.get("claim"), path, at)
    if pub is None and item.claim is None:
        raise _err(path, at, "has neither published numbers nor a claim to check")
    item.threshold_from = d.get("threshold_from", "")
    has_threshold = pub is not None or (item.claim is not None and item.claim.get("threshold") is not None)
    if has_threshold and not (isinstance(item.threshold_from, str) and item.threshold_from.strip()):
        raise _err(path, f"{at}.threshold_from", "is missing: say where the tolerance or threshold comes from (the paper's words, or the "
                                                 "convention aimdlab reads them by)")


def check_fields(paper: Paper, sweep: Path, fields: List[str], measures: Optional[List[str]] = None) -> None:
    """Checks that every item of `paper` on `sweep` names only fields its axes set (`fields`:
    every axis and every field of a linked axis): x, select, baseline, group, sensitivity and
    the figure's panels, lines and select; and only `measures` the sweep aggregates (measure,
    also, only, plot_x). Raises `ScenarioError` naming the item's field."""
    path = paper.folder / "paper.toml"
    for i, item in enumerate(paper.items):
        if item.sweep != sweep:
            continue
        named = [("x", item.x), ("group", item.group), ("sensitivity", item.sensitivity)]
        named += [(f"select.{k}", k) for k in item.select] + [(f"baseline.{k}", k) for k in (item.baseline or {})]
        if item.figure is not None:
            named += [("figure.panels", item.figure.panels), ("figure.lines", item.figure.lines)]
            named += [(f"figure.select.{k}", k) for k in (item.figure.select or {})]
        for where, name in named:
            if name is not None and name not in fields:
                raise _err(path, f"items[{i}].{where}", f"{name!r} is not an axis of {sweep.name}; its axes set {', '.join(fields)}")
        if measures is None or item.model is not None:
            continue
        used = [("measure", item.measure)] + [(f"also.{k}", m) for k, m in item.also.items()]
        used += [("only.measure", (item.only or {}).get("measure")), ("plot_x.measure", (item.plot_x or {}).get("measure"))]
        for where, m in used:
            if m is not None and m not in measures:
                shown = ", ".join(measures[:6]) + (", ..." if len(measures) > 6 else "")
                raise _err(path, f"items[{i}].{where}", f"{m!r} is not a measure of {sweep.name}; it aggregates {shown}")


def load_paper(folder: Union[str, Path]) -> Paper:
    """Reads `folder/paper.toml`; errors name the file and the field."""
    folder = Path(folder)
    path = folder / "paper.toml"
    if not path.is_file():
        raise ScenarioError(f"{folder}: has no paper.toml")
    data = loads(path.read_text(encoding="utf-8"), source=str(path))
    for k in data:
        if k not in _PAPER_KEYS:
            raise _err(path, k, f"unknown field; expected one of {', '.join(sorted(_PAPER_KEYS))}")
    for k in ("id", "title", "paper"):
        if not isinstance(data.get(k), str):
            raise _err(path, k, "is missing or not text")
    _plain(path, data["id"], "id")  # the report's folder and the index's link
    for k in ("ran_on", "summary", "citation"):
        if not isinstance(data.get(k, ""), str):
            raise _err(path, k, f"{data[k]!r} is not text")
    if not isinstance(data.get("items", []), list) or not all(isinstance(d, dict) for d in data.get("items", [])):
        raise _err(path, "items", "expected [[items]] tables, one per figure, table or claim")
    items = []
    for i, d in enumerate(data.get("items", [])):
        at = f"items[{i}]"
        for k in d:
            if k not in _ITEM_KEYS:
                raise _err(path, f"{at}.{k}", f"unknown field; expected one of {', '.join(sorted(_ITEM_KEYS))}")
            kinds, words = _ITEM_TYPES[k]
            if isinstance(d[k], bool) or not isinstance(d[k], kinds) or isinstance(d[k], float) and not math.isfinite(d[k]):
                raise _err(path, f"{at}.{k}", f"{d[k]!r} is not {words}")
        for k in ("id", "title", "where"):
            if not isinstance(d.get(k), str):
                raise _err(path, f"{at}.{k}", "is missing or not text")
        _plain(path, d["id"], f"{at}.id")  # the item's anchor on its page
        if "cannot" in d and "text_missing" in d:
            raise _err(path, f"{at}.text_missing", "give either `cannot` (a reason) or `text_missing` (the text that is missing), not both")
        if isinstance(d.get("cause"), str) and (why := check_placeholders(d["cause"])) is not None:
            raise _err(path, f"{at}.cause", why)
        item = Item(d["id"], d["title"], d["where"], cause=d.get("cause", ""), label=d.get("label", ""),
                    cannot=d.get("cannot", d.get("text_missing")), text_missing="text_missing" in d,
                    select=d.get("select", {}), baseline=d.get("baseline"))
        item.kind = d.get("class", RESULT)
        if item.kind not in CLASSES:
            raise _err(path, f"{at}.class", f"{item.kind!r} is not a class; expected one of {', '.join(CLASSES)}")
        item.of, item.cause_tested_by = d.get("of"), d.get("cause_tested_by")
        if item.kind == SENSITIVITY and not isinstance(item.of, str):
            raise _err(path, f"{at}.of", "a sensitivity item names the result it reads differently (of = \"id\")")
        if item.kind in (RESULT, CALIBRATED) and item.of is not None:
            raise _err(path, f"{at}.of", "names a result only from a sensitivity row or a context item that checks its cause")
        if "at_x" in d:
            if not isinstance(d["at_x"], list) or not d["at_x"]:
                raise _err(path, f"{at}.at_x", "expected a non-empty list of x values")
            item.at_x = d["at_x"]
        if "figure" in d:
            item.figure = parse_trace(d["figure"], f"{path}: {at}.figure")
        also = d.get("also", {})
        if not isinstance(also, dict) or not all(isinstance(v, str) for v in also.values()):
            raise _err(path, f"{at}.also", 'expected a table of label = "measure"')
        item.also = dict(also)
        item.name = d.get("name", "")
        if item.cannot is not None and "sweep" in d:
            if item.figure is None and not isinstance(d.get("measure"), str):
                raise _err(path, f"{at}.sweep", "an item that cannot be reproduced uses a sweep only to draw aimdlab's figure: "
                                                "give a `figure`, or `x` and `measure`")
            item.sweep = folder / d["sweep"]
            if not item.sweep.is_file():
                raise _err(path, f"{at}.sweep", f"{item.sweep} does not exist")
            if isinstance(d.get("measure"), str):
                if not isinstance(d.get("x"), str):
                    raise _err(path, f"{at}.x", "is missing: the axis aimdlab's figure runs along")
                item.x, item.measure = d["x"], d["measure"]
                item.scale = float(d.get("scale", 1.0))
                item.xlabel = d.get("xlabel", "")
        if item.cannot is None and "model" in d:
            if not isinstance(d["model"], str) or ":" not in d["model"]:
                raise _err(path, f"{at}.model", "expected a Python function \"module:function\" returning { x = [...], y = [...] }")
            try:
                checked_python_function(d["model"])
            except ValueError as e:
                raise _err(path, f"{at}.model", f"{d['model']!r} {e}") from None
            if "sweep" in d:
                raise _err(path, f"{at}.sweep", "an item is judged on a sweep or on a model, not both")
            item.model = d["model"]
            item.x = d.get("x", "x")
            item.xlabel = d.get("xlabel", "")
            item.scale = float(d.get("scale", 1.0))
            _judged_by(item, d, path, at)
        elif item.cannot is None:
            for k in ("sweep", "x", "measure"):
                if not isinstance(d.get(k), str):
                    raise _err(path, f"{at}.{k}", "is missing (an item is reproduced by a sweep, or says why it `cannot` be)")
            item.sweep = folder / d["sweep"]
            if not item.sweep.is_file():
                raise _err(path, f"{at}.sweep", f"{item.sweep} does not exist")
            item.x, item.measure = d["x"], d["measure"]
            item.scale = float(d.get("scale", 1.0))
            _judged_by(item, d, path, at)
            item.group = d.get("group")
            sens = d.get("sensitivity")
            if isinstance(sens, dict):
                if not isinstance(sens.get("axis"), str) or not isinstance(sens.get("values", []), list):
                    raise _err(path, f"{at}.sensitivity", "expected an axis name, or { axis = \"...\", values = [...] }")
                item.sensitivity, item.sensitivity_values = sens["axis"], sens.get("values")
            else:
                item.sensitivity = sens
            if item.sensitivity is not None and item.sensitivity not in item.select:
                raise _err(path, f"{at}.sensitivity", f"{item.sensitivity!r} is not in select: the item's own reading of it comes first")
            item.xlabel, item.group_label = d.get("xlabel", ""), d.get("group_label", "")
            if "points" in d:
                if not isinstance(d["points"], list) or not d["points"]:
                    raise _err(path, f"{at}.points", "expected a non-empty list of x values")
                item.points = d["points"]
            plot_x = d.get("plot_x")
            if plot_x is not None:
                _subtable(plot_x, {"measure": _WORDS, "scale": _NUMBER, "label": _WORDS, "log": _FLAG}, path, f"{at}.plot_x")
                if not isinstance(plot_x.get("measure"), str):
                    raise _err(path, f"{at}.plot_x", "expected { measure = \"...\", scale = 1, label = \"...\", log = false }")
                item.plot_x = plot_x
            only = d.get("only")
            if only is not None:
                _subtable(only, {"measure": _WORDS, "at_most": _NUMBER, "at_least": _NUMBER}, path, f"{at}.only")
                if not isinstance(only.get("measure"), str) or not ({"at_most", "at_least"} & set(only)):
                    raise _err(path, f"{at}.only", "expected { measure = \"...\", at_most = v } and/or at_least = v")
                item.only = only
            if item.group is not None and item.published:
                raise _err(path, f"{at}.group", "splits the points into series for a claim; published numbers are compared along x alone")
        items.append(item)
    if len({i.id for i in items}) != len(items):
        raise _err(path, "items", "two items share an id")
    labels = data.get("axis_labels", {})
    if not isinstance(labels, dict) or not all(isinstance(v, str) for v in labels.values()):
        raise _err(path, "axis_labels", 'expected a table of "axis" = "words"')
    for item in items:  # the paper's words first, else the schema's description of the field
        item.xlabel = item.xlabel or labels.get(item.x or "", "") or field_words(item.x or "")
        item.group_label = item.group_label or labels.get(item.group or "", "") or field_words(item.group or "")
        item.sensitivity_label = labels.get(item.sensitivity or "", "") or field_words(item.sensitivity or "")
    ids = {i.id: i for i in items}
    for n, item in enumerate(items):
        if item.of is not None and (item.of not in ids or ids[item.of].kind != RESULT):
            raise _err(path, f"items[{n}].of", f"{item.of!r} is not the id of a result item")
        tested = item.cause_tested_by
        if tested is not None and tested != "sensitivity" and (tested not in ids or ids[tested].of != item.id):
            raise _err(path, f"items[{n}].cause_tested_by", f"{tested!r} is not a sensitivity or context item of {item.id!r} "
                                                           f"(of = {item.id!r}), nor \"sensitivity\" (the item's own axis)")
        if tested == "sensitivity" and item.sensitivity is None:
            raise _err(path, f"items[{n}].cause_tested_by", "\"sensitivity\" needs the item's own sensitivity axis")
    return Paper(data["id"], data["title"], data["paper"], data.get("ran_on", ""), data.get("summary", ""), items, folder,
                 data.get("citation", ""), parse_unstated(data.get("unstated"), path))


def find_experiments(start: Optional[Path] = None) -> Path:
    """The paper definitions: `start` if given, else `./experiments` if there is one, else the
    copy that ships inside the package (`aimdlab/experiments`)."""
    if start is not None:
        if not Path(start).is_dir():
            raise ScenarioError(f"--experiments {start}: is not a folder; expected one holding <paper>/paper.toml")
        return Path(start)
    from ..package_data import package_folder

    here = Path.cwd() / "experiments"
    return here if (here.is_dir() and any(here.glob("*/paper.toml"))) else package_folder("experiments")


def is_number(x: Any) -> bool:
    """Whether `x` is a finite number."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
