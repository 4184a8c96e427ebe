"""Payload is payload (DESIGN.md): goodput and `delivered_bytes` count what the applications
handed over, never header or option bytes — for every example, every stack profile and every
transport, byte for byte.

Before this was checked, a TCP segment carrying the timestamps option (the linux and ns3
profiles) was credited with mss + 12 bytes: a 2,000,000-byte transfer "delivered" 2,016,584.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Dict

import aimdlab
import pytest
from aimdlab.package_data import package_folder
from conftest import dumbbell

EXAMPLES = sorted(package_folder("examples").glob("*.toml"))
PROFILES = ["rfc", "linux", "linux26", "ns3", "ns2"]
# Odd, so that the last segment is short under every MSS a profile or example sets.
TRANSFER_BYTES = 123_457
# Header bytes of a data packet by transport, when a scenario does not set them: IP + UDP as
# aimdlab counts a UDP packet (the `tcp.header` default), DCCP's `dccp.data_header` default.
UDP_HEADER_BYTES = 40
DCCP_HEADER_BYTES = 36


def is_tcp_group(group: Dict[str, Any]) -> bool:
    """A group runs TCP when it says so, or says nothing and its source does not pace itself."""
    self_paced = group.get("app", {}).get("kind", "bulk") not in ("bulk", "finite")
    return group.get("transport", "udp" if self_paced else "tcp") == "tcp"


def heavy_loss(path: Path) -> bool:
    """Whether the example loses at least 10 % of packets on a link."""
    dumbbell_ = (aimdlab.load(path).get("topology") or {}).get("dumbbell") or {}
    losses = [(dumbbell_.get(k) or {}).get("loss") for k in ("bottleneck", "access")]
    return any(isinstance(x, dict) and float(x.get("rate") or 0) >= 0.1 for x in losses)


def under_profile(path: Path, profile: str) -> Dict[str, Any]:
    """The example under `profile`, each TCP group sending one finite transfer of
    `TRANSFER_BYTES`, measured from 0."""
    sc = copy.deepcopy(aimdlab.load(path))
    sc.setdefault("tcp", {})["profile"] = profile
    sc["warmup"] = "0s"
    for group in sc["flows"]:
        group.get("tcp", {}).pop("profile", None)
        if is_tcp_group(group):
            group["app"] = {"kind": "finite", "size": f"{TRANSFER_BYTES}B"}
    return sc


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_delivers_exactly_the_payload_its_applications_handed_over(path, profile):
    flows = aimdlab.run(under_profile(path, profile)).flows.to_pandas()
    tcp = flows[flows["transport"] == "tcp"]
    unreliable = flows[flows["transport"] != "tcp"]
    # TCP is reliable: a finished transfer delivered its application's bytes, no more.
    done = tcp[tcp["completion_time_s"].notna()]
    assert (done["delivered_bytes"] == TRANSFER_BYTES).all(), done["delivered_bytes"].tolist()
    assert (done["payload_sent_bytes"] == TRANSFER_BYTES).all(), done["payload_sent_bytes"].tolist()
    # Every transfer finishes, but under heavy link loss: at a 30 % packet error rate ns-2's
    # backoff (and the ns2 profile's) can outlast the run — ns-2.35 itself left 1 of 20 such
    # transfers unfinished after 200 s (MR-AIMD's wireless example, 10 seeds). An unfinished
    # one delivered less than it was given, and never more than it sent.
    unfinished = tcp[tcp["completion_time_s"].isna()]
    assert unfinished.empty or heavy_loss(path), unfinished[["flow", "delivered_bytes"]]
    assert (unfinished["delivered_bytes"] < TRANSFER_BYTES).all() and (
        unfinished["delivered_bytes"] <= unfinished["payload_sent_bytes"]).all(), unfinished.to_dict()
    # UDP and DCCP resend nothing and never deliver a packet twice: what arrived on the wire is
    # the payload delivered plus one header per packet, exactly; what was lost or is still in
    # flight is what was sent and not delivered.
    for _, f in unreliable.iterrows():
        header = DCCP_HEADER_BYTES if f["transport"].startswith("dccp") else UDP_HEADER_BYTES
        assert f["received_bytes"] == f["delivered_bytes"] + f["received_pkts"] * header, f.to_dict()
        assert 0 < f["delivered_bytes"] <= f["payload_sent_bytes"], f.to_dict()
    assert len(tcp) + len(unreliable) == len(flows) > 0


def cbr_for_five_seconds(transport: str, profile: str) -> Dict[str, Any]:
    """A 1 Mbit/s constant-bit-rate source over an uncongested, lossless path, stopped at 5 s
    and given 5 s to drain: nothing is lost or left in flight."""
    flow = {"transport": transport, "stop": "5s", "app": {"kind": "cbr", "rate": "1Mbps"}}
    if transport == "tcp":
        flow["cc"] = "reno"
    return dumbbell(rate="10Mbps", buffer="1000pkt", duration="10s", tcp={"profile": profile}, flow=flow)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("transport", ["tcp", "udp", "dccp"])
def test_without_loss_every_transport_delivers_all_it_sent_and_counts_no_header(transport, profile):
    sc = cbr_for_five_seconds(transport, profile)
    sc["tcp"].pop("mss")  # the profile's own MSS (1448 on linux, 536 on ns3)
    f = aimdlab.run(sc).flows.to_pandas().iloc[0]
    assert f["payload_sent_bytes"] > 500_000  # 1 Mbit/s for 5 s: 625,000 bytes offered
    assert f["delivered_bytes"] == f["payload_sent_bytes"]
    assert f["goodput_bps"] == pytest.approx(f["delivered_bytes"] * 8 / 10.0)
    # The wire carried more than the payload: every packet's headers.
    assert f["received_bytes"] > f["delivered_bytes"]


def test_the_total_goodput_never_exceeds_the_bottleneck_with_a_late_flow():
    # goodput_total_bps was the sum of the flows' goodputs, each over its own part of the
    # window: a flow that joins late counted its 5 s rate as if it had run all 20 s, and the
    # "total" came out above the link's 10 Mbit/s.
    sc = dumbbell(rate="10Mbps", duration="20s", buffer="50pkt", flows=1)
    sc["flows"].append({"count": 1, "start": "15s"})
    r = aimdlab.run(sc)
    flows = r.flows.to_pandas()
    assert flows["goodput_bps"].sum() > 10e6, "the per-flow rates alone do add up past the link"
    total = r.summary["goodput_total_bps"]
    assert total == flows["delivered_bytes"].sum() * 8 / 20.0
    assert 0.9 * 10e6 < total <= 10e6
    assert r.summary["goodput_mean_bps"] == flows["goodput_bps"].mean()
