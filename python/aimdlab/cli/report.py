"""`aimdlab report`: a self-contained HTML report of a sweep or of one run."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import click

from .app import main
from .output import emit_json, json_option, progress_bar_wanted, quiet, quiet_option, steps

REPORT_EXAMPLES = """
\b
Examples:
  aimdlab report results/sweeps/utilization-flows     a sweep: writes its report.html
  aimdlab report results/utilization                  one run's folder
"""


@main.command(epilog=REPORT_EXAMPLES)
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The HTML file to write (default: FOLDER/report.html).")
@click.option("--run-figures/--no-run-figures", default=None,
              help="For a sweep: also draw each run's overview figure, linked from the runs table (off by default: "
                   "minutes for a 1,000-run sweep). For one run's folder: --no-run-figures leaves its figure out.")
@json_option
@quiet_option
def report(folder: Path, out_file: Optional[Path], run_figures: Optional[bool], as_json: bool) -> None:
    """Write a self-contained HTML report (works offline) of a sweep or of one run."""
    from ..sweep.report import ReportError, write_report

    try:
        path = write_report(folder, out_file, run_figures=run_figures, progress=_report_progress())
    except ReportError as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        emit_json({"command": "report", "folder": folder, "report": path, "kind": "sweep" if (folder / "sweep.json").is_file() else "run"})
    elif not quiet():
        click.echo(f"report: {path}")


def _report_progress():
    """A callback for drawing each run's figure: a bar on a terminal, a line per tenth
    otherwise, nothing with -q."""
    if not progress_bar_wanted():
        return steps("run figures")
    state = {}

    def update(done: int, total: int) -> None:
        if "bar" not in state:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            state["bar"] = Progress(TextColumn("run figures"), BarColumn(), MofNCompleteColumn(), console=Console(stderr=True), transient=True)
            state["bar"].start()
            state["task"] = state["bar"].add_task("figures", total=total)
        state["bar"].update(state["task"], completed=done)
        if done >= total:
            state["bar"].stop()

    return update
