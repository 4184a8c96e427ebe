"""What one ACK tells the controller: RFC 5681 counts ACKs, Linux counts acknowledged
segments (`tcp.cwnd_growth`). With delayed ACKs (one ACK per two segments) the two differ by
a factor the papers' set-ups feel."""

from __future__ import annotations

import aimdlab
import numpy as np
import pytest
from conftest import dumbbell, run_checked


def slow_start_factors(**tcp):
    """cwnd growth per round trip in slow start, delayed ACKs on, from 8 packets on (odd
    windows at 2, 3, 5 wait for the ACK timer); `tcp` adds transport fields."""
    # 100 ms RTT, no loss; samples every 102 ms catch one round trip each.
    sc = dumbbell(rate="100Mbps", delay="50ms", buffer="10000pkt", duration="1.2s", sample_interval="102ms",
                  tcp={"delayed_ack": True, "initial_cwnd": 2, **tcp})
    w = run_checked(sc).timeseries.to_pandas()["cwnd_pkts"].to_numpy()
    return w[4:10] / w[3:9]


def avoidance_segments_per_rtt(**tcp):
    """Segments congestion avoidance adds per round trip, delayed ACKs on, over 20 s."""
    sc = dumbbell(rate="100Mbps", delay="50ms", buffer="10000pkt", duration="20s", sample_interval="1s",
                  tcp={"delayed_ack": True, "initial_ssthresh": 10, "initial_cwnd": 10, **tcp})
    r = run_checked(sc)
    ts = r.timeseries.to_pandas()
    rtt_s = r.flows.to_pandas()["rtt_mean_ms"].iloc[0] / 1000
    return (ts["cwnd_pkts"].iloc[-1] - ts["cwnd_pkts"].iloc[4]) / ((ts["time_s"].iloc[-1] - ts["time_s"].iloc[4]) / rtt_s)


def share_of_ecn_cuts_followed_by_growth(**tcp):
    """One ECN flow behind RED, cwnd sampled every 5 ms (RTT about 48 ms): the share of
    window cuts after which the window grows within the next 30 ms."""
    sc = dumbbell(rate="10Mbps", delay="20ms", duration="30s", sample_interval="5ms", tcp={"ecn": True, **tcp})
    sc["topology"]["dumbbell"]["bottleneck"]["queue"] = {"kind": "red", "limit": "500pkt", "min_th": "5pkt", "max_th": "15pkt", "ecn": True}
    r = run_checked(sc)
    assert r.summary["bottleneck"]["ecn_marks"] > 20
    w = r.timeseries.to_pandas()["cwnd_pkts"].to_numpy()
    cuts = [i for i in range(1, len(w) - 7) if w[i] < 0.8 * w[i - 1]]
    assert len(cuts) >= 10
    return np.mean([w[i + 1 : i + 7].max() > w[i] + 1e-9 for i in cuts])


def test_per_ack_growth_is_rfc_5681_with_delayed_acks():
    assert np.allclose(slow_start_factors(cwnd_growth="per_ack"), 1.5, atol=0.1)
    assert avoidance_segments_per_rtt(cwnd_growth="per_ack") == pytest.approx(0.5, abs=0.03)


def test_per_segment_growth_is_linuxs_with_delayed_acks():
    assert np.allclose(slow_start_factors(cwnd_growth="per_segment"), 2.0, atol=0.01)
    assert avoidance_segments_per_rtt(cwnd_growth="per_segment") == pytest.approx(1.0, abs=0.03)


def test_when_every_ack_acknowledges_one_segment_the_two_agree_exactly():
    # No delayed ACKs and no loss (a buffer no window fills): each ACK is one segment.
    def run(growth):
        return run_checked(dumbbell(duration="5s", buffer="10000pkt", tcp={"cwnd_growth": growth})).flows.to_pandas()

    assert run("per_ack").equals(run("per_segment"))


def test_a_bad_growth_names_the_field():
    with pytest.raises(aimdlab.ScenarioError, match=r'tcp\.cwnd_growth: "per_byte" is not valid; expected '):
        aimdlab.validate(dumbbell(tcp={"cwnd_growth": "per_byte"}))


def test_cwr_freeze_holds_the_window_for_a_round_trip_after_an_ecn_cut():
    assert share_of_ecn_cuts_followed_by_growth(cwr_freeze=False) > 0.8  # RFC 3168 keeps growing
    assert share_of_ecn_cuts_followed_by_growth(cwr_freeze=True) == 0.0  # Linux's and ns-3's CWR: not until the window is acknowledged


def test_timestamps_add_12_bytes_and_quick_acks_answer_the_first_segments_one_by_one():
    def run(duration, **tcp):
        r = run_checked(dumbbell(duration=duration, tcp={"delayed_ack": True, **tcp}))
        links = r.links.to_pandas().set_index("name")
        return links.loc["r1->r2"], links.loc["r2->r1"], r.flows.to_pandas().iloc[0]["received_pkts"]

    data, acks, _ = run("0.2s", timestamps=True)
    assert data["tx_bytes"] / data["tx_pkts"] == 1000 + 40 + 12
    assert acks["tx_bytes"] / acks["tx_pkts"] == 40 + 12
    # The first 0.1 s: slow start from 10 packets, no loss yet. With delayed ACKs every
    # second segment is acknowledged; Linux's quick-ACK mode answers the first 16 each.
    _, acks, received = run("0.1s")
    assert acks["tx_pkts"] == received // 2
    _, acks, received = run("0.1s", quickacks=16)
    assert received > 16
    assert acks["tx_pkts"] == 16 + (received - 16) // 2


def avoidance_with(cc: str, **tcp) -> float:
    """`avoidance_segments_per_rtt` for one flow of controller `cc`, over 2.5 s (the window
    stays below 38 packets)."""
    sc = dumbbell(rate="100Mbps", delay="50ms", buffer="10000pkt", duration="2.5s", sample_interval="100ms",
                  tcp={"delayed_ack": True, "initial_ssthresh": 10, "initial_cwnd": 10, **tcp}, flow={"cc": cc})
    r = run_checked(sc)
    ts = r.timeseries.to_pandas()
    rtt_s = r.flows.to_pandas()["rtt_mean_ms"].iloc[0] / 1000
    return (ts["cwnd_pkts"].iloc[-1] - ts["cwnd_pkts"].iloc[4]) / ((ts["time_s"].iloc[-1] - ts["time_s"].iloc[4]) / rtt_s)


def test_the_ns3_profile_counts_segments_where_ns3s_controller_does():
    """ns-3's TcpNewReno grows SMSS²/cwnd per ACK; its TcpHighSpeed (like its CUBIC, Scalable,
    BIC, Illinois and DCTCP) counts segmentsAcked. Below 38 packets HighSpeed is Reno, so with
    delayed ACKs the two add half a segment and one segment a round trip; a scenario's own
    cwnd_growth still wins."""
    reno = avoidance_with("reno", profile="ns3")
    assert reno == pytest.approx(0.5, abs=0.03)
    assert avoidance_with("highspeed", profile="ns3") / reno == pytest.approx(2.0, rel=0.03)
    assert avoidance_with("highspeed", profile="ns3", cwnd_growth="per_ack") == pytest.approx(reno, rel=1e-9)


def test_a_setting_a_controller_implies_leaves_the_others_alone():
    """The implied `cwnd_growth` is laid over the profile without losing what the profile
    derives (SACK from `recovery`): a Scalable flow of the ns3 profile on a BDP buffer fills
    the link and repairs its losses without a timeout (4 MiB buffers, as the ns-3 peer's: the
    profile's own 128 KiB, 131 segments of 1000 bytes, would hold the window below the pipe)."""
    sc = dumbbell(rate="20Mbps", delay="18ms", access_rate="200Mbps", buffer="100pkt", duration="30s", warmup="5s",
                  tcp={"profile": "ns3", "mss": "1000B", "receive_window": "4194304B"}, flow={"cc": "scalable"})
    r = run_checked(sc)
    f = r.flows.to_pandas()
    assert f["retransmitted_pkts"].sum() > 0 and f["timeouts"].sum() == 0, f[["retransmitted_pkts", "timeouts"]]
    assert r.summary["bottleneck"]["utilization"] > 0.95
