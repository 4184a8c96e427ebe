"""The memory limit a run is checked against before it starts.

The engine estimates a run's memory from its scenario (flows, links, queues, routing table,
time-series samples; see `crates/aimdlab-core/src/scenario/memory.rs`) and refuses a run
above the limit with an error naming the field that drives it, instead of letting the
process abort when an allocation fails. The default limit is 80 % of what this process may
use: the machine's memory, a cgroup (container) limit, and an address-space limit
(`ulimit -v`) less what the process already holds, whichever is smallest. The environment
variable `AIMDLAB_MAX_MEMORY` (e.g. `16GB`) or `max_memory=` / `--max-memory` override it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional, Union

from . import _core
from ._core import ScenarioError

__all__ = ["default_limit_bytes", "limit_bytes", "parse_size"]

DEFAULT_FRACTION = 0.8
"""Share of the available memory one run may take by default."""

ADDRESS_SPACE_RESERVE = 1_500_000_000
"""Address space a run reserves beyond what it uses (the engine thread's stack and malloc
arena, Arrow's allocator): measured at about 1.2 GB of virtual memory that is never
resident. It counts only against an address-space limit (`ulimit -v`)."""


def parse_size(text: Union[int, str], what: str = "max_memory") -> int:
    """Bytes from an int or a size string such as "4GB" or "512MiB" (the scenario units)."""
    if isinstance(text, bool) or not isinstance(text, (int, str)):
        raise ScenarioError(f"{what}: {text!r} is not a size; expected bytes (an int) or a string such as \"4GB\"")
    if isinstance(text, int):
        if text <= 0:
            raise ScenarioError(f"{what}: {text} is not positive; expected bytes > 0")
        return text
    try:
        n = _core.parse_bytes(text)
    except ValueError as e:
        raise ScenarioError(f"{what}: {e}") from None
    if n <= 0:
        raise ScenarioError(f"{what}: {text!r} is not positive; expected a size > 0")
    return n


def _read_int(path: str) -> Optional[int]:
    try:
        text = Path(path).read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _address_space_used() -> Optional[int]:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def default_limit_bytes() -> int:
    """80 % of the smallest of: physical memory, the cgroup memory limit, and the
    address-space limit less the address space already in use and `ADDRESS_SPACE_RESERVE`."""
    candidates = []
    try:
        candidates.append(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        pass
    for cgroup in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        v = _read_int(cgroup)
        if v is not None and v < 1 << 60:
            candidates.append(v)
    try:
        import resource

        for which in (resource.RLIMIT_AS, getattr(resource, "RLIMIT_DATA", None)):
            if which is None:
                continue
            soft, _ = resource.getrlimit(which)
            if soft != resource.RLIM_INFINITY:
                candidates.append(max(soft - (_address_space_used() or 0) - ADDRESS_SPACE_RESERVE, 0))
    except (ImportError, OSError, ValueError):
        pass
    if not candidates:
        return 8 << 30
    return int(DEFAULT_FRACTION * min(candidates))


def limit_bytes(max_memory: Union[int, str, None] = None) -> int:
    """The limit to apply: `max_memory` if given, else `AIMDLAB_MAX_MEMORY`, else the default."""
    if max_memory is not None:
        return parse_size(max_memory)
    env = os.environ.get("AIMDLAB_MAX_MEMORY")
    if env:
        return parse_size(env, what="AIMDLAB_MAX_MEMORY")
    return default_limit_bytes()
