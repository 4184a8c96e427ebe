"""The AIMD family and its comparators beside ns-3 3.44 (../shared/peers/ns3/), controller by
controller, on the same dumbbells (issue 37):

    python benches/ns3_family.py PATH/TO/dumbbell [--duration 60] [--only htcp,bbr] [--json out.json]
    python benches/ns3_family.py PATH/TO/dumbbell --only reno --rtt 120 --flows 8 --seeds 8
    python benches/ns3_family.py PATH/TO/dumbbell --only illinois --tcp controller_rtt=echo

`--tcp FIELD=VALUE` lays a TCP setting over aimdlab's `ns3` profile (repeatable): the table
then shows what that one rule is worth.

With `--seeds N` every set-up runs N times on each side (ns-3 `--run=k`, aimdlab `seed = k`) and
the table shows each figure's mean with its range; the bounds are judged on the means.

Each controller runs on a 20 Mbit/s bottleneck with a DropTail buffer of one BDP, at 40 ms
and 120 ms RTT, with 1 and 8 flows; DCTCP runs on a step-marking queue (K = 20 packets;
ns-3: RED with min_th = max_th = K, q_w = 1, marking instead of dropping). Both sides run
ns-3's TCP defaults (aimdlab's `ns3` profile): SACK + PRR, delayed ACKs, 1000-byte segments,
IW 10, min RTO 1 s, 4 MiB buffers, flows starting uniformly in [0, 1) s, access links 10×
the bottleneck with 1 ms delay, figures over [5 s, duration). Printed: utilization, goodput,
Jain index, retransmissions, mean queue and ECN marks for both, and where aimdlab lies
outside the bounds the project uses for ns-3 (utilization ±2 points, goodput ±3 %, Jain
±0.05, retransmissions ×1.5) the column `outside` names the figures.
"""

from __future__ import annotations

import argparse
import json
import subprocess

import aimdlab  # the installed package (pip install .)
from ns3_side_by_side import peer_row, result_row  # the same figures as the NewReno table (benches/)

# aimdlab's name, ns-3's TypeId.
FAMILY = [
    ("reno", "ns3::TcpNewReno"), ("cubic", "ns3::TcpCubic"), ("highspeed", "ns3::TcpHighSpeed"), ("scalable", "ns3::TcpScalable"),
    ("htcp", "ns3::TcpHtcp"), ("bic", "ns3::TcpBic"), ("illinois", "ns3::TcpIllinois"), ("westwood", "ns3::TcpWestwoodPlus"),
    ("vegas", "ns3::TcpVegas"), ("veno", "ns3::TcpVeno"), ("yeah", "ns3::TcpYeah"), ("bbr", "ns3::TcpBbr"), ("dctcp", "ns3::TcpDctcp"),
]
RATE_MBPS = 20
STEP_K = 20


def setups():
    for rtt_ms in (40, 120):
        for n in (1, 8):
            bdp = RATE_MBPS * 1_000_000 * rtt_ms // 1000 // 8 // 1000  # packets of 1000 payload bytes
            yield {"n": n, "rtt_ms": rtt_ms, "delay": rtt_ms / 2 - 2, "limit": bdp}


def ns3(binary: str, cc: str, s: dict, duration: int, seed: int = 1) -> dict:
    args = [binary, f"--nFlows={s['n']}", f"--bottleneckRate={RATE_MBPS}", f"--bottleneckDelay={s['delay']}", f"--queueLimit={s['limit']}",
            f"--tcp={cc}", "--segSize=1000", f"--duration={duration}", f"--run={seed}"]
    if cc == "ns3::TcpDctcp":
        args += ["--queueDisc=red", f"--redMinTh={STEP_K}", f"--redMaxTh={STEP_K}", "--redQw=1", "--redGentle=false", "--redHardDrop=false", "--ecn=true"]
    else:
        args += ["--queueDisc=fifo"]
    return peer_row(json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout))


def aim(cc: str, s: dict, duration: int, seed: int = 1, tcp: list[str] | None = None) -> dict:
    queue: dict = {"kind": "droptail", "limit": f"{s['limit']}pkt"}
    if cc == "dctcp":
        queue = {"kind": "step", "limit": f"{s['limit']}pkt", "k": f"{STEP_K}pkt"}
    sc = {
        "name": f"ns3-family-{cc}", "seed": seed, "duration": f"{duration}s", "warmup": "5s", "sample_interval": "10ms", "sampled_flows": "none",
        "topology": {"dumbbell": {"bottleneck": {"rate": f"{RATE_MBPS}Mbps", "delay": f"{s['delay']}ms", "queue": queue},
                                  "access": {"rate": f"{10 * RATE_MBPS}Mbps", "delay": "1ms", "queue": {"limit": "1000pkt"}}}},
        "tcp": {"profile": "ns3", "mss": "1000B", "receive_window": "4194304B"},
        "flows": [{"count": s["n"], "cc": cc, "start_jitter": "1s"}],
    }
    # `--tcp FIELD=VALUE`, read as `aimdlab run --set tcp.FIELD=VALUE` reads it.
    return result_row(aimdlab.run(aimdlab.apply_overrides(sc, [f"tcp.{item}" for item in tcp or []])))


def mean_row(rows: list[dict]) -> dict:
    """Each figure's mean over seeds, with its (min, max) under `range`."""
    keys = rows[0].keys()
    return {**{k: sum(r[k] for r in rows) / len(rows) for k in keys}, "range": {k: (min(r[k] for r in rows), max(r[k] for r in rows)) for k in keys}}


def cell(row: dict, c: str) -> str:
    """A figure as the table shows it: with its range over seeds when there were several."""
    fmt = (lambda v: f"{v:.3f}") if c in ("utilization", "goodput_mbps", "jain", "queue_pkts") else (lambda v: f"{v:.0f}")
    lo, hi = (fmt(v) for v in row.get("range", {}).get(c, (row[c], row[c])))
    return fmt(row[c]) if lo == hi else f"{fmt(row[c])} ({lo}–{hi})"


def outside(a: dict, n: dict) -> list[str]:
    """The figures where aimdlab lies outside the project's bounds for ns-3."""
    out = []
    if abs(a["utilization"] - n["utilization"]) > 0.02:
        out.append("utilization")
    if abs(a["goodput_mbps"] / n["goodput_mbps"] - 1) > 0.03:
        out.append("goodput")
    if abs(a["jain"] - n["jain"]) > 0.05:
        out.append("jain")
    lo, hi = sorted((a["retx"], n["retx"]))
    if hi > 1.5 * lo and hi - lo > 10:
        out.append("retx")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ns3", help="the ns-3 peer binary (../shared/peers/ns3/build.sh prints its path)")
    ap.add_argument("--duration", type=int, default=60)
    ap.add_argument("--only", default="", help="comma-separated aimdlab controller names (default: all)")
    ap.add_argument("--json", help="also write every row to this file")
    ap.add_argument("--seeds", type=int, default=1, help="runs per set-up and side, seeds 1..N (default 1)")
    ap.add_argument("--rtt", type=int, choices=(40, 120), help="only this RTT, ms")
    ap.add_argument("--flows", type=int, choices=(1, 8), help="only this many flows")
    ap.add_argument("--tcp", action="append", default=[], metavar="FIELD=VALUE", help="a TCP setting over the ns3 profile, e.g. controller_rtt=echo")
    a = ap.parse_args()
    try:  # before any run: the words `aimdlab run --set` uses
        aimdlab.apply_overrides({}, [f"tcp.{item}" for item in a.tcp])
    except aimdlab.ScenarioError as e:
        ap.error(f"--tcp: {e}")
    if a.seeds < 1:
        ap.error(f"--seeds: {a.seeds} is not allowed; expected at least 1")
    only = {c for c in a.only.split(",") if c}
    unknown = only - {cc for cc, _ in FAMILY}
    if unknown:
        ap.error(f"--only: {', '.join(sorted(unknown))} not in the family; expected some of {', '.join(cc for cc, _ in FAMILY)}")
    cols = ["utilization", "goodput_mbps", "jain", "retx", "queue_pkts", "ecn_marks"]
    print("| controller | RTT | flows | side | " + " | ".join(cols) + " | outside |")
    print("|---|---|---|---|" + "---|" * len(cols) + "---|")
    rows = []
    for cc, typeid in FAMILY:
        if only and cc not in only:
            continue
        for s in setups():
            if (a.rtt and s["rtt_ms"] != a.rtt) or (a.flows and s["n"] != a.flows):
                continue
            seeds = range(1, a.seeds + 1)
            ns, ms = [ns3(a.ns3, typeid, s, a.duration, k) for k in seeds], [aim(cc, s, a.duration, k, a.tcp) for k in seeds]
            n, m = (ns[0], ms[0]) if a.seeds == 1 else (mean_row(ns), mean_row(ms))
            off = outside(m, n)
            for side, row, note in (("ns-3", n, ""), ("aimdlab", m, ", ".join(off) or "—")):
                print(f"| {cc} | {s['rtt_ms']} ms | {s['n']} | {side} | " + " | ".join(cell(row, c) for c in cols) + f" | {note} |", flush=True)
            rows.append({"cc": cc, "rtt_ms": s["rtt_ms"], "flows": s["n"], "ns3": n, "aimdlab": m, "outside": off,
                         **({"ns3_seeds": ns, "aimdlab_seeds": ms} if a.seeds > 1 else {})})
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
