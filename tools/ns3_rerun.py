"""Reruns the ns-3 side of a kept crosscheck with some of ns-3's defaults changed, to test
whether one of ns-3's conventions is the cause of a difference:

    aimdlab crosscheck examples/long-delay.toml --with ns3 --seeds 12 --out ld
    python tools/ns3_rerun.py ld --default ns3::TcpSocket::TcpNoDelay=false

Each plan the crosscheck kept (`ld/ns3/seed<k>.txt`) runs again with the given `default`
lines added (into `ld/ns3-rerun/`), and the bottleneck's utilization and mean queue over the
measured window are printed per seed and on average, beside the kept run's.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path
from typing import Any, Dict, List, Tuple

from aimdlab.crosscheck import ns3


def _window(plan_text: str, snaps: Dict[str, Any]) -> Tuple[float, float]:
    """(utilization, mean queue in packets) of one run's measured window."""
    rate_bps = float(next(line.split()[1] for line in plan_text.splitlines() if line.startswith("bottleneck ")))
    w, e = snaps["W"], snaps["E"]
    seconds = e["t"] - w["t"]
    return (e["bytes"] - w["bytes"]) * 8 / (rate_bps * seconds), (e["queue_integral"] - w["queue_integral"]) / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a crosscheck --out folder of an ns-3 crosscheck")
    parser.add_argument("--default", action="append", default=[], metavar="NAME=VALUE",
                        help="an ns-3 attribute default to add, e.g. ns3::TcpSocket::TcpNoDelay=false (repeatable)")
    args = parser.parse_args()
    plans = sorted((args.folder / "ns3").glob("seed*.txt"), key=lambda p: int(p.stem[4:]))
    if not plans:
        parser.error(f"{args.folder}/ns3 holds no seed<k>.txt plans: give the --out folder of an ns-3 crosscheck")
    extra = []
    for spec in args.default:
        name, sep, value = spec.partition("=")
        if not sep or not name.startswith("ns3::"):
            parser.error(f"--default {spec}: expected NAME=VALUE with NAME an ns-3 attribute (ns3::Class::Attribute)")
        extra.append(f"default {name} {value}")
    out = args.folder / "ns3-rerun"
    out.mkdir(exist_ok=True)
    kept: List[Tuple[float, float]] = []
    rerun: List[Tuple[float, float]] = []
    print("| seed | utilization kept | utilization rerun | mean queue kept | mean queue rerun |")
    print("|---|---|---|---|---|")
    for plan in plans:
        text = plan.read_text()
        before = _window(text, ns3.parse_output((plan.parent / f"{plan.stem}.out").read_text()))
        lines = text.splitlines()
        at = max(i for i, line in enumerate(lines) if line.startswith("default ")) + 1
        changed = "\n".join(lines[:at] + extra + lines[at:]) + "\n"
        after = _window(changed, ns3.run_plan(changed, str(out), name=plan.name))
        kept.append(before)
        rerun.append(after)
        print(f"| {plan.stem[4:]} | {before[0]:.4f} | {after[0]:.4f} | {before[1]:.2f} | {after[1]:.2f} |", flush=True)
    mean = statistics.mean
    print(f"| mean | {mean(k[0] for k in kept):.4f} | {mean(r[0] for r in rerun):.4f} "
          f"| {mean(k[1] for k in kept):.2f} | {mean(r[1] for r in rerun):.2f} |")


if __name__ == "__main__":
    main()
