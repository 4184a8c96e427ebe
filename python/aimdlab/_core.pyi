"""Type stubs of the native module built from crates/aimdlab-py (checked against the compiled
module by tests/test_stub.py)."""

from typing import Any, Dict, List, Optional, Tuple, Union

from typing_extensions import final

__all__ = [
    "__commit__",
    "__version__",
    "AckEvent",
    "CongestionEvent",
    "EngineError",
    "FIXED_MEMORY_BYTES",
    "RunCancelled",
    "RunControl",
    "ScenarioError",
    "Window",
    "columns",
    "controllers",
    "memory_estimate",
    "format_rate",
    "parse_bytes",
    "parse_duration_s",
    "parse_limit",
    "parse_rate_bps",
    "split_quantity",
    "run",
    "schema",
    "validate",
]

from aimdlab.errors import EngineError as EngineError
from aimdlab.errors import RunCancelled as RunCancelled
from aimdlab.errors import ScenarioError as ScenarioError

__version__: str
__commit__: str
"""The git commit the engine was built from (`-dirty`: with uncommitted changes); empty if unknown."""
FIXED_MEMORY_BYTES: int
"""What every run takes whatever its scenario (the engine's fixed memory), bytes."""

@final
class RunControl:
    """Watches and stops a run from another thread."""

    def __init__(self) -> None: ...
    def now_s(self) -> float: ...
    def cancel(self) -> None: ...

@final
class AckEvent:
    """What a Python controller sees of an acknowledgement."""

    now_s: float
    newly_acked_pkts: int
    rtt_s: Optional[float]
    srtt_s: float
    min_rtt_s: Optional[float]
    ece: bool
    in_recovery: bool
    pkts_in_flight: int

@final
class Window:
    """The window a rule reads and grows (`cong_avoid`) or reads (`ssthresh`), packets; valid
    during the call it is handed to (the engine fills the same object for the next)."""

    cwnd: float
    ssthresh: float
    def in_slow_start(self) -> bool: ...
    def slow_start(self) -> bool: ...
    def additive_increase(self, per_rtt_pkts: float) -> None: ...
    def aimd_step(self, per_rtt_pkts: float) -> None: ...

@final
class CongestionEvent:
    """What a Python controller sees of a congestion signal."""

    now_s: float
    kind: str
    pkts_in_flight: int
    srtt_s: float

_Column = Tuple[str, str, Union[bytes, List[str], Tuple[bytes, List[str]], Tuple[bytes, int]]]

def validate(scenario_json: str, max_memory_bytes: Optional[int] = None) -> float: ...
def memory_estimate(scenario_json: str) -> List[Tuple[str, str, int]]: ...
def parse_bytes(text: str) -> int: ...
def split_quantity(text: str) -> Optional[Tuple[float, str]]: ...
def parse_duration_s(text: str) -> float: ...
def parse_rate_bps(text: str) -> int: ...
def parse_limit(text: str) -> Tuple[int, str]: ...
def format_rate(bps: float) -> str: ...
def run(
    scenario_json: str,
    seed: Optional[int] = None,
    control: Optional[RunControl] = None,
    controllers: Optional[Dict[int, Any]] = None,
    max_memory_bytes: Optional[int] = None,
) -> dict: ...
def schema() -> str: ...
def controllers() -> List[str]: ...
def columns() -> List[Tuple[str, str, str, str, float, float]]: ...
