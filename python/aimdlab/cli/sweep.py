"""`aimdlab sweep`: every point of an experiment's axes over its seeds, into a resumable store."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import List, Optional

import click

from ..errors import ScenarioError
from ..out_path import shown_path
from .app import interrupted, main
from .options import check_dask_options, dask_options, memory_error
from .output import SweepBar, emit_json, json_option, mean_pm, note, quiet, quiet_option, stdout_console

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
        _print_sweep_summary(result)
        _print_run_totals(result, bar.state, wall)
    if failed:
        errors = [e for e, st in zip(result.catalog.column("error").to_pylist(), result.catalog.column("status").to_pylist())
                  if st == "failed" and e]
        first = f"; the first: {errors[0]}" if errors else ""
        click.echo(f"{failed} of {result.catalog.num_rows} runs failed{first}. Their errors are in the catalog's error column "
                   f"and each one's scenario in {shown_path(result.root) / 'failed'}/", err=True)
        sys.exit(1)


def _print_sweep_summary(result) -> None:
    """The aggregate as tables of at most 100 columns: axis values in words, each measure in the
    unit a person reads (rates in one SI prefix, utilization in %), mean ± half the 95 % CI;
    measures that do not fit beside the axes go into a further table."""
    from rich import box
    from rich.table import Table

    from ..sweep.labels import axis_words, display_scale, measure_header, value_label

    console = stdout_console(fit=100)
    agg = result.aggregate.slice(0, 40).to_pandas()
    total_points = result.aggregate.num_rows
    axis_cells = {a: [value_label(v) for v in agg[a]] for a in result.axes}
    runs = [f"{int(r['runs_ok'])}" + (f" ({int(r['runs_failed'])} failed)" if r["runs_failed"] else "") for _, r in agg.iterrows()]
    measure_cells, headers = {}, {}
    for m in result.measures:
        factor, unit = display_scale(m, agg[f"{m}_mean"])
        headers[m] = measure_header(m, unit or "1")
        measure_cells[m] = [mean_pm(*(r[f"{m}_{k}"] * factor for k in ("mean", "ci95_low", "ci95_high"))) for _, r in agg.iterrows()]

    def width(header: str, cells: List[str]) -> int:
        return max([len(c) for c in cells] + [min(len(header), 14)]) + 3

    fixed = sum(width(axis_words(a), axis_cells[a]) for a in result.axes) + width("runs", runs)
    chunks: List[List[str]] = [[]]
    used = fixed
    for m in result.measures:
        w = width(headers[m], measure_cells[m])
        if chunks[-1] and used + w > 100:
            chunks.append([])
            used = fixed
        chunks[-1].append(m)
        used += w
    for k, chunk in enumerate(chunks):
        part = f" ({k + 1} of {len(chunks)})" if len(chunks) > 1 else ""
        t = Table(title=f"{result.experiment['name']}{part}: mean ± half the 95 % CI over seeds (its wider side; the intervals are "
                        "in aggregate.csv)", title_justify="left", box=box.SIMPLE_HEAD)
        for a in result.axes:
            t.add_column(axis_words(a), justify="right", overflow="fold", min_width=min(28, max(len(c) for c in axis_cells[a])))
        t.add_column("runs", justify="right")
        for m in chunk:
            t.add_column(headers[m], justify="right", overflow="fold")
        for i in range(len(agg)):
            t.add_row(*[axis_cells[a][i] for a in result.axes], runs[i], *[measure_cells[m][i] for m in chunk])
        console.print(t)
    if total_points > 40:
        console.print(f"… {total_points - 40} more points in {shown_path(result.root) / 'aggregate.csv'}")


def _print_run_totals(result, state, wall_s: float) -> None:
    """The line under the tables: runs executed and reused, times, where the results are."""
    console = stdout_console(fit=100)
    engine = result.catalog.column("engine_wall_s").to_pandas().sum()
    ran = state.total if state else 0
    console.print(f"{ran} runs executed ({state.reused if state else 0} reused) in {wall_s:.1f} s; engine time of all runs "
                  f"{engine:.1f} s; results: {shown_path(result.root)}/ (catalog.parquet, aggregate.parquet, aggregate.csv, runs/)")
