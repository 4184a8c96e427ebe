"""aimdlab: a congestion-control laboratory.

A fast, deterministic packet-level simulator (Rust core) for AIMD-family congestion
control, driven from Python::

    import aimdlab
    scenario = aimdlab.load("examples/utilization.toml")
    result = aimdlab.run(scenario, seed=1)
    print(result.summary["bottleneck"]["utilization"])
    result.flows.to_pandas()
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Union

from . import _core
from ._core import EngineError, RunCancelled, ScenarioError
from .result import Result
from .scenario import Scenario, apply_overrides, load, loads, to_json, validate

__version__ = _core.__version__
__all__ = [
    "EngineError",
    "Result",
    "RunCancelled",
    "Scenario",
    "ScenarioError",
    "apply_overrides",
    "controllers",
    "load",
    "loads",
    "run",
    "schema",
    "validate",
]


def run(
    scenario: Union[Scenario, str, Path],
    seed: Optional[int] = None,
    progress: Optional[Callable[[float, float], None]] = None,
) -> Result:
    """Runs a scenario (a dict, or the path of a TOML file) and returns its `Result`.

    `seed` overrides the scenario's `seed`. The same scenario and seed always give the same
    result, byte for byte. `progress(now_s, duration_s)` is called about ten times a second
    while the engine runs. Ctrl-C stops the run (`KeyboardInterrupt`). Raises
    `ScenarioError` (a `ValueError`) for an invalid scenario.
    """
    if isinstance(scenario, (str, Path)):
        scenario = load(scenario)
    if seed is not None and not (isinstance(seed, int) and 0 <= seed < 2**64):
        raise ScenarioError(f"seed: {seed!r} is not valid; expected an integer from 0 to 2^64-1")
    text = to_json(scenario)
    _core.validate(text)
    control = _core.RunControl()
    outcome: Dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["raw"] = _core.run(text, seed, control)
        except BaseException as e:  # handed to the calling thread
            outcome["error"] = e

    # The engine runs in a worker thread (it releases the GIL), so this thread stays free to
    # report progress and to turn Ctrl-C into a cancellation.
    worker = threading.Thread(target=work, name="aimdlab-run", daemon=True)
    worker.start()
    duration_s = None
    try:
        while worker.is_alive():
            worker.join(0.1)
            if progress is not None and worker.is_alive():
                if duration_s is None:
                    duration_s = _duration_s(scenario)
                progress(control.now_s(), duration_s)
    except KeyboardInterrupt:
        control.cancel()
        worker.join()
        raise
    if "error" in outcome:
        raise outcome["error"]
    return Result(outcome["raw"], scenario)


def _duration_s(scenario: Scenario) -> float:
    """The scenario's duration in seconds (for progress reports)."""
    d = str(scenario.get("duration", "0s")).strip()
    for unit, scale in (("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9), ("ps", 1e-12), ("s", 1.0)):
        if d.endswith(unit):
            try:
                return float(d[: -len(unit)]) * scale
            except ValueError:
                break
    return float("nan")


def schema() -> dict:
    """The JSON Schema of scenario files."""
    import json

    return json.loads(_core.schema())


def controllers() -> list:
    """Names of the built-in congestion controllers."""
    return list(_core.controllers())
