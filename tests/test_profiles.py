"""Stack profiles (`tcp.profile`): presets of transport behaviours and defaults taken from the
RFCs, Linux, ns-3 3.44 and ns-2.35, that any field given explicitly still overrides. Each test
states a behaviour of one profile that would fail without it (docs/explanation/profiles.md has the table)."""

from __future__ import annotations

import re
from pathlib import Path

import aimdlab
import numpy as np
import pytest
from conftest import dumbbell, run_checked
from test_cwnd_growth import avoidance_segments_per_rtt, share_of_ecn_cuts_followed_by_growth, slow_start_factors


def test_linux_reno_doubles_per_rtt_in_slow_start_and_adds_one_segment_in_avoidance():
    assert np.allclose(slow_start_factors(profile="linux"), 2.0, atol=0.01)
    assert avoidance_segments_per_rtt(profile="linux") == pytest.approx(1.0, abs=0.03)
    # The RFC profile counts ACKs: ×1.5 and half a segment with delayed ACKs.
    assert np.allclose(slow_start_factors(profile="rfc"), 1.5, atol=0.1)
    assert avoidance_segments_per_rtt(profile="rfc") == pytest.approx(0.5, abs=0.03)
    # ns-3's TcpNewReno counts ACKs too (SlowStart: one SMSS per ACK; CongestionAvoidance:
    # SMSS²/cwnd per ACK), with its delayed ACKs.
    assert np.allclose(slow_start_factors(profile="ns3", mss="1000B"), 1.5, atol=0.1)
    assert avoidance_segments_per_rtt(profile="ns3", mss="1000B") == pytest.approx(0.5, abs=0.03)


@pytest.mark.parametrize("profile, grows", [("rfc", True), ("linux", False), ("ns3", False)])
def test_no_growth_during_cwr_for_linux_and_ns3(profile, grows):
    share = share_of_ecn_cuts_followed_by_growth(profile=profile, mss="1000B")
    assert share > 0.8 if grows else share == 0.0


def overshoot(profile, **tcp_fields):
    """Slow start from 10 packets into a 20-packet buffer: dozens of losses in one window.
    ns-2's 20-packet window_ would hide them, so the window is given explicitly."""
    tcp = {"profile": profile, "initial_cwnd": 10, "receive_window": "10000pkt", "mss": "1000B", **tcp_fields}
    r = run_checked(dumbbell(rate="10Mbps", delay="20ms", buffer="20pkt", duration="4s", tcp=tcp))
    return r.flows.to_pandas().iloc[0]


def test_ns2_newreno_times_out_on_a_window_of_losses_that_rfc_6582_recovers_by_partial_acks():
    # Two losses in one window (Reno: the second by timeout, Newreno: by a partial ACK) are
    # scripted in the sender's Rust tests. Here dozens: ns-2's Reno times out; so does its
    # Newreno, whose timer runs from the first partial ACK (`newreno_changes1_ 1`), after
    # resending more by partial ACKs; RFC 6582's rules restart it on each partial ACK and
    # recover them all.
    reno = overshoot("ns2")
    assert reno["timeouts"] >= 1
    newreno = overshoot("ns2", recovery="newreno")
    assert newreno["timeouts"] >= 1 and newreno["retransmitted_pkts"] > reno["retransmitted_pkts"]
    rfc_rules = overshoot("ns2", recovery="newreno", recovery_rules="rfc")
    assert rfc_rules["timeouts"] == 0 and rfc_rules["fast_retransmits"] >= 1


def test_ns2_gaimd_leaves_half_the_window_after_a_timeout():
    # 5 % random loss: timeouts. GAIMD(β = 0.875) with ns-2's slowdown(): ssthresh =
    # max(⌊W/2⌋, 2) after each one (`ssthresh_ = (int) halfwin`); the RFC profile leaves
    # GAIMD's own 7/8.
    def mean_ssthresh_over_cwnd_after_timeouts(profile, rule):
        sc = dumbbell(duration="200s", delay="50ms", buffer="1000pkt", sample_interval="10ms",
                      tcp={"profile": profile, "receive_window": "1000pkt", "initial_rto": "1s"},
                      flow={"cc": {"name": "gaimd", "beta": 0.875, "alpha": "tcp-friendly"}})
        sc["topology"]["dumbbell"]["bottleneck"]["loss"] = {"model": "bernoulli", "rate": 0.05, "applies_to": "data"}
        ts = run_checked(sc).timeseries.to_pandas()
        w, th = ts["cwnd_pkts"].to_numpy(), ts["ssthresh_pkts"].to_numpy()
        # A timeout: cwnd drops to 1 from above 4; ssthresh then over the window before it.
        ratios = [th[i] / rule(w[i - 1]) for i in range(1, len(w)) if w[i] == 1.0 and w[i - 1] > 4]
        assert len(ratios) >= 5
        return np.median(ratios)

    assert mean_ssthresh_over_cwnd_after_timeouts("ns2", lambda w: max(np.floor(w / 2), 2)) == 1.0
    assert mean_ssthresh_over_cwnd_after_timeouts("rfc", lambda w: 0.875 * w) == pytest.approx(1.0, abs=0.05)


def test_explicit_fields_override_the_profile_and_ns2_starts_ssthresh_at_the_window():
    # ns-2's window_ is 20 packets: a 53-packet pipe runs at 20/53 of the link ...
    def goodput_mbps(**tcp):
        r = run_checked(dumbbell(duration="20s", buffer="100pkt", tcp={"profile": "ns2", **tcp}))
        return r.flows.to_pandas().iloc[0]["goodput_bps"] / 1e6, r.timeseries.to_pandas()["ssthresh_pkts"].iloc[1]

    small, ssthresh = goodput_mbps()
    assert small < 4.5 and ssthresh == 20
    # ... unless the scenario gives its own window (ssthresh follows it, as TcpAgent::reset sets).
    large, ssthresh = goodput_mbps(receive_window="1000pkt")
    assert large > 8.5 and ssthresh == 1000
    assert goodput_mbps(receive_window="1000pkt", initial_ssthresh=40)[1] == 40


def test_the_profile_sets_link_framing_and_controller_defaults():
    def bottleneck_utilization(profile, **link):
        sc = dumbbell(duration="10s", tcp={"profile": profile, "mss": "1000B"})
        sc["topology"]["dumbbell"]["bottleneck"].update(link)
        return run_checked(sc).links.to_pandas().set_index("name").loc["r1->r2"]

    rfc, linux, ns3 = (bottleneck_utilization(p) for p in ("rfc", "linux", "ns3"))
    # Utilization counts the wire: 38 B of Ethernet framing per packet for Linux, ns-3's
    # 2-byte PPP header.
    assert linux["utilization"] > rfc["utilization"]
    assert bottleneck_utilization("linux", framing="0B")["utilization"] < linux["utilization"]
    # Linux's and ns-3's CUBIC run HyStart: slow start ends before the first loss.
    def drops(profile, **cc):
        sc = dumbbell(rate="20Mbps", delay="20ms", buffer="106pkt", duration="3s", tcp={"profile": profile, "mss": "1000B"}, flow={"cc": {"name": "cubic", **cc}})
        return run_checked(sc).summary["bottleneck"]["drops"]

    assert drops("linux") == 0 and drops("ns3") == 0
    assert drops("rfc") > 100 and drops("linux", hystart=False) > 100


def test_a_group_profile_replaces_the_scenario_one_and_bad_names_are_named():
    sc = dumbbell(duration="5s", tcp={"profile": "ns2"})
    sc["flows"] = [{"count": 1}, {"count": 1, "tcp": {"profile": "rfc"}}]
    f = run_checked(sc).flows.to_pandas()
    assert f["goodput_bps"].iloc[1] > 1.5 * f["goodput_bps"].iloc[0]  # ns-2's 20-packet window
    with pytest.raises(aimdlab.ScenarioError, match=r'tcp\.profile: "bsd" is not valid; expected one of "rfc", "linux", "linux26", "ns3", "ns2"'):
        aimdlab.validate(dumbbell(tcp={"profile": "bsd"}))


def test_ns3s_device_queue_holds_one_packet_outside_the_discipline():
    # One Reno flow in congestion avoidance fills a 10-packet DropTail buffer. The discipline
    # never reports more than its limit; each packet of device queue (ns-3's is one) holds
    # one more waiting packet, so the window that overflows the buffer is one larger.
    def at_second_loss(device_queue):
        sc = dumbbell(rate="10Mbps", delay="20ms", buffer="10pkt", duration="3s", tcp={"profile": "ns3", "mss": "1000B", "delayed_ack": False})
        if device_queue is not None:
            sc["topology"]["dumbbell"]["bottleneck"]["device_queue"] = device_queue
        r = aimdlab.run({**sc, "cwnd_trace": [0]})
        t = r.cwnd_trace.to_pandas()
        return r.summary["bottleneck"]["queue_max_pkts"], t[t.cause == "loss"].iloc[1]["in_flight_pkts"]

    (q0, w0), (q_ns3, w_ns3), (q2, w2) = (at_second_loss(d) for d in ("0pkt", None, "2pkt"))
    assert q0 == q_ns3 == q2 == 10
    assert (w_ns3 - w0, w2 - w0) == (1, 2), (w0, w_ns3, w2)
    with pytest.raises(aimdlab.ScenarioError, match=r"^topology\.dumbbell\.bottleneck\.device_queue: 1500B is in bytes; expected packets"):
        sc = dumbbell()
        sc["topology"]["dumbbell"]["bottleneck"]["device_queue"] = "1500B"
        aimdlab.validate(sc)


def test_linux_rack_tlp_recovers_random_losses_without_the_retransmission_timer():
    # 3 % random loss for 60 s: lost retransmissions and losses near the end of a flight.
    # Duplicate ACKs leave those to the timer; RACK (a segment sent later was delivered
    # and a round trip has passed) and the tail loss probe recover them all.
    def timeouts(**tcp):
        sc = dumbbell(rate="10Mbps", delay="20ms", buffer="100pkt", duration="60s", tcp={"profile": "linux", **tcp})
        sc["topology"]["dumbbell"]["bottleneck"]["loss"] = {"model": "bernoulli", "rate": 0.03, "applies_to": "data"}
        return run_checked(sc).flows.to_pandas().iloc[0]["timeouts"]

    assert timeouts() == 0
    assert timeouts(loss_detection="dupack") >= 3


def first_flight_and_first_rto(profile):
    """The segments in flight before the first ACK returns (RTT 42 ms, sampled at 20 ms), and
    the RTO of a first timeout with no RTT sample yet (every data packet lost)."""
    sc = dumbbell(rate="10Mbps", delay="20ms", duration="1s", sample_interval="20ms", tcp={"profile": profile})
    flight = run_checked(sc).timeseries.to_pandas()["in_flight_pkts"].iloc[0]
    sc = dumbbell(rate="10Mbps", delay="20ms", duration="10s", tcp={"profile": profile})
    sc["topology"]["dumbbell"]["bottleneck"]["loss"] = {"model": "bernoulli", "rate": 1.0, "applies_to": "data"}
    rto_ms = run_checked(sc).flows.to_pandas().iloc[0]["rto_first_mean_ms"]
    return flight, rto_ms


def test_linux26_is_the_kernel_nctuns_ran_before_iw10_prr_and_rack():
    # tcp_init_cwnd (RFC 3390): 3 segments of 1448 bytes; TCP_TIMEOUT_INIT = 3 s. Today's
    # kernel: 10 segments and 1 s.
    assert first_flight_and_first_rto("linux26") == (3, 3000.0)
    assert first_flight_and_first_rto("linux") == (10, 1000.0)
    # With tcp_abc = 0 the window grows per ACK: with delayed ACKs x1.5 per round trip in slow
    # start and half a segment per round trip in avoidance (today's kernel counts segments).
    assert np.allclose(slow_start_factors(profile="linux26"), 1.5, atol=0.1)
    assert avoidance_segments_per_rtt(profile="linux26") == pytest.approx(0.5, abs=0.03)


def test_linux26_leaves_tail_losses_to_the_retransmission_timer():
    # No RACK-TLP (4.4, 3.10): on the 3 % random loss path that today's kernel recovers
    # without a timeout, duplicate ACKs leave losses near the end of a flight to the timer.
    sc = dumbbell(rate="10Mbps", delay="20ms", buffer="100pkt", duration="60s", tcp={"profile": "linux26"})
    sc["topology"]["dumbbell"]["bottleneck"]["loss"] = {"model": "bernoulli", "rate": 0.03, "applies_to": "data"}
    assert run_checked(sc).flows.to_pandas().iloc[0]["timeouts"] >= 3


def test_the_profiles_page_gives_every_setting_of_the_tcp_table():
    table = aimdlab.schema()["definitions"]["TcpTable"]["properties"]
    page = (Path(__file__).parent.parent / "docs" / "explanation" / "profiles.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([a-z_]+)`", page, re.M))
    # `profile` chooses the column; `sack` is `recovery` spelt as a bool.
    assert set(table) - {"profile", "sack"} <= rows, sorted(set(table) - {"profile", "sack"} - rows)


def _final_cwnd(profile: str, cc: str, **flow) -> float:
    sc = dumbbell(duration="60s", flow={"cc": cc, **flow}, tcp={"profile": profile, "mss": "1000B"})
    return float(run_checked(sc).flows.to_pandas().iloc[0]["cwnd_final_pkts"])


def test_an_application_limited_flow_grows_its_window_only_where_the_stack_validates_it():
    # A 2 Mbit/s CBR source over TCP on a 10 Mbit/s path never fills its window. RFC 5681 as
    # written grows cwnd on every ACK anyway (to 14,423 packets here); Linux 6.x and 2.6.31
    # grow it only while it limits sending (tcp_is_cwnd_limited), ns-3 only in CUBIC
    # (TcpCubic::IncreaseWindow; its NewReno does not check).
    cbr = {"app": {"kind": "cbr", "rate": "2Mbps"}, "transport": "tcp"}
    assert _final_cwnd("rfc", "reno", **cbr) > 1000
    for profile in ("linux", "linux26"):
        assert _final_cwnd(profile, "reno", **cbr) < 50 and _final_cwnd(profile, "cubic", **cbr) < 50, profile
    assert _final_cwnd("ns3", "cubic", **cbr) < 50
    assert _final_cwnd("ns3", "reno", **cbr) > 1000



def _controller_rtt_max_ms(controller_rtt: str) -> tuple[list[float], list[float], list[float]]:
    """Illinois's RTT_max per flow (what its controller was told), with the flows' largest and
    smallest RTO samples (the echo), on 4 flows at 40 ms under ns-3's 200 ms delayed ACKs."""
    sc = dumbbell(rate="20Mbps", delay="18ms", buffer="100pkt", flows=4, duration="30s", flow={"cc": "illinois", "start_jitter": "1s"},
                  tcp={"profile": "ns3", "controller_rtt": controller_rtt})
    r = run_checked(sc)
    told = r.timeseries.to_pandas().groupby("flow")["rtt_max_ms"].max().tolist()
    flows = r.flows.to_pandas()
    return told, flows["rtt_max_ms"].tolist(), flows["rtt_min_ms"].tolist()


def test_a_controller_is_told_the_rtt_its_stack_hands_over():
    # The echo rule tells the controller the RTO's own samples, the largest of which time a
    # lone segment the receiver held until the next flight; Linux's newest segment leaves the
    # hold out; ns-3 hands over SRTT, which lies between the samples.
    told, echo_max, _ = _controller_rtt_max_ms("echo")
    assert told == pytest.approx(echo_max, abs=1e-9)
    newest, echo_max, _ = _controller_rtt_max_ms("linux")
    assert all(n < e for n, e in zip(newest, echo_max)), (newest, echo_max)
    assert max(newest) < min(told), (newest, told)
    srtt, echo_max, echo_min = _controller_rtt_max_ms("ns3")
    assert all(lo <= s <= hi for s, lo, hi in zip(srtt, echo_min, echo_max)), (srtt, echo_min, echo_max)
