"""`aimdlab.run`: a scenario through the engine, in a worker thread, with Ctrl-C, progress
and Python controllers handled; returns a `Result`."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Union

from . import _core
from .controller import Controller, controller_label, engine_view, python_controllers, recorded_view
from .errors import ScenarioError
from .result import Result
from .scenario import Scenario, load, plain, to_json

__all__ = ["run"]


def run(
    scenario: Union[Scenario, str, Path],
    seed: Optional[int] = None,
    progress: Optional[Callable[[float, float], None]] = None,
    max_memory: Union[int, str, None] = None,
) -> Result:
    """Runs a scenario (a dict, or the path of a TOML file) and returns its `Result`.

    `seed` overrides the scenario's `seed`. The same scenario and seed always give the same
    result, byte for byte. `progress(now_s, duration_s)` is called about ten times a second
    while the engine runs. `max_memory` (bytes, or a size such as "4GB") caps the run's
    estimated memory (default: see `aimdlab.memory`). Ctrl-C stops the run
    (`KeyboardInterrupt`); so does an exception in `progress` or in a Python controller, which
    is then raised. Whatever ends it, the engine has stopped when `run` returns or raises.
    Raises `ScenarioError` (a `ValueError`) for an invalid scenario or argument.
    """
    if isinstance(scenario, (str, Path)):
        scenario = _load_path(scenario)
    elif not isinstance(scenario, dict):
        raise ScenarioError(f"scenario: a {type(scenario).__name__} is not a scenario; expected a dict or the path of a TOML file")
    seed = _check_seed(seed)
    if progress is not None and not callable(progress):
        raise ScenarioError(f"progress: {progress!r} is not callable; expected a function progress(now_s, duration_s)")
    from .memory import validate_within

    text = to_json(engine_view(scenario))
    duration_s, limit = validate_within(text, max_memory)
    # Each flow's own copy of its group's controller, once the scenario is known to be valid
    # (a count of 2^32 - 1 is refused above, not copied for minutes first).
    groups = python_controllers(scenario)
    controllers = _copy_controllers(scenario, groups)
    labels = {i: controller_label(scenario["flows"][i]["cc"]) for i in groups}
    scenario = recorded_view(scenario)
    control = _core.RunControl()
    outcome: Dict[str, Any] = {"finished": threading.Event()}

    def work() -> None:
        try:
            outcome["raw"] = _core.run(text, seed, control, controllers, limit)
        except BaseException as e:  # handed to the calling thread
            outcome["error"] = e
        finally:
            outcome["finished"].set()

    # The engine runs in a worker thread (it releases the GIL), so this thread stays free to
    # report progress and to turn Ctrl-C into a cancellation. Completion is the worker's own
    # event, not `Thread.join`: on CPython 3.10-3.12 a join interrupted by Ctrl-C can mark a
    # running thread as finished, and an interpreter that exits while the engine thread is
    # still inside Rust aborts. Ctrl-C (any number of times) only records the press and
    # cancels the engine; `KeyboardInterrupt` is raised here once the engine has stopped.
    worker = threading.Thread(target=work, name="aimdlab-run", daemon=True)
    engine = [worker]  # the handler's reference to it, dropped with `worker` below
    pressed: list = []
    hook_wait: list = []  # when Ctrl-C was first pressed, and when the user was told a hook blocks

    def on_ctrl_c(signum, frame) -> None:
        pressed.append(signum)
        control.cancel()
        if not controllers or outcome["finished"].is_set():
            return
        now = time.monotonic()
        if len(pressed) == 1 and engine and engine[0].ident is not None:
            # A Python controller's hook may be running (or looping) in the engine thread: the
            # exception is raised there at its next bytecode and stops the run.
            _raise_in_thread(engine[0].ident, KeyboardInterrupt)
            hook_wait.append(now)
        elif len(hook_wait) == 1 and now - hook_wait[0] >= 1.0:  # still running a second later
            sys.stderr.write("aimdlab: the run stops when the Python controller's hook now running returns (it blocks); "
                             "press Ctrl-C again to exit at once\n")
            sys.stderr.flush()
            hook_wait.append(now)
        elif len(hook_wait) == 2:
            os._exit(130)  # the hook never returns: nothing else stops this process

    previous = _take_ctrl_c(on_ctrl_c)
    try:
        worker.start()
        try:
            report = None if progress is None else (lambda: None if pressed else progress(control.now_s(), duration_s))
            _wait(outcome, worker, progress=report)
        except BaseException:  # the progress callback raised, or a handler of the caller's
            control.cancel()
            _wait(outcome, worker)
            raise
    finally:
        # The engine thread's object is let go while Ctrl-C is still only recorded: its
        # deallocation runs weak-reference callbacks (threading's `_dangling` set), and a
        # KeyboardInterrupt raised inside one is printed as "Exception ignored" and lost.
        engine.clear()
        del worker
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    if pressed:
        raise KeyboardInterrupt
    if "error" in outcome:
        raise outcome["error"]
    result = Result(outcome["raw"], plain(scenario))
    if labels:
        result.label_controllers(labels)
    return result


def _take_ctrl_c(handler: Callable[[int, Any], None]) -> Optional[Any]:
    """Installs `handler` for SIGINT and returns the previous handler, when Ctrl-C would
    otherwise raise `KeyboardInterrupt` here (the main thread, Python's default handler);
    else leaves SIGINT alone (another thread, SIG_IGN, a handler of the caller's) and
    returns None."""
    if threading.current_thread() is not threading.main_thread():
        return None
    current = signal.getsignal(signal.SIGINT)
    if current is not signal.default_int_handler:
        return None
    signal.signal(signal.SIGINT, handler)
    return current


def _wait(outcome: Dict[str, Any], worker: threading.Thread, progress: Optional[Callable[[], None]] = None) -> None:
    """Waits until the worker sets `outcome["finished"]` (an event: it wakes this thread at
    once, so a 5 ms run is not kept waiting for a polling interval), or has ended without
    setting it (an exception raised in it by Ctrl-C can land in its last lines), calling
    `progress` about every 0.1 s. The wait is in slices, so a signal handler runs promptly."""
    while not outcome["finished"].wait(0.1):
        if not worker.is_alive() and worker.ident is not None:
            return
        if progress is not None:
            progress()


def _raise_in_thread(ident: int, exc: type) -> None:
    """Raises `exc` in the Python thread `ident` at its next bytecode (CPython's
    PyThreadState_SetAsyncExc; a thread inside Rust or a blocking call sees it on return)."""
    import ctypes

    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(exc))


def _check_seed(seed: Any) -> Optional[int]:
    """`seed` as an int in [0, 2^64), or None; numpy integers are accepted, bools are not."""
    if seed is None:
        return None
    import numbers

    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= int(seed) < 2**64:
        raise ScenarioError(f"seed: {seed!r} is not valid; expected an integer from 0 to 2^64-1")
    return int(seed)


def _load_path(path: Union[str, Path]) -> Scenario:
    """Loads a scenario file given to `run`, with one-line errors for strings that are not
    file names."""
    text = str(path)
    if isinstance(path, str) and ("\n" in text or len(text) > 4096):
        raise ScenarioError(
            "scenario: a str with line breaks is not a file name; to run TOML text use aimdlab.run(aimdlab.loads(text))"
        )
    try:
        return load(path)
    except OSError as e:
        if isinstance(e, FileNotFoundError):
            raise
        raise ScenarioError(f"scenario: {text[:80]!r} cannot be read: {e.strerror or e}") from None


def _copy_controllers(scenario: Scenario, groups: Dict[int, Controller]) -> Optional[Dict[int, Controller]]:
    """Flow index → its own deep copy of its group's `Controller` (`groups`: group index →
    the prototype; None without any)."""
    import copy

    from .imports import USER_CODE_ERRORS

    controllers = {}
    index = 0
    for gi, g in enumerate(scenario["flows"]):  # (valid: the engine checked the groups)
        count = 1 if g.get("count") is None else int(g["count"])  # (None: absent, as the engine reads it)
        if gi in groups:
            proto = groups[gi]
            for i in range(count):
                try:
                    controllers[index + i] = copy.deepcopy(proto)
                except USER_CODE_ERRORS as e:
                    raise ScenarioError(
                        f"flows[{gi}].cc: the {type(proto).__name__} object cannot be copied for each flow of the group "
                        f"({type(e).__name__}: {e}); keep members that cannot be copied (locks, files) off the instance, "
                        "or define __deepcopy__"
                    ) from None
        index += count
    return controllers or None
