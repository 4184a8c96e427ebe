"""Engine benchmark: bottleneck packets per wall-clock second, events per second, peak memory.

    python benches/engine.py                 # both reference scenarios, 3 repetitions each
    python benches/engine.py --ns3 PATH      # also run the ns-3 peer on scenario (a)
    python benches/engine.py --scaling       # flow-scaling series: 10 ... 100,000 flows
    python benches/engine.py --scaling --flows 10,100,1000   # a shorter series

A third row runs scenario (a) over DCCP CCID-2 (`transport = "dccp"`, Ack Ratio 2 like the
delayed ACKs of (a), initial window 10): the engine time of a DCCP packet against a TCP one.

The last rows run scenario (a) with every flow's Reno written in Python (`aimdlab.Controller`),
in each of its two forms — keeping its own window (`on_ack`, `on_congestion`) and as a rule
over the transport's (`cong_avoid`, `ssthresh`) — and report the cost per Python callback:
(wall with Python Reno − wall with built-in Reno, both through `aimdlab.run`) / number of
Python calls.

The flow-scaling series scales benchmark (a) to N flows: N × 480 kbit/s of bottleneck (40 ms),
a BDP buffer (N × 4.73 packets), access links 10× the bottleneck with 1000-packet FIFOs, the
same TCP, 10 simulated seconds, starts uniform in [0, 1) s, per-flow time series off
(`sampled_flows = "none"`). Per N it reports the engine wall time per bottleneck packet, the
peak RSS growth per flow, and the set-up time (validation, routing, building the simulator,
measured as a run of 1 simulated ms).

Each repetition runs in a fresh process so its peak memory (VmHWM) is its own; the scaling
series repeats sizes up to 1,000 flows at least 5 times (they last under a second, and the
100-flow run is the base of every ratio) and reports the fastest run of each size. The wall
time is that of the engine call (`aimdlab._core.run`: validation, simulation, and handing the
tables to Python). This is a benchmark, not a test: it asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCENARIOS = [HERE / "a-48mbps-100flows.toml", HERE / "b-1gbps-100flows.toml"]
NS3_A = ["--nFlows=100", "--bottleneckRate=48", "--bottleneckDelay=40", "--queueDisc=fifo", "--queueLimit=480",
         "--tcp=ns3::TcpNewReno", "--sack=true", "--segSize=1000", "--duration=100"]


def vm_hwm_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return -1


def timed_run(text: str) -> dict:
    """Runs a scenario (JSON text) through the engine call and returns its wall time, events,
    bottleneck packets (warm-up is 0 s in every benchmark: the whole run) and utilization."""
    from aimdlab import _core

    t0 = time.perf_counter()
    raw = _core.run(text, None)
    wall = time.perf_counter() - t0
    summary = json.loads(raw["summary"])
    return {"wall_s": wall, "events": summary["events"], "bottleneck_pkts": summary["bottleneck"]["tx_pkts"],
            "duration_s": summary["duration_s"], "utilization": summary["bottleneck"]["utilization"]}


DCCP_SUFFIX = "+dccp"


def dccp_variant(scenario: dict) -> dict:
    """Scenario (a) with its flows over DCCP CCID-2 (Ack Ratio 2, initial window 10)."""
    for group in scenario["flows"]:
        group["transport"] = "dccp"
        group["dccp"] = {"ccid": 2, "ack_ratio": 2, "initial_cwnd": 10, "min_rto": "1s"}
    scenario["name"] += "-dccp"
    return scenario


def one(path: str) -> None:
    """Child process: run one scenario once (over DCCP if `path` ends in +dccp) and print its
    measurements as JSON."""
    import aimdlab

    dccp = path.endswith(DCCP_SUFFIX)
    path = path.removesuffix(DCCP_SUFFIX)
    scenario = aimdlab.load(path)
    text = aimdlab.to_json(dccp_variant(scenario) if dccp else scenario)
    base = vm_hwm_kib()
    r = timed_run(text)
    print(json.dumps({"scenario": Path(path).stem + ("-dccp" if dccp else ""), **r, "peak_rss_mib": vm_hwm_kib() / 1024, "baseline_rss_mib": base / 1024}))


def scaling_scenario(flows: int, duration: str = "10s") -> dict:
    """Benchmark (a) scaled to `flows` flows (480 kbit/s of bottleneck each, BDP buffer)."""
    bdp_pkts = max(1, round(flows * 480e3 * 2 * 0.041 / (1040 * 8)))
    return {
        "name": f"scaling-{flows}", "duration": duration, "warmup": "0s", "sample_interval": "100ms",
        "sampled_flows": "none",
        "topology": {"dumbbell": {
            "bottleneck": {"rate": f"{flows * 480}kbps", "delay": "40ms", "queue": {"limit": f"{bdp_pkts}pkt"}},
            "access": {"rate": f"{flows * 4800}kbps", "delay": "1ms", "queue": {"limit": "1000pkt"}}}},
        "tcp": {"mss": "1000B", "delayed_ack": True, "initial_cwnd": 10, "min_rto": "1s", "receive_window": "4MiB"},
        "flows": [{"count": flows, "start_jitter": "1s"}],
    }


def one_scaling(flows: int) -> None:
    """Child process: set-up time (a 1 ms run), then the 10 s run; prints JSON."""
    import aimdlab

    base = vm_hwm_kib()
    setup = timed_run(aimdlab.to_json(scaling_scenario(flows, "1ms")))["wall_s"]
    r = timed_run(aimdlab.to_json(scaling_scenario(flows)))
    print(json.dumps({"flows": flows, "setup_s": setup, **r, "peak_rss_mib": vm_hwm_kib() / 1024, "baseline_rss_mib": base / 1024}))


def scaling(flow_counts, repeat: int) -> None:
    print(f"{'flows':>7} {'setup s':>8} {'wall s':>8} {'bneck pkts':>11} {'us/pkt':>7} {'x at 100':>8} "
          f"{'events/pkt':>10} {'peak MiB':>9} {'KB/flow':>8} {'util':>6}")
    per_pkt_100 = None
    for n in flow_counts:
        runs = []
        # Runs of up to 1,000 flows last under a second, and the 100-flow one is the base of
        # every ratio: repeat them at least 5 times (the best is kept).
        for _ in range(repeat if n > 1000 else max(repeat, 5)):
            out = subprocess.run([sys.executable, __file__, "--one-scaling", str(n)], capture_output=True, text=True)
            if out.returncode != 0:
                print(f"{n:>7} failed: {(out.stderr.strip().splitlines() or ['?'])[-1]}")
                break
            runs.append(json.loads(out.stdout))
        if not runs:
            continue
        r = min(runs, key=lambda x: x["wall_s"])
        us_per_pkt = r["wall_s"] / r["bottleneck_pkts"] * 1e6
        if n == 100:
            per_pkt_100 = us_per_pkt
        ratio = f"{us_per_pkt / per_pkt_100:8.2f}" if per_pkt_100 else f"{'':>8}"
        kb_per_flow = (r["peak_rss_mib"] - r["baseline_rss_mib"]) * 1024 * 1.048576 / n
        print(f"{n:>7} {r['setup_s']:8.2f} {r['wall_s']:8.2f} {r['bottleneck_pkts']:>11,} {us_per_pkt:7.3f} {ratio} "
              f"{r['events'] / r['bottleneck_pkts']:10.2f} {r['peak_rss_mib']:9.1f} {kb_per_flow:8.1f} {r['utilization']:6.3f}")


def one_python_cc(path: str) -> None:
    """Child process: scenario (a) through `aimdlab.run`, first with the built-in Reno, then
    with a Python Reno; prints both wall times and the number of Python callbacks."""
    import aimdlab

    class CountingReno(aimdlab.Controller):
        calls = 0

        def on_ack(self, ack):
            CountingReno.calls += 1
            if ack.in_recovery or ack.newly_acked_pkts == 0:
                return
            self.cwnd += min(ack.newly_acked_pkts, 1) if self.cwnd < self.ssthresh else 1.0 / self.cwnd

        def on_congestion(self, event):
            CountingReno.calls += 1
            self.ssthresh = max(self.cwnd * 0.5, 2.0)
            self.cwnd = 1.0 if event.kind == "timeout" else self.ssthresh

    class CountingRenoRule(aimdlab.Controller):
        calls = 0

        def cong_avoid(self, w, ack):
            CountingRenoRule.calls += 1
            w.aimd_step(1.0)

        def ssthresh(self, w, event):
            CountingRenoRule.calls += 1
            return w.cwnd * 0.5

    scenario = aimdlab.load(path)
    t0 = time.perf_counter()
    builtin = aimdlab.run(scenario)
    wall_builtin = time.perf_counter() - t0
    rows = {}
    for form, cls in [("window", CountingReno), ("rule", CountingRenoRule)]:
        for group in scenario["flows"]:
            group["cc"] = cls()
        t0 = time.perf_counter()
        python = aimdlab.run(scenario)
        wall_python = time.perf_counter() - t0
        same = builtin.flows.to_pandas()["goodput_bps"].equals(python.flows.to_pandas()["goodput_bps"])
        rows[form] = {"wall_python_s": wall_python, "callbacks": cls.calls, "same_results": bool(same)}
    print(json.dumps({"wall_builtin_s": wall_builtin, "forms": rows}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3, help="runs per scenario (the best is reported)")
    ap.add_argument("--ns3", metavar="PATH", help="ns-3 peer binary (shared/peers/ns3/build.sh prints it)")
    ap.add_argument("--scaling", action="store_true", help="run the flow-scaling series instead")
    ap.add_argument("--flows", default="10,100,1000,10000,100000", help="flow counts of the scaling series (comma-separated)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--one-scaling", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--one-python-cc", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        one(args.one)
        return
    if args.one_python_cc:
        one_python_cc(args.one_python_cc)
        return
    if args.one_scaling:
        one_scaling(args.one_scaling)
        return
    if args.scaling:
        scaling([int(x) for x in args.flows.split(",")], args.repeat)
        return
    print(f"{'scenario':22} {'wall s':>8} {'bneck pkts/s':>14} {'events/s':>12} {'events/pkt':>10} {'peak MiB':>9} {'util':>6}")
    for path in [*map(str, SCENARIOS), str(SCENARIOS[0]) + DCCP_SUFFIX]:
        runs = []
        for _ in range(args.repeat):
            out = subprocess.run([sys.executable, __file__, "--one", str(path)], check=True, capture_output=True, text=True)
            runs.append(json.loads(out.stdout))
        r = min(runs, key=lambda x: x["wall_s"])
        pkts_per_s = r["bottleneck_pkts"] / r["wall_s"]
        ev_per_s = r["events"] / r["wall_s"]
        print(f"{r['scenario']:22} {r['wall_s']:8.2f} {pkts_per_s:14,.0f} {ev_per_s:12,.0f} "
              f"{r['events'] / r['bottleneck_pkts']:10.2f} {r['peak_rss_mib']:9.1f} {r['utilization']:6.3f}")
    out = subprocess.run([sys.executable, __file__, "--one-python-cc", str(SCENARIOS[0])], check=True,
                         capture_output=True, text=True)
    r = json.loads(out.stdout)
    for form, f in r["forms"].items():
        per_call_us = (f["wall_python_s"] - r["wall_builtin_s"]) / f["callbacks"] * 1e6
        print(f"(a) with Reno in Python ({form}): {f['wall_python_s']:.2f} s vs built-in {r['wall_builtin_s']:.2f} s, "
              f"{f['callbacks']:,} callbacks -> {per_call_us:.2f} us per callback "
              f"({'identical' if f['same_results'] else 'DIFFERENT'} per-flow goodput)")
    if args.ns3:
        t0 = time.perf_counter()
        out = subprocess.run([args.ns3, *NS3_A], check=True, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        res = json.loads(out.stdout.strip().splitlines()[-1])
        print(json.dumps({k: v for k, v in res.items() if not isinstance(v, list)}, indent=1)[:2000])
        print(f"ns-3 wall (process) {wall:.1f} s")


if __name__ == "__main__":
    main()
