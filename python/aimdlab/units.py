"""The units of scenario files — `"30ms"`, `"5Mbps"`, `"100pkt"`, `"64KB"` — parsed by the
engine's own parser, so Python reads a quantity exactly as a run does, with the same
one-line errors::

    aimdlab.units.duration_s("30ms")     # 0.03
    aimdlab.units.rate_bps("1.5Gbps")    # 1500000000
    aimdlab.units.limit("100pkt")        # (100, "pkt");  limit("150KB") → (150000, "B")
    aimdlab.units.quantity("12.5ms")     # (12.5, "ms"): number and unit, or None
    aimdlab.units.format_rate(8e9)       # "8Gbps"

Every parser raises `aimdlab.ScenarioError` (a `ValueError`) naming the value and what is
accepted; `what` puts a field's name in front (`"duration: ..."`).
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Tuple, TypeVar

from . import _core
from .errors import ScenarioError

__all__ = ["duration_s", "format_bytes", "format_rate", "limit", "quantity", "rate_bps", "size_bytes"]

T = TypeVar("T")


def _parse(parser: Callable[[str], T], text: Any, kind: str, what: Optional[str]) -> T:
    where = f"{what}: " if what else ""
    if not isinstance(text, str):
        raise ScenarioError(f"{where}{text!r} is not {kind}; expected text with a unit")
    try:
        return parser(text)
    except ValueError as e:
        raise ScenarioError(f"{where}{e}") from None


def duration_s(text: str, what: Optional[str] = None) -> float:
    """A duration (`"30ms"`, `"1.5s"`, `"250us"`) in seconds."""
    return _parse(_core.parse_duration_s, text, "a duration", what)


def rate_bps(text: str, what: Optional[str] = None) -> int:
    """A rate (`"5Mbps"`, `"64Kbps"`, `"1Gbps"`) in bits per second."""
    return _parse(_core.parse_rate_bps, text, "a rate", what)


def size_bytes(text: str, what: Optional[str] = None) -> int:
    """A size (`"1460B"`, `"64KB"`, `"4MiB"`) in bytes."""
    return _parse(_core.parse_bytes, text, "a size", what)


def limit(text: str, what: Optional[str] = None) -> Tuple[int, str]:
    """A buffer or window limit: `(packets, "pkt")` for `"100pkt"`, `(bytes, "B")` for `"150KB"`."""
    return _parse(_core.parse_limit, text, "a limit", what)


def quantity(text: Any) -> Optional[Tuple[float, str]]:
    """`(number, unit)` of a quantity as scenario files write it (`"12.5ms"` → `(12.5, "ms")`,
    `"7"` → `(7.0, "")`), by the engine's grammar; None for anything else."""
    if not isinstance(text, str):
        return None
    return _core.split_quantity(text)


def format_rate(bps: float) -> str:
    """A rate in scenario units, as short as exact to three decimals: `8e9` → `"8Gbps"`."""
    return _core.format_rate(float(bps))


def format_bytes(n: float) -> str:
    """A size for people, in decimal units: `"1.2 GB"`, `"350 MB"`, `"12 kB"`."""
    return f"{n / 1e9:.1f} GB" if n >= 1e9 else f"{n / 1e6:.0f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"
