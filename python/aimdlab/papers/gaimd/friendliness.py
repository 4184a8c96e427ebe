"""GAIMD(0.31, 7/8) against TCP Reno on one bottleneck: gaimd.txt §4.1, Fig. 14 (DropTail) and
Fig. 16 (RED). Runs the sweep `friendliness.toml` (resuming from its store), then, for every
run, prints the ratio of the two groups' mean sending rates, each group's loss rate measured
as the paper does (window reductions / packets sent, §2.4.1), the ratio eq. (2) predicts (a) at
one common loss rate — the premise of a TCP-friendly α — and (b) at each group's own measured
loss rate, RTT and T0 = 1 s (our minimum RTO), and each group's rate CoV over 1 s samples.

    python -m aimdlab.papers.gaimd.friendliness --quick        # 1 seed, 60 s runs
    python -m aimdlab.papers.gaimd.friendliness                # 5 seeds, 200 s

The set-up and every choice where the paper is silent are in friendliness.toml.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Dict

import pyarrow.parquet as pq

from aimdlab.models import gaimd as model
from aimdlab.package_data import package_folder
from aimdlab.sweep import load_experiment, run_sweep

HERE = package_folder("experiments") / "gaimd"
"""The paper's definitions: its sweeps are there."""
PARAMS = {"gaimd": (0.3125, 0.875), "reno": (1.0, 0.5)}
PKT_BITS = 1040 * 8


def rate_cov(run_dir: Path, warmup_s: float) -> dict:
    """Per group: the mean over its flows of the sending rate's coefficient of variation over
    the 1 s samples after the warm-up."""
    ts = pq.read_table(run_dir / "timeseries.parquet").to_pandas()
    flows = pq.read_table(run_dir / "flows.parquet").to_pandas()
    ts = ts[ts["time_s"] > warmup_s]
    cov = ts.groupby("flow")["send_rate_bps"].agg(lambda x: x.std() / x.mean())
    return {g: float(cov[flows.loc[flows["group_name"] == g, "flow"]].mean()) for g in PARAMS}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="the sweep's [quick] table: 1 seed, 60 s")
    ap.add_argument("--jobs", type=int, default=None, help="parallel runs (default: one per core)")
    ap.add_argument("--out", default=None, help="the sweep's folder (default: results/sweeps/gaimd-friendliness[-quick])")
    a = ap.parse_args()
    exp = load_experiment(HERE / "friendliness.toml", quick=a.quick)
    out = Path(a.out or f"results/sweeps/{exp.name}{'-quick' if a.quick else ''}")
    sweep = run_sweep(exp, out, jobs=a.jobs)
    warmup_s = 20.0
    cat = sweep.catalog.to_pandas()
    print(f"{exp.description}\nresults: {out}")
    print("queue     seed  rate G/R  p_G %   p_R %   eq2@common-p  eq2@own-p  pred/meas G  pred/meas R  CoV G  CoV R")
    for _, row in cat[cat["status"] == "ok"].iterrows():
        m: Dict[str, Dict[str, float]] = {}
        for g, (alpha, beta) in PARAMS.items():
            p = row[f"groups.{g}.loss_events.sum"] / row[f"groups.{g}.data_pkts_sent.sum"]
            rtt_s = row[f"groups.{g}.rtt_mean_ms.mean"] / 1e3
            m[g] = {"rate": row[f"groups.{g}.send_rate_bps.mean"], "p": p, "rtt_s": rtt_s,
                    "pred": float(model.sending_rate(alpha, beta, p, rtt_s, 1.0)) * PKT_BITS}
        cov = rate_cov(sweep.run_dir(row["run_id"]), warmup_s)
        gm, rm = m["gaimd"], m["reno"]  # (per group: rate, loss rate, RTT, eq. 2's prediction)
        common = float(model.normalized_rate(0.3125, 0.875, (gm["p"] + rm["p"]) / 2, 1.0, 1.0 / ((gm["rtt_s"] + rm["rtt_s"]) / 2)))
        queue = str(row["topology.dumbbell.bottleneck.queue"])
        kind = "red" if "red" in queue else "droptail"
        print(f"{kind:8s}  {row['seed']:4d}  {gm['rate'] / rm['rate']:8.2f}  {gm['p'] * 100:5.2f}  {rm['p'] * 100:6.2f}  "
              f"{common:12.2f}  {gm['pred'] / rm['pred']:9.2f}  {gm['pred'] / gm['rate']:11.2f}  {rm['pred'] / rm['rate']:11.2f}  "
              f"{cov['gaimd']:5.2f}  {cov['reno']:5.2f}")


if __name__ == "__main__":
    main()
