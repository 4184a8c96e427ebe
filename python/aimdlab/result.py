"""The outcome of a run: a summary dict and Arrow tables, saved as Parquet + JSON."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["PROVENANCE", "Result", "canonical_json", "column_numpy", "provenance", "provenance_of_this_session", "scenario_sha256", "session_provenance", "write_atomic"]

_DTYPES = {"f64": "<f8", "u64": "<u8"}


def _numeric(values: "np.ndarray") -> pa.Array:
    """An Arrow array over a numpy array's bytes (as `pa.array` would make it, without
    `pa.array`'s check for pandas, which imports pandas: 0.4 s of every `aimdlab run`)."""
    kind = {np.dtype("<f8"): pa.float64(), np.dtype("<u8"): pa.uint64(), np.dtype("<u4"): pa.uint32()}[values.dtype]
    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(values)])


def column_numpy(table: pa.Table, name: str) -> "np.ndarray":
    """A numeric column of `table` as a numpy array, read from its buffer when it has no
    nulls (`to_numpy` imports pandas on its way: 0.2-0.4 s the first time)."""
    column = table.column(name)
    array = column.chunk(0) if column.num_chunks == 1 else pa.concat_arrays(column.chunks)
    kind = array.type
    if pa.types.is_integer(kind) or pa.types.is_floating(kind):
        if array.null_count == 0:
            width = kind.bit_width // 8
            dtype = np.dtype(f"<{'f' if pa.types.is_floating(kind) else 'u' if pa.types.is_unsigned_integer(kind) else 'i'}{width}")
            return np.frombuffer(array.buffers()[1], dtype=dtype, count=len(array), offset=array.offset * width)
    return array.to_numpy(zero_copy_only=False)


def _strings(texts: List[str]) -> pa.Array:
    """An Arrow string array of `texts`, built from its offsets and bytes (see `_numeric`)."""
    encoded = [t.encode("utf-8") for t in texts]
    offsets = np.zeros(len(encoded) + 1, dtype="<i4")
    np.cumsum([len(e) for e in encoded], out=offsets[1:])
    return pa.Array.from_buffers(pa.string(), len(encoded), [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])


@functools.lru_cache(maxsize=None)
def column_metadata(table: str) -> Dict[str, Dict[bytes, bytes]]:
    """Each declared column of result table `table` → its Parquet field metadata: `unit` (empty
    for counts and indices) and `description`, as `aimdlab columns` prints them."""
    from . import _core

    return {name: {b"unit": unit.encode(), b"description": doc.encode()} for t, name, unit, doc, _, _ in _core.columns() if t == table}


def _to_table(columns: List[Tuple[str, str, Any]], table: str = "") -> pa.Table:
    """An Arrow table from the engine's columns; the declared ones carry their unit and
    description in their field metadata (a controller's own time-series columns have none)."""
    arrays = []
    for _name, kind, data in columns:
        if kind == "str":
            arrays.append(_strings(list(data)))
        elif kind == "dict":
            codes, names = data
            arrays.append(pa.DictionaryArray.from_arrays(_numeric(np.frombuffer(codes, dtype="<u4")), _strings(list(names))))
        elif kind == "f64_runs":  # each value over a run of rows (a time series' sample time)
            values, run = data
            arrays.append(_numeric(np.repeat(np.frombuffer(values, dtype="<f8"), run)))
        elif kind == "u64_cycle":  # the values over and over (a time series' flow ids)
            values, cycles = data
            arrays.append(_numeric(np.tile(np.frombuffer(values, dtype="<u8"), cycles)))
        else:
            arrays.append(_numeric(np.frombuffer(data, dtype=_DTYPES[kind])))
    docs = column_metadata(table) if table else {}
    schema = pa.schema([pa.field(name, a.type, metadata=docs.get(name)) for (name, _, _), a in zip(columns, arrays)])
    return pa.Table.from_arrays(arrays, schema=schema)


def write_atomic(path: Union[str, Path], data: bytes) -> None:
    """Writes `data` to `path` so that readers see the old file or the whole new one, never
    a half-written one (temporary file in the same folder, fsync, rename). The file gets the
    usual permissions (0666 less the umask)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(e, OSError) and e.filename is None and e.strerror:  # a full disk: say which file
            raise OSError(e.errno, e.strerror, str(path)) from None
        raise


def canonical_json(scenario: Dict[str, Any]) -> str:
    """A scenario's canonical JSON (sorted keys, no spaces): the same text for the same
    scenario whatever the key order of its file."""
    return json.dumps(scenario, sort_keys=True, separators=(",", ":"), allow_nan=False, default=repr)


def scenario_sha256(scenario: Dict[str, Any]) -> str:
    """SHA-256 of a scenario's canonical JSON."""
    return hashlib.sha256(canonical_json(scenario).encode("utf-8")).hexdigest()


def _engine_provenance() -> Dict[str, Any]:
    """The aimdlab version and the engine's git commit (null where unknown)."""
    from . import _core

    return {"aimdlab_version": _core.__version__, "engine_commit": _core.__commit__ or None}


def provenance(scenario: Dict[str, Any], seed: int) -> Dict[str, Any]:
    """What produced a run, as its `summary.json` records it: the aimdlab version, the
    engine's git commit (`-dirty`: built with uncommitted changes; null where unknown), the
    scenario's hash, the seed, and the versions of Python, numpy and pyarrow. The same for
    every run of one scenario and seed on one installation, so run files stay identical."""
    import platform

    return {**_engine_provenance(), "scenario_sha256": scenario_sha256(scenario), "seed": seed,
            "python_version": platform.python_version(), "numpy_version": np.__version__, "pyarrow_version": pa.__version__}


def session_provenance() -> Dict[str, Any]:
    """Where and when a run was made: the host, the platform, the UTC time (ISO 8601, to the
    second) and the command line. Kept out of `summary.json` (it differs from run to run): a
    run folder saves it as `provenance.json`; a sweep's journal has a line per session."""
    import datetime
    import platform
    import shlex
    import socket
    import sys

    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    argv = list(sys.argv) if sys.argv and sys.argv[0] else []
    if argv:  # the program by its name (`aimdlab`), or as `python -m aimdlab`
        program = Path(argv[0])
        argv[0] = f"python -m {program.parent.name}" if program.name == "__main__.py" else program.name
    return {"host": socket.gethostname(), "platform": platform.platform(), "time_utc": now.isoformat().replace("+00:00", "Z"),
            "command_line": " ".join([argv[0], *map(shlex.quote, argv[1:])]) if argv else None}


def provenance_of_this_session() -> Dict[str, Any]:
    """What and where for work that is not one run (a reproduction, a validation): the
    aimdlab version, the engine commit and `session_provenance`."""
    return {**_engine_provenance(), **session_provenance()}


PROVENANCE = "provenance.json"
"""A run folder's record of what produced it and where and when (see `Result.provenance`)."""


def pcap_file_name(link: str) -> str:
    """The file a link's trace is saved as: `r1->r2` → `r1-r2.pcap`."""
    return link.replace("->", "-").replace("/", "_") + ".pcap"


class Result:
    """What one run produced.

    Attributes:
        summary: headline figures (bottleneck utilization, goodput, Jain index, packet
            conservation counters, ...) as a plain dict.
        flows: one row per flow (goodput_bps, throughput_bps, retransmitted_pkts, delay
            percentiles in ms, completion_time_s, ...).
        links: one row per link (utilization, drops, queue and queuing-delay statistics).
        timeseries: one row per flow per sample (time_s, cwnd_pkts, ssthresh_pkts,
            goodput_bps, srtt_ms, in_flight_pkts, controller state).
        link_timeseries: one row per monitored link per sample (time_s, queue_len_pkts,
            queue_len_bytes; utilization, tx_pkts and mean queuing_delay_ms over the interval).
        cwnd_trace: one row per change of cwnd or ssthresh of the flows the scenario's
            `cwnd_trace` names (time_s, flow, cause, cwnd_pkts, ssthresh_pkts, in_flight_pkts);
            empty when none is traced (saved as `cwnd_trace.parquet` when not empty).
        pcaps: the libpcap traces of the links the scenario's `pcap` names, as a dict of link
            name → file bytes (saved as `<from>-<to>.pcap`).
        scenario: the scenario dict that was run, with the seed that was used.
        provenance: what produced the run (`provenance`: versions, engine commit, scenario
            hash, seed) and where and when (`session_provenance`: host, platform, UTC time,
            command line); None for a folder saved without any.
    """

    def __init__(self, raw: Dict[str, Any], scenario: Dict[str, Any]):
        self.summary: Dict[str, Any] = json.loads(raw["summary"])
        self.flows: pa.Table = _to_table(raw["flows"], "flows")
        self.links: pa.Table = _to_table(raw["links"], "links")
        self.timeseries: pa.Table = _to_table(raw["timeseries"], "timeseries")
        self.link_timeseries: pa.Table = _to_table(raw["link_timeseries"], "link_timeseries")
        self.cwnd_trace: pa.Table = _to_table(raw["cwnd_trace"], "cwnd_trace")
        self.pcaps: Dict[str, bytes] = dict(raw.get("pcaps", {}))
        self.scenario = {**scenario, "seed": self.summary["seed"]}  # the seed that was used
        self.provenance: Optional[Dict[str, Any]] = {**provenance(self.scenario, self.summary["seed"]), **session_provenance()}

    def label_controllers(self, labels: Dict[int, str]) -> None:
        """Writes each Python controller's class (`labels`: group index → `module:Class`) into
        the flows table's `cc` column, where the engine knows it only as "python"."""
        groups = column_numpy(self.flows, "group")
        names = [labels.get(int(g), cc) for g, cc in zip(groups, self.flows.column("cc").to_pylist())]
        at = self.flows.column_names.index("cc")
        self.flows = self.flows.set_column(at, "cc", _strings(names))

    @classmethod
    def load(cls, folder: Union[str, Path]) -> "Result":
        """Reads a run's folder (as `save` or `aimdlab run` wrote it) back into a `Result`; the
        summary's `provenance` table and `provenance.json`, where present, become
        `result.provenance`."""
        folder = Path(folder)
        self = cls.__new__(cls)
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        self.provenance = summary.pop("provenance", None)
        session = folder / PROVENANCE
        if session.is_file():
            self.provenance = {**(self.provenance or {}), **json.loads(session.read_text(encoding="utf-8"))}
        self.summary = summary
        for name in ("flows", "links", "timeseries", "link_timeseries", "cwnd_trace"):
            path = folder / f"{name}.parquet"
            setattr(self, name, pq.read_table(path) if path.is_file() else pa.table({}))
        self.pcaps = {}
        scenario = folder / "scenario.json"
        self.scenario = json.loads(scenario.read_text(encoding="utf-8")) if scenario.is_file() else {}
        return self

    def _repr_html_(self) -> str:
        """A short HTML view (Jupyter): headline figures and the first flows."""
        from .html_parts import esc, num, table

        s = self.summary
        b = s.get("bottleneck") or {}
        rows = [("name", s.get("name")), ("seed", s.get("seed")), ("duration s", s.get("duration_s")),
                ("bottleneck utilization", b.get("utilization")), ("goodput total bit/s", s.get("goodput_total_bps")),
                ("Jain index", s.get("jain_index")), ("retransmitted packets", s.get("retransmitted_pkts")), ("timeouts", s.get("timeouts"))]
        head = "".join(f"<tr><th class='text'>{esc(k)}</th><td>{num(v)}</td></tr>" for k, v in rows)
        flows = self.flows.to_pandas()
        cols = [c for c in ("flow", "group_name", "cc", "goodput_bps", "throughput_bps", "retransmitted_pkts", "rtt_mean_ms") if c in flows]
        return f"<div><table>{head}</table>{table(flows, cols, max_rows=20)}</div>"

    def __repr__(self) -> str:
        b = self.summary.get("bottleneck") or {}
        util = b.get("utilization")
        util_s = f"{util:.3f}" if isinstance(util, float) else "n/a"
        return (
            f"<aimdlab.Result {self.summary.get('name') or 'scenario'!r}: {self.summary['flows']} flows, "
            f"bottleneck utilization {util_s}, Jain {self.summary.get('jain_index')}>"
        )

    def friendliness(self, group: str, reference: str = "tcp") -> float:
        """Friendliness of flow group `group` towards group `reference` (by name): the mean
        throughput of its flows over the mean throughput of the reference group's flows (1:
        an equal share per flow; above 1: the group takes more). Raises `KeyError` naming the
        groups there are if either is not one."""
        f = self.flows.to_pandas()
        names = list(dict.fromkeys(f["group_name"]))
        for g in (group, reference):
            if g not in names:
                raise KeyError(f"no flow group named {g!r}; the groups are {', '.join(map(repr, names))}")
        mean = f.groupby("group_name")["throughput_bps"].mean()
        return float(mean[group] / mean[reference]) if mean[reference] > 0 else float("inf")

    def summary_json(self, with_provenance: bool = False) -> str:
        """The summary as canonical JSON text (sorted keys): identical for identical runs.
        `with_provenance` adds a `provenance` table (see `provenance`), as `summary.json` has."""
        summary = {**self.summary, "provenance": provenance(self.scenario, self.summary["seed"])} if with_provenance else self.summary
        return json.dumps(summary, indent=2, sort_keys=True, allow_nan=False) + "\n"

    def file_bytes(self, session: bool = True) -> Dict[str, bytes]:
        """The run's files as bytes, by name: `summary.json` (with provenance),
        `scenario.json`, the tables as Parquet (`cwnd_trace.parquet` when not empty), the
        link traces, and with `session` `provenance.json` (the whole `provenance`: the only
        file that differs between two runs of one scenario and seed) — what `write_files`
        writes."""
        import io

        files: Dict[str, bytes] = {}
        for name in ("flows", "links", "timeseries", "link_timeseries", "cwnd_trace"):
            if name == "cwnd_trace" and not self.cwnd_trace.num_rows:
                continue
            buf = io.BytesIO()
            pq.write_table(getattr(self, name), buf)
            files[f"{name}.parquet"] = buf.getvalue()
        files["scenario.json"] = (json.dumps(self.scenario, indent=2, sort_keys=True, default=repr) + "\n").encode("utf-8")
        files["summary.json"] = self.summary_json(with_provenance=True).encode("utf-8")
        for link, data in self.pcaps.items():
            files[pcap_file_name(link)] = data
        if session and self.provenance:
            files[PROVENANCE] = (json.dumps(self.provenance, indent=2, sort_keys=True) + "\n").encode("utf-8")
        return files

    def write_files(self, folder: Union[str, Path]) -> None:
        """Writes `summary.json`, `scenario.json` and the tables as Parquet into an existing
        `folder` (as `save` does, without its all-or-nothing replacement)."""
        folder = Path(folder)
        for name, data in self.file_bytes().items():
            (folder / name).write_bytes(data)

    def save(self, out_dir: Union[str, Path]) -> Path:
        """Writes `summary.json`, `scenario.json` (with the seed that was used) and the tables
        as Parquet into `out_dir`, as one unit: a reader sees the folder's previous complete
        contents or the new complete set, never a mix (see `aimdlab.run_folder`). An existing
        folder is replaced only if it holds nothing but aimdlab results. Returns the folder,
        resolved (symlinks followed, `..` applied)."""
        from .run_folder import RunFolder

        folder = RunFolder(out_dir)
        with folder as staging:
            self.write_files(staging)
        return folder.out
