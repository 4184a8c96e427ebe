"""Facts about active queue management, ECN and lossy links."""

from __future__ import annotations

import math

import aimdlab
import numpy as np
import pytest
from conftest import QUEUE_KINDS, dumbbell, run_checked


def with_queue(sc, **queue):
    sc["topology"]["dumbbell"]["bottleneck"]["queue"] = queue
    return sc


def red_run(ecn: bool):
    sc = dumbbell(flows=30, duration="60s", warmup="10s", flow={"start_jitter": "2s"}, tcp={"ecn": ecn})
    return run_checked(with_queue(sc, kind="red", limit="1000pkt", min_th="20pkt", max_th="60pkt", ecn=ecn))


def test_red_average_queue_settles_between_the_thresholds():
    r = red_run(ecn=False)
    lts = r.link_timeseries.to_pandas()
    avg = lts[lts["time_s"] > 10]["red_avg"].to_numpy()
    assert 20 <= avg.mean() <= 60, avg.mean()
    assert np.mean((avg >= 20) & (avg <= 60)) > 0.95
    assert r.summary["bottleneck"]["utilization"] > 0.98


def test_ecn_flows_are_marked_instead_of_dropped():
    # The buffer (1000 packets) never overflows. Early drops left with ECN fall on packets
    # that may not carry ECT: retransmissions (RFC 3168 §6.1.5), e.g. after a slow-start
    # overshoot past RED's forced-drop region during the warm-up.
    ecn, drop = red_run(ecn=True), red_run(ecn=False)
    b_ecn, b_drop = ecn.summary["bottleneck"], drop.summary["bottleneck"]
    assert b_ecn["ecn_marks"] > 1000 and b_ecn["drops"] <= 0.001 * b_ecn["ecn_marks"], b_ecn
    assert b_drop["ecn_marks"] == 0 and b_drop["drops_early"] > 1000 and b_drop["drops_overflow"] == 0, b_drop
    f_ecn, f_drop = ecn.flows.to_pandas(), drop.flows.to_pandas()
    # Marks reduce windows (at most once per window each) instead of costing retransmissions.
    assert 0.3 * b_ecn["ecn_marks"] < f_ecn["ecn_reductions"].sum() <= b_ecn["ecn_marks"]
    assert 20 * f_ecn["retransmitted_pkts"].sum() < f_drop["retransmitted_pkts"].sum()


def single_flow_delay(kind: str):
    sc = dumbbell(rate="10Mbps", buffer="1000pkt", duration="60s", warmup="10s")
    return run_checked(with_queue(sc, kind=kind, limit="1000pkt")).summary["bottleneck"]


def test_codel_keeps_the_standing_queue_near_its_target_while_droptail_fills_the_buffer():
    codel = single_flow_delay("codel")
    droptail = run_checked(dumbbell(rate="10Mbps", buffer="1000pkt", duration="60s")).summary["bottleneck"]
    assert codel["qdelay_mean_ms"] <= 5.0 and codel["qdelay_p99_ms"] <= 10.0, codel
    assert droptail["queue_max_pkts"] >= 950, droptail
    assert droptail["qdelay_mean_ms"] > 40 * codel["qdelay_mean_ms"]


def test_pie_keeps_the_queuing_delay_near_its_15ms_target():
    pie = single_flow_delay("pie")
    assert 7.5 <= pie["qdelay_mean_ms"] <= 22.5, pie
    assert pie["qdelay_p99_ms"] <= 45, pie
    assert pie["utilization"] > 0.9


def test_fq_codel_shares_fairly_with_short_queues():
    # Eight bulk flows into a 1000-packet buffer: DropTail lets the standing queue grow to
    # hundreds of milliseconds; FQ-CoDel keeps each flow's queue near one packet (a queue
    # holding less than an MTU is never dropped from), so the total stays near
    # flows × one packet, and the round robin shares the link equally.
    sc = dumbbell(flows=8, buffer="1000pkt", duration="40s", warmup="10s", flow={"start_jitter": "1s"})
    droptail = run_checked(sc).summary
    fq = run_checked(with_queue(sc, kind="fq_codel", limit="1000pkt")).summary
    assert fq["bottleneck"]["qdelay_mean_ms"] < 20, fq["bottleneck"]
    assert droptail["bottleneck"]["qdelay_mean_ms"] > 10 * fq["bottleneck"]["qdelay_mean_ms"]
    assert fq["jain_index"] > 0.99 and fq["bottleneck"]["utilization"] > 0.99


@pytest.mark.parametrize("rate", [0.001, 0.01, 0.1])
@pytest.mark.parametrize("seed", [1, 2])
def test_lossy_link_loses_packets_at_its_rate(rate, seed):
    sc = dumbbell(flows=4, buffer="1000pkt", duration="60s")
    sc["topology"]["dumbbell"]["bottleneck"]["loss"] = {"model": "bernoulli", "rate": rate}
    link = run_checked(sc, seed=seed).links.to_pandas().iloc[0]
    n, lost = int(link["tx_pkts"]), int(link["drops_error"])
    half_width = 2.576 * math.sqrt(n * rate * (1 - rate))  # binomial 99% interval
    assert abs(lost - n * rate) <= half_width, (lost, n * rate, half_width)


def test_a_flows_loss_rate_is_its_dropped_share_and_never_negative():
    # No drop at all, a full buffer when the window starts: packets sent in the warm-up arrive
    # in the window. The old reading, 1 − received / sent over the window, was negative here
    # (−0.00006: 18,029 received against 18,028 sent); every sent packet is received,
    # dropped or still held, so counting the ones sent in the window gives exactly 0.
    quiet = run_checked(dumbbell(buffer="1000pkt", duration="20s", warmup="5s", tcp={"receive_window": "200pkt"}))
    flow = quiet.flows.to_pandas().iloc[0]
    assert quiet.summary["bottleneck"]["drops"] == 0 and flow["received_pkts"] > flow["data_pkts_sent"], flow
    assert flow["loss_rate"] == 0.0
    # Random loss of 2 % on the data path, a buffer that never fills: each flow loses its 2 %.
    sc = dumbbell(flows=4, buffer="1000pkt", duration="60s", warmup="5s")
    sc["topology"]["dumbbell"]["bottleneck"]["loss"] = {"model": "bernoulli", "rate": 0.02}
    r = run_checked(sc, seed=3)
    assert r.summary["bottleneck"]["drops_overflow"] == 0
    for _, f in r.flows.to_pandas().iterrows():
        n = f["data_pkts_sent"]
        half_width = 2.576 * math.sqrt(0.02 * 0.98 / n)  # binomial 99 % interval
        assert 0.0 <= f["loss_rate"] and abs(f["loss_rate"] - 0.02) <= half_width, (f["loss_rate"], n)


def test_link_layer_retries_hide_most_losses_and_cost_link_time():
    # PER 0.3 with one link-layer retransmission: the transport loses 0.3^2 = 9 % of its data,
    # and each data packet takes 1.3 serialization times on average.
    e, retries = 0.3, 1
    sc = dumbbell(flows=4, buffer="1000pkt", duration="60s")
    sc["topology"]["dumbbell"]["bottleneck"]["loss"] = {"model": "bernoulli", "rate": e, "applies_to": "data", "retries": retries}
    r = run_checked(sc)
    link = r.links.to_pandas().iloc[0]
    data = int(link["tx_pkts"])  # the bottleneck carries data only
    n, lost = data, int(link["drops_error"])
    half_width = 2.576 * math.sqrt(n * e * e * (1 - e * e))
    assert abs(lost - n * e * e) <= half_width, (lost, n * e * e)
    # Link time: a packet takes 1 + e serializations on average (a second one when its first
    # attempt fails), so the link is busy 1.3 times as long as its bytes alone would take.
    busy_s = r.summary["bottleneck"]["utilization"] * 60.0
    bytes_s = int(link["tx_bytes"]) * 8 / 10e6
    assert busy_s / bytes_s == pytest.approx(1 + e, rel=0.02)


def test_gilbert_elliott_link_loses_its_stationary_share():
    p, r = 0.002, 0.2
    sc = dumbbell(flows=4, buffer="1000pkt", duration="60s")
    sc["topology"]["dumbbell"]["bottleneck"]["loss"] = {"model": "gilbert_elliott", "p": p, "r": r}
    link = run_checked(sc).links.to_pandas().iloc[0]
    rate = link["drops_error"] / link["tx_pkts"]
    assert abs(rate - p / (p + r)) / (p / (p + r)) < 0.25, rate


@pytest.mark.parametrize("p", [0.001, 0.005, 0.01, 0.02])
def test_reno_on_a_lossy_link_follows_the_mathis_formula(p):
    # Random data loss only; the 100 Mbps bottleneck and its buffer are never the limit.
    sc = dumbbell(rate="100Mbps", delay="49ms", access_rate="1Gbps", access_delay="0.5ms", buffer="10000pkt",
                  duration="300s", warmup="20s")
    sc["topology"]["dumbbell"]["bottleneck"]["loss"] = {"model": "bernoulli", "rate": p, "applies_to": "data"}
    f = run_checked(sc).flows.to_pandas().iloc[0]
    rtt_s = f["rtt_mean_ms"] / 1000
    mathis_bps = 1000 * 8 / rtt_s * math.sqrt(1.5) / math.sqrt(p)
    assert 0.7 <= f["goodput_bps"] / mathis_bps <= 1.3, (f["goodput_bps"], mathis_bps)


BAD = [
    ({"kind": "red", "min_th": "20pkt", "max_th": "10pkt"}, "queue.min_th: 20 is not below max_th (10)"),
    ({"kind": "red", "max_p": 0.0}, "queue.max_p: 0 is outside (0, 1]"),
    ({"kind": "red", "max_p": 1.5}, "queue.max_p: 1.5 is outside (0, 1]"),
    ({"kind": "red", "min_th": "5pkt", "max_th": "15KB"}, "queue.max_th: is in a different unit from min_th"),
    ({"kind": "red", "auto": True, "min_th": "5pkt"}, "queue.min_th: is set automatically when auto = true"),
    ({"kind": "droptail", "min_th": "5pkt"}, 'queue.min_th: is not a parameter of kind = "droptail"; it takes kind, limit (min_th is a setting of red)'),
    ({"kind": "wred"}, 'queue.kind: "wred" is not a queue discipline; expected one of ' + QUEUE_KINDS),
    ({"kind": "codel", "ecn": "yes"}, 'queue.ecn: "yes" is not valid; expected true or false'),
    ({"kind": "codel", "target": "0s"}, "queue.target: \"0s\" is not allowed"),
    ({"kind": "fq_codel", "limit": "100KB"}, "queue.limit: is in bytes; fq_codel takes a limit in packets"),
    ({"kind": "pie", "alpha": -1.0}, "queue.alpha: -1 is not positive"),
]


@pytest.mark.parametrize("queue,expected", BAD, ids=[b[1].split(":")[0] + str(i) for i, b in enumerate(BAD)])
def test_bad_queue_settings_are_named(queue, expected):
    with pytest.raises(aimdlab.ScenarioError) as e:
        aimdlab.validate(with_queue(dumbbell(), **queue))
    assert str(e.value).startswith("topology.dumbbell.bottleneck." + expected.split(":")[0]), str(e.value)
    assert expected in str(e.value)


@pytest.mark.parametrize("loss,expected", [
    ({"model": "bernoulli", "rate": 1.5}, "loss.rate: 1.5 is outside [0, 1]"),
    ({"model": "bernoulli", "rate": -0.1}, "loss.rate: -0.1 is outside [0, 1]"),
    ({"model": "bernoulli"}, "loss.rate: is missing"),
    ({"model": "gilbert_elliott", "p": 0.1}, "loss.r: is missing"),
    ({"model": "gilbert_elliott", "p": 0.1, "r": 0.0}, "loss.r: 0 is outside (0, 1]"),
    ({"model": "bernoulli", "rate": 0.1, "p": 0.2}, 'loss.p: does not apply to model = "bernoulli"'),
    ({"model": "uniform", "rate": 0.1}, 'loss.model: "uniform" is not valid; expected one of "bernoulli", "gilbert_elliott"'),
    ({"model": "bernoulli", "rate": 0.1, "retries": 17}, "loss.retries: 17 is not accepted; expected 0 to 16 link-layer retransmissions"),
    ({"model": "bernoulli", "rate": 0.1, "retries": -1}, "loss.retries: -1 is not valid; expected a whole number ≥ 0"),
])
def test_bad_loss_settings_are_named(loss, expected):
    sc = dumbbell()
    sc["topology"]["dumbbell"]["bottleneck"]["loss"] = loss
    with pytest.raises(aimdlab.ScenarioError) as e:
        aimdlab.validate(sc)
    assert str(e.value).startswith("topology.dumbbell.bottleneck." + expected), str(e.value)


def test_onoff_udp_sources_send_their_mean_rate_and_are_never_acknowledged():
    # 20 sources of 500 kbit/s, ON 1 s / OFF 2 s on average (gaimd.txt §2.4.1): each sends
    # 500·1/3 ≈ 167 kbit/s on average (Pareto shape 1.5: the long-run mean converges slowly).
    sc = dumbbell(rate="100Mbps", buffer="1000pkt", duration="600s", flow={"app": {"kind": "onoff"}, "start_jitter": "1s"})
    sc["flows"][0]["count"] = 20
    r = run_checked(sc)
    f = r.flows.to_pandas()
    assert set(f["cc"]) == {"udp"}
    mean_rate = f["send_rate_bps"].mean()
    assert abs(mean_rate / (500e3 / 3) - 1) < 0.15, mean_rate
    assert f["retransmitted_pkts"].sum() == 0
    assert r.summary["packets"]["delivered"] == f["received_pkts"].sum()  # no ACKs come back
    # UDP carries no TCP state: no window, no RTT, nothing in flight.
    assert f["cwnd_final_pkts"].isna().all() and f["rtt_mean_ms"].isna().all()
    ts = r.timeseries.to_pandas()
    assert ts["cwnd_pkts"].isna().all() and (ts["in_flight_pkts"] == 0).all()


def test_the_loss_event_rate_is_window_reductions_per_packet_sent():
    sc = dumbbell(flows=4, duration="30s", warmup="5s", buffer="20pkt")
    f = run_checked(sc).flows.to_pandas()
    assert (f["loss_events"] == f["fast_retransmits"] + f["timeouts"]).all()
    assert ((f["loss_event_rate"] - f["loss_events"] / f["data_pkts_sent"]).abs() < 1e-15).all()
    assert (f["loss_event_rate"] > 0).all() and (f["ecn_event_rate"] == 0).all()


def test_an_onoff_application_over_tcp_is_application_limited():
    # The same ON/OFF source (500 kbit/s while ON, mean ON 1 s / OFF 2 s) over TCP on an idle
    # 10 Mbps path: TCP sends what the application offers, reliably, and no more.
    app = {"kind": "onoff", "rate": "500Kbps", "on": "1s", "off": "2s"}
    tcp = run_checked(dumbbell(duration="300s", flow={"app": app, "transport": "tcp"}))
    udp = run_checked(dumbbell(duration="300s", flow={"app": app}))
    ft, fu = tcp.flows.to_pandas().iloc[0], udp.flows.to_pandas().iloc[0]
    assert ft["cc"] == "reno" and fu["cc"] == "udp"
    # Same offered data (same seed, same draws): TCP delivers every message UDP sent.
    assert ft["data_pkts_sent"] == fu["data_pkts_sent"] and ft["retransmitted_pkts"] == 0
    assert ft["delivered_bytes"] == fu["delivered_bytes"]
    assert ft["rtt_mean_ms"] > 0 and tcp.summary["packets"]["delivered"] > udp.summary["packets"]["delivered"]  # ACKs


def test_udp_needs_a_self_paced_application():
    with pytest.raises(aimdlab.ScenarioError, match=r'flows\[0\]\.transport: "udp" carries only an application that paces itself'):
        aimdlab.validate(dumbbell(flow={"transport": "udp"}))
    with pytest.raises(aimdlab.ScenarioError, match=r'flows\[0\]\.transport: "sctp" is not valid; expected one of "tcp", "udp", "dccp"'):
        aimdlab.validate(dumbbell(flow={"transport": "sctp"}))
    # A controller on a UDP flow would be ignored: it is an error instead.
    with pytest.raises(aimdlab.ScenarioError, match=r"flows\[0\]\.cc: applies only to TCP and DCCP; a UDP flow has no congestion controller"):
        aimdlab.validate(dumbbell(flow={"app": {"kind": "cbr"}, "cc": "gaimd"}))


def test_a_cbr_source_sends_at_its_rate_over_udp_and_is_app_limited_over_tcp():
    udp = run_checked(dumbbell(duration="20s", warmup="1s", flow={"app": {"kind": "cbr", "rate": "2Mbps"}}))
    f = udp.flows.to_pandas().iloc[0]
    assert f["cc"] == "udp" and abs(f["send_rate_bps"] / 2e6 - 1) < 0.001, f["send_rate_bps"]
    tcp = run_checked(dumbbell(duration="20s", warmup="1s", flow={"app": {"kind": "cbr", "rate": "2Mbps"}, "transport": "tcp"}))
    g = tcp.flows.to_pandas().iloc[0]
    assert g["cc"] == "reno" and abs(g["send_rate_bps"] / 2e6 - 1) < 0.01 and g["retransmitted_pkts"] == 0, g
    # Over a 1 Mbit/s bottleneck UDP keeps sending 2 Mbit/s and loses about half.
    lossy = run_checked(dumbbell(rate="1Mbps", duration="20s", warmup="5s", flow={"app": {"kind": "cbr", "rate": "2Mbps"}}))
    h = lossy.flows.to_pandas().iloc[0]
    assert abs(h["send_rate_bps"] / 2e6 - 1) < 0.001 and h["goodput_bps"] < 1e6


def red_ecn_under(profile: str, **queue):
    """`red_run`'s RED+ECN dumbbell under a stack profile (the queue's own fields over it)."""
    sc = dumbbell(flows=30, duration="60s", warmup="10s", flow={"start_jitter": "2s"}, tcp={"ecn": True, "profile": profile})
    return run_checked(with_queue(sc, **{"kind": "red", "limit": "1000pkt", "min_th": "20pkt", "max_th": "60pkt", "ecn": True, **queue}))


def test_the_linux_profile_runs_red_as_linux_sch_red_decides():
    default, linux, ns2 = red_ecn_under("linux"), red_ecn_under("linux", variant="linux"), red_ecn_under("linux", variant="ns2")
    assert default.summary["bottleneck"] == linux.summary["bottleneck"]
    assert default.flows.to_pandas().equals(linux.flows.to_pandas())
    # sch_red acts on the average alone (ns-2 not while at most one packet waits) and spaces
    # its marks uniformly over 1..1/p_b packets (ns-2's `wait`: over 1/p_b..2/p_b), so on the
    # same set-up it marks more often and holds the average lower.
    b_linux, b_ns2 = linux.summary["bottleneck"], ns2.summary["bottleneck"]
    assert b_linux["ecn_marks"] > b_ns2["ecn_marks"], (b_linux, b_ns2)
    avg = [r.link_timeseries.to_pandas().query("link == 0 and time_s > 10")["red_avg"].mean() for r in (linux, ns2)]
    assert avg[0] < avg[1], avg


def test_linux_red_marks_ecn_capable_packets_above_max_th_unless_told_to_drop():
    # A weight of 1/2 puts the average above max_th within a few packets of a burst.
    marks = red_ecn_under("rfc", variant="linux", w_q=0.5, min_th="2pkt", max_th="4pkt")
    drops = red_ecn_under("rfc", variant="linux", w_q=0.5, min_th="2pkt", max_th="4pkt", mark_forced=False)
    retransmitted = marks.flows.to_pandas()["retransmitted_pkts"].sum()
    b_marks, b_drops = marks.summary["bottleneck"], drops.summary["bottleneck"]
    # With marking, a forced action drops only packets that may not carry ECT: retransmissions.
    assert b_marks["ecn_marks"] > 1000 and b_marks["drops_forced"] <= retransmitted, (b_marks, retransmitted)
    assert b_drops["drops_forced"] > 100, b_drops


@pytest.mark.parametrize("field", ["gentle", "wait"])
def test_linux_red_refuses_ns2_only_rules(field):
    sc = with_queue(dumbbell(tcp={"profile": "linux"}), kind="red", **{field: True})
    with pytest.raises(aimdlab.ScenarioError, match=rf"bottleneck\.queue\.{field}: true is not a rule of Linux's sch_red"):
        aimdlab.run(sc)
