"""Link framing: link-layer bytes per packet count in serialization time, not in IP sizes."""

from __future__ import annotations

import copy

import aimdlab
import pytest
from conftest import dumbbell, run_checked


def test_ethernet_framing_takes_its_share_of_the_new_aimd_utilization_link(examples_dir):
    # The New-AIMD utilization set-up: 1460-byte payloads in 1500-byte IP packets. With 38
    # bytes of Ethernet on the wire (header, FCS, preamble, gap) a full link carries
    # 1460 / 1538 = 94.93 % payload instead of 1460 / 1500 = 97.33 %.
    base = aimdlab.load(examples_dir / "utilization.toml")
    framed = copy.deepcopy(base)
    for link in ("bottleneck", "access"):
        framed["topology"]["dumbbell"][link]["framing"] = "38B"
    for sc, expected in ((base, 1460 / 1500), (framed, 1460 / 1538)):
        r = run_checked(sc)
        b = r.summary["bottleneck"]
        assert b["utilization"] > 0.999
        assert r.summary["goodput_total_bps"] / b["rate_bps"] == pytest.approx(expected, abs=0.001)


def test_framing_is_on_the_wire_not_in_the_byte_counters():
    def run(framing):
        sc = dumbbell(duration="20s", tcp={"mss": "460B"}, flow={"transport": "udp", "app": {"kind": "cbr", "rate": "4Mbps"}})
        sc["topology"]["dumbbell"]["bottleneck"]["framing"] = framing
        return run_checked(sc).summary["bottleneck"]

    plain, framed = run("0B"), run("500B")  # 460 + 40 B packets: framing doubles each one's time
    assert framed["tx_pkts"] == plain["tx_pkts"]
    assert framed["utilization"] == pytest.approx(2 * plain["utilization"], rel=1e-3)


def test_bad_framing_names_the_field():
    sc = dumbbell()
    sc["topology"]["dumbbell"]["access"]["framing"] = "2KB"
    with pytest.raises(aimdlab.ScenarioError, match=r"topology\.dumbbell\.access\.framing: 2000 bytes is out of range; expected 0B to 1000B"):
        aimdlab.validate(sc)
