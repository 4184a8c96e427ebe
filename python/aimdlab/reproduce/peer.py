"""A paper's items measured in a peer simulator: ns-2.35 on the same set-ups as aimdlab's sweeps
(`aimdlab reproduce PAPER --peer ns2`), stored beside the paper with their provenance so that
its pages show a third value — the paper's, aimdlab's, ns-2.35's — where ns-2 is not installed.

For each sweep of the paper, every axis point that `crosscheck.scope.ns2_plan` can translate
runs in ns-2.35 for the first N seeds of the sweep (flow i starting when aimdlab's flow i
starts at that seed); a point it cannot translate is recorded with the refusal. Each run's
measures are the sweep's own, computed by the same code from ns-2's figures (a summary and a
flows table: goodput, sending rate, retransmissions, timeouts per flow; utilization, drops,
mean queue): a measure ns-2's run does not give (a Python measure of aimdlab's `Result`, a
time series, the loss-event rate) is NaN there, and an item on it shows no ns-2.35 value. The
stored rows make a catalog of the sweep's shape, and the items are judged on it by the same
`_evaluate` that judges aimdlab's sweeps.

    experiments/PAPER/peer-ns2.json   {"provenance": {...}, "sweeps": {FILE: {"axes", "measures",
                                       "rows": [{point, seed, axis values..., measures...}],
                                       "refused": {point: why}}}}
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import math
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..crosscheck import PEER_NAMES
from .items import SweepItem

__all__ = ["PEERS", "attach_peer", "measure_paper", "peer_file", "peer_results", "write_peer_file"]

PEERS = ("ns2",)
"""The peers a paper's items are measured in (their names: `crosscheck.PEER_NAMES`)."""


def peer_file(paper_folder: Path, peer: str = "ns2") -> Path:
    """Where a paper's peer values are stored: beside its paper.toml."""
    return Path(paper_folder) / f"peer-{peer}.json"


def _run_point(task: Tuple[Dict[str, Any], List[str]]) -> Dict[str, float]:
    """One point at one seed in ns-2.35: the sweep's measures of it (NaN where ns-2's run does
    not give one)."""
    import tempfile

    import pandas as pd

    from .. import run
    from ..crosscheck import ns2, scope
    from ..sweep.measures import is_python_measure, is_series_measure, measure

    scenario, measures = task
    plan, ours = scope.ns2_plan(scenario)
    result = run(ours)  # (for the start times and the groups' names: the same as the sweep's run)
    table = result.flows.to_pandas()
    with tempfile.TemporaryDirectory(prefix="aimdlab-peer-") as folder:
        m = ns2.run(plan, [float(s) for s in table["start_s"]], folder, seed=1)
    summary = {"goodput_total_bps": m["goodput_total_bps"], "retransmitted_pkts": m["retransmitted_pkts"], "timeouts": m["timeouts"],
               "jain_index": m["jain_index"], "warmup_s": plan["warmup_s"], "duration_s": plan["duration_s"],
               "bottleneck": {"utilization": m["utilization"], "drops": m["drops"], "queue_mean_pkts": m["queue_mean_pkts"]}}
    flows = pd.DataFrame({"flow": table["flow"], "group_name": table["group_name"], "goodput_bps": m["goodput_bps"],
                          "send_rate_bps": m["send_rate_bps"], "retransmitted_pkts": m["flow_retransmitted_pkts"],
                          "timeouts": m["flow_timeouts"]})
    out = {}
    for name in measures:
        parts = [p.strip() for p in name.split(" / ")]
        readable = not any(is_python_measure(p) or is_series_measure(p) for p in parts) and all(
            p.split(".")[0] not in ("flows", "groups") or p.split(".")[-2] in flows.columns for p in parts)
        out[name] = measure(name, summary, flows) if readable else math.nan
    return out


def measure_paper(paper: Any, peer: str = "ns2", seeds: int = 3, jobs: Optional[int] = None,
                  progress: Optional[Callable[[int, int], None]] = None) -> Dict[str, Any]:
    """Runs every translatable point of `paper`'s sweeps in `peer` over the sweeps' first
    `seeds` seeds; returns what `write_peer_file` stores."""
    from ..crosscheck import ns2, scope
    from ..errors import ScenarioError
    from ..sweep.experiment import load_experiment
    from ..sweep.store import _table_parameters, point_columns

    if peer not in PEERS:
        raise ScenarioError(f"--peer: {peer!r} is not a peer reproduce measures in; expected one of {', '.join(PEERS)}")
    if ns2.available() is None:
        raise ns2.Ns2Error(ns2.MISSING)
    sweeps: Dict[str, Any] = {}
    tasks: List[Tuple[str, Dict[str, Any], Tuple[Dict[str, Any], List[str]]]] = []
    for path in map(Path, paper.sweeps()):
        exp = load_experiment(path)
        axes = list(exp.axes)
        points = [p for p in exp.points() if p.seed in exp.seeds[:seeds]]
        params = _table_parameters(axes, points)
        entry: Dict[str, Any] = {"axes": axes, "params": list(params), "measures": exp.measures, "rows": [], "refused": {}}
        sweeps[path.name] = entry
        for p in points:
            profiles = {str((p.scenario.get("tcp") or {}).get("profile", "rfc"))} | {
                str(g["tcp"]["profile"]) for g in p.scenario["flows"] if (g.get("tcp") or {}).get("profile")}
            try:
                if profiles != {"ns2"}:  # (the sweep's runs are then not ns-2's TCP: not the same set-up)
                    raise ScenarioError(f"tcp.profile: aimdlab's sweep runs the {'/'.join(sorted(profiles))} profile, not ns2; "
                                        "ns-2.35 runs its own TCP, so it cannot run it as the same set-up")
                scope.ns2_plan(p.scenario)
            except ScenarioError as e:
                entry["refused"][str(p.index)] = str(e)
                continue
            row: Dict[str, Any] = {"point": p.index, "replication": p.replication, "seed": p.seed,
                                   **point_columns(p, axes, params)}
            tasks.append((path.name, row, (p.scenario, exp.measures)))
    if progress:
        progress(0, len(tasks))
    workers = jobs or os.cpu_count() or 1
    done = 0
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for (name, row, _), values in zip(tasks, pool.map(_run_point, [t[2] for t in tasks])):
            row.update(status="ok", **values)
            sweeps[name]["rows"].append(row)
            done += 1
            if progress:
                progress(done, len(tasks))
    version = ns2.version()
    provenance = {"peer": peer, "name": PEER_NAMES[peer], "version": version.get("version"), "debian_package": version.get("debian_package"),
                  "date": datetime.date.today().isoformat(), "seeds_per_point": seeds,
                  "command": f"aimdlab reproduce {paper.id} --peer {peer} --peer-seeds {seeds}",
                  "python": sys.version.split()[0]}
    return {"provenance": provenance, "sweeps": sweeps}


def write_peer_file(paper_folder: Path, data: Dict[str, Any], peer: str = "ns2") -> Path:
    """Stores `data` (what `measure_paper` gave) beside the paper, atomically."""
    from ..jsonable import jsonable
    from ..sweep.store import write_atomic

    path = peer_file(paper_folder, peer)
    write_atomic(path, (json.dumps(jsonable(data), indent=1, sort_keys=True) + "\n").encode("utf-8"))
    return path


def peer_results(paper: Any, paper_folder: Path, peer: str = "ns2") -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """(each item's `ItemResult` in `peer` by item id, the stored provenance) from the paper's
    stored peer file; empty where there is none. An item whose measure the peer's runs do not
    give, or whose points were all refused, has no entry."""
    import pyarrow as pa  # type: ignore[import-untyped]

    from ..sweep.store import _column, aggregate
    from .evaluation import _evaluate, _SeedSubset

    path = peer_file(paper_folder, peer)
    if not path.is_file():
        return {}, {}
    data = json.loads(path.read_text(encoding="utf-8"))
    out: Dict[str, Any] = {}
    subsets: Dict[str, Any] = {}
    for name, entry in data.get("sweeps", {}).items():
        if not entry["rows"]:
            continue
        columns = ["point", "replication", "seed", *entry["axes"], *entry["params"], "status", *entry["measures"]]
        catalog = pa.table({c: _column([r.get(c) for r in entry["rows"]]) for c in columns})
        shown = [*entry["axes"], *entry["params"]]
        subsets[name] = _SeedSubset({"quick": False}, catalog, aggregate(catalog, shown, entry["measures"]))
    for item in paper.items:
        if not isinstance(item, SweepItem) or item.sweep is None:
            continue
        name = Path(item.sweep).name
        if name not in subsets or item.measure is None:
            continue
        if item.measure not in data["sweeps"][name]["measures"]:
            continue
        try:
            res = _evaluate(dataclasses.replace(item, figure=None, sensitivity=None), subsets[name], who=PEER_NAMES[peer])
        except KeyError:  # (an `only` or `plot_x` measure the peer's runs do not give)
            continue
        if res.mean and any(math.isfinite(v) for v in res.mean):
            out[item.id] = res
    return out, data.get("provenance", {})


def attach_peer(result: Any) -> None:
    """Sets each item's `peer` of a `PaperResult` from the paper's stored ns-2.35 values, where
    it has them (what the pages show beside aimdlab's)."""
    by_id, provenance = peer_results(result.paper, result.paper.folder)
    result.peer_provenance = provenance
    for r in result.items:
        r.peer = by_id.get(r.item.id)
