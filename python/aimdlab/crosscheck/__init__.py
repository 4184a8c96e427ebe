"""A scenario run in aimdlab and in a peer simulator side by side (`aimdlab crosscheck`).

When a result differs from a paper there are two possible causes: the paper's set-up or
aimdlab. The same set-up run in the paper's own simulator tells them apart. `crosscheck`
translates a scenario into the peer's own terms (`ns2`: an OTcl script of ns-2.35's agents,
sinks, links and queues; `ns3`: a plan for a C++ program of aimdlab's own built against
ns-3 3.44; see `ns2.py` and `ns3.py` for the conventions each follows), refuses field by field
what the peer cannot run (`scope.py`), runs both over the same seeds — flow i starting at the
same moment in both — and sets each figure beside the other with its interval and a verdict
under stated bounds (`BOUNDS`).

    from aimdlab.crosscheck import crosscheck
    check = crosscheck(aimdlab.load("examples/mr-aimd-wired.toml"), peer="ns2", seeds=5)
    check.rows            # figure, aimdlab mean and interval, peer mean and interval, verdict
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..errors import ScenarioError

__all__ = ["BOUNDS", "Bound", "Crosscheck", "Row", "crosscheck", "PEERS", "PEER_NAMES"]

PEERS = ("ns2", "ns3")
"""The peers crosscheck runs: ns-2.35 (`ns2.py`) and ns-3 3.44 (`ns3.py`)."""

PEER_NAMES = {"ns2": "ns-2.35", "ns3": "ns-3.44"}
"""How tables, figures and pages name each peer."""


@dataclass(frozen=True)
class Bound:
    """When two means agree: within `abs` (in the figure's unit), or within `rel` of the
    peer's, or within a factor `ratio` of each other — any one suffices."""

    abs: Optional[float] = None
    rel: Optional[float] = None
    ratio: Optional[float] = None

    def holds(self, ours: float, theirs: float) -> bool:
        if not (math.isfinite(ours) and math.isfinite(theirs)):
            return ours == theirs or (math.isnan(ours) and math.isnan(theirs))
        if self.abs is not None and abs(ours - theirs) <= self.abs:
            return True
        if self.rel is not None and abs(ours - theirs) <= self.rel * abs(theirs):
            return True
        if self.ratio is not None and ours > 0 and theirs > 0 and max(ours, theirs) / min(ours, theirs) <= self.ratio:
            return True
        return False

    def words(self, scale: float = 1.0) -> str:
        """The bound in words; `scale` shows an absolute bound in a display unit (100: points)."""
        parts = ([f"±{self.abs * scale:g}"] if self.abs is not None else []) + ([f"±{100 * self.rel:g} %"] if self.rel is not None else []) \
            + ([f"×{self.ratio:g}"] if self.ratio is not None else [])
        return " or ".join(parts)


BOUNDS: Dict[str, Bound] = {
    "utilization": Bound(abs=0.02),
    "goodput_total_bps": Bound(rel=0.03),
    "goodput_bps": Bound(rel=0.03),
    "jain_index": Bound(abs=0.05),
    "retransmitted_pkts": Bound(ratio=1.5, abs=3),
    "timeouts": Bound(ratio=1.5, abs=3),
    "drops": Bound(ratio=1.5, abs=3),
    "queue_mean_pkts": Bound(rel=0.2, abs=3),
    "ecn_marks": Bound(ratio=1.5, abs=3),
}
"""The default bounds (issue 47): utilization ±2 points, goodput ±3 %, Jain ±0.05,
retransmissions (and timeouts, drops, ECN marks) within ×1.5 (or ±3 when both are small), mean queue
±20 % or ±3 packets. `crosscheck(bounds=...)` and `--bound NAME=...` override them."""

FIGURES = ["utilization", "goodput_total_bps", "jain_index", "retransmitted_pkts", "timeouts", "drops", "ecn_marks", "queue_mean_pkts"]
MEASURED_BY = {"ns2": [f for f in FIGURES if f != "ecn_marks"], "ns3": FIGURES}
"""The figures each peer measures (ns-2.35's queue monitor counts no ECN marks)."""


@dataclass
class Row:
    """One figure of the crosscheck: each side's mean and 95 % interval over the seeds, and
    whether they agree under `bound`."""

    figure: str
    ours: List[float]
    theirs: List[float]
    bound: Bound

    @property
    def verdict(self) -> str:
        return "agrees" if self.bound.holds(self.stats("aimdlab")[0], self.stats("peer")[0]) else "differs"

    def stats(self, side: str) -> Tuple[float, float]:
        """(mean, half-width of the 95 % Student-t interval) of one side: "aimdlab", or any
        other name for the peer's."""
        from ..sweep.stats import mean_std_ci95

        _, mean, _, half = mean_std_ci95(self.ours if side == "aimdlab" else self.theirs)
        return mean, half


@dataclass
class Crosscheck:
    """What `crosscheck` found: the rows, each seed's raw figures on both sides, and the
    timing of each side."""

    peer: str
    seeds: List[int]
    rows: List[Row]
    per_flow: List[Row]
    wall_s: Dict[str, float] = field(default_factory=dict)
    folder: Optional[str] = None
    temporary: bool = False
    """Whether `folder` is a temporary folder of crosscheck's own (`output.write` removes it
    once copied; `discard()` removes it otherwise)."""
    results: List[Any] = field(default_factory=list)
    peer_series: List[Tuple[float, float, float]] = field(default_factory=list)
    """The peer's first seed, every sample interval: (time s, bottleneck queue, flow 0's cwnd)."""
    provenance: Dict[str, Any] = field(default_factory=dict)
    """What ran on each side: aimdlab's version, engine commit, host, time and command; the
    peer's binary and version."""
    notes: List[str] = field(default_factory=list)
    """What a reader should know before reading the figures (a bottleneck never congested)."""
    _cleanup: Any = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # A temporary folder goes with the object at the latest (a script that never calls
        # `discard` leaves nothing in /tmp), as `tempfile.TemporaryDirectory` does.
        self._cleanup = weakref.finalize(self, shutil.rmtree, self.folder, True) if self.temporary and self.folder else None

    def discard(self) -> None:
        """Removes the peer's files when they are in a temporary folder of crosscheck's own."""
        if self._cleanup is not None:
            self._cleanup()

    def to_dict(self) -> Dict[str, Any]:
        def row(r: Row) -> Dict[str, Any]:
            (m1, h1), (m2, h2) = r.stats("aimdlab"), r.stats(self.peer)
            return {"figure": r.figure, "aimdlab": {"mean": m1, "ci95_half": h1, "values": r.ours},
                    self.peer: {"mean": m2, "ci95_half": h2, "values": r.theirs}, "bound": r.bound.words(), "verdict": r.verdict}

        return {"peer": self.peer, "seeds": self.seeds, "figures": [row(r) for r in self.rows],
                "flows": [row(r) for r in self.per_flow], "wall_s": self.wall_s, "provenance": self.provenance, "notes": self.notes}


PROFILE_WINDOWS = {"ns2": "20 packets (ns-2's window_)", "ns3": "131072 bytes (ns-3's RcvBufSize)"}
"""The receive window of each peer's profile, in the words of a note."""


def uncongested_note(scenario: Dict[str, Any], peer: str, rows: List[Row]) -> List[str]:
    """A note when aimdlab's flows never met congestion or loss (no drops, marks or
    retransmissions, the bottleneck below 95 % busy): every figure then agrees trivially, and
    the usual cause is the profile's receive window, which a scenario that does not set
    `tcp.receive_window` inherits."""
    by = {r.figure: r for r in rows}
    if (any(by[f].stats("aimdlab")[0] > 0 for f in ("drops", "ecn_marks", "retransmitted_pkts") if f in by)
            or by["utilization"].stats("aimdlab")[0] >= 0.95):
        return []
    busy = by["utilization"].stats("aimdlab")[0] * 100
    text = (f"the bottleneck was never congested (no drops, marks or retransmissions; {busy:.1f} % busy):"
            " the flows were limited before it")
    tables = [scenario.get("tcp") or {}] + [f.get("tcp") or {} for f in scenario.get("flows", [])]
    if not any("receive_window" in t for t in tables):
        text += (f" — the {peer} profile's receive window is {PROFILE_WINDOWS[peer]} unless tcp.receive_window sets it"
                 " (e.g. --set tcp.receive_window=1000pkt)")
    return [text]


def crosscheck(scenario: Dict[str, Any], peer: str = "ns2", seeds: int = 5, folder: Optional[str] = None,
               bounds: Optional[Dict[str, Bound]] = None, progress: Optional[Callable[[int, int], None]] = None) -> Crosscheck:
    """Runs `scenario` in aimdlab and in `peer` over seeds 1..`seeds` and compares them.
    `folder` keeps the peer's scripts and output (a temporary folder by default). A field the
    peer cannot run is a `ScenarioError` naming it, before anything runs. `progress(done,
    seeds)` is told 0 once the scenario is checked, then after each seed."""
    from . import ns2, ns3, scope, scope_ns3

    if peer not in PEERS:
        raise ScenarioError(f"--with: {peer!r} is not a peer crosscheck runs; expected one of {', '.join(PEERS)}")
    from ..scenario import validate

    validate(scenario)  # (the scenario's own errors first, as aimdlab run gives them)
    if peer == "ns2":
        plan, ours_scenario = scope.ns2_plan(scenario)
        if ns2.available() is None:
            raise ns2.Ns2Error(ns2.MISSING)
    else:
        plan, ours_scenario = scope_ns3.ns3_plan(scenario)
    bounds = {**BOUNDS, **(bounds or {})}
    if progress:
        progress(0, seeds)  # (checked: the runs begin)
    if peer == "ns3":
        ns3.binary()  # (built now, or a one-line error saying what is missing)
    own_folder = folder or tempfile.mkdtemp(prefix="aimdlab-crosscheck-")
    os.makedirs(own_folder, exist_ok=True)
    try:
        check = _run(peer, seeds, own_folder, folder is None, bounds, progress, plan, ours_scenario)
        check.notes = uncongested_note(scenario, peer, check.rows)
        return check
    except BaseException:
        if folder is None:  # (an interrupted or failed crosscheck leaves no temporary folder behind)
            shutil.rmtree(own_folder, ignore_errors=True)
        raise


def _run(peer: str, seeds: int, own_folder: str, temporary: bool, bounds: Dict[str, Bound],
         progress: Optional[Callable[[int, int], None]], plan: Dict[str, Any], ours_scenario: Dict[str, Any]) -> Crosscheck:
    """`crosscheck`'s seeds, run with the peer's files in `own_folder`."""
    from .. import run
    from . import ns2, ns3

    peer_module = ns2 if peer == "ns2" else ns3

    names = MEASURED_BY[peer]
    figures: Dict[str, Tuple[List[float], List[float]]] = {f: ([], []) for f in names}
    flows: List[Tuple[List[float], List[float]]] = [([], []) for _ in plan["flows"]]
    walls = {"aimdlab": 0.0, peer: 0.0}
    results = []
    series: List[Tuple[float, float, float]] = []
    for k, seed in enumerate(range(1, seeds + 1)):
        t0 = time.perf_counter()
        result = run(ours_scenario, seed=seed)
        walls["aimdlab"] += time.perf_counter() - t0
        results.append(result)
        table = result.flows.to_pandas()
        starts = [float(s) for s in table["start_s"]]
        t0 = time.perf_counter()
        theirs = peer_module.run(plan, starts, own_folder, seed)
        walls[peer] += time.perf_counter() - t0
        series = series or theirs["series"]
        b = result.summary["bottleneck"]
        ours = {"utilization": b["utilization"], "goodput_total_bps": result.summary["goodput_total_bps"],
                "jain_index": result.summary["jain_index"], "retransmitted_pkts": result.summary["retransmitted_pkts"],
                "timeouts": result.summary["timeouts"], "drops": b["drops"] - b["drops_error"], "ecn_marks": b["ecn_marks"],
                "queue_mean_pkts": b["queue_mean_pkts"]}
        for name in names:
            figures[name][0].append(float(ours[name]))
            figures[name][1].append(float(theirs[name]))
        for i, g in enumerate(table["goodput_bps"]):
            flows[i][0].append(float(g))
            flows[i][1].append(float(theirs["goodput_bps"][i]))
        if progress:
            progress(k + 1, seeds)
    rows = [Row(name, *figures[name], bounds[name]) for name in names]
    per_flow = [Row(f"flow {i} goodput_bps", *flows[i], bounds["goodput_bps"]) for i in range(len(flows))]
    from ..result import provenance_of_this_session

    provenance = {"aimdlab": provenance_of_this_session(), peer: peer_module.version()}
    return Crosscheck(peer, list(range(1, seeds + 1)), rows, per_flow, walls, own_folder, temporary, results, series, provenance)
