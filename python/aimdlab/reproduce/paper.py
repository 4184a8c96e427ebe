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

An item is one of three kinds, told by its keys (`items.py`, where each key is declared once
with its type and meaning; `docs/reference/paper-toml.md` lists them): judged on a sweep,
judged on the paper's analytic model (`model`), or not judged (`cannot`, `text_missing`).
`aimdlab reproduce PAPER --explain ITEM` screens the unstated parameters for what would close
an item's difference (`explain.py`); a stored screen is the difference's tested cause.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Union

from ..errors import ScenarioError
from ..names import plain_name
from ..scenario import loads
from .items import CLAIM_KINDS, Item, ModelItem, NotJudgedItem, OnSweep, SweepItem, is_number, read_item
from .unstated import Unstated, parse_unstated
from .verdict import RESULT
from .words import field_words

__all__ = ["Item", "SweepItem", "ModelItem", "NotJudgedItem", "Paper", "load_paper", "find_experiments", "check_fields", "CLAIM_KINDS",
           "is_number"]

_PAPER_KEYS = {"id", "title", "paper", "citation", "ran_on", "summary", "items", "axis_labels", "unstated"}


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
    """Its figures, tables and claims (`[[items]]`; the kinds in `items.py`)."""
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
        return list(dict.fromkeys(i.sweep for i in self.items if isinstance(i, OnSweep) and i.sweep is not None))


def _err(path: Path, where: str, what: str) -> ScenarioError:
    return ScenarioError(f"{path}: {where}: {what}")


def _plain(path: Path, value: str, where: str) -> None:
    try:
        plain_name(value, where)
    except ScenarioError as e:
        raise ScenarioError(f"{path}: {e}") from None


def check_fields(paper: Paper, sweep: Path, fields: List[str], measures: Optional[List[str]] = None) -> None:
    """Checks that every item of `paper` on `sweep` names only fields its axes set (`fields`:
    every axis and every field of a linked axis): x, select, baseline, group, sensitivity and
    the figure's panels, lines and select; and only `measures` the sweep aggregates (measure,
    also, only, plot_x). Raises `ScenarioError` naming the item's field."""
    path = paper.folder / "paper.toml"
    for i, item in enumerate(paper.items):
        if not isinstance(item, OnSweep) or item.sweep != sweep:
            continue
        named = [("x", item.x), ("group", item.group), ("sensitivity", item.sensitivity if isinstance(item, SweepItem) else None)]
        named += [(f"select.{k}", k) for k in item.select] + [(f"baseline.{k}", k) for k in (item.baseline or {})]
        if item.figure is not None:
            named += [("figure.panels", item.figure.panels), ("figure.lines", item.figure.lines)]
            named += [(f"figure.select.{k}", k) for k in (item.figure.select or {})]
        for where, name in named:
            if name is not None and name not in fields:
                raise _err(path, f"items[{i}].{where}", f"{name!r} is not an axis of {sweep.name}; its axes set {', '.join(fields)}")
        if measures is None:
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
    items = [read_item(d, folder, f"{path}: items[{i}]") for i, d in enumerate(data.get("items", []))]
    if len({i.id for i in items}) != len(items):
        raise _err(path, "items", "two items share an id")
    labels = data.get("axis_labels", {})
    if not isinstance(labels, dict) or not all(isinstance(v, str) for v in labels.values()):
        raise _err(path, "axis_labels", 'expected a table of "axis" = "words"')
    for item in items:  # the paper's words first, else the schema's description of the field
        if isinstance(item, (OnSweep, ModelItem)):
            item.xlabel = item.xlabel or labels.get(item.x or "", "") or field_words(item.x or "")
        if isinstance(item, SweepItem):
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
        if tested == "sensitivity" and not (isinstance(item, SweepItem) and item.sensitivity is not None):
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

