"""Cache lines per bottleneck packet: how many 64-byte lines the event loop brings into a 1 MiB
cache per packet, counted by a cache simulator (valgrind's cachegrind), overall and by the
source that touches them.

    python benches/cache_lines.py                      # 100 and 2,000 flows of the scaling scenario
    python benches/cache_lines.py --flows 2000 --duration 5s --top 25
    python benches/cache_lines.py --cache 32MiB --flows 10000 --duration 3s

Why: with thousands of flows the engine's time per packet is set by the lines it must fetch
from beyond the core's own cache (1 MiB of L2 on the machines this project is measured on).
Wall time on a shared machine moves by several percent from run to run, more than a layout
change moves it; this count does not move at all. It runs the scaling scenario of
`benches/engine.py` (N × 480 kbit/s, BDP buffer, access links 10× the bottleneck, series
off) through the engine alone (`cargo build --release --example run_json`), once for the
given duration and once for 1 simulated ms, and subtracts the second: what remains is the
event loop's, without building the network and the results.

Read and write misses of the simulated last level are both counted (a write to a line that
is not in cache fetches it too). The simulator models no hardware prefetcher, so a queue read
front to back counts in full although a CPU streams it: the per-source rows say which is which.
Fewer lines is necessary for a faster large run, not sufficient: a change that costs
instructions can still lose (64-byte packets with SACK blocks packed in them cut the count by
15 % at 2,000 flows and ran 1.04 times slower at 10,000), so confirm with alternated runs of
the engine. A benchmark, not a test; it needs valgrind and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))


LL_WAYS = 8
"""Associativity of the simulated last level (valgrind needs its set count a power of two)."""


def parse_cache(text: str) -> int:
    """Bytes of the simulated last level, in the scenario units (`aimdlab.memory.parse_size`),
    checked against what cachegrind accepts: 8 ways of 64-byte lines in a power-of-two number
    of sets."""
    from aimdlab import ScenarioError
    from aimdlab.memory import parse_size

    try:
        size = parse_size(text, "--cache")
    except ScenarioError as e:
        raise SystemExit(str(e)) from None
    sets, rest = divmod(size, LL_WAYS * 64)
    if rest or sets & (sets - 1):
        raise SystemExit(f"--cache: {text!r} is not a size cachegrind can simulate; expected a power of two "
                         f"of at least {LL_WAYS * 64} bytes, e.g. 64KiB, 1MiB or 32MiB")
    return size


def engine_binary() -> Path:
    subprocess.run(["cargo", "build", "--quiet", "--release", "-p", "aimdlab-core", "--example", "run_json"], cwd=ROOT, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / "release" / "examples" / "run_json"


def scenario_json(flows: int, duration: str) -> str:
    import aimdlab
    import engine

    return aimdlab.to_json(engine.scaling_scenario(flows, duration))


def misses_by_source(out_file: Path) -> dict[str, int]:
    """Last-level read + write misses per `file:function` of a cachegrind output file."""
    by: dict[str, int] = defaultdict(int)
    fl = fn = ""
    for line in out_file.read_text().splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
            dlmr, dlmw = events.index("DLmr"), events.index("DLmw")
        elif line.startswith("fl="):
            fl = line[3:]
        elif line.startswith("fn="):
            fn = line[3:]
        elif line and line[0].isdigit():
            counts = line.split()[1:]
            n = sum(int(counts[i]) for i in (dlmr, dlmw) if i < len(counts))
            if n:
                by[f"{short_file(fl)}:{short_fn(fn)}"] += n
    return by


def short_file(path: str) -> str:
    for marker in ("crates/aimdlab-core/src/", "library/"):
        if marker in path:
            return path.split(marker, 1)[1]
    return Path(path).name


def short_fn(name: str) -> str:
    name = re.sub(r"aimdlab_core::", "", name)
    return name if len(name) <= 70 else name[:67] + "..."


def cachegrind(binary: Path, scenario: Path, cache_bytes: int, out: Path) -> dict:
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", f"--LL={cache_bytes},8,64", "--D1=49152,12,64",
           f"--cachegrind-out-file={out}", str(binary), str(scenario)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        # The engine's own message (a bad scenario field) comes before valgrind's summary.
        lines = [ln for ln in r.stderr.splitlines() if not ln.startswith("==")]
        raise SystemExit(f"the engine failed under cachegrind: {lines[-1] if lines else r.returncode}")
    return json.loads(r.stdout)


def measure(binary: Path, flows: int, duration: str, cache_bytes: int, work: Path) -> tuple[int, dict[str, int]]:
    """Bottleneck packets and the event loop's misses by source for `flows` flows."""
    runs = {}
    for label, d in (("full", duration), ("setup", "1ms")):
        scen = work / f"s{flows}-{label}.json"
        scen.write_text(scenario_json(flows, d))
        print(f"  {flows:,} flows, {d}: running under cachegrind ...", file=sys.stderr, flush=True)
        summary = cachegrind(binary, scen, cache_bytes, work / f"cg{flows}-{label}.out")
        runs[label] = (summary["bottleneck"]["tx_pkts"], misses_by_source(work / f"cg{flows}-{label}.out"))
    (pkts, full), (setup_pkts, setup) = runs["full"], runs["setup"]
    loop = {k: v - setup.get(k, 0) for k, v in full.items()}
    return pkts - setup_pkts, loop


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog="example: python benches/cache_lines.py --flows 2000 --duration 5s",
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--flows", default="100,2000", help="comma-separated flow counts (default 100,2000)")
    ap.add_argument("--duration", default="5s", help="simulated time per run (default 5s)")
    ap.add_argument("--cache", default="1MiB", help="simulated last-level cache size (default 1MiB, an L2)")
    ap.add_argument("--top", type=int, default=20, help="rows of the per-source table (default 20)")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed; this benchmark counts cache lines with its cachegrind tool")
    try:
        flows = [int(f) for f in args.flows.split(",")]
    except ValueError:
        raise SystemExit(f"--flows: {args.flows!r} is not a list of flow counts; expected e.g. 100,2000") from None
    if any(n < 1 for n in flows):
        raise SystemExit(f"--flows: {args.flows!r} has a count below 1")
    cache = parse_cache(args.cache)
    binary = engine_binary()
    with tempfile.TemporaryDirectory() as tmp:
        results = [(n, *measure(binary, n, args.duration, cache, Path(tmp))) for n in flows]
    for n, pkts, _ in results:
        if pkts <= 0:
            raise SystemExit(f"--duration: {args.duration} sends no bottleneck packet beyond the 1 ms set-up run at "
                             f"{n:,} flows; expected a longer run, e.g. 3s")
    print(f"lines fetched into a {args.cache} last-level cache per bottleneck packet (event loop only)")
    print(f"{'flows':>7} {'bneck pkts':>11} {'lines/pkt':>10}")
    for n, pkts, loop in results:
        print(f"{n:>7,} {pkts:>11,} {sum(loop.values()) / pkts:10.2f}")
    n, pkts, loop = results[-1]
    print(f"\nby source at {n:,} flows (lines per bottleneck packet):")
    for key, v in sorted(loop.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{v / pkts:8.3f}  {key}")


if __name__ == "__main__":
    main()
