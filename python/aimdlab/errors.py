"""The exceptions of aimdlab, defined here so that they pickle (a sweep's worker process or a
Dask worker hands them back to the caller with their message) and can be caught by users
without touching the native module, which raises these same classes."""

from __future__ import annotations

__all__ = ["ControllerError", "CopyError", "EngineError", "MeasureError", "MemoryLimitError", "OutputError", "ReportError", "RunCancelled",
           "ScenarioError", "StoreError"]


class ScenarioError(ValueError):
    """An invalid scenario; the message names the field, the value and what is accepted."""


class ControllerError(ScenarioError):
    """A Python controller failed during a run: a hook raised (the original exception is the
    `__cause__`), or it set a window, threshold or pacing rate that is not one. The message
    names the controller, the flow, the hook and the value."""


class EngineError(RuntimeError):
    """A bug in the engine (a Rust panic), or a run whose clock stopped, reported instead of crashing or hanging."""


class RunCancelled(RuntimeError):
    """The run was cancelled through its RunControl."""


class CopyError(Exception):
    """The examples cannot be copied there; the message says why."""


class MeasureError(Exception):
    """A measure could not be taken of one run (a Python measure raised, or returned no
    number); the sweep records it as that run's failure."""


class ReportError(Exception):
    """The folder holds neither a sweep nor a run; the message says what it holds."""


class StoreError(OSError):
    """The folder cannot hold this sweep; the message says why."""


class OutputError(OSError):
    """The results folder cannot be used; the message names it and says why."""


class MemoryLimitError(ScenarioError):
    """The memory limit is too small for any run; the message says where it came from."""
