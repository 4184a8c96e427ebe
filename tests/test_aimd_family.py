"""The AIMD family of the literature and its comparators at packet level: each holds its
source's claim on a simulated network (the per-controller rules are tested beside the code,
in crates/aimdlab-core/src/cc/)."""

from __future__ import annotations

import aimdlab
import pytest
from aimdlab.models import response
from aimdlab.validation.response import mean_window_and_loss_event_rate


def datacenter(cc: str, flows: int, k_pkts: int = 20) -> dict:
    """`flows` long flows over a 1 Gbit/s, ~120 µs RTT bottleneck with a step-marking queue."""
    return {
        "duration": "2s", "warmup": "0.5s", "sample_interval": "1ms", "sampled_flows": "all",
        "topology": {"dumbbell": {
            "bottleneck": {"rate": "1Gbps", "delay": "50us", "queue": {"kind": "step", "limit": "200pkt", "k": f"{k_pkts}pkt"}},
            "access": {"rate": "10Gbps", "delay": "10us", "queue": {"limit": "1000pkt"}}}},
        "tcp": {"mss": "1460B"},
        "flows": [{"count": flows, "cc": cc, "start_jitter": "10ms"}],
    }


@pytest.mark.parametrize("flows", [1, 2, 10])
def test_dctcp_holds_the_queue_near_k_and_alpha_tracks_the_marked_fraction(flows):
    """RFC 8257 §3.3 and the DCTCP paper §3: full link, queue around K, no loss, α the
    fraction of packets the step marks."""
    r = aimdlab.run(datacenter("dctcp", flows))
    b = r.summary["bottleneck"]
    f = r.flows.to_pandas()
    assert b["utilization"] > 0.99, b
    assert 0.7 * 20 < b["queue_mean_pkts"] < 1.3 * 20, b
    assert f["retransmitted_pkts"].sum() == 0 and b["ecn_marks"] > 0, b
    marked_fraction = b["ecn_marks"] / f["data_pkts_sent"].sum()
    t = r.timeseries.to_pandas()
    alpha = t[t["time_s"] > 0.5]["alpha"].mean()
    assert abs(alpha - marked_fraction) < 0.05, (alpha, marked_fraction)
    # The paper's steady state (§3.3): α ≈ √(2/W*), W* = (C·RTT + K)/N; an approximation
    # that holds while W* is several packets (1 and 2 flows here: W* = 33 and 16).
    if flows <= 2:
        # C·RTT: 1 Gbit/s of 1,500-byte packets over 2 × (50 + 10 + 10) µs of propagation
        # plus one serialization at 1 Gbit/s and two at 10 Gbit/s (the flows' smallest RTT
        # sample includes the standing queue near K, so it cannot serve).
        rtt_s = 2 * 70e-6 + 1500 * 8 / 1e9 + 2 * 1500 * 8 / 1e10
        bdp_pkts = 1e9 / 8 / 1500 * rtt_s
        model = response.dctcp_alpha(flows, bdp_pkts, 20)
        assert abs(alpha / model - 1) < 0.1, (alpha, model, bdp_pkts)


def test_reno_on_the_same_step_queue_without_ecn_loses_packets():
    """The step queue drops what is not ECN-capable: the contrast DCTCP is measured against."""
    r = aimdlab.run(datacenter("reno", 2))
    assert r.flows.to_pandas()["retransmitted_pkts"].sum() > 100


def test_dctcp_turns_ecn_on_and_says_when_it_cannot():
    aimdlab.validate(datacenter("dctcp", 1))  # ECN was never set: DCTCP sets it
    sc = datacenter("dctcp", 1)
    sc["tcp"]["ecn"] = False
    with pytest.raises(aimdlab.ScenarioError, match=r"^tcp\.ecn: false, but the flows' controller \(DCTCP\) needs ECN"):
        aimdlab.validate(sc)
    sc = datacenter("dctcp", 1)
    sc["flows"][0]["transport"] = "dccp"
    with pytest.raises(aimdlab.ScenarioError, match=r"^flows\[0\]\.cc: needs the TCP receiver's exact ECN echo"):
        aimdlab.validate(sc)


def one_flow(cc, queue: dict, rate="20Mbps", delay="19ms", profile="rfc", seconds=60) -> aimdlab.Result:
    sc = {
        "duration": f"{seconds}s", "warmup": f"{seconds // 5}s", "sample_interval": "10ms", "sampled_flows": "all", "seed": 1,
        "topology": {"dumbbell": {"bottleneck": {"rate": rate, "delay": delay, "queue": queue},
                                  "access": {"rate": "1Gbps", "delay": "0.5ms", "queue": {"limit": "100000pkt"}}}},
        "tcp": {"profile": profile, "mss": "1460B", "receive_window": "1000000pkt"},
        "flows": [{"count": 1, "cc": cc}],
    }
    return aimdlab.run(sc)


def test_vegas_keeps_between_alpha_and_beta_packets_queued():
    """Brakmo & Peterson §3.2: a lone Vegas flow fills the link and keeps α..β packets in the
    bottleneck queue, without a loss, where Reno fills the buffer until it drops."""
    vegas = one_flow({"name": "vegas", "alpha": 1, "beta": 3}, {"limit": "100pkt"})
    b = vegas.summary["bottleneck"]
    assert b["utilization"] > 0.98, b
    assert 1.0 <= b["queue_mean_pkts"] <= 3.0, b
    assert vegas.flows.to_pandas()["retransmitted_pkts"].sum() == 0
    reno = one_flow("reno", {"limit": "100pkt"}).summary["bottleneck"]
    assert reno["queue_mean_pkts"] > 20, reno


@pytest.mark.parametrize("cc,model,p", [("reno", response.reno_window, 1e-4), ("highspeed", response.highspeed_window, 1e-4),
                                        ("scalable", response.scalable_window, 1e-4), ("scalable", response.scalable_window, 1e-3),
                                        ("cubic", lambda p: response.cubic_window(p, 0.1), 1e-4),
                                        ("veno", response.veno_window, 1e-4), ("veno", response.veno_window, 1e-3),
                                        ("yeah", response.yeah_window, 1e-4), ("htcp", lambda p: response.htcp_window(p, 0.1), 1e-4),
                                        ("bic", response.bic_window, 1e-4)])
def test_a_single_flow_under_random_loss_follows_its_response_function(cc, model, p):
    """RFC 3649 §5, Kelly 2003 §2 and RFC 8312 §5.1 give the window against the loss-event
    rate; Veno's paper claims 4/5 at a random loss (AIMD(1, 4/5) on an empty path), YeAH stays
    in its Scalable mode with no queue, H-TCP's and BIC's rules give their cycles. At p = 10⁻⁴ (windows of
    120 to 900 packets, in each design's own regime; Scalable also at 10⁻³, below its legacy
    window, where it is AIMD(1, 7/8), and Veno at 10⁻³) the mean window of a
    flow losing packets at random is within 15 % of the response function at the loss-event
    rate it measured (multiple losses in one window are one event). The deterministic models
    ignore the randomness (for Reno at a packet loss rate p, Ott, Kemperman & Mathis 1996 give
    1.31/√p against the periodic 1.22/√p)."""
    window, p_event = mean_window_and_loss_event_rate(cc, p, 200)
    assert abs(window / model(p_event) - 1) < 0.15, (window, p_event, model(p_event))


def bbr_flows(n: int, seconds: int = 45) -> aimdlab.Result:
    """`n` BBR flows (Linux stack) on 20 Mbit/s, 40 ms, a buffer of one BDP (66 packets)."""
    sc = {
        "duration": f"{seconds}s", "warmup": "5s", "sample_interval": "10ms", "sampled_flows": "all",
        "topology": {"dumbbell": {"bottleneck": {"rate": "20Mbps", "delay": "19ms", "queue": {"limit": "66pkt"}},
                                  "access": {"rate": "200Mbps", "delay": "0.5ms", "queue": {"limit": "1000pkt"}}}},
        "tcp": {"profile": "linux", "mss": "1448B"},
        "flows": [{"count": n, "cc": "bbr", "start_jitter": "1s"}],
    }
    return aimdlab.run(sc)


def probe_rtt_starts(t, flow: int):
    m = t[t["flow"] == flow]
    in_probe = (m["mode"] == 3).to_numpy()
    return m["time_s"].to_numpy()[1:][in_probe[1:] & ~in_probe[:-1]]


def test_a_single_bbr_flow_fills_the_link_with_the_queue_near_empty():
    """Cardwell et al. 2016: one BBR flow paces at the bottleneck rate with about a BDP in
    flight; the queue stays near empty (Reno fills the buffer), without a loss."""
    r = bbr_flows(1)
    b = r.summary["bottleneck"]
    assert b["utilization"] > 0.95, b
    assert b["queue_mean_pkts"] < 0.15 * 66, b
    assert r.flows.to_pandas()["retransmitted_pkts"].sum() == 0


def test_bbr_flows_probe_rtt_every_ten_seconds_and_together():
    """Cardwell et al. 2016 and draft §4.3.5: when RTprop has not been refreshed for 10 s a
    flow drains to 4 packets; with a standing queue (two flows) that is every ~10 s (10 s
    plus the 200 ms and a round of PROBE_RTT), and the flows' PROBE_RTTs fall together,
    since each one's drain shows the other the empty queue."""
    t = bbr_flows(2).timeseries.to_pandas()
    first, second = probe_rtt_starts(t, 0), probe_rtt_starts(t, 1)
    assert len(first) >= 3 and len(second) >= 2, (first, second)
    for starts in (first, second):
        assert all(10.0 <= g <= 11.0 for g in starts[1:] - starts[:-1]), starts
    assert abs(first[-1] - second[-1]) < 0.5, (first, second)
