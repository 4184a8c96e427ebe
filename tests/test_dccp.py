"""Facts about DCCP (RFC 4340) and its CCID-2, TCP-like congestion control (RFC 4341)."""

from __future__ import annotations

import aimdlab
import numpy as np
import pytest
from conftest import dumbbell, run_checked


def dccp(**settings):
    return {"transport": "dccp", "dccp": settings}


def lossy(sc, rate, applies_to="data", reverse=False):
    key = "reverse_bottleneck" if reverse else "bottleneck"
    d = sc["topology"]["dumbbell"]
    if reverse:
        d[key] = {k: v for k, v in d["bottleneck"].items()}
    d[key]["loss"] = {"model": "bernoulli", "rate": rate, "applies_to": applies_to}
    return sc


def link(result, name):
    links = result.links.to_pandas()
    return links[links["name"] == name].iloc[0]


def test_a_ccid2_flow_fills_the_link_and_loses_what_the_buffer_drops():
    r = run_checked(dumbbell(duration="40s", warmup="10s", flow=dccp()))
    f = r.flows.to_pandas().iloc[0]
    b = r.summary["bottleneck"]
    assert b["utilization"] > 0.97, b
    # DCCP resends nothing: every drop at the bottleneck is a packet the sender deems lost
    # (give or take the packets in flight at the window's edges).
    assert f["retransmitted_pkts"] == 0
    assert abs(f["lost_pkts"] - b["drops"]) <= 3, (f["lost_pkts"], b["drops"])
    assert f["loss_reductions"] >= 1 and f["loss_events"] == f["loss_reductions"] + f["timeouts"]
    assert abs(int(f["received_pkts"]) + int(f["lost_pkts"]) - int(f["data_pkts_sent"])) <= 60


def test_ccid2_with_ack_ratio_1_gets_what_a_sack_tcp_flow_gets_on_the_same_path():
    # Bernoulli loss of 0.5 % on the data path, one flow at a time, three seeds each. The
    # transports differ in what RFC 4341 leaves out: no fast-recovery freeze (CCID-2 grows
    # through the round trip after a cut, as Linux's does), no retransmissions, a 200 ms RTO
    # floor. RTO floors set equal here.
    def mean_throughput(flow):
        rates = []
        for seed in (1, 2, 3):
            sc = lossy(dumbbell(duration="200s", warmup="20s", seed=seed, flow=flow, tcp={"min_rto": "200ms"}), 0.005)
            rates.append(run_checked(sc).flows.to_pandas()["throughput_bps"].iloc[0])
        return float(np.mean(rates))

    tcp = mean_throughput({})
    ccid2 = mean_throughput(dccp(ack_ratio=1, ack_ratio_adapt=False))
    assert 0.85 <= ccid2 / tcp <= 1.15, (ccid2, tcp)


def test_the_ack_ratio_sets_how_many_acks_come_back():
    def acks_per_packet(flow, reverse_loss=None):
        sc = dumbbell(duration="60s", warmup="10s", flow=flow)
        if reverse_loss:
            lossy(sc, reverse_loss, applies_to="ack", reverse=True)
        r = run_checked(sc)
        sent = r.flows.to_pandas()["data_pkts_sent"].iloc[0]
        return link(r, "r2->r1")["tx_pkts"] / sent

    assert acks_per_packet(dccp(ack_ratio=1)) == pytest.approx(1.0, abs=0.01)
    assert acks_per_packet(dccp(ack_ratio=2)) == pytest.approx(0.5, abs=0.01)
    assert acks_per_packet(dccp(ack_ratio=4)) == pytest.approx(0.25, abs=0.01)
    # ACKs lost on the way back: with adaptation the sender doubles the Ack Ratio (RFC 4341
    # §6.1.2), so far fewer ACKs are sent than the configured ratio would send.
    fixed = acks_per_packet(dccp(ack_ratio=2, ack_ratio_adapt=False), reverse_loss=0.05)
    adapted = acks_per_packet(dccp(ack_ratio=2, ack_ratio_adapt=True), reverse_loss=0.05)
    assert fixed == pytest.approx(0.5, abs=0.01)
    assert adapted < 0.6 * fixed, (adapted, fixed)


def test_ccid2_reacts_to_ecn_marks_as_it_does_to_losses():
    # One flow behind RED: with ECN the early drops become marks, and each mark (at most one
    # per round trip) cuts the window as the drop did.
    def run(ecn):
        sc = dumbbell(duration="40s", warmup="10s", flow=dccp(ecn=ecn))
        sc["topology"]["dumbbell"]["bottleneck"]["queue"] = {"kind": "red", "limit": "500pkt", "min_th": "10pkt", "max_th": "30pkt", "ecn": ecn}
        r = run_checked(sc)
        return r.summary["bottleneck"], r.flows.to_pandas().iloc[0]

    (b_ecn, f_ecn), (b_drop, f_drop) = run(True), run(False)
    assert b_ecn["ecn_marks"] >= 10 and b_ecn["drops"] == 0 and f_ecn["lost_pkts"] == 0, b_ecn
    assert f_ecn["ecn_reductions"] >= 0.7 * b_ecn["ecn_marks"] and f_ecn["loss_events"] == 0
    assert b_drop["ecn_marks"] == 0 and f_drop["ecn_reductions"] == 0
    assert f_drop["loss_events"] == pytest.approx(f_ecn["ecn_reductions"], rel=0.3)
    assert b_ecn["utilization"] > 0.9


def test_a_dccp_source_that_outruns_its_window_fills_the_send_buffer_and_drops_by_policy():
    # CBR at twice the link rate over DCCP: the window holds it back, the buffer overflows.
    flow = {"transport": "dccp", "app": {"kind": "cbr", "rate": "20Mbps"}, "dccp": {"send_buffer": 16}}
    r = run_checked(dumbbell(duration="20s", warmup="5s", flow=flow))
    f = r.flows.to_pandas().iloc[0]
    assert f["app_drops"] > 0.4 * f["data_pkts_sent"], f
    assert r.summary["bottleneck"]["utilization"] > 0.95


def test_block_is_back_pressure_bounded_by_the_send_buffer():
    # dccp_block_unbounded_memory.toml: "block" kept every message beyond the window (695 MB at
    # 60 s). The application now waits: what it would have made meanwhile is not made, and the
    # buffer's delay is that of 16 messages, as with drop_newest.
    def run(policy):
        flow = {"transport": "dccp", "app": {"kind": "cbr", "rate": "20Mbps"}, "dccp": {"send_buffer": 16, "buffer_policy": policy}}
        return run_checked(dumbbell(duration="20s", warmup="5s", flow=flow)).flows.to_pandas().iloc[0]

    block, newest = run("block"), run("drop_newest")
    assert block["app_drops"] > 0.4 * block["data_pkts_sent"], block
    assert block["data_pkts_sent"] == pytest.approx(newest["data_pkts_sent"], rel=0.02)


@pytest.mark.parametrize(
    "flow, path, message",
    [
        (dccp(ccid=5), r"flows\[0\]\.dccp\.ccid", "5 is not a CCID aimdlab has; expected 2 \\(TCP-like\\) or 3 \\(TFRC\\)"),
        (dccp(ack_ratio=0), r"flows\[0\]\.dccp\.ack_ratio", "0 is out of range; expected 1 to 65535"),
        (dccp(buffer_policy="drop_random"), r"flows\[0\]\.dccp\.buffer_policy", '"drop_random" is not valid; expected '),
        (dccp(ackratio=2), r"flows\[0\]\.dccp\.ackratio", "is not a parameter of the dccp table; it takes ccid, ack_ratio, .*\\(did you mean ack_ratio\\?\\)"),
        ({"dccp": {"ccid": 2}}, r"flows\[0\]\.dccp", 'applies only to DCCP flows; set transport = "dccp"'),
    ],
)
def test_bad_dccp_settings_name_the_field(flow, path, message):
    with pytest.raises(aimdlab.ScenarioError, match=path + ".*" + message):
        aimdlab.validate(dumbbell(flow=flow))


def test_tw_with_tcps_knobs_is_tcp_like_to_the_packet():
    # ss_growth 2, decrease 0.5 and a threshold no window reaches make TW's rule Reno's.
    base = dumbbell(duration="30s", flows=2, flow={**dccp(), "start_jitter": "1s"})
    reno = run_checked(base).flows.to_pandas()
    tw_flow = {**dccp(), "start_jitter": "1s", "cc": {"name": "tw", "ss_growth": 2, "decrease": 0.5, "initial_ssthresh": 1e9}}
    tw = run_checked(dumbbell(duration="30s", flows=2, flow=tw_flow)).flows.to_pandas()
    assert (tw["cc"] == "tw").all()
    cols = ["throughput_bps", "lost_pkts", "loss_events", "data_pkts_sent", "delay_mean_ms"]
    assert tw[cols].equals(reno[cols])


def test_tw_knobs_change_what_they_say():
    # Over a 300 ms link: a smaller drop keeps the window (and the queue) fuller; a threshold
    # at the path's capacity avoids slow start's overshoot losses.
    def run(cc):
        sc = dumbbell(rate="2Mbps", delay="300ms", buffer="100pkt", duration="120s", warmup="0s", flow={**dccp(), "cc": cc})
        return run_checked(sc).flows.to_pandas().iloc[0]

    reno = run("reno")
    tw_drop_50 = run({"name": "tw", "decrease": 0.5})
    tw_drop_5 = run({"name": "tw", "decrease": 0.05})
    assert tw_drop_50["lost_pkts"] < 0.25 * reno["lost_pkts"], (tw_drop_50["lost_pkts"], reno["lost_pkts"])
    assert tw_drop_5["delay_mean_ms"] > tw_drop_50["delay_mean_ms"]


@pytest.mark.parametrize(
    "cc, path, message",
    [
        ({"name": "tw", "decrease": 1.2}, r"flows\[0\]\.cc\.decrease", r"1.2 is outside \(0, 1\)"),
        ({"name": "tw", "decrease": 0}, r"flows\[0\]\.cc\.decrease", r"0 is outside \(0, 1\)"),
        ({"name": "tw", "ss_growth": 1}, r"flows\[0\]\.cc\.ss_growth", "1 is not above 1"),
        ({"name": "tw", "initial_ssthresh": 1}, r"flows\[0\]\.cc\.initial_ssthresh", "1 is below 2"),
    ],
)
def test_bad_tw_settings_name_the_field(cc, path, message):
    with pytest.raises(aimdlab.ScenarioError, match=path + ": " + message):
        aimdlab.validate(dumbbell(flow={**dccp(), "cc": cc}))


# CCID-3 (TFRC, RFC 4342 / RFC 5348)


def ccid3_path(loss=None, duration="200s", seed=1, sample_interval="1s", warmup="20s", **extra):
    """A 100 Mbps path with a 44 ms RTT, fast enough that TFRC runs at its equation's rate."""
    sc = dumbbell(rate="100Mbps", buffer="1000pkt", access_rate="1Gbps", duration=duration, warmup=warmup, seed=seed, sample_interval=sample_interval, flow=dccp(ccid=3, **extra))
    if loss:
        lossy(sc, loss)
    return sc


@pytest.mark.parametrize("loss", [0.005, 0.01, 0.02, 0.05])
def test_ccid3_sends_at_the_tfrc_equation_rate_for_the_loss_rate(loss):
    from aimdlab.models.tcp import tfrc_rate_bps

    f = run_checked(ccid3_path(loss)).flows.to_pandas().iloc[0]
    assert f["cc"] == "tfrc" and f["transport"] == "dccp-ccid3"
    s = 1000 + 36  # mss + DCCP data header
    predicted = tfrc_rate_bps(s, f["rtt_mean_ms"] / 1000, loss)
    assert 0.8 <= f["throughput_bps"] / predicted <= 1.2, (f["throughput_bps"], predicted)


def test_ccid3_receiver_counts_sparse_losses_as_loss_events_at_the_configured_rate():
    # At 0.1 % two losses rarely fall within one RTT (about 37 packets): the receiver's loss
    # events per packet are a binomial estimate of the loss rate.
    loss = 0.001
    f = run_checked(ccid3_path(loss, duration="300s")).flows.to_pandas().iloc[0]
    n, events = int(f["data_pkts_sent"]), int(f["receiver_loss_events"])
    z = (events - loss * n) / np.sqrt(n * loss * (1 - loss))
    assert abs(z) < 3, (events, n, z)
    assert 0.5 * loss < f["receiver_p"] < 2 * loss


def test_ccid3_slow_start_at_most_doubles_per_report_and_reaches_the_link_rate():
    r = run_checked(ccid3_path(duration="1.2s", sample_interval="10ms", warmup="0s"))
    ts = r.timeseries.to_pandas()
    x = ts["x_bps"].to_numpy()
    assert x[0] == 1036 * 8, "one packet per second before the first feedback (RFC 5348 §4.2)"
    after = x[x > 1036 * 8]  # from the first feedback on (which sets W_init/R, §4.2)
    assert after[0] == pytest.approx(4 * 1036 * 8 / 0.0441, rel=0.01)
    steps = after[1:] / after[:-1]
    assert steps.max() <= 2.0 + 1e-9, steps.max()
    # From W_init/R (0.75 Mbit/s) past 90 Mbit/s: seven doublings, each waiting for the
    # receive rate to catch up (X ≤ 2·X_recv, X_recv lagging one report): two RTTs each, plus
    # one RTT of slack for the 10 ms sampling.
    first_feedback = ts["time_s"][ts["x_bps"] > 1036 * 8].iloc[0]
    reached = ts["time_s"][ts["x_bps"] > 90e6].iloc[0]
    assert reached - first_feedback <= 15 * 0.0441, (first_feedback, reached)


def test_ccid3_without_feedback_halves_its_rate_to_one_packet_per_64_seconds():
    sc = ccid3_path(duration="40s", warmup="0s")
    d = sc["topology"]["dumbbell"]
    d["reverse_bottleneck"] = {**d["bottleneck"], "loss": {"model": "bernoulli", "rate": 1.0, "applies_to": "ack"}}
    r = run_checked(sc)
    ts = r.timeseries.to_pandas()
    # RFC 5348 §4.4: before any feedback, every 2 s the rate halves, down to s/t_mbi.
    assert list(ts["x_bps"].iloc[[0, 2, 4]]) == [8288.0, 4144.0, 2072.0]
    assert ts["x_bps"].iloc[-1] == 1036 * 8 / 64
    assert r.flows.to_pandas()["data_pkts_sent"].iloc[0] < 10


def test_ccid3_against_tcp_on_a_shared_link_is_within_a_factor_of_two():
    sc = dumbbell(duration="120s", warmup="20s", flow={"start_jitter": "1s"})
    sc["flows"].append({"name": "tfrc", **dccp(ccid=3), "start_jitter": "1s"})
    f = run_checked(sc).flows.to_pandas()
    ratio = f["throughput_bps"].iloc[1] / f["throughput_bps"].iloc[0]
    assert 0.5 <= ratio <= 2.0, ratio


@pytest.mark.parametrize(
    "flow, path, message",
    [
        ({**dccp(ccid=3), "cc": "reno"}, r"flows\[0\]\.cc", "DCCP CCID-3 is TFRC, rate-based"),
        (dccp(ccid=2, tfrc={"oscillation_damping": True}), r"flows\[0\]\.dccp\.tfrc", "applies only to CCID-3"),
        (dccp(ccid=3, tfrc={"damping": True}), r"flows\[0\]\.dccp\.tfrc\.damping", "is not a parameter of the tfrc table; it takes "),
    ],
)
def test_bad_ccid3_settings_name_the_field(flow, path, message):
    with pytest.raises(aimdlab.ScenarioError, match=path + ".*" + message):
        aimdlab.validate(dumbbell(flow=flow))


def test_friendliness_is_a_groups_throughput_over_the_tcp_groups():
    sc = dumbbell(duration="60s", warmup="10s", flow={"name": "tcp", "start_jitter": "1s"})
    sc["flows"].append({"name": "udp", "transport": "udp", "app": {"kind": "cbr", "rate": "3Mbps"}})
    r = run_checked(sc)
    f = r.flows.to_pandas().set_index("group_name")
    assert r.friendliness("udp") == pytest.approx(f.loc["udp", "throughput_bps"] / f.loc["tcp", "throughput_bps"])
    assert r.friendliness("tcp", "tcp") == 1.0
    with pytest.raises(KeyError, match="no flow group named 'dccp'; the groups are 'tcp', 'udp'"):
        r.friendliness("dccp")


def test_ccid3_feedback_comes_once_per_rtt_and_damping_smooths_the_rate():
    def run(damping):
        sc = dumbbell(rate="10Mbps", buffer="200pkt", duration="120s", warmup="20s", flow=dccp(ccid=3, tfrc={"oscillation_damping": damping}))
        r = run_checked(sc)
        ts = r.timeseries.to_pandas()
        ts = ts[ts["time_s"] > 20]
        f = r.flows.to_pandas().iloc[0]
        feedback = link(r, "r2->r1")["tx_pkts"]
        return ts["send_rate_bps"].std() / ts["send_rate_bps"].mean(), feedback / (100 / (f["rtt_mean_ms"] / 1000)), f

    cv_plain, per_rtt, f = run(False)
    cv_damped, _, f_damped = run(True)
    # RFC 5348 §6.2: one report per RTT (plus one at each new loss event).
    assert 0.95 <= per_rtt <= 1.2, per_rtt
    # §4.5: damping by the RTT's square root smooths the rate as the queue fills and drains.
    assert cv_damped < 0.5 * cv_plain, (cv_damped, cv_plain)
    assert f_damped["throughput_bps"] > 0.95 * f["throughput_bps"]
