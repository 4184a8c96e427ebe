"""Commands that print what aimdlab knows: `schema`, `examples`, `columns`."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Optional

import click

from .app import main, os_error_text
from .output import emit_json, json_option, quiet, quiet_option, stdout_console


@main.command()
@click.option("--experiment", is_flag=True, help="The schema of experiment files (aimdlab sweep) instead.")
def schema(experiment: bool) -> None:
    """Print the JSON Schema of scenario files (or of experiment files)."""
    if experiment:
        import json

        from ..sweep import EXPERIMENT_SCHEMA

        click.echo(json.dumps(EXPERIMENT_SCHEMA, indent=2))
        return
    from .. import _core

    click.echo(_core.schema())


EXAMPLES_EXAMPLES = """
\b
Examples:
  aimdlab examples                       list the examples that ship with aimdlab
  aimdlab examples --copy examples       copy them into ./examples, then:
  aimdlab run examples/utilization.toml
  aimdlab sweep examples/sweeps/utilization-flows.toml --quick
"""


@main.command(epilog=EXAMPLES_EXAMPLES)
@click.option("--copy", "copy_to", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Copy every example into DIR (created if missing; a file already there is never overwritten).")
@json_option
@quiet_option
def examples(copy_to: Optional[Path], as_json: bool) -> None:
    """List the example scenarios and sweeps that ship with aimdlab, or copy them out to run
    and change."""
    from ..package_data import CopyError, copy_examples
    from ..package_data import examples as listed

    if copy_to is None:
        entries = listed()
        if as_json:
            emit_json({"command": "examples", "examples": [{"file": f"examples/{name}", "what": what} for name, what in entries]})
            return
        width = max(len(name) for name, _ in entries)
        for name, what in entries:
            click.echo(f"examples/{name:<{width}}  {what}")
        click.echo("\naimdlab examples --copy DIR copies them out; aimdlab run DIR/utilization.toml runs one.")
        return
    try:
        written = copy_examples(copy_to)
    except (CopyError, OSError) as e:
        raise click.ClickException(str(e) if isinstance(e, CopyError) else os_error_text(e)) from None
    from ..out_path import shown_path

    folder = shown_path(Path(os.path.realpath(copy_to)))
    if as_json:
        emit_json({"command": "examples", "copied_to": folder, "files": [shown_path(p) for p in written]})
    elif not quiet():
        click.echo(f"copied {len(written)} examples into {folder}; try: aimdlab run {folder / 'utilization.toml'}")


@main.command()
@click.argument("table", required=False, type=click.Choice(["flows", "links", "timeseries", "link_timeseries", "cwnd_trace", "summary"]))
@json_option
def columns(table: Optional[str], as_json: bool) -> None:
    """Print what each column of the result tables and each number of the summary means,
    with its unit and the values it can take (a sweep clips its confidence intervals to them).

    \b
    Examples:
      aimdlab columns
      aimdlab columns flows
      aimdlab columns timeseries
      aimdlab columns summary
    """
    from rich.table import Table

    from .. import _core

    rows = [c for c in _core.columns() if table is None or c[0] == table]
    if as_json:
        emit_json({"command": "columns", "columns": [{"table": t, "column": n, "unit": u, "description": d,
                                                   "low": lo if math.isfinite(lo) else None, "high": hi if math.isfinite(hi) else None}
                                                  for t, n, u, d, lo, hi in rows]})
        return
    out = Table(show_header=True, header_style="bold")
    for head in ("table", "column", "unit", "range", "what it is"):
        out.add_column(head)
    for t, name, unit, doc, low, high in rows:
        out.add_row(t, name, unit, _range(low, high), doc)
    stdout_console().print(out)


def _range(low: float, high: float) -> str:
    """A column's range in words: `0 to 1`, `>= 0`, or "" (any value, a label)."""
    if low == float("-inf"):
        return ""
    return f">= {low:g}" if high == float("inf") else f"{low:g} to {high:g}"
