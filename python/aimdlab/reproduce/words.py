"""Names in words for the pages: a scenario field's path (`flows[0].count`, `tcp.delayed_ack`)
read from the JSON Schema's description of that field, a result column (`timeseries.cwnd_pkts`)
from the engine's column documentation with its unit, and a model (`module:function`) from the
first line of its docstring. The page uses a paper's own words first (`xlabel`, `axis_labels`,
`label`); these are what it falls back on, so no raw key reaches a reader."""

from __future__ import annotations

import functools
import importlib
import json
import re
from typing import Any, Dict, Optional

__all__ = ["field_words", "column_words", "model_words"]


@functools.lru_cache(maxsize=1)
def _schema() -> Dict[str, Any]:
    from .. import _core

    return json.loads(_core.schema())


def _resolve(node: Dict[str, Any], schema: Dict[str, Any]) -> Dict[str, Any]:
    """`node` with its `$ref` followed (one `allOf` of a single ref included)."""
    while True:
        if "$ref" in node:
            node = schema["definitions"][node["$ref"].rsplit("/", 1)[1]]
        elif len(node.get("allOf", [])) == 1:
            node = node["allOf"][0]
        else:
            return node


def _child(node: Dict[str, Any], key: str, schema: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """The schema of `node`'s property `key`, looking into every branch of an `anyOf`/`oneOf`."""
    node = _resolve(node, schema)
    if key in node.get("properties", {}):
        return node["properties"][key]
    for branch in node.get("anyOf", []) + node.get("oneOf", []):
        found = _child(branch, key, schema)
        if found is not None:
            return found
    return None


def _items(node: Dict[str, Any], schema: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """The schema of an array node's elements (through `anyOf` branches such as "or null")."""
    node = _resolve(node, schema)
    if "items" in node:
        return node["items"]
    for branch in node.get("anyOf", []) + node.get("oneOf", []):
        found = _items(branch, schema)
        if found is not None:
            return found
    return None


def _first_sentence(text: str) -> str:
    """The description's first sentence, without its full stop and Markdown backticks."""
    text = " ".join(text.split()).replace("`", "")
    # A full stop ends the sentence where a capital follows it; "e.g. "5Mbps"" and "eq. (2)" go on.
    first = re.split(r"(?<!e\.g)(?<!i\.e)(?<!Fig)(?<!eq)\.\s+(?=[A-Z])", text, maxsplit=1)[0]
    first = first.split(", e.g.")[0]  # an example is not part of a name
    # A long description is cut to the clause before its first colon or dash.
    if len(first) > 60:
        first = re.split(r":\s| — ", first, maxsplit=1)[0]
    return first.rstrip(".")


@functools.lru_cache(maxsize=None)
def field_words(path: str) -> str:
    """The schema's description of the scenario field at `path` (first sentence), or "" when
    the path names no documented field (e.g. a sweep's `name`)."""
    if path == "name":  # an axis of named set-ups (each point's scenario name), not a setting
        return "set-up"
    schema = _schema()
    node: Optional[Dict[str, Any]] = schema
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if node is None:
            return ""
        node = _items(node, schema) if part.startswith("[") else _child(node, part, schema)
    if node is None or node is schema:
        return ""
    description = node.get("description") or _resolve(node, schema).get("description", "")
    return _first_sentence(description) if description else ""


@functools.lru_cache(maxsize=1)
def _columns() -> Dict[str, tuple]:
    from .. import _core

    return {f"{table}.{name}": (unit, doc) for table, name, unit, doc, _, _ in _core.columns()}


def column_words(series: str, column: str) -> str:
    """"description, unit" of a result column (`timeseries`, `cwnd_pkts`), or "" when unknown."""
    found = _columns().get(f"{series}.{column}")
    if found is None:
        return ""
    unit, doc = found
    return f"{doc}, {unit}" if unit else doc


def model_words(spec: str) -> str:
    """The first line of the docstring of the model `module:function`, or "" without one."""
    module, _, name = spec.partition(":")
    try:
        doc = getattr(importlib.import_module(module), name).__doc__ or ""
    except (ImportError, AttributeError):
        return ""
    return " ".join(doc.strip().split("\n\n")[0].split())
