"""The user's whole path, timed as whole processes: what a researcher waits for, beside the
engine alone.

    python benches/path.py                      # every row, 5 alternated runs each
    python benches/path.py --runs 9 --ns3 PATH  # and the ns-3 peer on the same scenario
    python benches/path.py --skip reproduce     # without the 20 s row
    python benches/path.py --work /dev/shm      # files written to memory: aimdlab's own cost

Rows (scenario S3 is benches/a-48mbps-100flows.toml: 100 Reno flows, 48 Mbit/s RED+ECN,
100 s, 10 ms samples):

- engine alone: a Python process that loads the scenario and calls the engine
  (`aimdlab._core.run`), nothing else;
- `aimdlab run --no-figure` and `aimdlab run` (with its figure) of S3;
- the 6,000-flow dumbbell (1 Gbit/s, 1 s) with its figure;
- `aimdlab reproduce all --quick` into an empty folder;
- a sweep's overhead per run at `--jobs 1`: the slope of wall time from a 40-run to an 80-run
  sweep of 10 ms runs (in one process, so its start-up is not in it), less the engine time
  their journals record. Each run writes eight files: the disk's cost of creating them is in
  this row, and on some disks it varies from minute to minute (`--work` on a tmpfs such as
  /dev/shm leaves it out).

Each pair (a row and the engine alone) runs alternately, A B A B ..., so that a machine whose
speed drifts affects both; the medians are printed. With `--ns3` the ns-3 3.44 peer
(../shared/peers/ns3/) runs S3 too, alternated with the engine. This is a benchmark: it
asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
S3 = ROOT / "benches" / "a-48mbps-100flows.toml"
ENGINE = "import json, sys, tomllib; from aimdlab import _core; " \
         "_core.run(json.dumps(tomllib.load(open(sys.argv[1], 'rb'))), None, _core.RunControl(), None, 8 << 30)"
SIX_THOUSAND = """duration = "1s"
[topology.dumbbell]
bottleneck = { rate = "1Gbps", delay = "10ms", queue = { limit = "1000pkt" } }
access = { rate = "10Gbps", delay = "1ms" }
[[flows]]
count = 6000
"""
SWEEP = """name = "overhead"
seeds = 20
measures = ["bottleneck.utilization"]
[scenario]
duration = "10ms"
topology = { dumbbell = { bottleneck = { rate = "10Mbps", delay = "1ms" }, access = { rate = "100Mbps", delay = "1ms" } } }
flows = [{ count = 1 }]
[axes]
"flows[0].count" = [1, 2]
"""


def wall(cmd, cwd: Path) -> float:
    """Seconds of one whole process."""
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def alternated(a, b, runs: int, cwd: Path):
    """Medians of `a` and `b` run in turn (after one warm-up each)."""
    wall(a, cwd), wall(b, cwd)
    ta, tb = [], []
    for _ in range(runs):
        ta.append(wall(a, cwd))
        tb.append(wall(b, cwd))
    return statistics.median(ta), statistics.median(tb)


def sweep_overhead_s(work: Path, runs: int) -> float:
    """Seconds a sweep spends per run beside the engine, at `--jobs 1` (see the module doc)."""
    import tomllib
    from aimdlab.sweep import parse_experiment, run_sweep

    def one(seeds: int) -> float:
        exp = parse_experiment(tomllib.loads(SWEEP.replace("seeds = 20", f"seeds = {seeds}")), work, "overhead")
        shutil.rmtree(work / f"sw{seeds}", ignore_errors=True)
        t0 = time.perf_counter()
        run_sweep(exp, work / f"sw{seeds}", jobs=1)
        t = time.perf_counter() - t0
        journal = [json.loads(line) for line in (work / f"sw{seeds}" / "journal.jsonl").read_text().splitlines()]
        return t - sum(j["engine_wall_s"] or 0 for j in journal)

    one(5)  # warm-up: imports, caches
    walls: dict = {20: [], 40: []}
    for _ in range(runs):
        for seeds in walls:
            walls[seeds].append(one(seeds))
    return (statistics.median(walls[40]) - statistics.median(walls[20])) / 40


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="alternated runs per row (default 5)")
    ap.add_argument("--ns3", help="the ns-3 peer binary (../shared/peers/ns3/build.sh prints its path)")
    ap.add_argument("--skip", action="append", default=[], choices=["reproduce", "sweep", "6000"], help="leave a row out")
    ap.add_argument("--work", type=Path, default=None, help="the folder the rows write into (default: a new temporary folder)")
    args = ap.parse_args()
    aimdlab = shutil.which("aimdlab") or sys.exit("aimdlab is not on PATH: pip install . first")
    engine = [sys.executable, "-c", ENGINE, str(S3)]
    work = Path(tempfile.mkdtemp(prefix="aimdlab-path-", dir=args.work))
    rows = []

    run_nofig, eng = alternated([aimdlab, "run", str(S3), "--out", "r", "--no-figure"], engine, args.runs, work)
    rows.append(("S3, engine alone", eng, ""))
    rows.append(("S3, aimdlab run --no-figure", run_nofig, f"engine + {run_nofig - eng:.2f} s"))
    run_fig, eng2 = alternated([aimdlab, "run", str(S3), "--out", "r"], engine, args.runs, work)
    rows.append(("S3, aimdlab run (with its figure)", run_fig, f"engine + {run_fig - eng2:.2f} s"))
    if args.ns3:
        ns3 = [args.ns3, "--nFlows=100", "--bottleneckRate=48", "--bottleneckDelay=40", "--queueDisc=red", "--queueLimit=480",
               "--ecn=true", "--tcp=ns3::TcpNewReno", "--segSize=1000", "--duration=100"]
        t_ns3, eng3 = alternated(ns3, engine, max(1, args.runs // 2), work)
        rows.append(("S3, ns-3 3.44 peer", t_ns3, f"{t_ns3 / eng3:.0f}x the engine, {t_ns3 / run_fig:.0f}x aimdlab run"))
    if "6000" not in args.skip:
        (work / "d6000.toml").write_text(SIX_THOUSAND)
        t6, t6n = alternated([aimdlab, "run", "d6000.toml", "--out", "r6"], [aimdlab, "run", "d6000.toml", "--out", "r6n", "--no-figure"],
                             args.runs, work)
        rows.append(("6,000 flows, aimdlab run (with its figure)", t6, f"--no-figure {t6n:.2f} s"))
    if "reproduce" not in args.skip:
        t_rep = wall([aimdlab, "reproduce", "all", "--quick", "--out", "rep", "--experiments", str(ROOT / "experiments")], work)
        rows.append(("aimdlab reproduce all --quick (empty store)", t_rep, "one run"))
    if "sweep" not in args.skip:
        per_run_ms = 1000 * sweep_overhead_s(work, args.runs)
        rows.append(("sweep overhead per run (--jobs 1)", per_run_ms / 1000,
                     f"{per_run_ms:.1f} ms: the slope from 40 to 80 runs, engine time taken out"))
    width = max(len(r[0]) for r in rows)
    print(f"{'what':<{width}}  {'wall s':>7}  notes")
    for what, t, note in rows:
        print(f"{what:<{width}}  {t:>7.2f}  {note}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
