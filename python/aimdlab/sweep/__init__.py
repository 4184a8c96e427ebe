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
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from ..imports import local_modules
from .executor import execute_run, parallel_map
from .experiment import (
    EXPERIMENT_SCHEMA,
    Experiment,
    Point,
    load_experiment,
    parse_experiment,
)
from .store import Store, StoreError, Sweep, engine_version, open_sweep, run_id

__all__ = ["EXPERIMENT_SCHEMA", "Experiment", "Point", "Store", "StoreError", "Sweep", "SweepProgress", "execute_run",
           "load_experiment", "open_sweep", "parse_experiment", "run_sweep", "run_sweeps", "run_id", "engine_version"]


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
    the same call resumes. See `executor.parallel_map` for `jobs`, `dask` and `scheduler`."""
    return run_sweeps([(experiment, out)], jobs, dask, scheduler, progress, max_memory)[0]


@dataclass
class _Plan:
    """One sweep of a batch: its store, points and run ids, each distinct run's first point,
    the runs left to execute and the measures the workers computed."""

    store: Store
    experiment: Experiment
    points: List[Point]
    ids: List[str]
    first: Dict[str, Point]
    todo: List[str]
    reused: int
    """Runs found complete in the store."""
    damaged: int
    """Run folders found damaged (removed: they run again)."""
    known: Dict[str, Dict[str, float]]


def run_sweeps(sweeps: Sequence[Tuple[Experiment, Union[str, Path]]], jobs: Optional[int] = None, dask: bool = False,
               scheduler: Optional[str] = None, progress: Optional[Callable[[SweepProgress], None]] = None,
               max_memory: Optional[int] = None, finished: Optional[Callable[[int, Sweep], None]] = None) -> List[Sweep]:
    """Runs several sweeps, `(experiment, out)` each, as one batch (see `run_sweep`): their runs
    share the workers, so none waits for the last runs of the sweep before it. `finished(i,
    sweep)` is called as sweep `i` completes (its catalog written) while the others' runs go
    on; `progress(p)` follows the batch's runs together. Returns the sweeps in order."""
    engine = engine_version()
    stores: List[Store] = []
    try:
        plans = []
        for experiment, out in sweeps:
            points: List[Point] = experiment.points()
            ids = [run_id(p.scenario, engine) for p in points]
            stores.append(Store.prepare(out, experiment, engine))
            plans.append(_plan(stores[-1], experiment, points, ids))
        return _run_plans(plans, jobs, dask, scheduler, progress, max_memory, finished)
    finally:
        for store in stores:
            store.release()


def _plan(store: Store, experiment: Experiment, points: List[Point], ids: List[str]) -> _Plan:
    """What a sweep has left to run: its damaged run folders removed, each distinct run once
    (two points may resolve to one scenario), in order, less those complete in the store."""
    damaged = store.remove_damaged(ids)
    done = store.done()
    first: Dict[str, Point] = {}
    for p, rid in zip(points, ids):
        first.setdefault(rid, p)
    return _Plan(store, experiment, points, ids, first, [rid for rid in first if rid not in done], len(set(ids) & done),
                 len(damaged), {})


def _named_code(tasks: List[Dict[str, Any]]) -> List[str]:
    """Every `module:name` the tasks name: Python controllers and Python measures."""
    from ..controller import PYTHON_KEY, is_class_spec
    from .measures import is_python_measure

    names = set()
    for task in tasks:
        for group in task["scenario"].get("flows") or []:
            cc = group.get("cc") if isinstance(group, dict) else None
            if is_class_spec(cc):
                names.add(cc[PYTHON_KEY] if isinstance(cc, dict) else cc)
        for m in task.get("measures") or []:
            if is_python_measure(m):
                names.update(part.strip() for part in m.split(" / ") if ":" in part)
    return sorted(n for n in names if isinstance(n, str))


def _run_plans(plans: List[_Plan], jobs: Optional[int], dask: bool, scheduler: Optional[str],
               progress: Optional[Callable[[SweepProgress], None]], max_memory: Optional[int],
               finished: Optional[Callable[[int, Sweep], None]]) -> List[Sweep]:
    owner = [k for k, plan in enumerate(plans) for _ in plan.todo]
    tasks = [{"run_id": rid, "scenario": plan.first[rid].scenario, "max_memory": max_memory, "measures": list(plan.experiment.measures)}
             for plan in plans for rid in plan.todo]
    state = SweepProgress(total=len(tasks), reused=sum(p.reused for p in plans), damaged=sum(p.damaged for p in plans))
    left = [len(plan.todo) for plan in plans]
    sweeps: List[Optional[Sweep]] = [None] * len(plans)

    def complete(k: int) -> None:
        plan = plans[k]
        catalog, agg = plan.store.build_tables(plan.experiment, plan.points, plan.ids, plan.known)
        plan.store.write_tables(catalog, agg)
        sweep = sweeps[k] = Sweep(plan.store.root)
        if finished:
            finished(k, sweep)

    def started(where: str) -> None:
        state.executor = where
        if progress:
            progress(state)

    if not tasks:
        started("nothing to run")
    for k in range(len(plans)):
        if not left[k]:
            complete(k)
    modules = local_modules(_named_code(tasks)) if scheduler else []
    outcomes = (parallel_map(execute_run, tasks, jobs=jobs, dask=dask, scheduler=scheduler, on_start=started, modules=modules)
                if tasks else iter(()))
    for index, outcome in outcomes:
        k, rid = owner[index], outcome["run_id"]
        plan = plans[k]
        if outcome["status"] == "ok":
            plan.store.write_run(rid, outcome["files"])
            plan.store.log(rid, "ok", outcome["wall_s"])
            if "measures" in outcome:
                plan.known[rid] = outcome["measures"]
        else:
            plan.store.write_failure(rid, plan.first[rid], list(plan.experiment.axes), outcome["error"])
            plan.store.log(rid, "failed", None)
            state.failed += 1
        state.done += 1
        if progress:
            progress(state)
        left[k] -= 1
        if not left[k]:
            complete(k)
    return [s for s in sweeps if s is not None]


def default_out(experiment: Experiment) -> Path:
    """Where a sweep goes by default: `results/sweeps/<name>` (`-quick` under --quick)."""
    return Path("results") / "sweeps" / (experiment.name + ("-quick" if experiment.quick else ""))

