"""Type stubs of the native module built from crates/aimdlab-py (checked by mypy.stubtest)."""

from typing import List, Optional, Tuple, Union

__version__: str

class ScenarioError(ValueError):
    """An invalid scenario; the message names the field, the value and what is accepted."""

class EngineError(RuntimeError):
    """A bug in the engine (a Rust panic), reported instead of crashing the interpreter."""

class RunCancelled(RuntimeError):
    """The run was cancelled through its RunControl."""

class RunControl:
    """Watches and stops a run from another thread."""

    def __init__(self) -> None: ...
    def now_s(self) -> float: ...
    def cancel(self) -> None: ...

_Column = Tuple[str, str, Union[bytes, List[str]]]

def validate(scenario_json: str) -> float: ...
def run(scenario_json: str, seed: Optional[int] = None, control: Optional[RunControl] = None) -> dict: ...
def schema() -> str: ...
def controllers() -> List[str]: ...
