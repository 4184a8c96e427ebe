"""GAIMD's TCP-friendliness set-ups (friendliness-contention.toml) run in aimdlab and in
ns-2.35 side by side with `aimdlab.crosscheck`: n GAIMD(tcp-friendly, 7/8) and n TCP flows on
the sweep's four bottlenecks, against Reno and SACK, and each group's goodput ratio G/T on both
sides. It tells whether a difference from the paper is the set-up's (ns-2.35 agrees with
aimdlab) or aimdlab's (ns-2.35 agrees with the paper).

    python -m aimdlab.papers.gaimd.crosscheck_friendliness             # n = 8, 3 seeds (~1 min)
    python -m aimdlab.papers.gaimd.crosscheck_friendliness --n 16 --seeds 5

Needs ns-2.35 (`apt-get install ns2`).
"""

from __future__ import annotations

import argparse

import aimdlab
from aimdlab.crosscheck import crosscheck
from aimdlab.package_data import package_folder
from aimdlab.sweep import load_experiment

QUEUES = [("droptail-15M", "15Mbps", {"kind": "droptail", "limit": "125pkt"}),
          ("red-15M", "15Mbps", {"kind": "red", "limit": "125pkt", "auto": True}),
          ("droptail-1.5M", "1.5Mbps", {"kind": "droptail", "limit": "13pkt"}),
          ("red-1.5M", "1.5Mbps", {"kind": "red", "limit": "13pkt", "auto": True})]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=8, help="flows of each kind (default 8)")
    parser.add_argument("--seeds", type=int, default=3, help="seeds on each side (default 3)")
    args = parser.parse_args()
    base = load_experiment(package_folder("experiments") / "gaimd" / "friendliness-contention.toml").scenario
    print("| bottleneck | TCP | G/T aimdlab | G/T ns-2.35 | timeouts aimdlab | timeouts ns-2.35 | drops aimdlab | drops ns-2.35 "
          "| G kbit/s aimdlab / ns-2.35 | T kbit/s aimdlab / ns-2.35 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, rate, queue in QUEUES:
        for recovery in ("reno", "sack"):
            sc = aimdlab.apply_overrides(base, [f"flows[0].count={args.n}", f"flows[1].count={args.n}",
                                                f"topology.dumbbell.bottleneck.rate={rate}", f"flows[1].tcp.recovery={recovery}"])
            sc["topology"]["dumbbell"]["bottleneck"]["queue"] = queue
            check = crosscheck(sc, peer="ns2", seeds=args.seeds)
            flows = check.per_flow

            def group(side: str, gaimd: bool, flows: list = flows) -> float:
                mean = [r.stats(side)[0] for r in flows]
                return sum(mean[:args.n] if gaimd else mean[args.n:]) / args.n

            rows = {r.figure: r for r in check.rows}
            cells = [f"{group(side, True) / group(side, False):.3f}" for side in ("aimdlab", "ns2")]
            for figure in ("timeouts", "drops"):
                cells += [f"{rows[figure].stats(side)[0]:.0f}" for side in ("aimdlab", "ns2")]
            cells += [" / ".join(f"{group(side, gaimd) / 1e3:.1f}" for side in ("aimdlab", "ns2")) for gaimd in (True, False)]
            print(f"| {name} | {recovery} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
