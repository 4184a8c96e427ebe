"""Facts about TCP Reno on a DropTail dumbbell that the engine must reproduce."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import dumbbell, run_checked

# Single-flow path used below: 10 Mbps, 20 ms bottleneck; 100 Mbps, 1 ms access links;
# 1000 B segments + 40 B headers. Base RTT = 2 x (20 + 1) ms + serialization.
RATE_BPS = 10e6
PKT_BITS = 1040 * 8
T_PKT = PKT_BITS / RATE_BPS  # bottleneck serialization of one data packet, s
RTT_BASE = 2 * 0.021 + T_PKT + 2 * PKT_BITS / 100e6 + 3 * 40 * 8 / 100e6 + 40 * 8 / 10e6
BDP_PKTS = RATE_BPS * RTT_BASE / PKT_BITS  # about 51 packets


def cwnd_cuts(ts):
    """(cwnd before, cwnd after) for every sample where cwnd fell by more than 30 %."""
    w = ts["cwnd_pkts"].to_numpy()
    idx = np.nonzero(w[1:] < 0.7 * w[:-1])[0]
    return [(w[i], w[i + 1]) for i in idx]


def test_single_reno_flow_fills_a_bdp_buffered_link_with_a_sawtooth():
    buffer = round(BDP_PKTS)
    sc = dumbbell(buffer=f"{buffer}pkt", duration="60s", warmup="5s", sample_interval="10ms")
    r = run_checked(sc)
    assert r.summary["bottleneck"]["utilization"] >= 0.95

    ts = r.timeseries.to_pandas()
    ts = ts[ts["time_s"] > 5.0]
    cuts = cwnd_cuts(ts)
    assert len(cuts) >= 5, f"expected a sawtooth with several halvings, got {cuts}"
    peaks = np.array([b for b, _ in cuts])
    ratios = np.array([a / b for b, a in cuts])
    # The window peaks when it fills the pipe and the buffer: about BDP + buffer packets.
    expected_peak = BDP_PKTS + buffer
    assert abs(peaks.mean() - expected_peak) / expected_peak < 0.10, (peaks, expected_peak)
    # Each loss halves the window (β = 1/2).
    assert np.all(np.abs(ratios - 0.5) < 0.05), ratios
    # One loss per cycle, recovered by fast retransmit alone.
    assert int(r.flows["timeouts"][0].as_py()) == 0


def test_two_equal_rtt_flows_share_fairly_across_seeds(record_property):
    sc = dumbbell(flows=2, buffer="50pkt", duration="100s", warmup="10s", flow={"start_jitter": "1s"})
    jains = []
    for seed in range(1, 11):
        r = run_checked(sc, seed=seed)
        jains.append(r.summary["jain_index"])
    jains = np.array(jains)
    spread = f"Jain per seed: {np.round(jains, 4).tolist()} (mean {jains.mean():.4f}, min {jains.min():.4f})"
    print(spread)
    record_property("jain_per_seed", spread)
    assert jains.mean() >= 0.95, spread


def test_goodput_below_throughput_below_link_rate():
    for flows, buffer in [(1, "20pkt"), (3, "50pkt"), (8, "10pkt")]:
        r = run_checked(dumbbell(flows=flows, buffer=buffer, duration="20s", warmup="2s"))
        f = r.flows.to_pandas()
        assert (f["goodput_bps"] <= f["throughput_bps"]).all()
        assert (f["throughput_bps"] <= RATE_BPS * 1.0000001).all()
        assert f["goodput_bps"].sum() <= RATE_BPS
        assert r.summary["bottleneck"]["utilization"] <= 1.0


@pytest.mark.parametrize("size_pkts", [300, 1000])
def test_finite_transfer_completes_in_size_over_rate_plus_slow_start_rounds(size_pkts):
    # Empty path with a buffer that never overflows: slow start (IW 10, doubling per RTT)
    # runs k rounds until the window covers the BDP; the rest goes at the bottleneck rate.
    iw = 10
    k = math.ceil(math.log2(BDP_PKTS / iw))
    sent_in_slow_start = iw * (2**k - 1)
    model_s = k * RTT_BASE + (size_pkts - sent_in_slow_start) * T_PKT + RTT_BASE / 2
    sc = dumbbell(buffer="5000pkt", duration="20s", flow={"app": {"kind": "finite", "size": f"{size_pkts * 1000}B"}})
    r = run_checked(sc)
    f = r.flows.to_pandas().iloc[0]
    assert f["delivered_bytes"] == size_pkts * 1000
    assert f["retransmitted_pkts"] == 0
    assert abs(f["completion_time_s"] - model_s) / model_s < 0.10, (f["completion_time_s"], model_s)


@pytest.mark.parametrize("flows", [2, 3, 4, 5])
def test_utilization_example_keeps_the_bottleneck_busy(flows, examples_dir):
    import aimdlab

    sc = aimdlab.apply_overrides(aimdlab.load(examples_dir / "utilization.toml"), [f"flows[0].count={flows}"])
    r = run_checked(sc)
    assert r.summary["flows"] == flows
    assert r.summary["bottleneck"]["utilization"] >= 0.90


def test_send_jitter_delays_packets_by_half_its_width_on_average_and_keeps_order():
    # One flow on an uncongested path: the one-way delay grows by the mean jitter (plus the
    # queueing that keeping order adds), and nothing is reordered, so no dupACKs appear.
    base = run_checked(dumbbell(rate="100Mbps", buffer="1000pkt", duration="10s", tcp={"receive_window": "20pkt"}))
    jit = run_checked(dumbbell(rate="100Mbps", buffer="1000pkt", duration="10s", tcp={"receive_window": "20pkt", "send_jitter": "2ms"}))
    d0 = base.flows.to_pandas().iloc[0]
    d1 = jit.flows.to_pandas().iloc[0]
    assert 1.0 <= d1["delay_mean_ms"] - d0["delay_mean_ms"] <= 2.0, (d0["delay_mean_ms"], d1["delay_mean_ms"])
    assert d1["fast_retransmits"] == 0 and d1["retransmitted_pkts"] == 0


def test_a_lone_segment_is_acknowledged_after_its_groups_delayed_ack_timeout():
    # RFC 1122 §4.2.3.2: a receiver that delays ACKs acknowledges a lone segment when its
    # timer runs out. A one-segment transfer's only RTT sample is then the path's RTT plus
    # that timeout: exactly, for each group's own timeout in one run (the engine keeps one
    # timer lane per timeout).
    sc = {
        "duration": "3s",
        "topology": {"dumbbell": {"bottleneck": {"rate": "100Mbps", "delay": "10ms"}, "access": {"rate": "1Gbps", "delay": "1ms"}}},
        "tcp": {"mss": "1000B", "delayed_ack": True},
        "flows": [
            {"count": 1, "app": {"kind": "finite", "size": "1000B"}, "tcp": {"delayed_ack_timeout": "40ms"}},
            {"count": 1, "app": {"kind": "finite", "size": "1000B"}, "start": "0.5s", "tcp": {"delayed_ack_timeout": "200ms"}},
            {"count": 1, "app": {"kind": "finite", "size": "1000B"}, "start": "1s", "tcp": {"delayed_ack_timeout": "3ms"}},
            {"count": 1, "app": {"kind": "finite", "size": "1000B"}, "start": "1.5s", "tcp": {"delayed_ack": False}},
        ],
    }
    flows = run_checked(sc).flows.to_pandas()
    rtt = flows["rtt_max_ms"].to_numpy()
    base = rtt[3]
    assert 24.0 < base < 24.2  # 2 x (10 + 1 + 1) ms plus serialization
    assert rtt[:3] - base == pytest.approx([40.0, 200.0, 3.0], abs=1e-6)
    assert (flows["completion_time_s"] < 0.013).all()  # the data itself arrives after one trip
