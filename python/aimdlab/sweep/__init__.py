"""Sweeps: a paper's figure or table as an experiment file (a base scenario, axes over its
fields, replications, measures), executed into a resumable result store and aggregated with
confidence intervals.

    import aimdlab
    sweep = aimdlab.sweep.run_sweep(aimdlab.sweep.load_experiment("experiments/x.toml"), "results/sweeps/x")
    sweep.aggregate.to_pandas()
    aimdlab.open_sweep("results/sweeps/x").catalog.to_pandas()

`aimdlab sweep EXPERIMENT.toml` does the same from the command line, with a progress bar.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Union

from .executor import execute_run, run_tasks
from .experiment import (
    EXPERIMENT_SCHEMA,
    Experiment,
    Point,
    load_experiment,
    parse_experiment,
)
from .store import Store, StoreError, Sweep, engine_version, open_sweep, run_id

__all__ = ["EXPERIMENT_SCHEMA", "Experiment", "Point", "Store", "StoreError", "Sweep", "SweepProgress", "execute_run",
           "load_experiment", "open_sweep", "parse_experiment", "run_sweep", "run_id", "engine_version"]


@dataclass
class SweepProgress:
    """Where a sweep stands: runs to execute this time, done, failed, and the runs found
    complete in the store before it started."""

    total: int
    done: int = 0
    failed: int = 0
    reused: int = 0
    executor: str = ""
    damaged: int = 0
    """Run folders found damaged (files missing or changed) and run again."""


def run_sweep(experiment: Experiment, out: Union[str, Path], jobs: Optional[int] = None, dask: bool = False,
              scheduler: Optional[str] = None, progress: Optional[Callable[[SweepProgress], None]] = None,
              max_memory: Optional[int] = None) -> Sweep:
    """Runs every point of `experiment` not yet in the store at `out`, then writes the
    catalog and the aggregate and returns the `Sweep`.

    Runs already complete in the store are reused; failed ones are tried again. A failing run
    is recorded (`failed/<run_id>.json`, with its scenario) and the others go on; the sweep's
    `catalog` says which failed. `progress(p)` is called when the sweep starts and after each
    run. Ctrl-C (KeyboardInterrupt) stops the workers; every run finished so far is kept, and
    the same call resumes. See `executor.run_tasks` for `jobs`, `dask` and `scheduler`."""
    engine = engine_version()
    points: List[Point] = experiment.points()
    ids = [run_id(p.scenario, engine) for p in points]
    store = Store.prepare(out, experiment, engine)
    try:
        return _run_in_store(store, experiment, points, ids, jobs, dask, scheduler, progress, max_memory)
    finally:
        store.release()


def _run_in_store(store: Store, experiment: Experiment, points: List[Point], ids: List[str], jobs: Optional[int], dask: bool,
                  scheduler: Optional[str], progress: Optional[Callable[[SweepProgress], None]], max_memory: Optional[int]) -> Sweep:
    damaged = store.remove_damaged(ids)
    done = store.done()
    first: Dict[str, Point] = {}  # each run once (two points may resolve to one scenario), in order
    for p, rid in zip(points, ids):
        first.setdefault(rid, p)
    todo = [rid for rid in first if rid not in done]
    state = SweepProgress(total=len(todo), reused=len(set(ids) & done), damaged=len(damaged))
    tasks = [{"run_id": rid, "scenario": first[rid].scenario, "max_memory": max_memory, "measures": list(experiment.measures)}
             for rid in todo]
    known: Dict[str, Dict[str, float]] = {}

    def started(where: str) -> None:
        state.executor = where
        if progress:
            progress(state)

    outcomes = run_tasks(tasks, jobs=jobs, dask=dask, scheduler=scheduler, on_start=started) if tasks else iter(())
    if not tasks:
        started("nothing to run")
    for outcome in outcomes:
        rid = outcome["run_id"]
        if outcome["status"] == "ok":
            store.write_run(rid, outcome["files"])
            store.log(rid, "ok", outcome["wall_s"])
            if "measures" in outcome:
                known[rid] = outcome["measures"]
        else:
            store.write_failure(rid, first[rid], list(experiment.axes), outcome["error"])
            store.log(rid, "failed", None)
            state.failed += 1
        state.done += 1
        if progress:
            progress(state)
    catalog, agg = store.build_tables(experiment, points, ids, known)
    store.write_tables(catalog, agg)
    return Sweep(store.root)


def default_out(experiment: Experiment) -> Path:
    """Where a sweep goes by default: `results/sweeps/<name>` (`-quick` under --quick)."""
    return Path("results") / "sweeps" / (experiment.name + ("-quick" if experiment.quick else ""))

