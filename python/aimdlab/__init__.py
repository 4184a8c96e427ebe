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

# ruff: noqa: E402 - the guard must run before the imports that take the command's first
# fraction of a second (see `_startup`).
from . import _startup

_startup.guard()

from . import _core, units
from ._core import AckEvent, CongestionEvent, Window
from .controller import Controller
from .errors import (
    ControllerError,
    CopyError,
    EngineError,
    MeasureError,
    MemoryLimitError,
    OutputError,
    ReportError,
    RunCancelled,
    ScenarioError,
    StoreError,
)
from .result import Result
from .runner import run
from .scenario import Scenario, apply_overrides, load, loads, memory_estimate, plain, to_json, validate
from .sweep import open_sweep

__version__ = _core.__version__
__all__ = [
    "AckEvent",
    "Window",
    "CongestionEvent",
    "Controller",
    "ControllerError",
    "CopyError",
    "EngineError",
    "MeasureError",
    "MemoryLimitError",
    "OutputError",
    "ReportError",
    "Result",
    "RunCancelled",
    "Scenario",
    "ScenarioError",
    "StoreError",
    "apply_overrides",
    "controllers",
    "load",
    "loads",
    "memory_estimate",
    "open_sweep",
    "plain",
    "run",
    "schema",
    "to_json",
    "units",
    "validate",
]


def schema() -> dict:
    """The JSON Schema of scenario files."""
    import json

    return json.loads(_core.schema())


def controllers() -> list:
    """Names of the built-in congestion controllers."""
    return list(_core.controllers())
