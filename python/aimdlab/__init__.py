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

from pathlib import Path
from typing import Optional, Union

from . import _core
from ._core import EngineError, ScenarioError
from .result import Result
from .scenario import Scenario, apply_overrides, load, loads, to_json, validate

__version__ = _core.__version__
__all__ = [
    "EngineError",
    "Result",
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


def run(scenario: Union[Scenario, str, Path], seed: Optional[int] = None) -> Result:
    """Runs a scenario (a dict, or the path of a TOML file) and returns its `Result`.

    `seed` overrides the scenario's `seed`. The same scenario and seed always give the same
    result, byte for byte. Raises `ScenarioError` (a `ValueError`) for an invalid scenario.
    """
    if isinstance(scenario, (str, Path)):
        scenario = load(scenario)
    if seed is not None and not (isinstance(seed, int) and 0 <= seed < 2**64):
        raise ScenarioError(f"seed: {seed!r} is not valid; expected an integer from 0 to 2^64-1")
    raw = _core.run(to_json(scenario), seed)
    return Result(raw, scenario)


def schema() -> dict:
    """The JSON Schema of scenario files."""
    import json

    return json.loads(_core.schema())


def controllers() -> list:
    """Names of the built-in congestion controllers."""
    return list(_core.controllers())
