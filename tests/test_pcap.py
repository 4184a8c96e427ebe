"""libpcap traces of chosen links (`pcap = [...]`, `aimdlab run --pcap LINK`): tshark reads
them, and what it finds agrees with aimdlab's own counters — or the difference is explained."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections import Counter

import aimdlab
import pytest
from conftest import dumbbell, run_checked

TSHARK = shutil.which("tshark")
if TSHARK is None and os.environ.get("AIMDLAB_REQUIRE_TSHARK"):
    raise RuntimeError("tshark is required here (AIMDLAB_REQUIRE_TSHARK is set) but not installed")
needs_tshark = pytest.mark.skipif(TSHARK is None, reason="tshark is not installed (apt-get install tshark)")


def tshark(path, *args):
    out = subprocess.run([TSHARK, "-r", str(path), *args], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if line]


def count(path, display_filter):
    return len(tshark(path, "-Y", display_filter))


RETRANSMISSION = "tcp.analysis.retransmission || tcp.analysis.fast_retransmission || tcp.analysis.out_of_order"


@pytest.fixture(scope="module")
def four_flows(tmp_path_factory):
    """4 ECN flows through RED (a buffer they never fill), traces of the bottleneck and of the
    four access links; the flows stop at 8 s, so by 10 s no packet is still on its way."""
    sc = dumbbell(duration="10s", flows=4, tcp={"ecn": True}, flow={"stop": "8s"})
    sc["topology"]["dumbbell"]["bottleneck"]["queue"] = {"kind": "red", "limit": "1000pkt", "min_th": "5pkt", "max_th": "30pkt", "ecn": True}
    sc["pcap"] = ["r1->r2", "s0->r1", "s1->r1", "s2->r1", "s3->r1"]
    r = run_checked(sc)
    folder = tmp_path_factory.mktemp("pcap") / "run"
    r.save(folder)
    return r, folder


@needs_tshark
def test_tshark_counts_every_packet_aimdlab_transmitted_on_the_link(four_flows):
    r, folder = four_flows
    links = r.links.to_pandas().set_index("name")
    assert len(tshark(folder / "r1-r2.pcap")) == links.loc["r1->r2", "tx_pkts"] > 1000
    assert len(tshark(folder / "s2-r1.pcap")) == links.loc["s2->r1", "tx_pkts"]


def data_segments(path):
    """(sender address, raw sequence number) → copies of that segment in the trace."""
    return Counter(tuple(line.split("\t")) for line in tshark(path, "-Y", "tcp.len > 0", "-T", "fields", "-e", "ip.src", "-e", "tcp.seq_raw"))


@needs_tshark
def test_tsharks_retransmission_analysis_against_aimdlabs_counter(four_flows):
    r, folder = four_flows
    flows = r.flows.to_pandas()
    # At each sender's access link tshark flags exactly the segments aimdlab retransmitted.
    for i in range(4):
        assert count(folder / f"s{i}-r1.pcap", RETRANSMISSION) == flows.loc[i, "retransmitted_pkts"]
    # At the bottleneck it sees fewer: the copies RED dropped never start transmission there.
    # The segments missing between the four access traces and the bottleneck trace are
    # exactly aimdlab's drop count ...
    sent = sum((data_segments(folder / f"s{i}-r1.pcap") for i in range(4)), start=Counter())
    passed = data_segments(folder / "r1-r2.pcap")
    b = r.summary["bottleneck"]
    assert sum((sent - passed).values()) == b["drops"] > 0
    # ... and every retransmission tshark does not flag there is one of those drops
    # (retransmissions go out not-ECT, RFC 3168 §6.1.5, so RED drops rather than marks them).
    seen = count(folder / "r1-r2.pcap", RETRANSMISSION)
    retransmitted = int(flows["retransmitted_pkts"].sum())
    assert 0 < seen < retransmitted
    assert retransmitted - seen <= b["drops"]


@needs_tshark
def test_ce_marks_ecn_capable_data_and_echoes_are_visible(four_flows):
    r, folder = four_flows
    marks = r.summary["bottleneck"]["ecn_marks"]
    assert marks > 20
    assert count(folder / "r1-r2.pcap", "ip.dsfield.ecn == 3") == marks
    assert count(folder / "r1-r2.pcap", "ip.dsfield.ecn == 2") > 1000
    assert count(folder / "r1-r2.pcap", "tcp.flags.cwr == 1") > 0
    # SACK blocks in bytes on the duplicate ACKs (the reverse path is not traced here).
    sc = dumbbell(duration="5s", buffer="20pkt")
    sc["pcap"] = ["r2->r1"]
    back = run_checked(sc)
    path = folder.parent / "r2-r1.pcap"
    path.write_bytes(back.pcaps["r2->r1"])
    assert count(path, "tcp.options.sack_le") > 0
    assert count(path, "tcp.analysis.duplicate_ack") > 0


@needs_tshark
def test_dccp_and_udp_packets_decode_as_themselves(tmp_path):
    sc = dumbbell(duration="3s")
    sc["flows"] = [
        {"transport": "dccp", "dccp": {"ccid": 2}},
        {"transport": "dccp", "dccp": {"ccid": 3}},
        {"transport": "udp", "app": {"kind": "cbr", "rate": "1Mbps"}},
    ]
    sc["pcap"] = ["r1->r2", "r2->r1"]
    r = run_checked(sc)
    r.save(tmp_path / "run")
    protocols = tshark(tmp_path / "run" / "r1-r2.pcap", "-T", "fields", "-e", "_ws.col.Protocol")
    assert set(protocols) == {"DCCP", "UDP"}
    assert count(tmp_path / "run" / "r1-r2.pcap", "dccp.type == 2") > 100  # DCCP-Data
    assert count(tmp_path / "run" / "r2-r1.pcap", "dccp.type == 3") > 50  # DCCP-Ack
    assert count(tmp_path / "run" / "r1-r2.pcap", "_ws.malformed") == 0


def test_traces_are_deterministic_and_bad_link_names_are_named():
    sc = dumbbell(duration="2s", flows=2)
    sc["pcap"] = ["r1->r2"]
    assert run_checked(sc).pcaps == run_checked(sc).pcaps
    sc["pcap"] = ["r1->r3"]
    with pytest.raises(aimdlab.ScenarioError, match=r'pcap\[0\]: "r1->r3" is not a link; expected a link name such as r1->r2, r2->r1'):
        aimdlab.validate(sc)
