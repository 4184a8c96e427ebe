"""Loss recovery variants: SACK (RFC 6675), NewReno (RFC 6582) and classic Reno (RFC 5681 §3.2
as ns-2's Agent/TCP/Reno runs it)."""

from __future__ import annotations

import aimdlab
import pytest
from conftest import dumbbell, run_checked


def overshoot(recovery):
    """Slow start from 10 packets into a 20-packet buffer: dozens of losses in one window."""
    r = run_checked(dumbbell(rate="10Mbps", delay="20ms", buffer="20pkt", duration="4s", tcp={"recovery": recovery, "initial_cwnd": 10}))
    return r.flows.to_pandas().iloc[0], r.summary["bottleneck"]["drops"]


def test_newreno_recovers_every_loss_of_a_window_by_partial_acks():
    f, drops = overshoot("newreno")
    assert drops > 20
    assert f["timeouts"] == 0 and f["retransmitted_pkts"] == drops


def test_classic_reno_leaves_the_second_loss_of_a_window_to_the_timer():
    f, drops = overshoot("reno")
    assert drops > 20
    assert f["timeouts"] >= 1, "the partial ACK ended fast recovery; no second fast retransmit in the window"
    # After the timeout Reno goes back to the first hole and resends what followed it too.
    assert f["retransmitted_pkts"] > drops


def test_sack_false_is_newreno_and_the_two_fields_must_agree():
    a = run_checked(dumbbell(duration="10s", tcp={"sack": False})).flows.to_pandas()
    b = run_checked(dumbbell(duration="10s", tcp={"recovery": "newreno"})).flows.to_pandas()
    assert a.equals(b)
    with pytest.raises(aimdlab.ScenarioError, match=r'tcp\.sack: true contradicts recovery = "reno"; remove one of them'):
        aimdlab.validate(dumbbell(tcp={"sack": True, "recovery": "reno"}))
    with pytest.raises(aimdlab.ScenarioError, match=r'tcp\.recovery: "tahoe" is not valid; expected one of "sack", "newreno", "reno"'):
        aimdlab.validate(dumbbell(tcp={"recovery": "tahoe"}))


def test_linux_rto_sits_the_minimum_above_srtt_where_rfc_6298_floors_at_it():
    # 5 % random loss on a 105 ms path: timeouts at the RTO in force. RFC 6298 with a 200 ms
    # minimum: max(SRTT + 4·RTTVAR, 200 ms) = 200 ms on a steady path; Linux: SRTT + RTTVAR
    # with RTTVAR ≥ 200 ms, about 305 ms.
    def rto_at_timeouts(estimator):
        sc = dumbbell(duration="200s", delay="50ms", buffer="1000pkt", tcp={"rto_estimator": estimator, "min_rto": "200ms"})
        sc["topology"]["dumbbell"]["bottleneck"]["loss"] = {"model": "bernoulli", "rate": 0.05, "applies_to": "data"}
        f = run_checked(sc).flows.to_pandas().iloc[0]
        assert f["timeout_sequences"] >= 10
        return f["rto_first_mean_ms"], f["rtt_mean_ms"]

    rfc, rtt = rto_at_timeouts("rfc6298")
    linux, _ = rto_at_timeouts("linux")
    assert rfc == pytest.approx(200, abs=1)
    assert linux == pytest.approx(rtt + 200, abs=5)
    with pytest.raises(aimdlab.ScenarioError, match=r'tcp\.rto_estimator: "bsd" is not valid; expected one of "rfc6298", "linux", "ns2"'):
        aimdlab.validate(dumbbell(tcp={"rto_estimator": "bsd"}))


def test_reno_can_halve_the_flight_as_rfc_5681_and_ns3_do():
    # An application-limited flow (CBR at 1 Mbit/s on a 10 Mbit/s path with 0.2 % random
    # loss): its window runs far ahead of the ~5 packets it has in flight, so halving the
    # flight cuts deeper (mean cwnd 22 vs 34 packets).
    def run(halve):
        sc = dumbbell(duration="60s", warmup="10s", flow={"app": {"kind": "cbr", "rate": "1Mbps"}, "transport": "tcp", "cc": {"name": "reno", "halve": halve}})
        sc["topology"]["dumbbell"]["bottleneck"]["loss"] = {"model": "bernoulli", "rate": 0.002, "applies_to": "data"}
        return run_checked(sc).timeseries.to_pandas()["cwnd_pkts"].mean()

    assert run("flight") < 0.8 * run("cwnd")
    with pytest.raises(aimdlab.ScenarioError, match=r'flows\[0\]\.cc\.halve: "window" is not valid; expected one of "cwnd", "flight"'):
        aimdlab.validate(dumbbell(flow={"cc": {"name": "reno", "halve": "window"}}))


def test_timeout_ssthresh_half_reaches_the_controllers_and_changes_a_gaimd_run():
    # The arithmetic (β·W vs W/2 after a timeout) is a unit test of cut_window in gaimd.rs;
    # here: the field reaches the controller of a run that has timeouts.
    def run(rule):
        sc = dumbbell(duration="100s", delay="50ms", buffer="1000pkt", tcp={"timeout_ssthresh": rule}, flow={"cc": {"name": "gaimd", "beta": 0.875, "alpha": "tcp-friendly"}})
        sc["topology"]["dumbbell"]["bottleneck"]["loss"] = {"model": "bernoulli", "rate": 0.05, "applies_to": "data"}
        return run_checked(sc).flows.to_pandas()

    own, half = run("controller"), run("half")
    assert own["timeouts"].iloc[0] > 0 and half["timeouts"].iloc[0] > 0
    assert not own["throughput_bps"].equals(half["throughput_bps"])
    with pytest.raises(aimdlab.ScenarioError, match=r'tcp\.timeout_ssthresh: "quarter" is not valid; expected one of "controller", "half"'):
        aimdlab.validate(dumbbell(tcp={"timeout_ssthresh": "quarter"}))


def test_prr_and_limited_transmit_reach_the_sender_of_a_run():
    # What PRR and limited transmit send on each ACK is a unit test of the sender
    # (transport/tcp/sender/tests.rs); here: the fields reach a run that has a recovery, and a
    # wrong type names the field.
    def run(**tcp):
        return run_checked(dumbbell(rate="10Mbps", delay="20ms", buffer="20pkt", duration="10s", tcp=tcp)).flows.to_pandas().iloc[0]

    base, prr = run(), run(prr=True)
    assert base["fast_retransmits"] >= 1
    assert (base["retransmitted_pkts"], base["timeouts"]) != (prr["retransmitted_pkts"], prr["timeouts"])
    assert not run(limited_transmit=False).equals(base)
    with pytest.raises(aimdlab.ScenarioError, match=r'tcp\.prr: "yes" is not valid; expected true or false'):
        aimdlab.validate(dumbbell(tcp={"prr": "yes"}))


def test_first_decrease_half_halves_a_gaimd_flows_first_cut_in_congestion_avoidance():
    # GAIMD(β = 0.875) from ssthresh 20 (congestion avoidance from the start) on a path whose
    # first loss comes near 60 packets: ns-2's slowdown() halves that first cut, GAIMD's own
    # rule keeps 7/8.
    def min_cwnd_after_first_cut(rule):
        sc = dumbbell(rate="10Mbps", delay="20ms", buffer="20pkt", duration="20s", sample_interval="1ms", tcp={"first_decrease": rule, "initial_ssthresh": 20}, flow={"cc": {"name": "gaimd", "beta": 0.875, "alpha": "tcp-friendly"}})
        ts = run_checked(sc).timeseries.to_pandas()
        cwnd = ts["cwnd_pkts"].to_numpy()
        drops = [i for i in range(1, len(cwnd)) if cwnd[i] < cwnd[i - 1] - 1]
        first = drops[0]
        return cwnd[first - 1], cwnd[first]

    before, after = min_cwnd_after_first_cut("controller")
    assert after == pytest.approx(0.875 * before, rel=0.02)
    before, after = min_cwnd_after_first_cut("half")
    assert after == pytest.approx(0.5 * before, rel=0.02)
    with pytest.raises(aimdlab.ScenarioError, match=r'tcp\.first_decrease: "third" is not valid; expected one of "controller", "half"'):
        aimdlab.validate(dumbbell(tcp={"first_decrease": "third"}))
