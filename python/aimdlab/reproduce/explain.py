"""`aimdlab reproduce PAPER --explain ITEM`: screens the set-up a paper leaves unstated for what
would close one item's difference from the paper.

A paper declares the parameters its text does not give, each with the values a careful reader
would find plausible (paper.toml):

    [[unstated]]
    id = "buffer"                                    # a plain name
    what = "the bottleneck's buffer"                 # in words, for the table
    field = "topology.dumbbell.bottleneck.queue.limit"   # a scenario field (or linked: "a, b")
    values = ["50pkt", "125pkt", "250pkt"]           # the plausible range (linked: a list each)
    labels = ["ns-2's 50", "125", "250"]             # optional: a name for each value, shown
    why = "The paper gives no buffer; 50 packets is ns-2's default queue limit."
    sweeps = ["accuracy.toml"]                       # optional: the sweeps it applies to
    items = ["fig4"]                                 # optional: the items it applies to

A parameter of a paper's analytic model is declared as `field = "model.NAME"`: it applies to
the items judged on a `model`, whose function is called with `NAME = value`.

The screen runs the item's own points (its sweep restricted to the item's `select`, its x
values and its groups) as aimdlab runs them, then again with each declared parameter set to
each of its values, one at a time, applied after the sweep's axes (a field inside a table an
axis sets, such as the buffer of a queue an axis chooses, takes the declared value). The
parameters that move the item towards the paper are then tried in pairs. Each trial is judged
by the item's own rule (`_evaluate`), and its distance from the paper is measured in the
item's own terms (`shortfall`): 0 when every point is on the paper's side of its band or
threshold, else how far past it the means lie, in units of the band (published numbers) or of
the threshold (claims); a trend counts 1 when it differs, ½ when inconclusive. A screen
states which settings, if any, close the gap; one where none does rules out the declared
set-up as the cause.

Screens are stored beside the paper (`explain.json`, with their provenance), like ns-2.35's
values, so that every page shows them without running them again:

    experiments/PAPER/explain.json   {"items": {ITEM: {screen}}}
"""

from __future__ import annotations

import dataclasses
import datetime
import itertools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..errors import ScenarioError
from ..sweep.experiment import Experiment, _validate_points, axis_fields, load_experiment
from .axes import same_x
from .items import Judged, ModelItem, SweepItem
from .unstated import Unstated, parse_unstated
from .verdict import BAND_CLAIMS, CANNOT, DIFFERS, INCONCLUSIVE, REPRODUCED, claim_band

__all__ = ["Unstated", "Trial", "Screen", "parse_unstated", "item_experiment", "screen_item", "shortfall", "explain_file",
           "read_screens", "write_screen", "screen_words", "setting_words", "value_words"]

IMPROVES = 0.9
"""A setting moves an item towards the paper when its shortfall is at most this fraction of the
shortfall as run (a tenth closer at least): only such parameters are tried in pairs."""
PAIRED = 3
"""How many of the parameters that move an item most are tried in pairs."""
VALUES_PAIRED = 2
"""How many of each paired parameter's best values are combined."""


@dataclass
class Trial:
    """One setting of the unstated parameters (empty: as aimdlab runs the item) and what the
    item gave with it."""

    setting: Dict[str, Any]
    """Parameter id -> value."""
    verdict: str = CANNOT
    detail: str = ""
    shortfall: float = math.nan
    mean: List[float] = field(default_factory=list)


@dataclass
class Screen:
    """An item's screen: the item as run, each parameter's values one at a time, the pairs."""

    item: str
    as_run: Trial
    single: List[Trial]
    pairs: List[Trial]
    skipped: Dict[str, str]
    """Parameter id (or `id = value`) -> why it does not apply to the item's sweep (there)."""
    seeds: int
    quick: bool
    provenance: Dict[str, Any] = field(default_factory=dict)

    def closing(self) -> List[Trial]:
        """The settings that reproduce the item, single ones first."""
        return [t for t in self.single + self.pairs if t.verdict == REPRODUCED]

    def closest(self) -> Optional[Trial]:
        """The setting nearest the paper (the smallest shortfall), if any is nearer than as run."""
        tried = [t for t in self.single + self.pairs if math.isfinite(t.shortfall)]
        best = min(tried, key=lambda t: t.shortfall, default=None)
        if best is None or not math.isfinite(self.as_run.shortfall) or best.shortfall >= self.as_run.shortfall:
            return None
        return best

    def to_dict(self) -> Dict[str, Any]:
        """As stored in explain.json."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "Screen":
        """The inverse of `to_dict`."""
        def trial(t: Dict[str, Any]) -> Trial:  # (a NaN is stored as null)
            return Trial(t["setting"], t["verdict"], t["detail"], math.nan if t["shortfall"] is None else float(t["shortfall"]),
                         [math.nan if v is None else float(v) for v in t["mean"]])

        return cls(d["item"], trial(d["as_run"]), [trial(t) for t in d["single"]], [trial(t) for t in d["pairs"]],
                   dict(d["skipped"]), int(d["seeds"]), bool(d["quick"]), dict(d.get("provenance", {})))


def item_experiment(item: SweepItem, quick: bool = False) -> Experiment:
    """The item's own points of its sweep: the axis points its `select` (and `baseline`) keep,
    at the x values it judges, every group; with `quick`, the sweep's [quick] seeds and fields
    (the points stay the item's)."""
    assert item.sweep is not None, "a sweep item has its sweep"
    full = load_experiment(item.sweep)
    base = load_experiment(item.sweep, quick=True) if quick else full
    keys = list(full.axes)
    wanted: Optional[List[Any]] = None
    if item.published and item.claim is None:
        wanted = list(item.published_x)
    elif item.at_x is not None:
        wanted = list(item.at_x) + list(item.published_x)
    elif item.points is not None:
        wanted = list(item.points) + list(item.published_x)

    wanted_values: Dict[str, List[Any]] = {}  # each selected axis or field: the value it selects, and the baseline's
    for name, chosen in list(item.select.items()) + list((item.baseline or {}).items()):
        wanted_values.setdefault(name, []).append(chosen)

    def keeps(key: str, value: Any) -> bool:
        fields = axis_fields(key)
        for name, accepted in wanted_values.items():
            if name == key or (name in fields and len(fields) > 1):
                v = value if name == key else value[fields.index(name)]
                if not any(same_x(v, a) for a in accepted):
                    return False
        if key == item.x and wanted is not None:
            return any(same_x(value, w) for w in wanted)
        return True

    points = [p for p in full.axis_points() if all(keeps(k, v) for k, v in zip(keys, p))]
    if not points:
        raise ScenarioError(f"{item.id}: its sweep {item.sweep.name} has no point where {item.select}")
    axes = {k: [p[i] for p in points] for i, k in enumerate(keys)}
    return Experiment(f"{full.name}-{item.id}", full.description, base.scenario, axes, "zip", list(base.seeds), list(full.measures))


def _with(exp: Experiment, setting: List[Tuple[Unstated, Any]], name: str) -> Experiment:
    """`exp` with each parameter set to its value after the axes (an axis of one value per
    point, appended: the fields are set in axis order)."""
    n = len(next(iter(exp.axes.values()))) if exp.axes else 1
    axes = dict(exp.axes)
    for u, value in setting:
        axes[u.field] = [value] * n
    out = dataclasses.replace(exp, name=name, axes=axes, combine="zip")
    _validate_points(out)
    return out


def _applies(u: Unstated, item: Any, exp: Optional[Experiment]) -> Optional[str]:
    """Why `u` does not apply to the item (`exp`: the item's points, None for a model's item), or None."""
    if u.items is not None and item.id not in u.items:
        return f"declared for {', '.join(u.items)}"
    if exp is None:
        return None if u.model_argument is not None else "a set-up's parameter: the item is the paper's model"
    if u.model_argument is not None:
        return "a parameter of the paper's model: the item is judged on a sweep"
    if u.sweeps is not None and Path(item.sweep).name not in u.sweeps:
        return f"declared for {', '.join(u.sweeps)}"
    axis_paths = {f for key in exp.axes for f in axis_fields(key)}
    for f in axis_fields(u.field):
        if f in axis_paths:
            return f"the sweep varies {f} (an axis): the item's own points set it"
    return None


def shortfall(item: Judged, res: Any) -> float:
    """How far the item's means lie past the paper's band or claim, in the item's own units (0:
    none past it; see the module doc); NaN with no value."""
    parts: List[float] = []
    if item.published:
        for px, pv in zip(item.published_x, item.published):
            at = [i for i, x in enumerate(res.x) if same_x(x, px)]
            if not at or not math.isfinite(res.mean[at[0]]):
                continue
            lo, hi = item.tolerance.band(pv)
            width = max(hi - pv, 1e-12)
            m = res.mean[at[0]]
            parts.append(max(0.0, lo - m, m - hi) / width)
    if item.claim is not None:
        kind, t = item.claim["kind"], item.claim.get("threshold")
        at = [i for i, x in enumerate(res.x) if item.at_x is None or any(same_x(x, a) for a in item.at_x)]
        means = [res.mean[i] for i in at if math.isfinite(res.mean[i])]
        if kind in BAND_CLAIMS and means:
            low, high = claim_band(kind, t)
            scale = (high - low) if kind == "between" else abs(float(t or 0.0)) or 1.0
            parts += [max(0.0, low - m, m - high) / scale for m in means]
        else:
            parts.append({REPRODUCED: 0.0, INCONCLUSIVE: 0.5, DIFFERS: 1.0}.get(res.verdict.verdict, math.nan))
    finite = [p for p in parts if math.isfinite(p)]
    return sum(finite) / len(finite) if finite else math.nan


def _trial(item: Any, setting: List[Tuple[Unstated, Any]], sweep: Any = None) -> Trial:
    """The item judged on one screen sweep, or, for a model's item, its model called with the
    setting's arguments; by the item's own rule either way (`evaluation._evaluate`)."""
    from .evaluation import _evaluate

    args = {str(u.model_argument): v for u, v in setting} if isinstance(item, ModelItem) else None
    quiet = dataclasses.replace(item, figure=None, sensitivity=None) if isinstance(item, SweepItem) else item
    res = _evaluate(quiet, sweep, model_args=args)
    return Trial({u.id: u.label(v) for u, v in setting}, res.verdict.verdict, res.verdict.detail, shortfall(item, res), list(res.mean))


def screen_item(paper: Any, item_id: str, out: Path, quick: bool = False, jobs: Optional[int] = None,
                progress: Optional[Callable[[Any], None]] = None) -> Screen:
    """Screens the paper's declared unstated parameters for item `item_id` (see the module doc):
    the item's points as run, then each value of each parameter, then pairs of those that move
    it towards the paper; the runs go to `out/<item>/` (resumable)."""
    from ..sweep import run_sweeps

    items = {i.id: i for i in paper.items}
    if item_id not in items:
        raise ScenarioError(f"--explain: {item_id!r} is not an item of {paper.id}; expected one of {', '.join(items)}")
    item = items[item_id]
    if not isinstance(item, (SweepItem, ModelItem)):
        raise ScenarioError(f"--explain {item_id}: an item nothing judges ({getattr(item, 'cannot', '') or 'no sweep'}); --explain screens the "
                            "set-up of an item judged on a sweep or a model")
    if not paper.unstated:
        raise ScenarioError(f"--explain: {paper.id} declares no unstated parameters ([[unstated]] in its paper.toml)")
    base = item_experiment(item, quick) if isinstance(item, SweepItem) else None
    reasons = {u.id: _applies(u, item, base) for u in paper.unstated}
    skipped = {k: why for k, why in reasons.items() if why is not None}
    params = [u for u in paper.unstated if u.id not in skipped]
    if not params:
        raise ScenarioError(f"--explain {item_id}: none of {paper.id}'s unstated parameters applies to it: "
                            + "; ".join(f"{k}: {v}" for k, v in skipped.items()))
    folder = Path(out) / item.id

    def run(settings: List[List[Tuple[Unstated, Any]]]) -> List[Trial]:
        if base is None:
            return [_trial(item, s) for s in settings]
        batch, kept = [], []
        for s in settings:
            name = "+".join(f"{u.id}-{u.values.index(v)}" for u, v in s) or "as-run"
            try:
                batch.append((_with(base, s, f"{base.name}-{name}") if s else base, folder / name))
                kept.append(s)
            except ScenarioError as e:  # (a value the sweep's scenario cannot take there, e.g. a field of a named controller)
                skipped[", ".join(f"{u.id} = {value_words(v)}" for u, v in s)] = str(e)
        sweeps = run_sweeps(batch, jobs=jobs, progress=progress)
        return [_trial(item, s, sw) for s, sw in zip(kept, sweeps)]

    singles_of = [[(u, v)] for u in params for v in u.values]
    first = run([[]] + singles_of)
    as_run, single = first[0], first[1:]
    if as_run.verdict == CANNOT:
        raise ScenarioError(f"--explain {item_id}: the item cannot be judged on its own points as run ({as_run.detail}); nothing to screen")
    reference = as_run.shortfall
    moving: List[Tuple[float, Unstated, List[Any]]] = []
    for u in params:
        mine = sorted((t for t in single if u.id in t.setting and math.isfinite(t.shortfall)), key=lambda t: t.shortfall)
        better = [t for t in mine if math.isfinite(reference) and t.shortfall <= IMPROVES * reference]
        if better:
            moving.append((better[0].shortfall, u, [u.value_of(t.setting[u.id]) for t in better[:VALUES_PAIRED]]))
    moving.sort(key=lambda m: m[0])
    pair_settings = [[(a, va), (b, vb)] for (_, a, avs), (_, b, bvs) in itertools.combinations(moving[:PAIRED], 2)
                     for va in avs for vb in bvs]
    pairs = run(pair_settings) if pair_settings else []
    return Screen(item.id, as_run, single, pairs, skipped, len(base.seeds) if base is not None else 0, quick and base is not None)


def value_words(value: Any) -> str:
    """A parameter's value as written in a setting: text as it is, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


def setting_words(setting: Dict[str, Any]) -> str:
    """A setting in words: `buffer = 50pkt, delayed_ack = true` (the parameters' ids)."""
    return ", ".join(f"{k} = {value_words(v)}" for k, v in setting.items()) or "as run"


def screen_words(screen: Screen) -> str:
    """The screen's conclusion in one sentence (the detail a result's verdict gains)."""
    n = len(screen.single) + len(screen.pairs)
    tried = f"{n} setting{'' if n == 1 else 's'} tried"
    closing = screen.closing()
    if closing:
        shown = "; ".join(setting_words(t.setting) for t in closing[:3]) + ("; ..." if len(closing) > 3 else "")
        return f"cause screened: the paper's unstated set-up would close the gap ({shown} reproduces it; {tried})"
    best = screen.closest()
    if best is not None and best.shortfall == 0:
        return (f"cause screened: no declared unstated parameter closes the gap for certain ({tried}); "
                f"{setting_words(best.setting)} puts the means on the paper's side, {best.verdict} (the intervals reach across "
                "the bound: more seeds would tell)")
    if best is not None:
        return (f"cause screened: no declared unstated parameter closes the gap ({tried}); the closest, "
                f"{setting_words(best.setting)}, brings it from {screen.as_run.shortfall:.3g} to {best.shortfall:.3g} of the band off the paper")
    return f"cause screened: no declared unstated parameter closes the gap or moves it towards the paper ({tried})"


def explain_file(paper_folder: Path) -> Path:
    """Where a paper's screens are stored: beside its paper.toml."""
    return Path(paper_folder) / "explain.json"


def read_screens(paper_folder: Path) -> Dict[str, Screen]:
    """The paper's stored screens by item id (none without a file)."""
    path = explain_file(paper_folder)
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {k: Screen.from_dict(v) for k, v in data.get("items", {}).items()}


def write_screen(paper: Any, screen: Screen, command: str) -> Path:
    """Stores `screen` in the paper's explain.json (replacing the item's earlier screen), with
    its provenance; atomically."""
    from .. import __version__
    from ..jsonable import jsonable
    from ..sweep.store import write_atomic

    path = explain_file(paper.folder)
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"items": {}}
    screen.provenance = {"aimdlab": __version__, "date": datetime.date.today().isoformat(), "command": command}
    data["items"][screen.item] = screen.to_dict()
    data["items"] = dict(sorted(data["items"].items()))
    write_atomic(path, (json.dumps(jsonable(data), indent=1, sort_keys=True) + "\n").encode("utf-8"))
    return path
