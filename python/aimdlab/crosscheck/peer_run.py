"""What every peer's run shares: its program run on an input file in a folder that keeps both,
its snapshots checked, and its figures over the measurement window in aimdlab's definitions.

A peer program (`ns` on an OTcl script, the ns-3 program on a plan) prints `W ...` at the
start of the window and `E ...` at its end; each peer module parses its own lines and gives
`window_figures` what a flow delivered, retransmitted and timed out between the two.
"""

from __future__ import annotations

import math
import os
import subprocess
from typing import Any, Callable, Dict, List, Sequence, Type

__all__ = ["jain", "run_program", "window_figures"]


def run_program(command: List[str], text: str, folder: str, name: str, parse: Callable[[str], Dict[str, Any]],
                error: Type[Exception], what: str, timeout_s: float) -> Dict[str, Any]:
    """Writes `text` to `folder/name`, runs `command + [name]` there, keeps what it printed
    beside it (`.out`), and returns `parse(stdout)` — an `error` naming the file when the
    program fails, runs out of `timeout_s`, or prints no `W` and `E` snapshots."""
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    try:
        done = subprocess.run([*command, name], cwd=folder, capture_output=True, text=True, timeout=timeout_s,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise error(f"{what} did not finish {path} within {timeout_s:g} s") from None
    with open(os.path.splitext(path)[0] + ".out", "w", encoding="utf-8") as f:
        f.write(done.stdout + done.stderr)
    snaps = parse(done.stdout)
    if done.returncode != 0 or not {"W", "E"} <= set(snaps):
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise error(f"{what} failed on {path} (exit {done.returncode}): {' | '.join(tail)}")
    return snaps


def jain(xs: Sequence[float]) -> float:
    """Jain's index (Σx)² / (n·Σx²) of the finite values, as the engine computes it."""
    v = [x for x in xs if math.isfinite(x)]
    sq = sum(x * x for x in v)
    return sum(v) ** 2 / (len(v) * sq) if v and sq > 0 else math.nan


def window_figures(plan: Dict[str, Any], w: Dict[str, Any], e: Dict[str, Any], delivered_bytes: List[float],
                   retransmitted: List[float], timeouts: List[float]) -> Dict[str, Any]:
    """A peer run's figures between its snapshots `w` and `e` (bytes that left the bottleneck,
    its drops and queue integral), with each flow's payload delivered, retransmissions and
    timeouts over the window: a flow's goodput is over its own part of the window (from its
    start when it started late), the total over the whole window, as aimdlab's are."""
    window = plan["duration_s"] - plan["warmup_s"]
    own = [plan["duration_s"] - max(plan["warmup_s"], f["start_s"]) for f in plan["flows"]]
    goodput = [d * 8 / s if s > 0 else math.nan for d, s in zip(delivered_bytes, own)]
    return {
        "utilization": (e["bytes"] - w["bytes"]) * 8 / (plan["bottleneck"]["rate_bps"] * window),
        "goodput_total_bps": sum(delivered_bytes) * 8 / window,
        "goodput_bps": goodput,
        "jain_index": jain(goodput),
        "own_window_s": own,
        "flow_retransmitted_pkts": retransmitted,
        "flow_timeouts": timeouts,
        "retransmitted_pkts": sum(retransmitted),
        "timeouts": sum(timeouts),
        "drops": e["drops"] - w["drops"],
        "queue_mean_pkts": (e["queue_integral"] - w["queue_integral"]) / window,
    }
