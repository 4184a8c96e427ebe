"""The memory limit a run is checked against before it starts.

The engine estimates a run's memory from its scenario (flows, links, queues, routing table,
time-series samples; see `crates/aimdlab-core/src/scenario/memory.rs`) and refuses a run
above the limit with an error naming the field that drives it, instead of letting the
process abort when an allocation fails. The default limit is 80 % of what this process may
use: the machine's memory, a cgroup (container) limit, and an address-space limit
(`ulimit -v`) less what the process already holds, whichever is smallest. The environment
variable `AIMDLAB_MAX_MEMORY` (e.g. `16GB`) or `max_memory=` / `--max-memory` override it, up
to what an address-space limit leaves (beyond it a run would abort, not be refused).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional, Tuple, Union

from . import _core
from .errors import MemoryLimitError, ScenarioError
from .units import size_bytes

__all__ = ["MemoryLimitError", "address_space_headroom", "default_limit", "default_limit_bytes", "limit_bytes", "limit_source", "parse_size", "validate_within"]

DEFAULT_FRACTION = 0.8
"""Share of the available memory one run may take by default."""

ADDRESS_SPACE_RESERVE = 128 << 20
"""Address space a run takes beyond its estimate under an address-space limit (`ulimit -v`):
the engine thread's stack and a malloc arena. Without a limit, glibc and Arrow reserve about
1.2 GB more that is never resident; under one, they reserve less (a 10,000-flow dumbbell
estimated at 692 MB runs under a 1 GiB cap)."""

CAPPED_RESERVE = 16 << 20
"""Address space kept free beyond a run's estimate under an address-space limit: the engine
thread's stack. (`ADDRESS_SPACE_RESERVE` also covers a malloc arena, which glibc maps when it
can; under a cap it cannot, and malloc goes on in the arenas it has. Measured on 2026-11-28:
`aimdlab run` of a 1-flow dumbbell, estimated at 61 MiB, completes under `prlimit --as` of
300 MiB with 264 MiB in use — and under 512 MiB the old reserve refused every run.)"""

NO_LIMIT = 1 << 62
"""A limit that means none: a caller checks later, against the scenario that will run (the
command line's `--set` may shrink a scenario too big as written)."""

MIN_RUN_BYTES: int = _core.FIXED_MEMORY_BYTES
"""What every run takes (the engine and its results), as the engine's estimate counts it."""


def parse_size(text: Union[int, str], what: str = "max_memory") -> int:
    """Bytes from an int or a size string such as "4GB" or "512MiB" (the scenario units)."""
    if isinstance(text, bool) or not isinstance(text, (int, str)):
        raise ScenarioError(f"{what}: {text!r} is not a size; expected bytes (an int) or a string such as \"4GB\"")
    if isinstance(text, int):
        if text <= 0:
            raise ScenarioError(f"{what}: {text} is not positive; expected bytes > 0")
        return text
    n = size_bytes(text, what)
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


def address_space_headroom() -> Optional[Tuple[int, str]]:
    """What an address-space limit (`ulimit -v`, `ulimit -d`) leaves a run: the limit less the
    address space in use and `CAPPED_RESERVE`, and where that comes from; None without one."""
    try:
        import resource
    except ImportError:
        return None
    found: List[Tuple[int, str]] = []
    for which, name in ((resource.RLIMIT_AS, "ulimit -v"), (getattr(resource, "RLIMIT_DATA", None), "ulimit -d")):
        if which is None:
            continue
        try:
            soft, _ = resource.getrlimit(which)
        except (OSError, ValueError):
            continue
        if soft != resource.RLIM_INFINITY:
            used = _address_space_used() or 0
            found.append((max(soft - used - CAPPED_RESERVE, 0),
                          f"the address-space limit ({name}) of {_human(soft)} less {_human(used)} in use"
                          f" and {_human(CAPPED_RESERVE)} for the engine thread"))
    return min(found) if found else None


def default_limit() -> Tuple[int, str]:
    """The default limit in bytes and where it comes from: 80 % of the smallest of physical
    memory, the cgroup memory limit, and the address-space limit less the address space
    already in use and `ADDRESS_SPACE_RESERVE`."""
    candidates: List[Tuple[int, str]] = []
    try:
        candidates.append((os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"), "the machine's memory"))
    except (ValueError, OSError, AttributeError):
        pass
    for cgroup in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        v = _read_int(cgroup)
        if v is not None and v < 1 << 60:
            candidates.append((v, f"the cgroup memory limit ({cgroup})"))
    headroom = address_space_headroom()
    if headroom is not None:
        candidates.append(headroom)
    if not candidates:
        return 8 << 30, "a default of 8 GiB (no memory size known)"
    bytes_, source = min(candidates)
    return int(DEFAULT_FRACTION * bytes_), f"the default, {int(DEFAULT_FRACTION * 100)} % of {source}"


def default_limit_bytes() -> int:
    """The default limit in bytes (see `default_limit`)."""
    return default_limit()[0]


def _human(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def limit_source(max_memory: Union[int, str, None] = None) -> str:
    """Where the limit `limit_bytes(max_memory)` applies comes from, in words."""
    given = "set by max_memory / --max-memory" if max_memory is not None else "AIMDLAB_MAX_MEMORY" if os.environ.get("AIMDLAB_MAX_MEMORY") else None
    if given is None:
        return default_limit()[1]
    headroom = address_space_headroom()
    if headroom is not None and headroom[0] < _given_bytes(max_memory):
        return f"{given}, lowered to {headroom[1]}"
    return given


def _given_bytes(max_memory: Union[int, str, None]) -> int:
    """The limit `max_memory` or `AIMDLAB_MAX_MEMORY` sets."""
    if max_memory is not None:
        return parse_size(max_memory)
    return parse_size(os.environ["AIMDLAB_MAX_MEMORY"], what="AIMDLAB_MAX_MEMORY")


def limit_bytes(max_memory: Union[int, str, None] = None) -> int:
    """The limit to apply: `max_memory` if given, else `AIMDLAB_MAX_MEMORY`, else the default.
    A limit given above what an address-space limit leaves is lowered to that: a run beyond it
    would abort when an allocation fails, not be refused."""
    if max_memory is not None or os.environ.get("AIMDLAB_MAX_MEMORY"):
        given = _given_bytes(max_memory)
        headroom = address_space_headroom()
        if headroom is None or given >= NO_LIMIT:
            return given  # (NO_LIMIT: a check postponed by the caller, which checks the scenario that runs)
        return min(given, headroom[0])
    limit, source = default_limit()
    if limit < MIN_RUN_BYTES:
        raise MemoryLimitError(f"memory limit: {_human(limit)} ({source}) is below the {MIN_RUN_BYTES // 1_000_000} MB every run "
                               "takes; raise that limit, or set AIMDLAB_MAX_MEMORY or --max-memory")
    return limit


def validate_within(scenario_json: str, max_memory: Union[int, str, None] = None) -> Tuple[float, int]:
    """Validates a scenario (as the engine reads it: JSON) against the limit `max_memory`
    gives; returns its duration in seconds and that limit. A scenario above the limit is a
    `ScenarioError` that also says where the limit came from."""
    limit = limit_bytes(max_memory)
    try:
        return _core.validate(scenario_json, limit), limit
    except ScenarioError as e:
        text = str(e)
        if "above the memory limit of" not in text:
            raise
        raise type(e)(text.replace("; make the scenario smaller", f" ({limit_source(max_memory)}); make the scenario smaller", 1)) from None
