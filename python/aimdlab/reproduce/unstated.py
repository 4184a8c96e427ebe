"""A paper's unstated parameters (`[[unstated]]` in its paper.toml): the fields of a set-up, or
arguments of its model, that the paper does not give, each with the values a careful reader
would find plausible. `explain.py` screens them for what would close a difference.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Optional

from ..errors import ScenarioError
from ..names import plain_name
from ..scenario import _parse_path
from ..sweep.experiment import axis_fields

__all__ = ["Unstated", "parse_unstated"]


@dataclass(frozen=True)
class Unstated:
    """A parameter the paper does not state, with its plausible values (`[[unstated]]`)."""

    id: str
    """A plain name, unique in the paper (the screen's tables name the parameter by it)."""
    what: str
    """The parameter in words."""
    field: str
    """A scenario field path, or several linked (`"a, b"`) that each value sets together, or
    `model.NAME` for a keyword argument of the paper's model."""
    values: List[Any]
    """The values a careful reader would find plausible (a list each for linked fields)."""
    why: str
    """Why it is unstated and where the values come from (the paper's words, its simulator's
    defaults): never the paper's own numbers."""
    sweeps: Optional[List[str]] = None
    """The experiment files it applies to (default: every sweep of the paper)."""
    items: Optional[List[str]] = None
    """The items it applies to (default: every item it can)."""
    labels: Optional[List[str]] = None
    """A name for each value, shown instead of it (e.g. "ns-2 classic" for a linked list)."""

    def label(self, value: Any) -> Any:
        """The value as a screen records it: its label if it has one, else itself."""
        return self.labels[self.values.index(value)] if self.labels else value

    def value_of(self, recorded: Any) -> Any:
        """The inverse of `label`."""
        return self.values[self.labels.index(recorded)] if self.labels else recorded

    @property
    def model_argument(self) -> Optional[str]:
        """The model's keyword argument it sets (`field = "model.NAME"`), or None for a scenario field."""
        return self.field[len("model."):] if self.field.startswith("model.") else None


def parse_unstated(data: Any, path: Path) -> List[Unstated]:
    """The paper's `[[unstated]]` tables, checked; errors name the file and the field."""
    if data is None:
        return []
    if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
        raise ScenarioError(f"{path}: unstated: expected [[unstated]] tables, one per parameter the paper does not give")
    out = []
    keys = {"id", "what", "field", "values", "why", "sweeps", "items", "labels"}
    for i, d in enumerate(data):
        at = f"unstated[{i}]"
        for k in d:
            if k not in keys:
                raise ScenarioError(f"{path}: {at}.{k}: unknown field; expected one of {', '.join(sorted(keys))}")
        for k in ("id", "what", "field", "why"):
            if not isinstance(d.get(k), str) or not d[k].strip():
                raise ScenarioError(f"{path}: {at}.{k}: is missing or not text")
        try:
            plain_name(d["id"], f"{at}.id")
            for f in axis_fields(d["field"]) if not d["field"].startswith("model.") else []:
                _parse_path(f, f"{at}.field ")
        except ScenarioError as e:
            raise ScenarioError(f"{path}: {e}") from None
        values = d.get("values")
        if not isinstance(values, list) or len(values) < 1:
            raise ScenarioError(f"{path}: {at}.values: expected a non-empty list of the values the paper's set-up could have")
        linked = len(axis_fields(d["field"]))
        if linked > 1 and not all(isinstance(v, list) and len(v) == linked for v in values):
            raise ScenarioError(f"{path}: {at}.values: {d['field']!r} links {linked} fields; expected a list of {linked} values each")
        sweeps = d.get("sweeps")
        if sweeps is not None and not (isinstance(sweeps, list) and all(isinstance(s, str) for s in sweeps)):
            raise ScenarioError(f"{path}: {at}.sweeps: expected a list of experiment files of the paper")
        for s in sweeps or []:
            if not (path.parent / s).is_file():
                raise ScenarioError(f"{path}: {at}.sweeps: {s!r} is not an experiment file beside paper.toml")
        chosen = d.get("items")
        if chosen is not None and not (isinstance(chosen, list) and all(isinstance(s, str) for s in chosen)):
            raise ScenarioError(f"{path}: {at}.items: expected a list of the paper's item ids")
        labels = d.get("labels")
        if labels is not None and not (isinstance(labels, list) and len(labels) == len(values) and all(isinstance(x, str) for x in labels)):
            raise ScenarioError(f"{path}: {at}.labels: expected a name for each of the {len(values)} values")
        out.append(Unstated(d["id"], d["what"], d["field"], list(values), d["why"], sweeps, chosen, labels))
    if len({u.id for u in out}) != len(out):
        raise ScenarioError(f"{path}: unstated: two parameters share an id")
    return out
