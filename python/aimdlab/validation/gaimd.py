"""GAIMD's sending-rate formula against packet-level simulation: Yang & Lam, "General AIMD
Congestion Control" (shared/papers/gaimd.txt), §2.4, Fig. 2–5.

The set-up of §2.4.1: a dumbbell whose bottleneck is 15 Mbps with 50 ms propagation delay; 16
GAIMD(α, β) flows and 16 TCP Reno flows; Pareto ON/OFF UDP sources (mean ON 1 s, mean OFF 2 s,
500 kbit/s while ON, shape 1.5) whose number sets the loss rate; small random access delays
and random starts against phase effects; 120 s per run. For each run, the loss rate, RTT and
timeout value averaged over the 16 GAIMD flows give a predicted sending rate (eq. 2); the
figure is the ratio of that prediction to the measured mean sending rate, against loss rate.

The loss rate is measured as the paper does: window reductions (fast retransmits and
timeouts, every expiry counted as ns-2's `slowdown` counts it) divided by packets sent. This
is a lower bound of the model's loss-indication rate, so the formula tends to overestimate
at high loss (§2.4.1).

A second mode replaces the ON/OFF background by independent (Bernoulli) loss of data packets
on the bottleneck, with the 16 GAIMD flows alone. It breaks the model's assumption (ii) that
losses within a round are correlated (§2.4.2), which matters where timeouts do.

`queue="red"` runs Fig. 5's RED bottleneck (ns-2's automatic thresholds on the same
buffer: the paper gives no RED parameters).

Choices where the paper is silent: a 125-packet DropTail buffer (about half the
bandwidth-delay product), 1000-byte segments (ns-2's default), SACK loss recovery for every
TCP-like flow (the paper's flows are Reno-based; with NewReno, which repairs one loss per
RTT, large windows spend long recoveries without growth and the formula overestimates
more: `sack=False`), no delayed ACKs (b = 1), 1 ms of
random send jitter per packet (ns-2's `overhead_`), access delays uniform in [0.5, 5) ms,
starts uniform in [0, 2) s, the first 10 s not counted, T0 taken as the measured mean RTO at
the first timeout of each backoff sequence (our RTO floor, 1 s, in practice).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Callable, Dict, Iterable, List, Optional

import numpy as np

from ..models import gaimd as model

PACKET_BITS = (1000 + 40) * 8
"""Wire size of a data packet in bits: 1000-byte segments plus 40 bytes of headers."""

QUICK_ALPHAS = (0.2, 0.6, 1.0)
FULL_ALPHAS = tuple(round(0.1 * i, 1) for i in range(1, 11))
BETAS = (0.5, 0.75, 0.875)
QUICK_BACKGROUND = (10, 40, 70, 100)
FULL_BACKGROUND = (10, 20, 30, 40, 50, 60, 70, 85, 100, 115, 130)
QUICK_LOSS = (0.02, 0.1)
FULL_LOSS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3)
ACCURATE = (0.8, 1.25)
"""The band in which a prediction/measurement ratio counts as accurate."""


@dataclass(frozen=True)
class Point:
    """One simulation of the validation grid."""

    alpha: float
    """GAIMD additive increase, packets per RTT."""
    beta: float
    """GAIMD multiplicative decrease factor."""
    mode: str
    """"onoff" (the paper's background traffic) or "loss" (independent random loss)."""
    level: float
    """Number of ON/OFF sources, or the bottleneck's data-packet loss probability."""
    seed: int = 1
    duration_s: float = 120.0
    sack: bool = True
    """Loss recovery of every TCP-like flow: SACK (RFC 6675) or, when False, NewReno."""
    queue: str = "droptail"
    """The bottleneck's queue: "droptail" (Fig. 2-4) or "red" (Fig. 5; ns-2's automatic
    thresholds on the same 125 packets, the paper giving no RED parameters)."""


def scenario(pt: Point) -> dict:
    """The §2.4.1 dumbbell for one grid point, as a scenario dict."""
    rng = np.random.default_rng(pt.seed)
    gaimd = {"name": "gaimd", "alpha": pt.alpha, "beta": pt.beta}

    def group(name: str, cc) -> List[dict]:
        return [{"name": name, "cc": cc, "start_jitter": "2s", "access": {"delay": f"{rng.uniform(0.5, 5):.3f}ms"}}
                for _ in range(16)]

    queues = {"droptail": {"kind": "droptail", "limit": "125pkt"}, "red": {"kind": "red", "limit": "125pkt", "auto": True}}
    if pt.queue not in queues:
        raise ValueError(f'queue: "{pt.queue}" is not a queue; expected "droptail" or "red"')
    bottleneck: dict = {"rate": "15Mbps", "delay": "50ms", "queue": queues[pt.queue]}
    flows = group("gaimd", gaimd)
    if pt.mode == "onoff":
        flows += group("reno", "reno")
        flows.append({"name": "onoff", "count": int(pt.level), "app": {"kind": "onoff"}, "start_jitter": "3s"})
    elif pt.mode == "loss":
        bottleneck["loss"] = {"model": "bernoulli", "rate": pt.level, "applies_to": "data"}
    else:
        raise ValueError(f'mode: "{pt.mode}" is not a mode; expected "onoff" or "loss"')
    return {
        "name": f"gaimd-validation-{pt.mode}", "duration": f"{pt.duration_s:g}s", "warmup": "10s", "seed": pt.seed,
        "sample_interval": "1s",
        "topology": {"dumbbell": {
            "bottleneck": bottleneck,
            "access": {"rate": "100Mbps", "delay": "1ms", "queue": {"limit": "1000pkt"}},
        }},
        "tcp": {"mss": "1000B", "sack": pt.sack, "delayed_ack": False, "send_jitter": "1ms"},
        "flows": flows,
    }


def measure(pt: Point, result) -> Dict[str, float]:
    """The paper's measurement of one run: per-flow loss rate, RTT and T0 averaged over the
    GAIMD flows, the rate eq. (2) predicts from them, and the measured mean sending rate
    (packets/s, retransmissions included — the model's T)."""
    f = result.flows.to_pandas()
    g = f[f["group_name"] == "gaimd"]
    p = float(np.nanmean(g["loss_event_rate"])) if g["loss_event_rate"].notna().any() else 0.0
    rtt_s = float(np.nanmean(g["rtt_mean_ms"])) / 1e3 if g["rtt_mean_ms"].notna().any() else math.nan
    t0_s = float(np.nanmean(g["rto_first_mean_ms"])) / 1e3 if g["rto_first_mean_ms"].notna().any() else 1.0
    measured = float(g["send_rate_bps"].mean()) / PACKET_BITS
    predicted = float(model.sending_rate(pt.alpha, pt.beta, p, rtt_s, t0_s)) if p > 0 else math.inf
    predicted_full = float(model.sending_rate_full(pt.alpha, pt.beta, p, rtt_s, t0_s)) if p > 0 else math.inf
    timeouts = float(g["timeout_sequences"].sum())
    indications = float(g["fast_retransmits"].sum()) + timeouts
    return {
        **asdict(pt),
        "loss_rate": p,
        "rtt_s": rtt_s,
        "t0_s": t0_s,
        "timeout_fraction": timeouts / indications if indications else math.nan,
        "measured_pkts_per_s": measured,
        "predicted_pkts_per_s": predicted,
        "predicted_full_pkts_per_s": predicted_full,
        "ratio": predicted / measured if measured > 0 else math.nan,
        "ratio_full": predicted_full / measured if measured > 0 else math.nan,
    }


def _gaimd_params(result) -> tuple:
    """(α, β) of the run's flow group named "gaimd" (its `cc` table; GAIMD's defaults where a
    field is left out)."""
    for g in result.scenario.get("flows", []):
        if g.get("name") == "gaimd" and isinstance(g.get("cc"), dict):
            return float(g["cc"].get("alpha", 0.31)), float(g["cc"].get("beta", 0.875))
    raise ValueError("the run has no flow group named \"gaimd\" with a cc table")


def eq2_ratio(result) -> float:
    """A sweep measure (`aimdlab.validation.gaimd:eq2_ratio`): eq. (2)'s predicted sending rate
    from the GAIMD flows' mean loss rate, RTT and T0, over their measured mean sending rate —
    the y axis of Fig. 2-5, as `measure` computes it for `validate gaimd`. The run needs a
    flow group named "gaimd"."""
    alpha, beta = _gaimd_params(result)
    return measure(Point(alpha, beta, "onoff", 0.0), result)["ratio"]


def per_flow_accuracy(result):
    """Fig. 6-7's points (a trace series, `aimdlab.validation.gaimd:per_flow_accuracy`): for
    each GAIMD flow, its own loss rate and the ratio of eq. (2)'s prediction from its own loss
    rate, RTT and T0 to its measured sending rate. A DataFrame with `flow`, `loss_rate` and
    `ratio`."""
    import pandas as pd

    alpha, beta = _gaimd_params(result)
    f = result.flows.to_pandas()
    g = f[f["group_name"] == "gaimd"]
    rows = []
    for _, r in g.iterrows():
        p = float(r["loss_event_rate"])
        rtt_s = float(r["rtt_mean_ms"]) / 1e3
        t0_s = float(r["rto_first_mean_ms"]) / 1e3 if math.isfinite(float(r["rto_first_mean_ms"])) else 1.0
        measured = float(r["send_rate_bps"]) / PACKET_BITS
        ok = p > 0 and measured > 0 and math.isfinite(rtt_s)
        rows.append((int(r["flow"]), p, float(model.sending_rate(alpha, beta, p, rtt_s, t0_s)) / measured if ok else math.nan))
    return pd.DataFrame(rows, columns=["flow", "loss_rate", "ratio"])


def grid(quick: bool = False, modes: Iterable[str] = ("onoff", "loss"), seed: int = 1, sack: bool = True,
         queue: str = "droptail") -> List[Point]:
    """The runs of a validation: β ∈ {0.5, 0.75, 0.875} × α × background (and loss) levels,
    on a drop-tail or (Fig. 5) RED bottleneck. `quick` takes 3 values of α and fewer levels
    (about 50 runs instead of about 500)."""
    alphas = QUICK_ALPHAS if quick else FULL_ALPHAS
    levels = {"onoff": QUICK_BACKGROUND if quick else FULL_BACKGROUND, "loss": QUICK_LOSS if quick else FULL_LOSS}
    return [Point(a, b, m, lv, seed, sack=sack, queue=queue) for m in modes for b in BETAS for a in alphas for lv in levels[m]]


def _run_point(pt: Point) -> Dict[str, float]:
    from ..runner import run as run_scenario

    return measure(pt, run_scenario(scenario(pt)))


def run(points: List[Point], jobs: Optional[int] = None, progress: Optional[Callable[[int, int], None]] = None,
        dask: bool = False, scheduler: Optional[str] = None):
    """Runs every point on the sweeps' executor (`aimdlab.sweep.executor.ordered_map`: `jobs`
    processes, default one per core; or Dask) and returns a pandas DataFrame with one row
    per point, in the order of `points`."""
    import pandas as pd

    from ..sweep.executor import ordered_map

    return pd.DataFrame(ordered_map(_run_point, points, jobs=jobs, progress=progress, dask=dask, scheduler=scheduler))


def verdict(df, max_loss: float = 0.10) -> Dict[str, object]:
    """How many points with a measured loss rate up to `max_loss` predict within 0.8–1.25,
    and which do not."""
    sel = df[df["loss_rate"] <= max_loss]
    ok = sel["ratio"].between(*ACCURATE)
    return {"max_loss": max_loss, "points": int(len(sel)), "accurate": int(ok.sum()), "outside": sel[~ok]}
