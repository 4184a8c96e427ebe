"""GAIMD(0.31, 7/8) against TCP Reno on one bottleneck: gaimd.txt §4.1, Fig. 14 (DropTail) and
Fig. 16 (RED), for n = 8 flows of each kind on the 15 Mbps / 50 ms link of §2.4.1.

For every seed it prints the ratio of the two groups' mean sending rates, each group's loss
rate measured as the paper does (window reductions / packets sent, §2.4.1), and the ratio that
eq. (2) predicts (a) at one common loss rate — the premise of a TCP-friendly α — and (b) at each
group's own measured loss rate, RTT and T0 = 1 s (our minimum RTO).

    python experiments/gaimd/tcp_friendliness.py                  # DropTail, 1 ms send jitter
    python experiments/gaimd/tcp_friendliness.py --queue red
    python experiments/gaimd/tcp_friendliness.py --send-jitter 0s # no ns-2 `overhead_`

Choices where the paper is silent (stated in the output too): 1000-byte segments (ns-2's
default), 100 Mbps access links with one-way delays uniform in [0.5, 5) ms drawn per flow
(the paper's "small random propagation delays"), starts uniform in [0, 2) s, a 125-packet
bottleneck buffer (about half the bandwidth-delay product), 200 s runs of which the first
20 s are not counted, NewReno recovery for both groups (the paper's flows are Reno-based).
"""

from __future__ import annotations

import argparse

import numpy as np

import aimdlab
from aimdlab.sweep.executor import ordered_map
from aimdlab.models import gaimd as model

GAIMD = {"name": "gaimd", "beta": 0.875, "alpha": "tcp-friendly"}  # α = 0.3125 (eq. 7)
PARAMS = {"gaimd": (0.3125, 0.875), "reno": (1.0, 0.5)}


def scenario(seed: int, queue: str = "droptail", send_jitter: str = "1ms", n: int = 8, sack: bool = False) -> dict:
    """n Reno + n GAIMD(0.31, 7/8) bulk flows on the §2.4.1 dumbbell."""
    rng = np.random.default_rng(seed)
    q = {"kind": queue, "limit": "125pkt"}
    if queue == "red":
        q["auto"] = True
    flows = [
        {"name": "reno" if i < n else "gaimd", "cc": "reno" if i < n else GAIMD, "start_jitter": "2s",
         "access": {"delay": f"{rng.uniform(0.5, 5):.3f}ms"}}
        for i in range(2 * n)
    ]
    return {
        "name": f"gaimd-vs-reno-{queue}", "duration": "200s", "warmup": "20s", "seed": seed, "sample_interval": "1s",
        "topology": {"dumbbell": {
            "bottleneck": {"rate": "15Mbps", "delay": "50ms", "queue": q},
            "access": {"rate": "100Mbps", "delay": "1ms", "queue": {"limit": "1000pkt"}},
        }},
        "tcp": {"mss": "1000B", "sack": sack, "send_jitter": send_jitter},
        "flows": flows,
    }


def measure(result: aimdlab.Result) -> dict:
    """Per group: mean sending rate (bit/s), loss rate as window reductions / packets sent,
    mean RTT (s), the rate eq. (2) predicts at those, and the rate CoV over 1 s samples."""
    f = result.flows.to_pandas()
    ts = result.timeseries.to_pandas()
    ts = ts[ts["time_s"] > result.summary["warmup_s"]]
    cov = ts.groupby("flow")["send_rate_bps"].agg(lambda x: x.std() / x.mean())
    pkt_bits = 1040 * 8
    out = {}
    for group, (alpha, beta) in PARAMS.items():
        g = f[f["group_name"] == group]
        # The engine's loss events (window reductions) over the group (no ECN here).
        p = float(g["loss_events"].sum() / g["data_pkts_sent"].sum())
        rtt_s = float(g["rtt_mean_ms"].mean()) / 1e3
        out[group] = {
            "rate_bps": float(g["send_rate_bps"].mean()),
            "p": p,
            "rtt_s": rtt_s,
            "predicted_bps": float(model.sending_rate(alpha, beta, p, rtt_s, 1.0)) * pkt_bits,
            "cov": float(cov[g["flow"]].mean()),
        }
    return out


def _run(args):
    seed, kwargs = args
    return seed, measure(aimdlab.run(scenario(seed, **kwargs)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--queue", choices=["droptail", "red"], default="droptail")
    ap.add_argument("--send-jitter", default="1ms", help="ns-2 overhead_: random delay per data packet (default 1ms)")
    ap.add_argument("--sack", action="store_true", help="SACK recovery instead of NewReno for both groups")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    kwargs = {"queue": a.queue, "send_jitter": a.send_jitter, "sack": a.sack}
    print(f"8 Reno + 8 GAIMD(0.3125, 0.875), 15 Mbps / 50 ms, {a.queue} 125 pkt, send jitter {a.send_jitter}, "
          f"{'SACK' if a.sack else 'NewReno'}; 200 s, first 20 s not counted")
    print("seed  rate G/R  p_G %   p_R %   eq2@common-p  eq2@own-p  pred/meas G  pred/meas R  CoV G  CoV R")
    for seed, m in ordered_map(_run, [(s, kwargs) for s in range(1, a.seeds + 1)], jobs=a.jobs):
        g, r = m["gaimd"], m["reno"]
        p_common = (g["p"] + r["p"]) / 2
        common = float(model.normalized_rate(0.3125, 0.875, p_common, 1.0, 1.0 / ((g["rtt_s"] + r["rtt_s"]) / 2)))
        print(f"{seed:4d}  {g['rate_bps'] / r['rate_bps']:8.2f}  {g['p'] * 100:5.2f}  {r['p'] * 100:6.2f}  "
              f"{common:12.2f}  {g['predicted_bps'] / r['predicted_bps']:9.2f}  "
              f"{g['predicted_bps'] / g['rate_bps']:11.2f}  {r['predicted_bps'] / r['rate_bps']:11.2f}  "
              f"{g['cov']:5.2f}  {r['cov']:5.2f}")


if __name__ == "__main__":
    main()
