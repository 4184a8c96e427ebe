"""Where a sweep's runs execute: in this process (`jobs = 1`), a local pool of processes (the
default: one per core), a Dask `LocalCluster` (`dask = True`), or an existing Dask cluster
(`scheduler = "tcp://HOST:PORT"`).

Every executor calls the same function, `execute_run`, with the same task, and gets back the
run's files as bytes and its engine time; the caller writes the files into the
result store. A run's files are therefore byte-identical whatever executed it, and workers of
a remote cluster need no shared file system.

A Dask cluster on SLURM or PBS, with dask-jobqueue (`pip install dask-jobqueue`)::

    from dask_jobqueue import SLURMCluster
    cluster = SLURMCluster(cores=1, processes=1, memory="4GB", walltime="02:00:00")
    cluster.scale(jobs=50)                 # 50 single-core workers
    print(cluster.scheduler_address)       # then: aimdlab sweep EXP.toml --scheduler tcp://...

(each worker must have the same aimdlab installed).
"""

from __future__ import annotations

import atexit
import itertools
import json
import logging
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

__all__ = ["Task", "execute_run", "local_pool", "ordered_map", "parallel_map", "stop_pool", "submit"]

Task = Dict[str, Any]
"""A run to execute: `run_id`, `scenario` (a plain dict with its seed) and optionally
`max_memory` (bytes) and `measures` (the sweep's measures, computed where the run ran)."""


def execute_run(task: Task) -> Dict[str, Any]:
    """Runs one task and returns `{"run_id", "status": "ok", "files": {name: bytes}, "wall_s"}`
    (with `"measures"` when the task names them and they could be computed), or
    `{"run_id", "status": "failed", "error"}` for a run the engine refused or could not
    finish. `wall_s` is the engine call's wall time."""
    from ..errors import EngineError, ScenarioError
    from ..runner import run

    run_id = task["run_id"]
    try:
        t0 = time.perf_counter()
        result = run(task["scenario"], max_memory=task.get("max_memory"))
        wall = time.perf_counter() - t0
        files = result.file_bytes(session=False)  # (identical bytes on every executor; the journal has the session)
    except (ScenarioError, EngineError, MemoryError, OSError) as e:
        return {"run_id": run_id, "status": "failed", "error": f"{type(e).__name__}: {e}"}
    outcome = {"run_id": run_id, "status": "ok", "files": files, "wall_s": wall}
    measures = _measures_here(task.get("measures") or [], files, result)
    if measures is not None:
        outcome["measures"] = measures
    return outcome


def _measures_here(names: List[str], files: Dict[str, bytes], result: Any) -> Optional[Dict[str, float]]:
    """The measures `names` of a run just executed, from its tables in memory: what its folder
    would give (the summary is read from its file's bytes; a Python measure is given the
    `Result` itself). None when there are none or when one cannot be computed here (a Python
    measure's module not importable, or its code raised): the sweep then reads the folder,
    and reports the error."""
    from .measures import run_measures

    if not names:
        return None
    try:
        summary = json.loads(files["summary.json"])
        return run_measures(names, summary, result.flows.to_pandas, result.timeseries.to_pandas, lambda: result)
    except Exception:  # noqa: BLE001 - the folder is read instead, and its error reported there
        return None


def _worker_init(parent_pid: int) -> None:
    """A local pool's worker: leaves Ctrl-C to the sweep, which stops it itself, and dies with
    the sweep's process — SIGKILL and the OOM killer included — at once: a thread waits on the
    pipe its parent holds open while it lives (`multiprocessing.parent_process().sentinel`).
    (Not PR_SET_PDEATHSIG: that follows the thread that started the worker, and a reproduction
    starts workers from a thread that ends before the pool does.)"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import multiprocessing
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    sentinel = getattr(parent, "sentinel", None)

    def watch() -> None:
        if sentinel is not None:
            wait([sentinel])
        else:  # (no sentinel: look every second)
            while os.getppid() == parent_pid:
                time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="aimdlab-watch-parent").start()
    if os.getppid() != parent_pid:  # the sweep died before the thread above started
        os._exit(1)


def local_pool(workers: int):
    """A `ProcessPoolExecutor` of `workers` fresh interpreters ("spawn": no lock or thread of
    this process is inherited) that ignore Ctrl-C and die with this process."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_init,
                               initargs=(os.getpid(),))
    _start_workers(pool, workers)
    return pool


def _start_workers(pool, workers: int) -> None:
    """Starts the pool's worker processes now, with SIGINT blocked while they are created: a
    worker inherits the blocked signal until its initializer ignores it, so the terminal's
    Ctrl-C, which reaches the whole process group, cannot land in a worker still importing
    (it printed a traceback there). A Ctrl-C meanwhile waits, and reaches this process after."""
    blocking = hasattr(signal, "pthread_sigmask")
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if blocking else None
    try:
        for _ in range(workers):  # (each submit with no idle worker starts one)
            pool.submit(abs, 0)
    finally:
        if previous is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


_kept_pool: Optional[Tuple[int, Any]] = None
"""The local pool `parallel_map` keeps between calls, with its worker count: a reproduction
runs 16 sweeps, and starting two fresh interpreters for each cost more than its runs."""


_pool_lock = threading.Lock()
"""Held while the kept pool is taken or dropped (a reproduction submits from two threads)."""


def _take_pool(workers: int):
    """The kept local pool of `workers` processes, started if there is none of that size."""
    global _kept_pool
    with _pool_lock:
        if _kept_pool is not None and _kept_pool[0] != workers:
            _stop(_kept_pool[1])
            _kept_pool = None
        if _kept_pool is None:
            _kept_pool = (workers, local_pool(workers))
        return _kept_pool[1]


def _close_at_exit() -> None:
    """Lets the kept pool's workers finish and exit with this process, while its modules are
    still there (collected later, the pool printed 'Exception ignored in: weakref_cb')."""
    global _kept_pool
    with _pool_lock:
        if _kept_pool is not None:
            _kept_pool[1].shutdown(wait=True, cancel_futures=True)
            _kept_pool = None


atexit.register(_close_at_exit)


def stop_pool() -> None:
    """Stops the kept local pool's workers and what they are running, mid-call or not (Ctrl-C,
    an error), and forgets it: the next call starts a new pool."""
    global _kept_pool
    with _pool_lock:
        if _kept_pool is not None:
            _stop(_kept_pool[1])
            _kept_pool = None


def _stop(pool) -> None:
    """Stops a pool's workers, mid-call or not (they ignore Ctrl-C; the caller decides).

    A worker stopped while it writes a result leaves half a message in the result pipe, and
    the pool's manager thread waits for the rest for ever (the parent holds the pipe's write
    end too, so no end of file comes): `shutdown` then never returns, nor does the
    interpreter's exit. So once the workers are gone the parent's write end is closed: the
    manager thread reads the end of the pipe, finds the pool broken and ends."""
    procs = list(getattr(pool, "_processes", {}).values())
    for proc in procs:
        proc.terminate()
    for proc in procs:
        proc.join(timeout=5.0)
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        try:
            writer.close()
        except OSError:
            pass
    pool.shutdown(wait=True, cancel_futures=True)


def submit(func: Callable[[Any], Any], item: Any, jobs: Optional[int] = None):
    """`func(item)` on the kept local pool of `jobs` processes (default: one per core) as a
    `concurrent.futures.Future`, while this process goes on; `jobs = 1` calls it here and now.
    Calls submitted this way run before the calls a `parallel_map` submits after them.
    `stop_pool()` stops them."""
    from concurrent.futures import Future

    jobs = jobs or os.cpu_count() or 1
    if jobs > 1:
        return _take_pool(jobs).submit(func, item)
    done: Future = Future()
    try:
        done.set_result(func(item))
    except Exception as e:  # noqa: BLE001 - handed over as the future's exception, as the pool does
        done.set_exception(e)
    return done


def parallel_map(func: Callable[[Any], Any], items: List[Any], jobs: Optional[int] = None, dask: bool = False,
                 scheduler: Optional[str] = None, on_start: Optional[Callable[[str], None]] = None,
                 modules: Sequence[Path] = ()) -> Iterator[Tuple[int, Any]]:
    """Calls `func` (a module-level function) on each of `items` and yields `(index, result)`
    as each completes — the one executor of sweeps, `aimdlab validate` and the experiment
    scripts.

    `jobs`: processes of the local pool or of the Dask `LocalCluster` (default: one per
    core); `jobs = 1` without Dask runs in this process. `dask`: a `LocalCluster`;
    `scheduler`: the address of a running Dask scheduler. `on_start(text)` is told where the
    calls run. `modules`: files of the current folder the calls import (a `mycc.py`, a package
    folder), sent to a remote cluster's workers, which start elsewhere. Closing the generator
    (Ctrl-C included) stops the workers."""
    jobs = jobs or os.cpu_count() or 1
    if scheduler or dask:
        yield from _run_dask(func, items, jobs, scheduler, on_start, modules)
        return
    if jobs == 1 or len(items) <= 1:
        if on_start:
            on_start("in this process")
        for i, item in enumerate(items):
            yield i, func(item)
        return
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool

    workers = jobs
    pool = _take_pool(workers)
    if on_start:
        on_start(f"on a local pool of {workers} processes")
    pending: Dict[Any, int] = {}
    queue = iter(enumerate(items))
    try:
        # At most two calls per worker are handed over at a time, so stopping leaves little.
        for i, item in itertools.islice(queue, 2 * workers):
            pending[pool.submit(func, item)] = i
        while pending:
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for fut in finished:
                index = pending.pop(fut)
                try:
                    result = fut.result()
                except BrokenProcessPool:
                    raise RuntimeError("a worker process of the local pool died (killed, or out of memory); "
                                       "what finished so far is kept") from None
                for i, item in itertools.islice(queue, 1):
                    pending[pool.submit(func, item)] = i
                yield index, result
    finally:
        if pending:  # stopped early (an error, Ctrl-C, the caller closed us): no call may go on
            # The workers are stopped, not the futures cancelled: the pool's manager thread
            # then fails every pending future itself, and one cancelled here first made it
            # raise InvalidStateError (a traceback after Ctrl-C on CPython 3.11).
            stop_pool()


def ordered_map(func: Callable[[Any], Any], items: List[Any], jobs: Optional[int] = None,
                progress: Optional[Callable[[int, int], None]] = None, **where: Any) -> List[Any]:
    """`[func(x) for x in items]` on the executor of `parallel_map` (same options), in order;
    `progress(done, total)` after each call completes."""
    out: List[Any] = [None] * len(items)
    for done, (i, result) in enumerate(parallel_map(func, items, jobs=jobs, **where), start=1):
        out[i] = result
        if progress:
            progress(done, len(items))
    return out


def _upload(client: Any, path: Path) -> None:
    """Sends a module of the current folder to every worker of the cluster, and to workers
    that join later (Dask's `upload_file`): a `.py` file as it is, a package folder as a zip."""
    if path.is_file():
        client.upload_file(str(path), load=False)
        return
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        archive = shutil.make_archive(os.path.join(tmp, path.name), "zip", root_dir=path.parent, base_dir=path.name)
        client.upload_file(archive, load=False)


def _run_dask(func, items: List[Any], jobs: int, scheduler: Optional[str], on_start, modules: Sequence[Path] = ()) -> Iterator[Tuple[int, Any]]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise RuntimeError("Dask is not installed; install it with: pip install 'aimdlab[dask]'") from None
    cluster = None
    if scheduler:
        client = Client(scheduler, timeout="20s")
        where = f"on the Dask cluster of scheduler {scheduler}"
        for path in modules:
            _upload(client, path)
    else:
        # Its worker processes start with Ctrl-C ignored (an ignored signal stays ignored in a
        # child): the terminal's SIGINT reaches the whole process group, and the sweep stops
        # its workers itself; without this each printed tracebacks.
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if threading.current_thread() is threading.main_thread() else None
        try:
            # Its logs are silenced below CRITICAL: a run's failure reaches the sweep through its
            # result (a run that raises is recorded as failed, with its error), and what the
            # workers log at ERROR is shutdown noise — a cancelled run, or a heartbeat racing the
            # scheduler's close on a loaded machine ("Failed to communicate with scheduler
            # during heartbeat", with a traceback, after every run had finished).
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=":0",  # (a free port: 8787 may be taken)
                                   silence_logs=logging.CRITICAL)
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
        client = Client(cluster)
        where = f"on a Dask LocalCluster of {jobs} workers"
    if on_start:
        on_start(where)
    futures: Dict[Any, int] = {}
    try:
        for i, item in enumerate(items):
            futures[client.submit(func, item, pure=False)] = i
        for fut in as_completed(list(futures)):
            yield futures[fut], fut.result()
            fut.release()
    finally:
        for fut in futures:
            fut.cancel()
        client.close()
        if cluster is not None:
            cluster.close()
