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
import math
import sys
from pathlib import Path
from typing import Any, Callable, Optional

import click

__all__ = ["emit_json", "jsonable", "json_option", "note", "progress_bar_wanted", "quiet", "quiet_option", "reset", "stdout_console",
           "steps"]

_state = {"quiet": False}


def reset() -> None:
    """Forgets `-q` (each invocation of the command starts without it)."""
    _state["quiet"] = False


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


def json_option(command: Any) -> Any:
    """`--json`: the outcome as one JSON object on standard output instead of tables."""
    return click.option("--json", "as_json", is_flag=True,
                        help="Print the outcome as one JSON object on standard output (paths, provenance, results) "
                             "instead of tables; notes and progress stay on standard error.")(command)


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


def stdout_console() -> Any:
    """A rich console for results on standard output: the terminal's width on a terminal; piped
    or redirected, wide enough that no table cuts a number short ("342…")."""
    from rich.console import Console

    return Console() if sys.stdout.isatty() else Console(width=100_000)


def jsonable(value: Any) -> Any:
    """`value` as JSON can hold it: NaN and infinity as null, paths as text, numpy scalars as
    numbers, tuples as lists."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if hasattr(value, "item") and callable(value.item) and type(value).__module__ == "numpy":
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def emit_json(obj: Any) -> None:
    """Prints `obj` as one JSON object on standard output."""
    click.echo(json.dumps(jsonable(obj), indent=2, allow_nan=False))
