"""The outcome of a run: a summary dict and Arrow tables, saved as Parquet + JSON."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["Result", "write_atomic"]

_DTYPES = {"f64": "<f8", "u64": "<u8"}


def _to_table(columns: List[Tuple[str, str, Any]]) -> pa.Table:
    arrays = {}
    for name, kind, data in columns:
        if kind == "str":
            arrays[name] = pa.array(data, type=pa.string())
        else:
            arrays[name] = pa.array(np.frombuffer(data, dtype=_DTYPES[kind]))
    return pa.table(arrays)


def write_atomic(path: Union[str, Path], data: bytes) -> None:
    """Writes `data` to `path` so that readers see the old file or the whole new one, never
    a half-written one (temporary file in the same folder, fsync, rename)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


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
            queue_len_bytes, utilization over the interval).
        scenario: the scenario dict that was run.
    """

    def __init__(self, raw: Dict[str, Any], scenario: Dict[str, Any]):
        self.summary: Dict[str, Any] = json.loads(raw["summary"])
        self.flows: pa.Table = _to_table(raw["flows"])
        self.links: pa.Table = _to_table(raw["links"])
        self.timeseries: pa.Table = _to_table(raw["timeseries"])
        self.link_timeseries: pa.Table = _to_table(raw["link_timeseries"])
        self.scenario = scenario

    def __repr__(self) -> str:
        b = self.summary.get("bottleneck") or {}
        util = b.get("utilization")
        util_s = f"{util:.3f}" if isinstance(util, float) else "n/a"
        return (
            f"<aimdlab.Result {self.summary.get('name') or 'scenario'!r}: {self.summary['flows']} flows, "
            f"bottleneck utilization {util_s}, Jain {self.summary.get('jain_index')}>"
        )

    def summary_json(self) -> str:
        """The summary as canonical JSON text (sorted keys): identical for identical runs."""
        return json.dumps(self.summary, indent=2, sort_keys=True, allow_nan=False) + "\n"

    def save(self, out_dir: Union[str, Path], figure: Optional[bool] = None) -> Path:
        """Writes `summary.json`, `scenario.json` and the tables as Parquet into `out_dir`
        (created if needed), each file atomically. Returns the folder."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        for name in ("flows", "links", "timeseries", "link_timeseries"):
            sink = pa.BufferOutputStream()
            pq.write_table(getattr(self, name), sink)
            write_atomic(out / f"{name}.parquet", sink.getvalue().to_pybytes())
        write_atomic(out / "scenario.json", (json.dumps(self.scenario, indent=2, sort_keys=True, default=repr) + "\n").encode())
        write_atomic(out / "summary.json", self.summary_json().encode())
        return out
