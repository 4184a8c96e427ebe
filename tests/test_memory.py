"""The memory estimate a run is checked against is honest. It covers what a run really takes:
its peak resident memory (of a fresh process, less what it held before the run), and — with
the reserve the default limit keeps for the engine thread (`memory.ADDRESS_SPACE_RESERVE`) —
the address space it takes, which is what a cap such as `ulimit -v` sees. And it is not wildly
more than that address space, so a refused run would really not have fitted.

(Until the run stopped importing pandas, the resident growth included pandas, and the upper
bound was held against it; without pandas a run's resident growth is a few MB, while the
estimate counts address space, allocated whether touched or not.)"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

MEASURE = """
import json, sys
import aimdlab

def status():
    out = {}
    for line in open("/proc/self/status"):
        key = line.split(":")[0]
        if key in ("VmRSS", "VmHWM", "VmSize", "VmPeak"):
            out[key] = int(line.split()[1]) * 1024
    return out

sc = json.loads(sys.argv[1])
estimate = aimdlab.memory_estimate(sc)["total_bytes"]
before = status()
aimdlab.run(sc, max_memory=10**13)
after = status()
print(json.dumps({"estimate": estimate, "resident": after["VmHWM"] - before["VmRSS"], "address_space": after["VmPeak"] - before["VmSize"]}))
"""


def _dumbbell(flows: int, duration: str = "1s", sample_interval: str = "100ms", access_queue=None, pcap=()) -> dict:
    access = {"rate": "10Gbps", "delay": "1ms"}
    if access_queue:
        access["queue"] = access_queue
    return {"duration": duration, "sample_interval": sample_interval, "pcap": list(pcap),
            "topology": {"dumbbell": {"bottleneck": {"rate": "1Gbps", "delay": "10ms", "queue": {"limit": "1000pkt"}}, "access": access}},
            "flows": [{"count": flows}]}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("scenario", [
    _dumbbell(2000),                                          # per-flow and per-link state, routing table
    _dumbbell(100, duration="5s", sample_interval="1ms"),     # time series
    _dumbbell(300, access_queue={"kind": "fq_codel", "flows": 65536}),  # FQ-CoDel on 1200 links
    _dumbbell(10, duration="3s", pcap=["r1->r2", "r2->r1"]),  # link traces of a full 1 Gbit/s link
    {**_dumbbell(10, duration="5s", sample_interval="1s"), "cwnd_trace": "all"},  # every ACK of a full 1 Gbit/s link
], ids=["2000-flows", "time-series", "fq-codel-access", "pcap", "cwnd-trace"])
def test_the_estimate_covers_what_a_run_takes(scenario):
    r = subprocess.run([sys.executable, "-c", MEASURE, json.dumps(scenario)], capture_output=True, check=True, timeout=300)
    m = json.loads(r.stdout)
    from aimdlab.memory import ADDRESS_SPACE_RESERVE

    assert m["estimate"] >= m["resident"], m
    assert m["estimate"] + ADDRESS_SPACE_RESERVE >= m["address_space"], m
    # The upper bound holds the estimate alone: the reserve is for the engine thread's stack
    # and a malloc arena, and whether glibc maps a new arena for that thread or reuses a free
    # one varies from run to run (the 2,000-flow run takes 143 MB of address space here and
    # took 90 MB once in CI, where the old bound, estimate + reserve, failed).
    assert m["estimate"] <= 3 * m["address_space"], m
