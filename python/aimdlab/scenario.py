"""Scenarios as plain dicts: load them from TOML, override fields from the command line,
and hand them to the engine as JSON. The Rust core is the single source of truth for what a
scenario may say (`aimdlab schema` prints it); this module never second-guesses it."""

from __future__ import annotations

import copy
import json
import math
import numbers
import re
import sys
from pathlib import Path
from typing import Any, Dict, Iterable, Optional, Union

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from . import _core
from .errors import ScenarioError

Scenario = Dict[str, Any]
"""A scenario as a plain dict (the same shape as the TOML file)."""

__all__ = ["Scenario", "load", "loads", "apply_overrides", "set_fields", "validate", "duration_s", "memory_estimate", "plain", "to_json"]


def loads(text: str, source: str = "<string>") -> Scenario:
    """Parses scenario TOML text into a dict (not yet validated)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        line = getattr(e, "lineno", None) or _line_of(str(e)) or (len(text.splitlines()) if "end of document" in str(e) else None)
        where = _toml_key_at(text, line)
        raise ScenarioError(f"{source}: {where}not valid TOML: {e}") from None
    except RecursionError:
        raise ScenarioError(f"{source}: nested too deeply to read; a scenario is a few tables deep") from None


def _line_of(message: str) -> Optional[int]:
    m = re.search(r"line (\d+)", message)
    return int(m.group(1)) if m else None


def _toml_key_at(text: str, line: Optional[int]) -> str:
    """"KEY: " for the key a TOML syntax error at `line` was parsing — the key set on that
    line (or the nearest above it), under its table header — or "" when none is found."""
    if not line:
        return ""
    lines = text.splitlines()
    table, key = "", ""
    for raw in lines[:line]:
        stripped = raw.strip()
        header = re.match(r"^\[\[?\s*([^\]]+?)\s*(\]\]?|$)", stripped)  # (an unclosed header is the one being read)
        if header:
            table, key = header.group(1).strip(), ""
            continue
        assignment = re.match(r"^([A-Za-z0-9_\-\.\"' \[\]]+?)\s*=", stripped)
        if assignment:
            key = assignment.group(1).strip()
    path = ".".join(p for p in (table, key) if p)
    return f"{path}: " if path else ""


def load(path: Union[str, Path], max_memory: Union[int, str, None] = None) -> Scenario:
    """Reads a scenario TOML file and validates it; returns the scenario as a dict.

    Raises `FileNotFoundError` for a missing file and `ScenarioError` (a `ValueError`) naming
    the field, the bad value and what is accepted for an invalid one — a file that is not
    UTF-8 text included. `max_memory` is as for `validate`.
    """
    path = regular_file(path, "a scenario file (.toml)", "scenario file")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioError(f"{path}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start}); save the file as UTF-8") from None
    scenario = loads(text, source=str(path))
    _resolve_files(scenario, path.parent)
    try:
        validate(scenario, max_memory=max_memory)
    except ScenarioError as e:
        raise ScenarioError(f"{path}: {e}") from None
    return scenario


def _resolve_files(scenario: Scenario, base: Path) -> None:
    """Makes the relative trace-file paths of a scenario read from a file relative to that
    file's folder (so a scenario and its traces move together)."""
    for group in scenario.get("flows") or []:
        app = group.get("app") if isinstance(group, dict) else None
        if isinstance(app, dict) and isinstance(app.get("file"), str) and app["file"] and not Path(app["file"]).is_absolute():
            app["file"] = str(base / app["file"])


_MAX_DEPTH = 32
"""Deepest nesting of tables and arrays a scenario may have (real ones are about 6 deep)."""


def _where(path: str) -> str:
    return path or "the scenario"


def regular_file(path: Union[str, Path], expected: str, what: str) -> Path:
    """`path` if it is a regular file; a folder or a device (/dev/null, a FIFO) is a
    `ScenarioError` saying what was `expected`, a missing file a `FileNotFoundError`."""
    path = Path(path)
    if path.is_dir():
        raise ScenarioError(f"{path}: is a folder; expected {expected}")
    if path.exists() and not path.is_file():
        raise ScenarioError(f"{path}: is not a regular file (a device or FIFO); expected {expected}")
    if not path.is_file():
        raise FileNotFoundError(f"{what} not found: {path}")
    return path


def _check_text(text: str, path: str) -> None:
    """A string that cannot be UTF-8 (a lone surrogate, as from a broken decode) names its field."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ScenarioError(f"{_where(path)}: {ascii(text)[:80]} is not valid text (a lone surrogate at {e.start}); expected UTF-8 text") from None


def plain(value: Any, path: str = "", depth: int = 0) -> Any:
    """`value` as plain JSON data (dict, list, str, int, float, bool, None), or a
    `ScenarioError` naming the field that holds something else.

    numpy scalars count as numbers; NaN and ±∞, non-string keys, and values of other types
    (sets, datetimes, `Decimal`, objects) are errors naming their field.
    """
    if depth > _MAX_DEPTH:
        raise ScenarioError(f"{_where(path)}: nested more than {_MAX_DEPTH} levels deep; a scenario is a few tables deep")
    if isinstance(value, str):
        _check_text(value, path)
        return value
    if value is None or isinstance(value, bool):
        return value
    if type(value).__name__ == "bool_" and type(value).__module__ == "numpy":
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        x = float(value)
        if not math.isfinite(x):
            raise ScenarioError(f"{_where(path)}: {x!r} is not a finite number; expected a finite number")
        return x
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise ScenarioError(f"{_where(path)}: the key {k!r} is not a string; expected field names")
            _check_text(k, path)
            out[k] = plain(v, f"{path}.{k}" if path else k, depth + 1)
        return out
    if isinstance(value, (list, tuple)):
        return [plain(v, f"{path}[{i}]", depth + 1) for i, v in enumerate(value)]
    kind = type(value).__name__
    from .controller import Controller

    if isinstance(value, Controller):  # (aimdlab.run takes one; a file, a sweep or a saved run needs data)
        cls = type(value)
        raise ScenarioError(
            f"{_where(path)}: a {kind} object is not data; name its class with its parameters, "
            f'{{"python": "{cls.__module__}:{cls.__qualname__}", ...}}, which sweeps, files and worker processes can use'
        )
    raise ScenarioError(
        f"{_where(path)}: a value of type {kind} is not accepted; expected a string, number, boolean, table (dict) or array (list)"
    )


def to_json(scenario: Scenario) -> str:
    """The scenario as the JSON text the engine reads (see `plain` for what is accepted)."""
    if not isinstance(scenario, dict):
        raise ScenarioError(f"the scenario is a {type(scenario).__name__}; expected a table (dict) of fields")
    return json.dumps(plain(scenario), allow_nan=False)


def validate(scenario: Scenario, max_memory: Union[int, str, None] = None) -> None:
    """Checks a scenario dict against the engine's schema and its estimated memory against
    `max_memory` (bytes or a size such as "4GB"; default: `aimdlab.memory.default_limit_bytes()`);
    raises `ScenarioError` naming the field if invalid."""
    from .controller import engine_view, python_controllers
    from .memory import validate_within

    validate_within(to_json(engine_view(scenario)), max_memory)
    python_controllers(scenario)  # each class named can be imported and made with its parameters


def duration_s(scenario: Scenario) -> float:
    """The simulated duration of a valid scenario, seconds (parsed by the engine)."""
    from .controller import engine_view

    return _core.validate(to_json(engine_view(scenario)))


def memory_estimate(scenario: Scenario) -> Dict[str, Any]:
    """The estimated memory of a run of a valid scenario: `total_bytes` and `parts`, a list of
    `(what, field, bytes)`, largest first."""
    from .controller import engine_view

    parts = _core.memory_estimate(to_json(engine_view(scenario)))
    return {"total_bytes": sum(b for _, _, b in parts), "parts": parts}


_INDEX = re.compile(r"^(?P<key>[^\[\]]*)((\[(?P<idx>\d+)\])*)$")


def _parse_path(path: str, label: str = "--set ") -> list:
    """`flows[0].count` or `flows.0.count` → ['flows', 0, 'count']."""
    parts: list = []
    for token in path.split("."):
        m = _INDEX.match(token)
        if not m or (not m.group("key") and not m.group(2)):
            raise ScenarioError(f"{label}{path!r}: {token!r} is not a key; expected keys like flows[0].cc")
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
        _set_path(out, path.strip(), _parse_value(raw.strip()), "--set ")
    return out


def set_fields(scenario: Scenario, values: Dict[str, Any]) -> Scenario:
    """Returns a copy of `scenario` with each field path (`flows[0].cc.alpha`) set to its
    value, as given (any JSON-like value: a number, a string, a table, a list of tables).
    Missing tables are created; list indices must exist."""
    out = copy.deepcopy(scenario)
    for path, value in values.items():
        _set_path(out, path.strip(), copy.deepcopy(value), "")
    return out


def _set_path(out: Scenario, path: str, value: Any, label: str) -> None:
    """Sets field `path` of `out` to `value`; errors start with `label` and the path."""
    keys = _parse_path(path, label)
    node: Any = out
    for depth, k in enumerate(keys[:-1]):
        where = ".".join(str(x) for x in keys[: depth + 1])
        if isinstance(k, int):
            if not isinstance(node, list) or k >= len(node):
                raise ScenarioError(f"{label}{path}: {where} does not exist")
            node = node[k]
        else:
            if not isinstance(node, dict):
                raise ScenarioError(f"{label}{path}: {where} is not a table")
            node = node.setdefault(k, {})
    last = keys[-1]
    if isinstance(last, int):
        if not isinstance(node, list) or last >= len(node):
            raise ScenarioError(f"{label}{path}: index {last} does not exist")
    elif not isinstance(node, dict):
        raise ScenarioError(f"{label}{path}: the parent is not a table")
    node[last] = value
