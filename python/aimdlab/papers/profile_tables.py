"""Two of the papers' tables run with each stack profile (issue 12): New-AIMD's bottleneck
utilization (new-aimd-utilization.txt, Table 1; the paper ran NCTUns, i.e. the Linux stack)
and MR-AIMD's wired Table 1 (mr-aimd.txt §2.1; the paper ran ns-2's TCP-SACK), the
published numbers beside aimdlab's.

    python -m aimdlab.papers.profile_tables            # both tables, every profile
    python -m aimdlab.papers.profile_tables --seeds 5  # mean over 5 seeds

New-AIMD set-up (the paper's "Materials and methods"): every link 5 Mbit/s and 30 ms, DropTail
100 packets, 2-5 New-AIMD flows entering in the first second, utilization averaged after 5 s.
Silent there, chosen here: 100 s runs, 1460-byte MSS (the profile's own for linux, ns3, ns2),
New-AIMD's `epoch` reading. `utilization` is the bottleneck's busy time (framing counted, as
NCTUns counts it); `goodput/C` the payload delivered over the capacity.

MR-AIMD wired set-up: TCP-SACK flows for 200 s over a 1 Mbit/s, 20 ms RED backbone with a
25-packet buffer; an additive increase a per RTT (AIMD(a, 1/2), GAIMD here); system goodput
and retransmissions for 2 and 4 flows. Silent there, chosen here: ns-2's RED defaults
(ns-2's rules under every profile: min_th 5, max_th 15, max_p 0.1, w_q 0.002, gentle), 1000-byte segments, 10 Mbit/s 1 ms
access links, starts in [0, 1) s; `recovery = "sack"` under every profile, which the ns2
profile's `recovery_rules = "ns2"` makes ns-2's Sack1 (docs/explanation/profiles.md).
"""

from __future__ import annotations

import argparse
from statistics import mean

import aimdlab
from aimdlab.sweep.executor import ordered_map

PROFILES = ("rfc", "linux", "linux26", "ns3", "ns2")

#: new-aimd-utilization.txt, Table 1: flows → average bottleneck utilization, %.
NEW_AIMD_UTILIZATION = {2: 94.73957, 3: 94.68565, 4: 94.59935, 5: 94.48913}

#: mr-aimd.txt, Table 1 (wired): a → (system goodput KB/s with 2 and 4 flows, retransmitted
#: packets with 2 flows, with 4 flows). The text extraction of the table interleaves its
#: cells; this is the reading in which goodput is the same for every a (as the paper says)
#: and retransmissions grow with a. The goodput column is shared by 2 and 4 flows.
MR_AIMD_WIRED = {2.0: (118.9, 742, 1653), 1.5: (118.9, 548, 1777), 1.0: (118.8, 278, 704), 0.5: (118.9, 172, 452)}


def new_aimd(profile: str, flows: int, seed: int) -> dict:
    link = {"rate": "5Mbps", "delay": "30ms", "queue": {"kind": "droptail", "limit": "100pkt"}}
    tcp = {"profile": profile}
    if profile == "rfc":
        tcp["mss"] = "1460B"
    return {"name": f"new-aimd-util-{profile}-{flows}", "duration": "100s", "warmup": "5s", "seed": seed, "sampled_flows": "none",
            "topology": {"dumbbell": {"bottleneck": link, "access": link}}, "tcp": tcp,
            "flows": [{"count": flows, "cc": "new_aimd", "start_jitter": "1s"}]}


def mr_aimd(profile: str, flows: int, a: float, seed: int) -> dict:
    red = {"kind": "red", "limit": "25pkt", "min_th": "5pkt", "max_th": "15pkt", "max_p": 0.1, "w_q": 0.002, "gentle": True, "variant": "ns2"}
    return {"name": f"mr-aimd-table1-{profile}-{flows}-{a}", "duration": "200s", "seed": seed, "sampled_flows": "none",
            "topology": {"dumbbell": {"bottleneck": {"rate": "1Mbps", "delay": "20ms", "queue": red}, "access": {"rate": "10Mbps", "delay": "1ms"}}},
            "tcp": {"profile": profile, "mss": "1000B", "sack": True, "recovery": "sack"},
            "flows": [{"count": flows, "cc": {"name": "gaimd", "alpha": a, "beta": 0.5}, "start_jitter": "1s"}]}


def _utilization(args) -> tuple:
    profile, flows, seed = args
    r = aimdlab.run(new_aimd(profile, flows, seed))
    b = r.summary["bottleneck"]
    return 100 * b["utilization"], 100 * r.summary["goodput_total_bps"] / b["rate_bps"]


def _mr_aimd(args) -> tuple:
    profile, flows, a, seed = args
    r = aimdlab.run(mr_aimd(profile, flows, a, seed))
    return r.summary["goodput_total_bps"] / 8000, r.summary["retransmitted_pkts"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=1, help="seeds per cell (mean reported)")
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    a = ap.parse_args()
    seeds = range(1, a.seeds + 1)
    cells = [(p, n, s) for p in PROFILES for n in NEW_AIMD_UTILIZATION for s in seeds]
    util = dict(zip(cells, ordered_map(_utilization, cells, jobs=a.jobs)))
    print("New-AIMD bottleneck utilization, % (new-aimd-utilization.txt Table 1; paper: NCTUns, Linux stack)\n")
    print("| flows | paper | " + " | ".join(f"{p} utilization | {p} goodput/C" for p in PROFILES) + " |")
    print("|---|---|" + "---|---|" * len(PROFILES))
    for n, paper in NEW_AIMD_UTILIZATION.items():
        row = [f"{mean(util[(p, n, s)][i] for s in seeds):.2f}" for p in PROFILES for i in (0, 1)]
        print(f"| {n} | {paper:.2f} | " + " | ".join(row) + " |")

    mr_cells = [(p, n, x, s) for p in PROFILES for n in (2, 4) for x in MR_AIMD_WIRED for s in seeds]
    mr = dict(zip(mr_cells, ordered_map(_mr_aimd, mr_cells, jobs=a.jobs)))
    print("\nMR-AIMD Table 1, wired: system goodput KB/s and retransmitted packets (mr-aimd.txt §2.1; paper: ns-2 TCP-SACK)\n")
    print("| a | flows | paper goodput | paper retx | " + " | ".join(f"{p} goodput | {p} retx" for p in PROFILES) + " |")
    print("|---|---|---|---|" + "---|---|" * len(PROFILES))
    for x, (goodput, retx2, retx4) in MR_AIMD_WIRED.items():
        for n, retx in ((2, retx2), (4, retx4)):
            row = [f"{mean(mr[(p, n, x, s)][0] for s in seeds):.1f} | {mean(mr[(p, n, x, s)][1] for s in seeds):.0f}" for p in PROFILES]
            print(f"| {x} | {n} | {goodput} | {retx} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
