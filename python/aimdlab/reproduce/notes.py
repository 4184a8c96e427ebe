"""Numbers in an item's notes come from the run, not from the hand that wrote them.

A note (`cause` in paper.toml) that quotes a figure writes a placeholder instead, filled from
the sweep the item was judged on when its page is written:

- `{min}`, `{max}`: the lowest or highest of the item's own means;
- `{mean at X}`: the item's own mean at the point x = X;
- `{MEASURE at AXIS=V; AXIS=V}`: another measure of the sweep at the point those axes (or
  fields of a linked axis) select, over the item's own `select`.

A placeholder the run cannot fill (a point a --quick run left out, a measure the sweep does not
have) reads "(not in this run)". Numbers keep four significant digits.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Dict, List, Optional

__all__ = ["PLACEHOLDER", "check_placeholders", "fill"]

PLACEHOLDER = re.compile(r"\{(min|max|mean at [^{}]+|[A-Za-z_][^{}]* at [^{}]+)\}")
"""A placeholder in a note (the forms above)."""

_NOT_RUN = "(not in this run)"


def check_placeholders(text: str) -> Optional[str]:
    """Why a note's placeholder cannot be read (None when all can): a brace that opens a
    placeholder of no known form, or a selection that is not `AXIS=VALUE; ...`."""
    for m in re.finditer(r"\{([^{}]*)\}", text):
        if not PLACEHOLDER.fullmatch(m.group(0)):
            return f"{m.group(0)!r} is not a placeholder; expected {{min}}, {{max}}, {{mean at X}} or {{MEASURE at AXIS=V; AXIS=V}}"
        body = m.group(1)
        if body not in ("min", "max") and not body.startswith("mean at "):
            try:
                _selection(body.split(" at ", 1)[1])
            except ValueError as e:
                return f"{m.group(0)!r}: {e}"
    return None


def fill(text: str, xs: List[Any], means: List[float], aggregate: Any, select: Dict[str, Any]) -> str:
    """`text` with its placeholders replaced by the run's numbers: `xs` and `means` the item's
    points, `aggregate` its sweep's aggregate table (pandas; None when there is no sweep) and
    `select` the item's own selection."""
    from .axes import same_x, select_rows

    def number(v: Optional[float]) -> str:
        return _NOT_RUN if v is None or not math.isfinite(v) else f"{v:.4g}"

    def one(m: "re.Match[str]") -> str:
        body = m.group(1)
        finite = [v for v in means if math.isfinite(v)]
        if body == "min":
            return number(min(finite)) if finite else _NOT_RUN
        if body == "max":
            return number(max(finite)) if finite else _NOT_RUN
        if body.startswith("mean at "):
            x = _value(body[len("mean at "):].strip())
            at = [v for xv, v in zip(xs, means) if same_x(xv, x)]
            return number(at[0]) if at else _NOT_RUN
        measure, where = body.split(" at ", 1)
        column = f"{measure.strip()}_mean"
        if aggregate is None or column not in aggregate.columns:
            return _NOT_RUN
        try:
            rows = select_rows(aggregate, {**select, **_selection(where)})
        except KeyError:
            return _NOT_RUN
        return number(float(rows[column].iloc[0])) if len(rows) == 1 else _NOT_RUN

    return PLACEHOLDER.sub(one, text)


def _selection(text: str) -> Dict[str, Any]:
    """`AXIS=V; AXIS=V` as a selection (values read as JSON where they parse: numbers, true)."""
    out: Dict[str, Any] = {}
    for part in text.split(";"):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"expected AXIS=VALUE, got {part.strip()!r}")
        out[key.strip()] = _value(value.strip())
    return out


def _value(text: str) -> Any:
    """A value written in a placeholder: JSON where it parses (2, 0.5, true), else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text
