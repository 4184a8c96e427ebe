"""Names that become paths or links: a sweep's `name` (its default folder), a paper's `id` (its
report folder and the index's link), an item's `id` (an anchor). They must be plain names —
letters, digits, `.`, `_` and `-`, not starting with `.` or `-` — so that no name from a file
can reach outside the folder it belongs in, or turn a link into something else."""

from __future__ import annotations

import re
from typing import Any

from .errors import ScenarioError

__all__ = ["plain_name", "PLAIN_NAME_RULE"]

_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")

PLAIN_NAME_RULE = "a plain name: letters, digits, '.', '_' or '-', at most 100, starting with a letter or digit"


def plain_name(value: Any, field: str) -> str:
    """`value` if it is a plain name; else a one-line `ScenarioError` naming `field`."""
    if not isinstance(value, str) or not _PLAIN.fullmatch(value):
        shown = ascii(value) if isinstance(value, str) else repr(value)
        raise ScenarioError(f"{field}: {shown[:120]} is not {PLAIN_NAME_RULE}, e.g. \"gaimd-accuracy\"")
    return value
