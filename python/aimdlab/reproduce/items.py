"""The kinds of item a paper.toml lists, each a type with its own keys (`paper.py` reads the
file; the reference page `docs/reference/paper-toml.md` is written from these classes):

- `SweepItem`: a number or claim of the paper judged on a sweep aimdlab runs;
- `ModelItem`: one judged on the paper's analytic model as aimdlab evaluates it (`model`);
- `NotJudgedItem`: one that cannot be reproduced (`cannot`) or whose values are in a part of
  the paper's text that is missing (`text_missing`), with aimdlab's own figure when it gives a
  sweep.

Every key is declared once, as a field of its class with `key(...)`: its TOML type in words,
checked before the item is read, and its meaning in the docstring under it. `Item` holds what
every item has; `OnSweep` what an item drawn from a sweep has; `Judged` what an item judged
against the paper has (published numbers with their tolerance, or a claim).

An item's kind is told by its keys: `cannot` or `text_missing` make it not judged, `model` a
model's, anything else a sweep's. A key of another kind is an error naming it (a `tolerance`
on an item that cannot be reproduced judges nothing).
"""

from __future__ import annotations

import dataclasses
import difflib
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple, Type

from ..errors import ScenarioError
from ..names import plain_name
from ..sweep.measures import checked_python_function
from .notes import check_placeholders
from .trace import TraceSpec, parse_trace
from .verdict import CALIBRATED, CLASSES, RESULT, SENSITIVITY, Tolerance

__all__ = ["Item", "OnSweep", "Judged", "SweepItem", "ModelItem", "NotJudgedItem", "ITEM_KINDS", "CLAIM_KINDS", "read_item",
           "toml_keys", "is_number"]

_TEXT = ((str,), "text")
_TABLE = ((dict,), "a table")
_LIST = ((list,), "a list")
_NUMBER = ((int, float), "a finite number")


def key(kind: Tuple[Tuple[type, ...], str], default: Any = None, factory: Optional[Callable[[], Any]] = None,
        toml: Optional[str] = None) -> Any:
    """A field read from a paper.toml key: `kind` is (the TOML types it takes, those in words);
    `toml` the key's name where it is not the field's."""
    meta = {"types": kind[0], "words": kind[1], "toml": toml}
    if factory is not None:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


def toml_keys(cls: type) -> Dict[str, Tuple[str, Tuple[type, ...], str]]:
    """The paper.toml keys an item class takes: key → (its field, the TOML types, in words)."""
    return {f.metadata["toml"] or f.name: (f.name, f.metadata["types"], f.metadata["words"])
            for f in dataclasses.fields(cls) if "types" in f.metadata}


def _err(at: str, what: str) -> ScenarioError:
    return ScenarioError(f"{at}: {what}")


def is_number(x: Any) -> bool:
    """Whether `x` is a finite number."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


@dataclass
class Item:
    """What every item has: a figure, table or claim of a paper, where it is, its class."""

    id: str = key(_TEXT, "")
    """A plain name, unique in the paper: the item's anchor on its page and its name for
    `--explain`."""
    title: str = key(_TEXT, "")
    """The figure, table or claim in words, as the page heads it."""
    where: str = key(_TEXT, "")
    """Where it is in the paper (section, figure, the sentence quoted)."""
    kind: str = key(_TEXT, RESULT, toml="class")
    """The item's class (`verdict.CLASSES`): `result` (the default), a number or claim of the
    paper on a set-up it describes, counted by verdict; `calibrated` (a free parameter fitted to
    the paper's own numbers), `sensitivity` (another reading of a result, with `of`) or
    `context` (aimdlab's own measure, a claim true by construction, a set-up aimdlab had to
    invent; with `of`, a check of a result's cause): shown, never counted as paper results."""
    of: Optional[str] = key(_TEXT)
    """The id of a result this item serves: the result a sensitivity item reads differently,
    or the result whose cause a context item checks."""
    cause_tested_by: Optional[str] = key(_TEXT)
    """For a result: the sensitivity or context item of it (or `"sensitivity"`, its own axis)
    that tested the cause of a difference; a result that differs without one says "cause not
    tested"."""
    cause: str = key(_TEXT, "")
    """Why aimdlab differs, or what the reader should know: shown under the item; numbers of
    the run are written as placeholders (`{min}`, `{max}`, `{mean at X}`, `{MEASURE at
    AXIS=V; AXIS=V}`; `notes.py`), filled from the run when the page is written."""
    label: str = key(_TEXT, "")
    """The measure in words (the figure's y axis)."""

    KIND_WORDS = "an item"
    """The kind in words, as errors name it."""

    def read(self, d: Dict[str, Any], folder: Path, at: str) -> None:
        """Checks what this kind's keys say together (each key's type is checked already)."""
        plain_name(self.id, f"{at}.id")  # the item's anchor on its page
        if (why := check_placeholders(self.cause)) is not None:
            raise _err(f"{at}.cause", why)
        if self.kind not in CLASSES:
            raise _err(f"{at}.class", f"{self.kind!r} is not a class; expected one of {', '.join(CLASSES)}")
        if self.kind == SENSITIVITY and not isinstance(self.of, str):
            raise _err(f"{at}.of", "a sensitivity item names the result it reads differently (of = \"id\")")
        if self.kind in (RESULT, CALIBRATED) and self.of is not None:
            raise _err(f"{at}.of", "names a result only from a sensitivity row or a context item that checks its cause")


@dataclass
class Judged(Item):
    """What an item judged against the paper has: its published numbers with a tolerance,
    and/or a qualitative claim, and where the threshold comes from."""

    x: Optional[str] = key(_TEXT)
    """The axis the paper's numbers run along: a sweep's axis (or a field of a linked axis), or
    the model's `x`."""
    xlabel: str = key(_TEXT, "")
    """The x axis's name on the figure and in the table (default: the paper's `axis_labels`,
    else the schema's description of the field)."""
    scale: float = key(_NUMBER, 1.0)
    """What aimdlab's value is multiplied by before it is set beside the paper's (units)."""
    tolerance: Tolerance = key(_TABLE, factory=Tolerance)
    """How far from a published number still counts as reproduced: `{ abs = 0.5 }` and/or
    `{ rel = 0.05 }` (either suffices)."""
    published: List[float] = key(_TABLE, factory=list)
    """The paper's numbers, `published = { x = [...], value = [...] }`: one value per x."""
    published_x: List[Any] = field(default_factory=list)
    """The x values of the paper's numbers."""
    claim: Optional[Dict[str, Any]] = key(_TABLE)
    """A qualitative claim over the points: `{ kind = "...", threshold = ..., negligible = ... }`
    (`CLAIM_KINDS`; `verdict.check_claim`). A trend's `negligible` is the change too small to
    count, a fraction of the mean."""
    threshold_from: str = key(_TEXT, "")
    """Where the item's tolerance or claim threshold comes from: the paper's own words where it
    gives them, else the convention aimdlab reads them by (required for a judged threshold)."""
    at_x: Optional[List[Any]] = key(_LIST)
    """The x values a claim is judged at (default: every point; the figure shows them all)."""

    def read(self, d: Dict[str, Any], folder: Path, at: str) -> None:
        super().read(d, folder, at)
        tol = _subtable(d.get("tolerance", {}), {"abs": _NON_NEGATIVE, "rel": _NON_NEGATIVE}, f"{at}.tolerance")
        self.tolerance = Tolerance(tol.get("abs"), tol.get("rel"))
        pub = d.get("published")
        if pub is not None:
            _subtable(pub, {"x": _VALUES, "value": _NUMBERS}, f"{at}.published")
            if len(pub.get("x", [])) != len(pub.get("value", [])) or not pub.get("x"):
                raise _err(f"{at}.published", "expected { x = [...], value = [...] } of one length")
            self.published_x, self.published = list(pub["x"]), [float(v) for v in pub["value"]]
            if self.tolerance.abs is None and self.tolerance.rel is None:
                raise _err(f"{at}.tolerance", "is missing: say what counts as reproduced (abs and/or rel)")
        else:
            self.published = []
        self.claim = _claim(self.claim, at)
        if pub is None and self.claim is None:
            raise _err(at, "has neither published numbers nor a claim to check")
        has_threshold = pub is not None or (self.claim is not None and self.claim.get("threshold") is not None)
        if has_threshold and not self.threshold_from.strip():
            raise _err(f"{at}.threshold_from", "is missing: say where the tolerance or threshold comes from (the paper's words, or the "
                                               "convention aimdlab reads them by)")
        if self.at_x is not None and not self.at_x:
            raise _err(f"{at}.at_x", "expected a non-empty list of x values")
        self.scale = float(self.scale)


@dataclass
class OnSweep(Item):
    """What an item drawn from a sweep's runs has: the sweep, the axis and measure it reads,
    the rows it keeps, a trace figure and measures drawn beside."""

    sweep: Optional[Path] = key(_TEXT)
    """The experiment file (beside paper.toml) whose runs judge or draw the item."""
    x: Optional[str] = key(_TEXT)
    """The sweep axis (or a field of a linked axis) the paper's numbers run along."""
    measure: Optional[str] = key(_TEXT)
    """A measure the sweep aggregates (`"A / B"` a ratio of two), at each point."""
    xlabel: str = key(_TEXT, "")
    """The x axis's name on the figure and in the table (default: the paper's `axis_labels`,
    else the schema's description of the field)."""
    scale: float = key(_NUMBER, 1.0)
    """What aimdlab's value is multiplied by before it is set beside the paper's (units)."""
    select: Dict[str, Any] = key(_TABLE, factory=dict)
    """The rows of a sweep with more axes than `x`: axis (or field of a linked axis) = value."""
    baseline: Optional[Dict[str, Any]] = key(_TABLE)
    """Rows to divide by, point by point: `select` with these axis values replaced (the item
    is then a ratio against another configuration of the same sweep, e.g. New-AIMD over AIMD;
    its 95 % interval is then not given)."""
    figure: Optional[TraceSpec] = key(_TABLE)
    """A trace drawn from the sweep's runs (`trace.py`), beside a measure's verdict or for a
    figure whose numbers are not in the text."""
    also: Dict[str, str] = key(_TABLE, factory=dict)
    """More measures drawn beside the judged one, by label (e.g. `{ "TCP" = "measure" }`, the
    TCP flows' rate beside GAIMD's), not judged."""
    name: str = key(_TEXT, "")
    """The item's own measure's name in the figure's legend (with `also`)."""
    # What only a judged sweep item reads (`SweepItem`); here so the drawing reads one shape.
    group: Optional[str] = None
    group_label: str = ""
    only: Optional[Dict[str, Any]] = None
    points: Optional[List[Any]] = None
    plot_x: Optional[Dict[str, Any]] = None

    def read(self, d: Dict[str, Any], folder: Path, at: str) -> None:
        super().read(d, folder, at)
        if "figure" in d:
            self.figure = parse_trace(d["figure"], f"{at}.figure")
        if not all(isinstance(v, str) for v in self.also.values()):
            raise _err(f"{at}.also", 'expected a table of label = "measure"')
        self.also = dict(self.also)
        if self.sweep is not None:
            self.sweep = folder / str(self.sweep)
            if not self.sweep.is_file():
                raise _err(f"{at}.sweep", f"{self.sweep} does not exist")
        self.scale = float(self.scale)


@dataclass
class SweepItem(OnSweep, Judged):
    """A number or claim of the paper judged on a sweep aimdlab runs."""

    group: Optional[str] = key(_TEXT)
    """An axis that splits the item's points into series (one line each; claims hold per series)."""
    group_label: str = key(_TEXT, "")
    """The group axis's name on the figure (defaults as for `xlabel`)."""
    sensitivity: Optional[str] = key(((str, dict), "an axis name or { axis = \"...\", values = [...] }"))
    """An axis (or a field of a linked axis) of readings the paper leaves open (e.g. the stack
    profile): the item is judged at `select`'s value, and again at each other value of this
    axis, shown beside; `{ axis = "...", values = [...] }` picks the values."""
    sensitivity_values: Optional[List[Any]] = None
    """The values of the sensitivity axis to judge it at (default: every other one)."""
    sensitivity_label: str = ""
    """The sensitivity axis's name in words (the paper's `axis_labels`, else the schema's)."""
    only: Optional[Dict[str, Any]] = key(_TABLE)
    """`{ measure = M, at_most = v }` (and/or `at_least`): keep the points whose mean of measure
    M lies within the bounds, e.g. the loss rates where the paper claims accuracy."""
    points: Optional[List[Any]] = key(_LIST)
    """The x values the item keeps (default: every point of the sweep), e.g. the rows a
    paper's table has when the sweep shares its axis with another table."""
    plot_x: Optional[Dict[str, Any]] = key(_TABLE)
    """`{ measure = M, scale = s, label = "...", log = true }`: the figure draws each point at
    its mean of measure M instead of its x value (the paper's own axis, e.g. GAIMD's loss rate
    where the sweep varies the number of sources), on a log scale with `log`."""

    KIND_WORDS = "an item judged on a sweep"

    def read(self, d: Dict[str, Any], folder: Path, at: str) -> None:
        for k in ("sweep", "x", "measure"):
            if not isinstance(d.get(k), str):
                raise _err(f"{at}.{k}", "is missing (an item is reproduced by a sweep, or says why it `cannot` be)")
        super().read(d, folder, at)
        sens = d.get("sensitivity")
        if isinstance(sens, dict):
            if not isinstance(sens.get("axis"), str) or not isinstance(sens.get("values", []), list):
                raise _err(f"{at}.sensitivity", "expected an axis name, or { axis = \"...\", values = [...] }")
            self.sensitivity, self.sensitivity_values = sens["axis"], sens.get("values")
        if self.sensitivity is not None and self.sensitivity not in self.select:
            raise _err(f"{at}.sensitivity", f"{self.sensitivity!r} is not in select: the item's own reading of it comes first")
        if self.points is not None and not self.points:
            raise _err(f"{at}.points", "expected a non-empty list of x values")
        if self.plot_x is not None:
            _subtable(self.plot_x, {"measure": _WORDS, "scale": _NUMBER_CHECK, "label": _WORDS, "log": _FLAG}, f"{at}.plot_x")
            if not isinstance(self.plot_x.get("measure"), str):
                raise _err(f"{at}.plot_x", "expected { measure = \"...\", scale = 1, label = \"...\", log = false }")
        if self.only is not None:
            _subtable(self.only, {"measure": _WORDS, "at_most": _NUMBER_CHECK, "at_least": _NUMBER_CHECK}, f"{at}.only")
            if not isinstance(self.only.get("measure"), str) or not ({"at_most", "at_least"} & set(self.only)):
                raise _err(f"{at}.only", "expected { measure = \"...\", at_most = v } and/or at_least = v")
        if self.group is not None and self.published:
            raise _err(f"{at}.group", "splits the points into series for a claim; published numbers are compared along x alone")


@dataclass
class ModelItem(Judged):
    """A number or claim of the paper judged on its analytic model as aimdlab evaluates it."""

    model: str = key(_TEXT, "")
    """A Python function `module:function` returning `{"x": [...], "y": [...]}`: the paper's
    analytic model evaluated by aimdlab, judged in place of a sweep."""

    KIND_WORDS = "an item judged on a model"

    def read(self, d: Dict[str, Any], folder: Path, at: str) -> None:
        super().read(d, folder, at)
        if ":" not in self.model:
            raise _err(f"{at}.model", "expected a Python function \"module:function\" returning { x = [...], y = [...] }")
        try:
            checked_python_function(self.model)
        except ValueError as e:
            raise _err(f"{at}.model", f"{self.model!r} {e}") from None
        self.x = self.x or "x"


@dataclass
class NotJudgedItem(OnSweep):
    """An item aimdlab does not judge: it cannot be reproduced (`cannot`, the reason), or the
    paper's text that holds its values is missing (`text_missing`); with a sweep, aimdlab still
    draws its own figure (a `figure`, or `x` and `measure`)."""

    cannot: str = key(_TEXT, "")
    """Why the item cannot be reproduced (shown on the page): a figure that is an image, a
    set-up the text does not give."""
    text_missing: bool = key(_TEXT, False)
    """The text holding the item's values is missing (give the reason here instead of
    `cannot`): the item is then "not checkable: text missing", counted apart from the paper
    results that cannot be reproduced."""

    KIND_WORDS = "an item that is not judged"

    def read(self, d: Dict[str, Any], folder: Path, at: str) -> None:
        if "cannot" in d and "text_missing" in d:
            raise _err(f"{at}.text_missing", "give either `cannot` (a reason) or `text_missing` (the text that is missing), not both")
        self.cannot, self.text_missing = d.get("cannot", d.get("text_missing", "")), "text_missing" in d
        if "sweep" in d and "figure" not in d and not isinstance(d.get("measure"), str):
            raise _err(f"{at}.sweep", "an item that cannot be reproduced uses a sweep only to draw aimdlab's figure: "
                                      "give a `figure`, or `x` and `measure`")
        if isinstance(d.get("measure"), str) and not isinstance(d.get("x"), str):
            raise _err(f"{at}.x", "is missing: the axis aimdlab's figure runs along")
        if "sweep" not in d and isinstance(d.get("measure"), str):
            raise _err(f"{at}.sweep", "is missing: the sweep aimdlab's figure is drawn from")
        super().read(d, folder, at)


ITEM_KINDS: Tuple[Type[Item], ...] = (SweepItem, ModelItem, NotJudgedItem)
"""The kinds of item, in the order the reference page lists them."""


def _kind_of(d: Dict[str, Any]) -> Type[Item]:
    """The kind an item's keys make it."""
    if "cannot" in d or "text_missing" in d:
        return NotJudgedItem
    if "model" in d:
        return ModelItem
    return SweepItem


def read_item(d: Dict[str, Any], folder: Path, at: str) -> Item:
    """The item `d` (one `[[items]]` table) says, of the kind its keys make it; errors name
    `at.key` (`at` says the file and the item)."""
    cls = _kind_of(d)
    keys = toml_keys(cls)
    values: Dict[str, Any] = {}
    for k, v in d.items():
        if k not in keys:
            near = difflib.get_close_matches(k, list(keys), n=2, cutoff=0.75)
            typo = f" (did you mean {near[0]}?)" if len(near) == 1 else ""
            elsewhere = [c.KIND_WORDS for c in ITEM_KINDS if k in toml_keys(c)]
            other = f"; {k} belongs to {' or '.join(elsewhere)}" if elsewhere and not typo else ""
            raise _err(f"{at}.{k}", f"is not a field of {cls.KIND_WORDS}; it takes {', '.join(sorted(keys))}{typo}{other}")
        name, types, words = keys[k]
        if isinstance(v, bool) or not isinstance(v, types) or isinstance(v, float) and not math.isfinite(v):
            raise _err(f"{at}.{k}", f"{v!r} is not {words}")
        values[name] = v
    for k in ("id", "title", "where"):
        if not isinstance(d.get(k), str):
            raise _err(f"{at}.{k}", "is missing or not text")
    if cls is NotJudgedItem:  # (`cannot` and `text_missing` are one reason, read by the kind)
        values.pop("cannot", None)
        values.pop("text_missing", None)
    for read_by_the_kind in ("published", "tolerance", "figure"):  # (tables the kind's `read` checks and turns into its own types)
        values.pop(read_by_the_kind, None)
    if isinstance(values.get("sensitivity"), dict):
        values.pop("sensitivity")
    item = cls(**values)
    item.read(d, folder, at)
    return item


CLAIM_KINDS = ("at_least", "at_most", "between", "flat", "increasing", "decreasing", "crosses_down")
"""The qualitative claims an item can check (verdict.check_claim)."""


def _claim(claim: Any, at: str) -> Optional[Dict[str, Any]]:
    """An item's `claim` table, checked: a known kind and the threshold it needs."""
    if claim is None:
        return None
    if not isinstance(claim, dict) or claim.get("kind") not in CLAIM_KINDS:
        kind = claim.get("kind") if isinstance(claim, dict) else claim
        raise _err(f"{at}.claim.kind", f"{kind!r} is not a claim; expected one of {', '.join(CLAIM_KINDS)}")
    for k in claim:
        if k not in ("kind", "threshold", "negligible"):
            raise _err(f"{at}.claim.{k}", "unknown field; expected kind, threshold, negligible")
    kind, threshold = claim["kind"], claim.get("threshold")
    if "negligible" in claim and (kind not in ("increasing", "decreasing") or not is_number(claim["negligible"])
                                  or not 0 < claim["negligible"] < 1):
        raise _err(f"{at}.claim.negligible", "a trend's negligible band: a fraction of the mean between 0 and 1 "
                                             "(increasing and decreasing only)")
    if kind == "between":
        if not (isinstance(threshold, list) and len(threshold) == 2 and all(is_number(v) for v in threshold) and threshold[0] <= threshold[1]):
            raise _err(f"{at}.claim.threshold", "between takes [low, high]")
    elif kind in ("at_least", "at_most", "flat", "crosses_down"):
        if not is_number(threshold):
            raise _err(f"{at}.claim.threshold", f"{kind} takes a number" + (" (the largest spread, a fraction of the mean)" if kind == "flat" else ""))
    elif threshold is not None:
        raise _err(f"{at}.claim.threshold", f"{kind} takes no threshold")
    return claim


def _subtable(d: Any, fields: Dict[str, Any], at: str) -> Dict[str, Any]:
    """`d`, a table whose keys are among `fields` (key → (check, what it expects)), each
    value passing its check; else an error naming `at.key`."""
    if not isinstance(d, dict):
        raise _err(at, f"{d!r} is not a table")
    for k, v in d.items():
        if k not in fields:
            raise _err(f"{at}.{k}", f"unknown field; expected one of {', '.join(sorted(fields))}")
        check, words = fields[k]
        if not check(v):
            raise _err(f"{at}.{k}", f"{v!r} is not {words}")
    return d


_NUMBER_CHECK = (lambda v: is_number(v), "a finite number")
_NON_NEGATIVE = (lambda v: is_number(v) and v >= 0, "a finite number >= 0")
_WORDS = (lambda v: isinstance(v, str), "text")
_FLAG = (lambda v: isinstance(v, bool), "true or false")
_VALUES = (lambda v: isinstance(v, list) and bool(v), "a non-empty list")
_NUMBERS = (lambda v: isinstance(v, list) and bool(v) and all(is_number(x) for x in v), "a non-empty list of finite numbers")
