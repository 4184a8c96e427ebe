"""GAIMD's sending-rate formula against packet-level simulation: Yang & Lam, "General AIMD
Congestion Control" (shared/papers/gaimd.txt), §2.4, Fig. 2–5 — the measures of the sweeps
`experiments/gaimd/accuracy.toml` (the paper's ON/OFF background) and
`accuracy-random-loss.toml` (§2.4.2's independent losses), and the table and verdict `aimdlab
validate gaimd` prints from them, with its figure (`figure`). One implementation: `validate gaimd` runs those sweeps, as
`aimdlab reproduce gaimd` does.

The loss rate is measured as the paper does: window reductions (fast retransmits and
timeouts, every expiry counted as ns-2's `slowdown` counts it) divided by packets sent. This
is a lower bound of the model's loss-indication rate, so the formula tends to overestimate
at high loss (§2.4.1). T0 is the measured mean RTO at the first timeout of each backoff
sequence (1 s, the RTO floor, for a flow that had none).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

import numpy as np

from ...models import gaimd as model


def _packets_per_s(flows) -> "Any":
    """Each flow's sending rate in packets/s: its rate on the wire over its mean data packet's
    wire size (segment and headers, as it sent them: any segment size)."""
    return flows["send_rate_bps"] * flows["data_pkts_sent"] / (8.0 * flows["bytes_sent"])

ACCURATE = (0.8, 1.25)
"""The band in which a prediction/measurement ratio counts as accurate."""

SWEEPS = {"onoff": "accuracy.toml", "random-loss": "accuracy-random-loss.toml"}
"""The sweep of each background, in the experiments' `gaimd` folder."""

LEVEL_AXES = {"onoff": "flows[2].count", "random-loss": "topology.dumbbell.bottleneck.loss.rate"}
"""The axis that sets the loss rate in each sweep: ON/OFF sources, or the loss probability."""


def prediction(result, alpha: float, beta: float, group: str = "gaimd") -> Dict[str, float]:
    """The paper's measurement of one run: the loss rate, RTT and T0 averaged over the flow
    group named `group` ("gaimd"), the rate eq. (2) predicts from them for GAIMD(`alpha`,
    `beta`), and the measured mean sending rate (packets/s, retransmissions included — the
    model's T)."""
    f = result.flows.to_pandas()
    g = f[f["group_name"] == group]
    p = float(np.nanmean(g["loss_event_rate"])) if g["loss_event_rate"].notna().any() else 0.0
    rtt_s = float(np.nanmean(g["rtt_mean_ms"])) / 1e3 if g["rtt_mean_ms"].notna().any() else math.nan
    t0_s = float(np.nanmean(g["rto_first_mean_ms"])) / 1e3 if g["rto_first_mean_ms"].notna().any() else 1.0
    measured = float(_packets_per_s(g).mean())
    predicted = float(model.sending_rate(alpha, beta, p, rtt_s, t0_s)) if p > 0 else math.inf
    return {"loss_rate": p, "rtt_s": rtt_s, "t0_s": t0_s, "measured_pkts_per_s": measured, "predicted_pkts_per_s": predicted,
            "ratio": predicted / measured if measured > 0 else math.nan}


def _gaimd_params(result) -> tuple:
    """(α, β) of the run's flow group named "gaimd" (its `cc` table; GAIMD's defaults where a
    field is left out)."""
    for g in result.scenario.get("flows", []):
        if g.get("name") == "gaimd" and isinstance(g.get("cc"), dict):
            return float(g["cc"].get("alpha", 0.31)), float(g["cc"].get("beta", 0.875))
    raise ValueError("the run has no flow group named \"gaimd\" with a cc table")


def eq2_ratio(result) -> float:
    """A sweep measure (`aimdlab.papers.gaimd.accuracy:eq2_ratio`): eq. (2)'s predicted sending rate
    from the GAIMD flows' mean loss rate, RTT and T0, over their measured mean sending rate —
    the y axis of Fig. 2-5. The run needs a
    flow group named "gaimd"."""
    alpha, beta = _gaimd_params(result)
    return prediction(result, alpha, beta)["ratio"]


def eq2_ratio_tcp(result) -> float:
    """`eq2_ratio` for the run's comparison TCP flows (the group named "reno", as TCP is
    GAIMD(1, 1/2)): the accuracy Fig. 6-7 draw beside GAIMD's (§2.4.3)."""
    return prediction(result, 1.0, 0.5, group="reno")["ratio"]


def per_flow_accuracy(result):
    """Fig. 6-7's points (a trace series, `aimdlab.papers.gaimd.accuracy:per_flow_accuracy`): for
    each GAIMD flow, its own loss rate and the ratio of eq. (2)'s prediction from its own loss
    rate, RTT and T0 to its measured sending rate. A DataFrame with `flow`, `loss_rate` and
    `ratio`."""
    import pandas as pd

    alpha, beta = _gaimd_params(result)
    f = result.flows.to_pandas()
    g = f[f["group_name"] == "gaimd"]
    rows = []
    for (_, r), measured in zip(g.iterrows(), _packets_per_s(g)):  # (a flow that sent nothing: NaN, no ratio)
        p = float(r["loss_event_rate"])
        rtt_s = float(r["rtt_mean_ms"]) / 1e3
        t0_s = float(r["rto_first_mean_ms"]) / 1e3 if math.isfinite(float(r["rto_first_mean_ms"])) else 1.0
        ok = p > 0 and measured > 0 and math.isfinite(rtt_s)
        rows.append((int(r["flow"]), p, float(model.sending_rate(alpha, beta, p, rtt_s, t0_s)) / measured if ok else math.nan))
    return pd.DataFrame(rows, columns=["flow", "loss_rate", "ratio"])


def experiment(background: str = "onoff", quick: bool = False, experiments: Optional[Path] = None):
    """The sweep of `background` ("onoff" or "random-loss") from the experiments' `gaimd`
    folder (`experiments`, default ./experiments if it holds any, else the package's)."""
    from ...reproduce.paper import find_experiments
    from ...sweep import load_experiment

    if background not in SWEEPS:
        raise ValueError(f'background: "{background}" is not a background; expected one of {sorted(SWEEPS)}')
    return load_experiment(find_experiments(experiments) / "gaimd" / SWEEPS[background], quick=quick)


def table(aggregate, background: str = "onoff"):
    """One row per point of a sweep's aggregate (a pandas DataFrame): α, β, the queue, the
    level that sets the loss (sources or p), the mean measured loss rate and the mean
    prediction/measurement ratio with its 95 % interval over the seeds."""
    import pandas as pd

    a = aggregate
    ratio = "aimdlab.papers.gaimd.accuracy:eq2_ratio"
    level = LEVEL_AXES[background]
    return pd.DataFrame({
        "mode": "onoff" if background == "onoff" else "loss",
        "queue": _queue_names(a),
        "level": a[level].astype(float),
        "beta": a["flows[0].cc.beta"].astype(float),
        "alpha": a["flows[0].cc.alpha"].astype(float),
        "loss_rate": a["groups.gaimd.loss_event_rate.mean_mean"],
        "ratio": a[f"{ratio}_mean"],
        "ratio_ci95_low": a[f"{ratio}_ci95_low"],
        "ratio_ci95_high": a[f"{ratio}_ci95_high"],
        "runs": a["runs_ok"],
    })


def _queue_names(aggregate):
    """The queue of each aggregate row: the name the linked axis "name, ...queue" gives it
    (`drop-tail`, `RED`), else `drop-tail`."""
    import json

    key = "name, topology.dumbbell.bottleneck.queue"
    if key not in aggregate:
        return "drop-tail"
    return [json.loads(x)[0] if isinstance(x, str) else x[0] for x in aggregate[key]]


def verdict(df, max_loss: float = 0.10) -> Dict[str, object]:
    """How many points with a measured loss rate up to `max_loss` predict within 0.8–1.25,
    and which do not."""
    sel = df[df["loss_rate"] <= max_loss]
    ok = sel["ratio"].between(*ACCURATE)
    return {"max_loss": max_loss, "points": int(len(sel)), "accurate": int(ok.sum()), "outside": sel[~ok]}


def figure(table: Any, band: Tuple[float, float] = (0.8, 1.25), title: str = "GAIMD sending-rate formula (eq. 2) against simulation") -> Any:
    """gaimd.txt Fig. 2–5: one panel per β; each point one simulation, x its measured loss
    rate (window reductions / packets sent), y the eq. (2) prediction divided by the measured
    sending rate; colour is α, circles the ON/OFF-background runs, crosses the random-loss
    runs; the shaded band is `band`. `table` is a pandas DataFrame with columns alpha, beta,
    mode, loss_rate and ratio; `title` heads the figure."""
    from ...plots import _matplotlib

    plt = _matplotlib()
    betas = sorted(table["beta"].unique())
    fig, axes = plt.subplots(1, len(betas), figsize=(4.2 * len(betas), 3.8), sharey=True, squeeze=False)
    cmap = plt.get_cmap("viridis")
    amin, amax = float(table["alpha"].min()), float(table["alpha"].max())
    norm = plt.Normalize(amin, amax if amax > amin else amin + 1)
    top = min(max(3.0, float(np.nanmax(table["ratio"].replace(np.inf, np.nan))) * 1.05), 8.0)
    for ax, beta in zip(axes[0], betas):
        sel = table[table["beta"] == beta]
        ax.axhspan(*band, color="0.9", zorder=0, label=f"{band[0]}–{band[1]}")
        ax.axhline(1.0, color="0.4", lw=0.8, zorder=1)
        for mode, marker in (("onoff", "o"), ("loss", "x")):
            m = sel[sel["mode"] == mode]
            if len(m):
                ax.scatter(m["loss_rate"] * 100, m["ratio"].clip(upper=top), c=m["alpha"], cmap=cmap, norm=norm,
                           marker=marker, s=28, zorder=2,
                           label="ON/OFF background" if mode == "onoff" else "random loss")
        ax.set_title(f"β = {beta:g}")
        ax.set_xlabel("measured loss rate (%)")
        ax.set_ylim(0, top)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("prediction / measurement")
    axes[0][0].legend(loc="upper left", fontsize=8)
    sm = plt.cm.ScalarMappable(cmap=cmap, norm=norm)
    fig.colorbar(sm, ax=list(axes[0]), label="α", fraction=0.025, pad=0.02)
    fig.suptitle(title, x=0.45)
    return fig
