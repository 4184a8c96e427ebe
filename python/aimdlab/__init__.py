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
from .controller import Controller
from .result import Result
from .scenario import Scenario, apply_overrides, load, loads, to_json, validate

__version__ = _core.__version__
__all__ = [
    "Controller",
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
    scenario, controllers = _extract_controllers(scenario)
    text = to_json(scenario)
    duration_s = _core.validate(text)
    control = _core.RunControl()
    outcome: Dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["raw"] = _core.run(text, seed, control, controllers)
        except BaseException as e:  # handed to the calling thread
            outcome["error"] = e

    # The engine runs in a worker thread (it releases the GIL), so this thread stays free to
    # report progress and to turn Ctrl-C into a cancellation.
    worker = threading.Thread(target=work, name="aimdlab-run", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.1)
            if progress is not None and worker.is_alive():
                progress(control.now_s(), duration_s)
    except KeyboardInterrupt:
        control.cancel()
        worker.join()
        raise
    if "error" in outcome:
        raise outcome["error"]
    return Result(outcome["raw"], scenario)


def _extract_controllers(scenario: Scenario):
    """Replaces `Controller` instances in the flow groups by the name "python" and returns
    the scenario to send to the engine and a dict flow index → controller (one deep copy per
    flow of a group)."""
    import copy

    flows = scenario.get("flows")
    if not isinstance(flows, list) or not any(isinstance(g, dict) and isinstance(g.get("cc"), Controller) for g in flows):
        return scenario, None
    out = dict(scenario)
    out["flows"] = []
    controllers = {}
    index = 0
    for g in flows:
        count = g.get("count", 1) if isinstance(g, dict) else 1
        if isinstance(g, dict) and isinstance(g.get("cc"), Controller):
            proto = g["cc"]
            g = dict(g, cc="python")
            if isinstance(count, int) and count > 0:
                for i in range(count):
                    controllers[index + i] = copy.deepcopy(proto)
        out["flows"].append(g)
        index += count if isinstance(count, int) and count > 0 else 0
    return out, controllers


def schema() -> dict:
    """The JSON Schema of scenario files."""
    import json

    return json.loads(_core.schema())


def controllers() -> list:
    """Names of the built-in congestion controllers."""
    return list(_core.controllers())
