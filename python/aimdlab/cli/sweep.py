"""`aimdlab sweep`: every point of an experiment's axes over its seeds, into a resumable store."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Optional

import click

from ..errors import ScenarioError
from ..out_path import shown_path
from .app import interrupted, main
from .options import check_dask_options, dask_options, memory_error
from .output import SweepBar, emit_json, fmt, json_option, note, quiet, quiet_option, stdout_console

SWEEP_EXAMPLES = """
\b
Examples:
  aimdlab sweep examples/sweeps/utilization-flows.toml
  aimdlab sweep examples/sweeps/utilization-flows.toml --quick --jobs 2
  aimdlab sweep EXP.toml --dask                         a Dask LocalCluster on this machine
  aimdlab sweep EXP.toml --scheduler tcp://HOST:8786    an existing Dask cluster
  aimdlab schema --experiment                           what an experiment file may say

\b
Run it again with the same --out to resume: only the runs missing from the folder execute.
Results: DIR/catalog.parquet (one row per run), DIR/aggregate.parquet and .csv (mean, std and
95 % confidence interval per axis point), DIR/runs/<run_id>/ (each run's files).
"""


@main.command(epilog=SWEEP_EXAMPLES)
@click.argument("experiment", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out_dir", type=str, default=None, metavar="DIR",
              help="The sweep's folder (reused to resume). Default: results/sweeps/<name> (<name>-quick with --quick).")
@click.option("--jobs", type=click.IntRange(1, 4096), default=None, help="Parallel runs (default: one per core).")
@dask_options
@click.option("--quick", is_flag=True, help="Apply the experiment's [quick] table (default: 1 seed) for a fast look.")
@click.option("--max-memory", metavar="SIZE", default=None,
              help="Refuse a run whose estimated memory is above SIZE (default: 80 % of this process's memory, divided by --jobs).")
@json_option
@quiet_option
def sweep(experiment: Path, out_dir: Optional[str], jobs: Optional[int], use_dask: bool, scheduler: Optional[str], quick: bool,
          max_memory: Optional[str], as_json: bool) -> None:
    """Run a sweep: every point of EXPERIMENT's axes × its seeds, into a resumable result
    store, with the measures aggregated over seeds (mean, std, 95 % CI)."""
    import os

    from ..memory import limit_bytes
    from ..sweep import StoreError, default_out, load_experiment, run_sweep

    check_dask_options(use_dask, scheduler)
    try:
        exp = load_experiment(experiment, quick=quick)
    except (ScenarioError, FileNotFoundError) as e:
        raise click.ClickException(str(e)) from None
    try:
        limit = limit_bytes(max_memory)
    except ScenarioError as e:
        raise click.ClickException(memory_error(e)) from None
    workers = jobs or os.cpu_count() or 1
    if max_memory is None and not scheduler:
        limit = max(1, limit // workers)
    out = Path(out_dir) if out_dir is not None else default_out(exp)
    n_runs = len(exp.axis_points()) * len(exp.seeds)
    note(f"sweep {exp.name}: {len(exp.axis_points())} points x {len(exp.seeds)} seeds = {n_runs} runs"
         f"{' (quick)' if quick else ''} -> {out}")
    t0 = time.perf_counter()
    bar = SweepBar()
    try:
        with bar:
            result = run_sweep(exp, out, jobs=jobs, dask=use_dask, scheduler=scheduler, progress=bar.update, max_memory=limit)
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        interrupted(f"interrupted: {bar.state.done if bar.state else 0} runs finished and kept in {out}; "
                     "run the same command again to resume")
    except RuntimeError as e:
        raise click.ClickException(str(e)) from None
    wall = time.perf_counter() - t0
    failed = result.catalog.column("status").to_pylist().count("failed")
    if as_json:
        state = bar.state
        emit_json({"command": "sweep", "experiment_file": str(experiment), "out_dir": result.root,
                   "files": {"catalog": result.root / "catalog.parquet", "aggregate": result.root / "aggregate.parquet",
                             "aggregate_csv": result.root / "aggregate.csv", "runs": result.root / "runs"},
                   "runs": {"points": len(exp.axis_points()), "seeds": len(exp.seeds), "total": result.catalog.num_rows,
                            "executed": state.total if state else 0, "reused": state.reused if state else 0, "failed": failed},
                   "wall_s": wall, "provenance": {"engine": result.experiment.get("engine"), **(result.sessions[-1] if result.sessions else {})},
                   "axes": result.axes, "measures": result.measures, "aggregate": result.aggregate.to_pylist()})
    elif not quiet():
        _print_sweep_summary(result, bar.state, wall)
    if failed:
        errors = [e for e, st in zip(result.catalog.column("error").to_pylist(), result.catalog.column("status").to_pylist())
                  if st == "failed" and e]
        first = f"; the first: {errors[0]}" if errors else ""
        click.echo(f"{failed} of {result.catalog.num_rows} runs failed{first}. Their errors are in the catalog's error column "
                   f"and each one's scenario in {shown_path(result.root) / 'failed'}/", err=True)
        sys.exit(1)


def _print_sweep_summary(result, state, wall_s: float) -> None:
    from rich.table import Table

    # Not a terminal (a log, a pipe): wide lines rather than columns squeezed to 80 characters.
    console = stdout_console()
    agg = result.aggregate.to_pandas()
    t = Table(title=f"{result.experiment['name']}: mean [95 % CI] over seeds", title_justify="left")
    for a in result.axes:
        t.add_column(a, justify="right")
    t.add_column("runs", justify="right")
    for m in result.measures:
        t.add_column(m, justify="right")
    for _, r in agg.head(40).iterrows():
        cells = [str(r[a]) for a in result.axes] + [f"{int(r['runs_ok'])}" + (f" ({int(r['runs_failed'])} failed)" if r["runs_failed"] else "")]
        for m in result.measures:
            mean, lo, hi = r[f"{m}_mean"], r[f"{m}_ci95_low"], r[f"{m}_ci95_high"]
            cells.append(fmt(mean, ".4g") + ("" if hi != hi else f" [{fmt(lo, '.4g')}, {fmt(hi, '.4g')}]"))
        t.add_row(*cells)
    console.print(t)
    if len(agg) > 40:
        console.print(f"… {len(agg) - 40} more points in {shown_path(result.root) / 'aggregate.csv'}")
    engine = result.catalog.column("engine_wall_s").to_pandas().sum()
    ran = state.total if state else 0
    console.print(f"{ran} runs executed ({state.reused if state else 0} reused) in {wall_s:.1f} s; engine time of all runs "
                  f"{engine:.1f} s; results: {shown_path(result.root)}/ (catalog.parquet, aggregate.parquet, aggregate.csv, runs/)")
