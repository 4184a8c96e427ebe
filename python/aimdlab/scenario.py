"""Scenarios as plain dicts: load them from TOML, override fields from the command line,
and hand them to the engine as JSON. The Rust core is the single source of truth for what a
scenario may say (`aimdlab schema` prints it); this module never second-guesses it."""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path
from typing import Any, Dict, Iterable, Union

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from . import _core
from ._core import ScenarioError

Scenario = Dict[str, Any]
"""A scenario as a plain dict (the same shape as the TOML file)."""

__all__ = ["Scenario", "load", "loads", "apply_overrides", "validate", "duration_s", "to_json"]


def loads(text: str, source: str = "<string>") -> Scenario:
    """Parses scenario TOML text into a dict (not yet validated)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"{source}: not valid TOML: {e}") from None


def load(path: Union[str, Path]) -> Scenario:
    """Reads a scenario TOML file and validates it; returns the scenario as a dict.

    Raises `FileNotFoundError` for a missing file and `ScenarioError` (a `ValueError`) naming
    the field, the bad value and what is accepted for an invalid one.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"scenario file not found: {path}")
    scenario = loads(path.read_text(encoding="utf-8"), source=str(path))
    try:
        validate(scenario)
    except ScenarioError as e:
        raise ScenarioError(f"{path}: {e}") from None
    return scenario


def to_json(scenario: Scenario) -> str:
    """The scenario as the JSON text the engine reads."""
    try:
        return json.dumps(scenario, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise ScenarioError(f"the scenario cannot be written as JSON: {e}") from None


def validate(scenario: Scenario) -> None:
    """Checks a scenario dict against the engine's schema; raises `ScenarioError` if invalid."""
    _core.validate(to_json(scenario))


def duration_s(scenario: Scenario) -> float:
    """The simulated duration of a valid scenario, seconds (parsed by the engine)."""
    return _core.validate(to_json(scenario))


_INDEX = re.compile(r"^(?P<key>[^\[\]]*)((\[(?P<idx>\d+)\])*)$")


def _parse_path(path: str) -> list:
    """`flows[0].count` or `flows.0.count` → ['flows', 0, 'count']."""
    parts: list = []
    for token in path.split("."):
        m = _INDEX.match(token)
        if not m or (not m.group("key") and not m.group(2)):
            raise ScenarioError(f"--set {path!r}: {token!r} is not a key; expected keys like flows[0].cc")
        key = m.group("key")
        if key:
            parts.append(int(key) if key.isdigit() else key)
        parts.extend(int(i) for i in re.findall(r"\[(\d+)\]", m.group(2) or ""))
    return parts


def _parse_value(text: str) -> Any:
    """A TOML value if it parses as one (`4`, `true`, `"x"`, `[1, 2]`, `{a = 1}`), else the raw string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def apply_overrides(scenario: Scenario, assignments: Iterable[str]) -> Scenario:
    """Returns a copy of `scenario` with each `key.path=value` applied.

    Values are read as TOML when they parse (`count=4`, `sack=false`), else as strings
    (`rate=10Mbps`). Missing tables are created; list indices must exist.
    """
    out = copy.deepcopy(scenario)
    for item in assignments:
        if "=" not in item:
            raise ScenarioError(f"--set {item!r}: expected key=value, e.g. topology.dumbbell.bottleneck.rate=10Mbps")
        path, raw = item.split("=", 1)
        keys = _parse_path(path.strip())
        node: Any = out
        for depth, k in enumerate(keys[:-1]):
            where = ".".join(str(x) for x in keys[: depth + 1])
            if isinstance(k, int):
                if not isinstance(node, list) or k >= len(node):
                    raise ScenarioError(f"--set {path}: {where} does not exist")
                node = node[k]
            else:
                if not isinstance(node, dict):
                    raise ScenarioError(f"--set {path}: {where} is not a table")
                node = node.setdefault(k, {})
        last = keys[-1]
        if isinstance(last, int):
            if not isinstance(node, list) or last >= len(node):
                raise ScenarioError(f"--set {path}: index {last} does not exist")
        elif not isinstance(node, dict):
            raise ScenarioError(f"--set {path}: the parent is not a table")
        node[last] = _parse_value(raw.strip())
    return out
