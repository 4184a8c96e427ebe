"""The result store of a sweep: one folder per run, keyed by a hash of the resolved scenario
(its seed included) and the engine version, plus a catalog and an aggregate table.

    DIR/sweep.json          the experiment as run (axes expanded, engine version)
    DIR/runs/<run_id>/      summary.json (with provenance), scenario.json, the Parquet tables
    DIR/failed/<run_id>.json  a run that failed: its error, axis values, seed and scenario
    DIR/journal.jsonl       one line per finished run (its engine wall time), and one per session
                            of the sweep: where and when it ran (host, UTC time, command line)
    DIR/catalog.parquet     one row per run: axis values, seed, run_id, status, wall time, measures
    DIR/aggregate.parquet   one row per axis point: mean, std and 95 % Student-t CI of each measure
                            (clipped to the measure's range, see `bounds`)
    DIR/aggregate.csv       the same, as text

A run folder is written under a hidden name and renamed into place, so it is complete or
absent whenever the sweep is killed; its last file, `complete.json`, holds the SHA-256 of the
others. A sweep run again checks every run folder against it (a damaged one is removed, with a
warning, and runs again), executes only the runs without a folder (failed ones are tried
again) and rebuilds the catalog from the folders; a damaged catalog or aggregate is rebuilt
from the folders when the sweep is opened. The run id
changes with the engine version (aimdlab version and git commit), so results of another
engine are never mistaken for this one's.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import shutil
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, TextIO, Tuple, Union

import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import StoreError
from ..result import canonical_json, session_provenance, write_atomic
from ..run_folder import pid_alive
from .bounds import clip_interval, measure_unit
from .experiment import Experiment, Point, axis_fields
from .measures import MeasureError, run_measures
from .stats import mean_std_ci95

__all__ = ["Store", "StoreError", "engine_version", "run_id", "Sweep", "open_sweep"]

MARK = "sweep.json"
LOCK = ".lock"
"""Held by the sweep writing the store (an advisory `flock`)."""
MANIFEST = "complete.json"
"""A run folder's last file: the SHA-256 of each of its other files."""


def engine_version() -> str:
    """The aimdlab version and, where known, the engine's git commit: `0.1.0+3f2a…`."""
    from .. import _core

    return f"{_core.__version__}+{_core.__commit__}" if _core.__commit__ else _core.__version__


def run_id(scenario: Dict[str, Any], engine: str) -> str:
    """The key of a run: 20 hex digits of SHA-256 over the scenario's canonical JSON (its seed
    included) and the engine version."""
    text = canonical_json(scenario) + "\n" + engine
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


class Store:
    """A sweep's folder (see the module doc)."""

    def __init__(self, root: Union[str, Path]):
        self.root = Path(root)
        self.runs = self.root / "runs"
        self.failed = self.root / "failed"
        self.journal = self.root / "journal.jsonl"
        self._journal_file: Optional[TextIO] = None

    @classmethod
    def prepare(cls, root: Union[str, Path], experiment: Experiment, engine: str) -> "Store":
        """Creates the store at `root` (or reuses a sweep's folder) and records the
        experiment. A folder that exists and is not a sweep's is refused, never emptied."""
        from ..errors import OutputError
        from ..out_path import make_folder, resolve_out

        try:
            # Resolved before the checks: `--out missing/../notes` is notes.
            root = resolve_out(root, flag="--out")
        except OutputError as e:
            raise StoreError(str(e)) from None
        if root.exists() and not root.is_dir():
            raise StoreError(f"{root}: is a file; expected a folder for the sweep")
        if root.is_dir() and any(p.name != LOCK for p in root.iterdir()) and not _is_store(root):
            raise StoreError(f"{root}: holds files and is not a sweep's folder (no {MARK}); choose another --out")
        store = cls(root)
        try:
            make_folder(root, root, flag="--out")
        except OutputError as e:
            raise StoreError(str(e)) from None
        store._check_structure()
        store._lock()
        store.runs.mkdir(exist_ok=True)
        store.failed.mkdir(exist_ok=True)
        store._clean_debris()
        record = {**experiment.to_dict(), "engine": engine}
        # Not sorted: the order of the axes is meaningful (the first is the figures' x axis).
        write_atomic(root / MARK, (json.dumps(record, indent=1) + "\n").encode())
        store._write_journal({"session": {**session_provenance(), "engine": engine}})
        return store

    def _check_structure(self) -> None:
        """Repairs or names what stands where the store keeps its parts: an empty folder where
        a file of the store belongs is removed (a lock, or a table rebuilt from the runs);
        anything else there, or a file where `runs/` or `failed/` belongs, is a `StoreError`
        naming the path and what to do."""
        for name in (LOCK, MARK, "catalog.parquet", "aggregate.parquet", "aggregate.csv", "journal.jsonl"):
            p = self.root / name
            if p.is_dir() and not p.is_symlink():
                try:
                    p.rmdir()
                except OSError:
                    raise StoreError(f"{p}: is a folder where the sweep keeps a file; move it out of the sweep's folder, "
                                     "then run the sweep again (the file is made anew)") from None
        for folder in (self.runs, self.failed):
            if os.path.lexists(folder) and not folder.is_dir():
                raise StoreError(f"{folder}: is a file where the sweep keeps its {folder.name}/ folder; move it out of the "
                                 "sweep's folder, then run the sweep again (runs missing from it run again)")

    def _lock(self) -> None:
        """Takes the store's lock (`DIR/.lock`, held until `release` or this process ends, even
        by SIGKILL): a second sweep on the same folder is refused, naming the one running."""
        self._lock_file = open(self.root / LOCK, "a+", encoding="utf-8")
        try:
            import fcntl
        except ImportError:  # (not POSIX: no lock)
            return
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock_file.seek(0)
            holder = self._lock_file.read().strip() or "another process"
            self._lock_file.close()
            raise StoreError(f"{self.root}: a sweep is running in this folder ({holder}); wait for it to finish "
                             "or choose another --out") from None
        self._lock_file.seek(0)
        self._lock_file.truncate()
        self._lock_file.write(f"pid {os.getpid()}")
        self._lock_file.flush()

    def release(self) -> None:
        """Closes the journal and gives the store's lock back (the next sweep may use the folder)."""
        if self._journal_file is not None:
            self._journal_file.close()
            self._journal_file = None
        lock = getattr(self, "_lock_file", None)
        if lock is not None and not lock.closed:
            lock.close()

    def _clean_debris(self) -> None:
        """Removes run folders a killed sweep left half-written."""
        for p in self.runs.glob(".*.partial-*"):
            try:
                pid = int(p.name.rsplit("-", 2)[-2])
            except (ValueError, IndexError):
                pid = -1
            if pid == os.getpid() or not pid_alive(pid):
                shutil.rmtree(p, ignore_errors=True)

    def done(self) -> set:
        """The run ids with a complete folder (its manifest written)."""
        if not self.runs.is_dir():
            return set()
        return {p.name for p in self.runs.iterdir() if not p.name.startswith(".") and (p / MANIFEST).is_file()}

    def remove_damaged(self, ids: List[str]) -> List[str]:
        """Checks the complete folders of runs `ids` against their manifests; removes each whose
        files are missing or changed (so the sweep runs it again) and returns their ids."""
        damaged = []
        for rid in sorted(self.done() & set(ids)):
            folder = self.runs / rid
            try:
                manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"]
                intact = all(_sha256(folder / name) == digest for name, digest in manifest.items())
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                intact = False
            if not intact:
                damaged.append(rid)
                self._discard(folder)
        return damaged

    def _partial(self, rid: str) -> Path:
        """A hidden name for run `rid`'s folder while it is written or removed (debris a killed
        sweep leaves under it is cleaned by `_clean_debris`)."""
        return self.runs / f".{rid}.partial-{os.getpid()}-{time.monotonic_ns()}"

    def _discard(self, folder: Path) -> None:
        """Removes a run folder: renamed out of the way at once, then deleted."""
        aside = self._partial(folder.name)
        os.rename(folder, aside)
        shutil.rmtree(aside, ignore_errors=True)

    def write_run(self, rid: str, files: Dict[str, bytes]) -> None:
        """Writes a run's files under a hidden name, then renames the folder into place."""
        final = self.runs / rid
        if (final / MANIFEST).is_file():
            return
        if final.exists():  # a folder without its manifest: damaged, replaced
            self._discard(final)
        tmp = self._partial(rid)
        tmp.mkdir()
        try:
            # No fsync: after a machine crash a folder whose files did not all reach the disk
            # fails its manifest's check on the next resume and runs again (remove_damaged).
            manifest = {"files": {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}}
            for name, data in [*files.items(), (MANIFEST, (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())]:
                with open(tmp / name, "wb") as f:
                    f.write(data)
            os.rename(tmp, final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        (self.failed / f"{rid}.json").unlink(missing_ok=True)

    def write_failure(self, rid: str, point: Point, axes: List[str], error: str) -> None:
        """Records a failed run: its error, axis values, seed and scenario."""
        record = {"run_id": rid, "error": error, "axes": dict(zip(axes, point.values)), "seed": point.seed, "scenario": point.scenario}
        write_atomic(self.failed / f"{rid}.json", (json.dumps(record, indent=1, sort_keys=True) + "\n").encode())

    def failure(self, rid: str) -> Optional[str]:
        """The error of a failed run, if it failed."""
        p = self.failed / f"{rid}.json"
        if not p.is_file():
            return None
        try:
            return json.loads(p.read_text())["error"]
        except (OSError, ValueError, KeyError):
            return "unknown (the failure record cannot be read)"

    def log(self, rid: str, status: str, wall_s: Optional[float]) -> None:
        """Appends a finished run to the journal."""
        self._write_journal({"run_id": rid, "status": status, "engine_wall_s": wall_s})

    def _write_journal(self, entry: Dict[str, Any]) -> None:
        line = json.dumps(entry) + "\n"
        if self._journal_file is None:  # opened once, closed by `release`
            self._journal_file = open(self.journal, "a", encoding="utf-8")
        self._journal_file.write(line)
        self._journal_file.flush()

    def wall_times(self) -> Dict[str, float]:
        """Engine wall time of each run the journal holds (the last entry wins; a line cut
        by a kill is skipped)."""
        out: Dict[str, float] = {}
        if not self.journal.is_file():
            return out
        for line in self.journal.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                d = json.loads(line)
                if d.get("engine_wall_s") is not None:
                    out[d["run_id"]] = float(d["engine_wall_s"])
            except (ValueError, KeyError, TypeError):
                continue
        return out

    def measures_of(self, rid: str, measures: List[str]) -> Dict[str, float]:
        """The measures of a complete run, read from its folder."""
        folder = self.runs / rid
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))

        def result():
            from ..result import Result

            return Result.load(folder)

        return run_measures(measures, summary, lambda: pq.read_table(folder / "flows.parquet").to_pandas(),
                            lambda: pq.read_table(folder / "timeseries.parquet").to_pandas(), result)

    def build_tables(self, experiment: Experiment, points: List[Point], ids: List[str],
                     known: Optional[Dict[str, Dict[str, float]]] = None) -> Tuple[pa.Table, pa.Table]:
        """The catalog (one row per run, in the experiment's order) and the aggregate (one row
        per axis point), from the run folders, failure records and the journal. `known`: the
        measures of runs this sweep just executed, computed where they ran (the same values
        their folders give), so their files need not be read back."""
        axes = list(experiment.axes)
        params = _table_parameters(axes, points)
        done = self.done()
        walls = self.wall_times()
        cache: Dict[str, Any] = dict(known or {})
        rows: Dict[str, List[Any]] = {k: [] for k in ["run_id", "point", "replication", "seed", *axes, *params, "status", "error", "engine_wall_s",
                                                      *experiment.measures]}
        for p, rid in zip(points, ids):
            rows["run_id"].append(rid)
            rows["point"].append(p.index)
            rows["replication"].append(p.replication)
            rows["seed"].append(p.seed)
            for column, value in point_columns(p, axes, params).items():
                rows[column].append(value)
            if rid in done:
                status, error = "ok", None
                if rid not in cache:
                    try:
                        cache[rid] = self.measures_of(rid, experiment.measures)
                    except MeasureError as e:  # a Python measure that raised: that run's failure
                        cache[rid] = e
                    except (OSError, ValueError, KeyError, pa.ArrowException) as e:
                        cache[rid] = MeasureError(f"run folder runs/{rid} cannot be read ({type(e).__name__}); "
                                                  "run the sweep again to run it anew")
                values = cache[rid]
                if isinstance(values, MeasureError):
                    status, error = "failed", str(values)
                    values = {m: math.nan for m in experiment.measures}
            else:
                error = self.failure(rid)
                status = "failed" if error is not None else "missing"
                values = {m: math.nan for m in experiment.measures}
            rows["status"].append(status)
            rows["error"].append(error)
            rows["engine_wall_s"].append(walls.get(rid, math.nan) if status == "ok" else math.nan)
            for m in experiment.measures:
                rows[m].append(values[m])
        # (`error` is text even when nothing failed, so catalogs of one sweep share one schema)
        catalog = pa.table({k: pa.array(v, type=pa.string()) if k == "error" else _column(v) for k, v in rows.items()})
        shown = [*axes, *params]  # (the parameter columns travel with their axis into the aggregate)
        return described(catalog, shown, experiment.measures), aggregate(catalog, shown, experiment.measures)

    def write_tables(self, catalog: pa.Table, agg: pa.Table) -> None:
        """Writes the catalog and the aggregate (Parquet, and the aggregate as CSV) atomically."""
        for name, table in (("catalog", catalog), ("aggregate", agg)):
            buf = io.BytesIO()
            pq.write_table(table, buf)
            write_atomic(self.root / f"{name}.parquet", buf.getvalue())
        # (every float as the shortest text that reads back to the same number: full precision)
        write_atomic(self.root / "aggregate.csv", agg.to_pandas().to_csv(index=False).encode())


def point_columns(p: Point, axes: List[str], params: Dict[str, Tuple[str, str]]) -> Dict[str, Any]:
    """A run's axis and parameter columns in a catalog (`params` as `_table_parameters` gives
    them): each axis's value — a linked axis's (one element per field) as its JSON text — and
    each parameter column's."""
    out: Dict[str, Any] = {}
    for a, v in zip(axes, p.values):
        out[a] = json.dumps(v) if len(axis_fields(a)) > 1 else v
    for column, (a, key) in params.items():
        v = p.values[axes.index(a)]
        out[column] = v.get(key) if isinstance(v, dict) else v if key in ("name", "kind") and isinstance(v, str) else None
    return out


def _table_parameters(axes: List[str], points: List[Point]) -> Dict[str, Tuple[str, str]]:
    """For each axis with a table among its values (a controller with its parameters,
    `{name = "gaimd", beta = 0.875}`), a column per key, `AXIS.KEY` → (axis, key), so that a
    table of the sweep has the parameters as columns of their own; a name given alone
    (`"reno"`) fills `AXIS.name`."""
    out: Dict[str, Tuple[str, str]] = {}
    for i, a in enumerate(axes):
        values = [p.values[i] for p in points]
        if not any(isinstance(v, dict) for v in values):
            continue
        keys = list(dict.fromkeys(k for v in values if isinstance(v, dict) for k in v))
        for key in sorted(keys, key=lambda k: (k not in ("name", "kind", "python"), keys.index(k))):
            out[f"{a}.{key}"] = (a, key)
    return out


def _is_store(root: Path) -> bool:
    """Whether `root` is a sweep's store: its sweep.json, or (that file lost) its runs folder."""
    return (root / MARK).is_file() or (root / "runs").is_dir()


def _sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest() if hasattr(hashlib, "file_digest") else hashlib.sha256(f.read()).hexdigest()


def _column(values: List[Any]) -> pa.Array:
    """An Arrow column of `values`; mixed kinds (numbers and text) become text."""
    try:
        return pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return pa.array([None if v is None else json.dumps(v) if not isinstance(v, str) else v for v in values], type=pa.string())


def aggregate(catalog: pa.Table, axes: List[str], measures: List[str]) -> pa.Table:
    """Per axis point: its axis values, the number of runs that completed and that failed,
    and for each measure the number of finite values, mean, sample standard deviation and
    the 95 % Student-t confidence interval of the mean (`_ci95_low`, `_ci95_high`), clipped to
    the measure's range (`bounds.measure_bounds`: a utilization's interval stops at 1)."""
    df = catalog.to_pandas()
    out: Dict[str, List[Any]] = {k: [] for k in ["point", *axes, "runs_ok", "runs_failed"]}
    for m in measures:
        for suffix in ("n", "mean", "std", "ci95_low", "ci95_high"):
            out[f"{m}_{suffix}"] = []
    for point, rows in df.groupby("point", sort=True):
        out["point"].append(int(point))
        for a in axes:
            value = rows[a].iloc[0]  # by column: a row would turn integers into floats
            value = value.item() if hasattr(value, "item") else value
            out[a].append(None if isinstance(value, float) and math.isnan(value) else value)  # (pandas' NaN for a null)
        ok = rows[rows["status"] == "ok"]
        out["runs_ok"].append(len(ok))
        out["runs_failed"].append(int((rows["status"] == "failed").sum()))
        for m in measures:
            n, mean, std, half = mean_std_ci95(ok[m].tolist())
            low, high = clip_interval(m, mean - half, mean + half)
            out[f"{m}_n"].append(n)
            out[f"{m}_mean"].append(mean)
            out[f"{m}_std"].append(std)
            out[f"{m}_ci95_low"].append(low)
            out[f"{m}_ci95_high"].append(high)
    return described(pa.table({k: _column(v) for k, v in out.items()}), axes, measures)


_FIXED_COLUMNS = {
    "point": ("", "index of the axis point"), "seed": ("", "the run's seed"), "run_id": ("", "the run's folder under runs/"),
    "status": ("", "ok, or failed (see error)"), "error": ("", "why the run failed"),
    "engine_wall_s": ("s", "the engine's wall time for the run (a measurement of the machine, not of the run)"),
    "runs_ok": ("", "runs of the point that completed"), "runs_failed": ("", "runs of the point that failed"),
}
_STATISTICS = {"n": "finite values of the measure", "mean": "mean over the seeds", "std": "sample standard deviation over the seeds",
               "ci95_low": "low end of the 95 % Student-t interval of the mean, clipped to the measure's range",
               "ci95_high": "high end of the 95 % Student-t interval of the mean, clipped to the measure's range"}


def described(table: pa.Table, axes: List[str], measures: List[str]) -> pa.Table:
    """`table` (a catalog or an aggregate) with each column's unit and description in its
    Parquet field metadata: axes (their values as written, e.g. "50pkt", and the unit they
    share), measures and their statistics (the unit the engine declares for the column it reads, `bounds.py`), and the fixed
    columns."""
    from ..units import quantity

    fields = []
    by_stat = {f"{m}_{stat}": (m, stat) for m in measures for stat in _STATISTICS}
    for f in table.schema:
        if f.name in axes:
            values = [v for v in table.column(f.name).to_pylist() if v is not None]
            found = [quantity(v) if isinstance(v, str) else None for v in values]
            units = {q[1] for q in found if q is not None}
            unit = units.pop() if len(units) == 1 and all(q is not None for q in found) else ""
            meta = {"unit": unit, "description": f"axis: the scenario field {f.name}, as the experiment writes its values"}
        elif f.name in measures:
            meta = {"unit": measure_unit(f.name), "description": f"measure {f.name} of the run"}
        elif f.name in by_stat:
            m, stat = by_stat[f.name]
            meta = {"unit": "" if stat == "n" else measure_unit(m), "description": f"{m}: {_STATISTICS[stat]}"}
        elif f.name in _FIXED_COLUMNS:
            unit, what = _FIXED_COLUMNS[f.name]
            meta = {"unit": unit, "description": what}
        else:
            meta = None
        fields.append(f.with_metadata(meta) if meta else f)
    return table.cast(pa.schema(fields))


class Sweep:
    """A sweep's results (`open_sweep`): the experiment, the catalog and the aggregate as
    Arrow tables (`.to_pandas()`), and each run's folder."""

    def __init__(self, root: Union[str, Path]):
        self.root = Path(root)
        if not (self.root / MARK).is_file():
            if _is_store(self.root):
                raise StoreError(f"{self.root / MARK}: is missing; run the sweep again with --out {self.root} to resume: "
                                 "it writes the file anew and keeps the runs")
            raise StoreError(f"{self.root}: is not a sweep's folder (no {MARK})")
        try:
            self.experiment: Dict[str, Any] = json.loads((self.root / MARK).read_text(encoding="utf-8"))
            experiment = Experiment.from_dict(self.experiment)
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            raise StoreError(f"{self.root / MARK}: is damaged ({type(e).__name__}); run the sweep again with --out {self.root} "
                             "to resume: it writes the file anew and keeps the runs") from None
        for name in ("catalog", "aggregate"):
            if not (self.root / f"{name}.parquet").is_file():
                raise StoreError(f"{self.root}: has no {name}.parquet (the sweep did not finish); run it again to resume")
        try:
            self.catalog: pa.Table = pq.read_table(self.root / "catalog.parquet")
            self.aggregate: pa.Table = pq.read_table(self.root / "aggregate.parquet")
        except (OSError, pa.ArrowException):
            # Damaged: both are made from the run folders, so they are made again.
            store, points = Store(self.root), experiment.points()
            ids = [run_id(p.scenario, self.experiment.get("engine", "")) for p in points]
            self.catalog, self.aggregate = store.build_tables(experiment, points, ids)
            store.write_tables(self.catalog, self.aggregate)

    @property
    def axes(self) -> List[str]:
        """The axes' field paths, in order."""
        return list(self.experiment["axes"])

    @property
    def measures(self) -> List[str]:
        """The measures aggregated."""
        return list(self.experiment["measures"])

    @property
    def sessions(self) -> List[Dict[str, Any]]:
        """Where and when the sweep ran, one entry per session (`aimdlab sweep` or
        `run_sweep` started on this folder), oldest first: host, platform, UTC time, command
        line, engine version."""
        journal = self.root / "journal.jsonl"
        out = []
        if journal.is_file():
            for line in journal.read_text(encoding="utf-8", errors="replace").splitlines():
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue  # (a line cut by a kill)
                if isinstance(entry, dict) and isinstance(entry.get("session"), dict):
                    out.append(entry["session"])
        return out

    def run_dir(self, rid: str) -> Path:
        """The folder of run `rid`."""
        return self.root / "runs" / rid

    def __repr__(self) -> str:
        status = self.catalog.column("status").to_pylist()
        return (f"<aimdlab.Sweep {self.experiment['name']!r}: {len(status)} runs ({status.count('ok')} ok, "
                f"{status.count('failed')} failed), axes {self.axes}>")

    def _repr_html_(self) -> str:
        """A short HTML view (Jupyter): name, description and the aggregate means."""
        from ..html_parts import esc, table

        agg = self.aggregate.to_pandas()
        cols = [*self.axes, "runs_ok", "runs_failed"] + [f"{m}_mean" for m in self.measures]
        return (f"<div><b>{esc(self.experiment['name'])}</b> <span class='muted'>{esc(self.experiment.get('description', ''))}</span>"
                f"{table(agg, cols, max_rows=50)}</div>")


def open_sweep(root: Union[str, Path]) -> Sweep:
    """Opens the results of `aimdlab sweep` in folder `root`."""
    return Sweep(root)

