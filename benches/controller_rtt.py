"""What the RTT a controller is told of is worth (`tcp.controller_rtt`, issue 50): each
controller that reads RTTs, run under a stack profile with the echo rule (the RTO's sample: the
earliest segment an ACK covers, which under delayed ACKs may time a lone segment held until the
next flight) and with the profile's own rule, on the ns-3 family's dumbbell:

    python benches/controller_rtt.py                      # linux profile, 8 flows at 40 ms, 4 seeds
    python benches/controller_rtt.py --profile ns3 --only illinois,vegas --seeds 2
    python benches/controller_rtt.py --profile ns3 --only illinois --rules echo,linux,ns3

A 20 Mbit/s bottleneck with a DropTail buffer of one BDP, 1 ms access links at 200 Mbit/s,
flows starting uniformly in [0, 1) s, figures over [5 s, duration). Printed for each rule: the
means over seeds of utilization, Jain index (with its range), retransmissions and mean queue,
and what the controller itself shows: Illinois's RTT_max, BBR's and Westwood+'s min-RTT (the
flows' median, ms), CUBIC's HyStart (flows leaving slow start before any loss, and their median cwnd then).
"""

from __future__ import annotations

import argparse
import statistics

import aimdlab  # the installed package (pip install .)

CONTROLLERS = ["cubic", "bbr", "vegas", "illinois", "westwood", "htcp", "veno", "yeah"]
RULE_OF_PROFILE = {"linux": "linux", "linux26": "linux26", "ns3": "ns3"}
RATE_MBPS = 20


def scenario(cc: str, profile: str, rule: str, flows: int, rtt_ms: int, duration: int, seed: int) -> dict:
    """The dumbbell with `flows` flows of `cc` under `profile`, told the RTT by `rule`."""
    mss = {"ns3": 1000}.get(profile, 1448)
    bdp_pkts = RATE_MBPS * 1_000_000 * rtt_ms // 1000 // 8 // mss
    return {
        "name": f"controller-rtt-{cc}-{rule}", "seed": seed, "duration": f"{duration}s", "warmup": "5s", "sample_interval": "100ms",
        "sampled_flows": "all", "cwnd_trace": "all" if cc == "cubic" else "none",
        "topology": {"dumbbell": {"bottleneck": {"rate": f"{RATE_MBPS}Mbps", "delay": f"{rtt_ms / 2 - 2}ms", "queue": {"limit": f"{bdp_pkts}pkt"}},
                                  "access": {"rate": f"{10 * RATE_MBPS}Mbps", "delay": "1ms", "queue": {"limit": "1000pkt"}}}},
        "tcp": {"profile": profile, "mss": f"{mss}B", "receive_window": "4194304B", "controller_rtt": rule},
        "flows": [{"count": flows, "cc": cc, "start_jitter": "1s"}],
    }


def hystart_exits(r: aimdlab.Result) -> tuple[int, float]:
    """Flows whose first slow-start threshold was set before any loss (HyStart), and their
    median cwnd at that moment (NaN if none)."""
    t = r.cwnd_trace.to_pandas()
    exits = []
    for _, f in t.groupby("flow"):
        first = f[f["ssthresh_pkts"] < 1e9].head(1)
        if len(first) and first["cause"].iloc[0] in ("slow_start", "avoidance"):
            exits.append(float(first["cwnd_pkts"].iloc[0]))
    return len(exits), statistics.median(exits) if exits else float("nan")


def row(r: aimdlab.Result, cc: str) -> dict:
    """The figures of one run."""
    b, f = r.summary["bottleneck"], r.flows.to_pandas()
    out = {"utilization": b["utilization"], "jain": r.summary["jain_index"], "retx": float(f["retransmitted_pkts"].sum()), "queue": b["queue_mean_pkts"]}
    ts = r.timeseries.to_pandas()
    if cc == "illinois":
        out["told_ms"] = float(ts.groupby("flow")["rtt_max_ms"].max().median())
    elif cc in ("bbr", "westwood"):
        out["told_ms"] = float(ts.groupby("flow")["min_rtt_ms"].last().median())
    elif cc == "cubic":
        n, cwnd = hystart_exits(r)
        out["hystart_flows"], out["hystart_cwnd"] = float(n), cwnd
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", default="linux", choices=sorted(RULE_OF_PROFILE), help="the stack profile (default linux)")
    ap.add_argument("--only", default="", help=f"comma-separated controllers (default: {','.join(CONTROLLERS)})")
    ap.add_argument("--seeds", type=int, default=4, help="runs per rule, seeds 1..N (default 4)")
    ap.add_argument("--flows", type=int, default=8)
    ap.add_argument("--rtt", type=int, default=40, help="base RTT, ms (default 40)")
    ap.add_argument("--duration", type=int, default=60, help="seconds (default 60)")
    ap.add_argument("--rules", default="", help="comma-separated controller_rtt rules (default: echo and the profile's own)")
    a = ap.parse_args()
    only = [c for c in a.only.split(",") if c] or CONTROLLERS
    unknown = set(only) - set(CONTROLLERS)
    if unknown:
        ap.error(f"--only: {', '.join(sorted(unknown))} not among {', '.join(CONTROLLERS)}")
    if a.seeds < 1 or a.flows < 1:
        ap.error("--seeds and --flows: at least 1")
    rules = [r for r in a.rules.split(",") if r] or ["echo", RULE_OF_PROFILE[a.profile]]
    if set(rules) - {"echo", "linux", "linux26", "ns3"}:
        ap.error(f"--rules: {a.rules!r}; expected some of echo, linux, linux26, ns3")
    print(f"{a.profile} profile, {a.flows} flows at {a.rtt} ms, {RATE_MBPS} Mbit/s, one-BDP DropTail, seeds 1..{a.seeds}\n")
    print("| controller | controller_rtt | utilization | Jain (range) | retransmissions | mean queue (pkt) | the controller shows |")
    print("|---|---|---|---|---|---|---|")
    for cc in only:
        for rule in rules:
            rows = [row(aimdlab.run(scenario(cc, a.profile, rule, a.flows, a.rtt, a.duration, k)), cc) for k in range(1, a.seeds + 1)]
            mean = {k: statistics.fmean(x[k] for x in rows) for k in rows[0]}
            jains = [x["jain"] for x in rows]
            shows = ""
            if "told_ms" in mean:
                shows = f"{'RTT_max' if cc == 'illinois' else 'min-RTT'} {mean['told_ms']:.1f} ms"
            elif "hystart_flows" in mean:
                shows = f"HyStart exits {mean['hystart_flows']:.1f}/{a.flows} flows, at cwnd {mean['hystart_cwnd']:.0f}"
            print(f"| {cc} | {rule} | {mean['utilization']:.3f} | {mean['jain']:.3f} ({min(jains):.3f}–{max(jains):.3f}) | {mean['retx']:.0f} | {mean['queue']:.1f} | {shows} |", flush=True)


if __name__ == "__main__":
    main()
