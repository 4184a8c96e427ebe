"""Type stubs of the native module built from crates/aimdlab-py (checked by mypy.stubtest)."""

from typing import List, Optional, Tuple, Union

__version__: str

class ScenarioError(ValueError):
    """An invalid scenario; the message names the field, the value and what is accepted."""

class EngineError(RuntimeError):
    """A bug in the engine (a Rust panic), reported instead of crashing the interpreter."""

_Column = Tuple[str, str, Union[bytes, List[str]]]

def validate(scenario_json: str) -> None: ...
def run(scenario_json: str, seed: Optional[int] = None) -> dict: ...
def schema() -> str: ...
def controllers() -> List[str]: ...
