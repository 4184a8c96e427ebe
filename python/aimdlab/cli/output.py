"""What the `aimdlab` command prints, for people and for scripts.

- Results go to standard output: tables for people (full width when stdout is not a
  terminal, so no number is cut short), or with `--json` one JSON object a script parses
  (paths, provenance and the results; NaN and infinity as null).
- Notes and progress go to standard error: a bar on a terminal, a line per step (every
  tenth of the work) otherwise, so a log or a pipe shows that long work goes on.
- `-q/--quiet` keeps both quiet: only errors (and what `--json` asks for) are printed.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, Optional

import click

from ..jsonable import jsonable

__all__ = ["SweepBar", "emit_error_json", "emit_json", "json_wanted_and_unsaid", "fmt", "jsonable", "json_option", "mean_pm", "note", "progress_bar_wanted", "quiet", "quiet_option", "reset",
           "stdout_console", "steps"]

_state = {"quiet": False, "json": False, "emitted": False}


def reset() -> None:
    """Forgets `-q` and `--json` (each invocation of the command starts without them)."""
    _state.update(quiet=False, json=False, emitted=False)


def quiet() -> bool:
    """Whether `-q/--quiet` was given."""
    return _state["quiet"]


def _set_quiet(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        _state["quiet"] = True


def quiet_option(command: Any) -> Any:
    """`-q/--quiet`, on the top-level command and on each subcommand."""
    return click.option("-q", "--quiet", is_flag=True, expose_value=False, is_eager=True, callback=_set_quiet,
                        help="Print nothing but errors (and what --json asks for): no notes, progress or tables.")(command)


def _set_json(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    if value:
        _state["json"] = True
    return value


def json_wanted_and_unsaid() -> bool:
    """Whether `--json` was given and no JSON object has been printed yet (what a failing
    command prints then: `emit_error_json`)."""
    return bool(_state["json"]) and not _state["emitted"]


def emit_error_json(command: str, message: str, exit_code: int) -> None:
    """The outcome of a command that failed, for `--json`: one object on standard output."""
    emit_json({"command": command, "ok": False, "error": message, "exit_code": exit_code})


def json_option(command: Any) -> Any:
    """`--json`: the outcome as one JSON object on standard output instead of tables; a
    failure too is one object (`"ok": false` with the error)."""
    # (Eager: a failure in parsing the other arguments is still reported as JSON.)
    return click.option("--json", "as_json", is_flag=True, is_eager=True, callback=_set_json,
                        help="Print the outcome as one JSON object on standard output (paths, provenance, results; "
                             "\"ok\": false with the error when the command fails) instead of tables; notes and progress "
                             "stay on standard error.")(command)


def note(message: str) -> None:
    """A line for the person watching, on standard error (none with `-q`)."""
    if not _state["quiet"]:
        click.echo(message, err=True)


def progress_bar_wanted() -> bool:
    """Whether progress is drawn as a bar: standard error is a terminal and not `-q`."""
    return sys.stderr.isatty() and not _state["quiet"]


def steps(what: str) -> Optional[Callable[[float, float], None]]:
    """A progress callback `(done, total)` printing a line at each tenth of the work, for
    standard error that is not a terminal (a log, a pipe); None with `-q`."""
    if _state["quiet"]:
        return None
    last = [0]

    def update(done: float, total: float) -> None:
        if total and total > 0:
            tenth = int(10 * done / total + 1e-9)
            if tenth > last[0]:
                last[0] = tenth
                click.echo(f"  {what}: {10 * tenth} %", err=True)

    return update


def stdout_console(fit: Optional[int] = None) -> Any:
    """A rich console for results on standard output: the terminal's width on a terminal; piped
    or redirected, `fit` columns for a table made to fold its cells rather than cut them, else
    wide enough that no table cuts a number short ("342…")."""
    from rich.console import Console

    return Console() if sys.stdout.isatty() else Console(width=fit or 100_000)


def emit_json(obj: Any) -> None:
    """Prints `obj` as one JSON object on standard output, with `"ok": true` unless it says
    otherwise."""
    _state["emitted"] = True
    obj = {"ok": True, **obj} if isinstance(obj, dict) and "ok" not in obj else obj
    click.echo(json.dumps(jsonable(obj), indent=2, allow_nan=False))


def fmt(x, spec: str = ".2f") -> str:
    if x is None or (isinstance(x, float) and x != x):
        return "—"
    return format(x, spec)


class SweepBar:
    """The sweep's progress: a bar with done/failed counts and the time left on a terminal,
    a line every 10 % otherwise. Started at the first update, after the workers exist."""

    def __init__(self) -> None:
        self.state: Any = None
        self._progress: Any = None  # a rich Progress on a terminal
        self._task: Any = None
        self._last_decile = -1

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        """Takes the bar off the terminal (if one is shown)."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def update(self, state) -> None:
        self.state = state
        if self._progress is None and self._last_decile < 0:
            if state.damaged:
                click.echo(f"warning: {state.damaged} run folder(s) in the store were damaged (files missing or changed); "
                           "they run again", err=True)
            if state.total:
                note(f"executing {state.total} runs {state.executor}"
                     + (f" ({state.reused} found complete in the store)" if state.reused else ""))
            else:
                note(f"nothing to run: all {state.reused} runs are complete in the store")
            if progress_bar_wanted() and state.total:
                from rich.console import Console
                from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

                self._progress = Progress(TextColumn("runs"), BarColumn(), MofNCompleteColumn(),
                                          TextColumn("[red]{task.fields[failed]} failed"), TimeElapsedColumn(),
                                          TextColumn("left"), TimeRemainingColumn(), console=Console(stderr=True), transient=True)
                self._progress.start()
                self._task = self._progress.add_task("sweep", total=state.total, failed=0)
            self._last_decile = 0
        if self._progress is not None:
            self._progress.update(self._task, completed=state.done, failed=state.failed)
        elif state.total:
            decile = state.done * 10 // state.total
            if decile > self._last_decile:
                self._last_decile = decile
                note(f"  {state.done} of {state.total} runs done, {state.failed} failed")


def mean_pm(mean: float, low: float, high: float) -> str:
    """`mean ±half`, half the wider side of the interval, to as many digits as it deserves."""
    if mean != mean:
        return "—"
    if abs(mean) < 1e-9:  # (a time integral's rounding: 2e-14 packets is none)
        low, high, mean = low - mean, high - mean, 0.0
    if not (low == low and high == high):
        return f"{mean:.4g}"
    half = max(mean - low, high - mean)
    if half <= 1e-9 * max(1.0, abs(mean)):
        return f"{mean:.4g} ±0"
    return f"{mean:.4g} ±{half:.0f}" if half >= 10 else f"{mean:.4g} ±{half:.2g}"
