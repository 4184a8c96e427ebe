"""aimdlab with `tcp.profile = "ns3"` beside the ns-3 3.44 peer (../shared/peers/ns3/) on the
same dumbbells: utilization, goodput, Jain index, retransmissions, average queue and ECN marks
in one table (issue 12).

    python benches/ns3_side_by_side.py PATH/TO/dumbbell [--duration 60]

Both sides: NewReno (ns-3's TcpNewReno; aimdlab's reno, which the ns3 profile makes halve the
flight and grow once per ACK, as TcpNewReno does), SACK + PRR, delayed ACKs (2, 200 ms), 1000-byte segments, IW 10, min RTO 1 s, 4 MiB
buffers, flows starting uniformly in [0, 1) s, access links 10× the bottleneck with 1 ms delay,
figures over [5 s, duration), a 1-packet device queue under every queue disc (the ns3
profile's `device_queue`).
"""

from __future__ import annotations

import argparse
import json
import subprocess

import aimdlab  # the installed package (pip install .), as benches/engine.py uses it

SETUPS = [
    ("4 flows, DropTail 100 pkt, 10 Mbit/s, 20 ms", dict(n=4, rate=10, delay=20, disc="fifo", limit=100, ecn=False)),
    ("4 flows, RED+ECN (5/15 pkt), 10 Mbit/s, 20 ms", dict(n=4, rate=10, delay=20, disc="red", limit=100, ecn=True)),
    ("20 flows, DropTail 200 pkt, 48 Mbit/s, 40 ms", dict(n=20, rate=48, delay=40, disc="fifo", limit=200, ecn=False)),
    ("100 flows, RED+ECN (5/15 pkt), 48 Mbit/s, 40 ms", dict(n=100, rate=48, delay=40, disc="red", limit=480, ecn=True)),
]


def ns3(binary: str, s: dict, duration: int) -> dict:
    args = [binary, f"--nFlows={s['n']}", f"--bottleneckRate={s['rate']}", f"--bottleneckDelay={s['delay']}", f"--queueDisc={s['disc']}",
            f"--queueLimit={s['limit']}", f"--ecn={'true' if s['ecn'] else 'false'}", "--tcp=ns3::TcpNewReno", "--segSize=1000", f"--duration={duration}"]
    return peer_row(json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout))


def peer_row(d: dict) -> dict:
    """The table's figures from the ns-3 peer's JSON."""
    g = [f["goodputBps"] for f in d["flows"]]
    return {"utilization": d["linkUtilization"], "goodput_mbps": sum(g) / 1e6, "jain": d["jainFairness"], "retx": d["retxSegsWindow"],
            "queue_pkts": d["avgQueuePkts"], "ecn_marks": d["qdiscMarksWindow"]}


def aim(s: dict, duration: int) -> dict:
    queue = {"kind": "droptail", "limit": f"{s['limit']}pkt"}
    if s["disc"] == "red":
        queue = {"kind": "red", "limit": f"{s['limit']}pkt", "min_th": "5pkt", "max_th": "15pkt", "w_q": 0.002, "max_p": 0.02, "gentle": True, "ecn": s["ecn"], "mean_pkt_size": "1052B"}
    sc = {
        "name": "ns3-side-by-side", "duration": f"{duration}s", "warmup": "5s", "sample_interval": "10ms", "sampled_flows": "none",
        "topology": {"dumbbell": {"bottleneck": {"rate": f"{s['rate']}Mbps", "delay": f"{s['delay']}ms", "queue": queue},
                                  "access": {"rate": f"{10 * s['rate']}Mbps", "delay": "1ms", "queue": {"limit": "1000pkt"}}}},
        "tcp": {"profile": "ns3", "mss": "1000B", "receive_window": "4194304B", "ecn": s["ecn"]},
        "flows": [{"count": s["n"], "cc": "reno", "start_jitter": "1s"}],
    }
    return result_row(aimdlab.run(sc))


def result_row(r: aimdlab.Result) -> dict:
    """The table's figures from an aimdlab run."""
    b = r.summary["bottleneck"]
    f = r.flows.to_pandas()
    return {"utilization": b["utilization"], "goodput_mbps": r.summary["goodput_total_bps"] / 1e6, "jain": r.summary["jain_index"],
            "retx": int(f["retransmitted_pkts"].sum()), "queue_pkts": b["queue_mean_pkts"], "ecn_marks": b["ecn_marks"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ns3", help="the ns-3 peer binary (../shared/peers/ns3/build.sh prints its path)")
    ap.add_argument("--duration", type=int, default=60)
    a = ap.parse_args()
    cols = ["utilization", "goodput_mbps", "jain", "retx", "queue_pkts", "ecn_marks"]
    print("| set-up | side | " + " | ".join(cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    for name, s in SETUPS:
        for side, row in (("ns-3 3.44", ns3(a.ns3, s, a.duration)), ("aimdlab ns3", aim(s, a.duration))):
            cells = [f"{row[c]:.3f}" if isinstance(row[c], float) else str(row[c]) for c in cols]
            print(f"| {name} | {side} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
