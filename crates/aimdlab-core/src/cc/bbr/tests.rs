//! BBR's tests: its own claims on scripted ACKs (the packet-level ones are in
//! `tests/test_aimd_family.py`).

use crate::cc::testing::BuildWindowed;
use super::super::testing::ack_at;
use super::*;
use crate::transport::congestion_window::CongestionWindow;
use crate::cc::rate_sample::RateSample;

/// An ACK at `ms` of one packet, ending a round when `new_round`, with a delivery-rate
/// sample of `rate_pps`, a 40 ms RTT sample (`ack_rtt` takes another), `in_flight` packets in
/// flight.
fn ack(c: &mut CongestionWindow<Box<Bbr>>, ms: u64, rate_pps: f64, new_round: bool, in_flight: u64) {
    ack_rtt(c, ms, rate_pps, new_round, in_flight, 40)
}

fn ack_rtt(c: &mut CongestionWindow<Box<Bbr>>, ms: u64, rate_pps: f64, new_round: bool, in_flight: u64, rtt_ms: u64) {
    let delivered = c.next_round_delivered + 1;
    let rs = RateSample {
        delivery_rate_pps: rate_pps,
        delivered_pkts: 10,
        interval: SimDuration::from_millis(40),
        prior_delivered: if new_round { c.next_round_delivered } else { c.next_round_delivered.saturating_sub(1) },
        delivered_total: if new_round { delivered } else { c.next_round_delivered },
        is_app_limited: false,
        acked_sacked_pkts: 1,
        losses_pkts: 0,
        prior_in_flight_pkts: in_flight,
        valid: true,
    };
    let mut ev = ack_at(1, SimTime::from_millis(ms), false);
    ev.rtt_sample = Some(SimDuration::from_millis(rtt_ms));
    ev.srtt = SimDuration::from_millis(40);
    ev.pkts_in_flight = in_flight;
    ev.rate = Some(rs);
    c.on_ack(&ev);
}

#[test]
fn startup_ends_after_three_rounds_without_25_percent_growth_then_drains() {
    let mut c = BbrParams::default().build_windowed("bbr", 10.0, 1e9);
    let mut t = 0;
    for rate in [100.0, 200.0, 400.0, 800.0, 1000.0] {
        t += 40;
        ack(&mut c, t, rate, true, 50);
        assert_eq!(c.mode(), Mode::Startup, "still growing at {rate}");
    }
    for round in 0..3 {
        t += 40;
        ack(&mut c, t, 1_100.0, true, 200);
        let expected = if round < 2 { Mode::Startup } else { Mode::Drain };
        assert_eq!(c.mode(), expected, "round {round} at +10 %");
    }
    assert!((c.pacing_gain - 1.0 / c.p.high_gain).abs() < 1e-12);
    // In flight falls to the BDP (1,100/s × 40 ms = 44, + 3): PROBE_BW.
    t += 40;
    ack(&mut c, t, 1_100.0, true, 47);
    assert_eq!(c.mode(), Mode::ProbeBw);
    assert_ne!(c.cycle_index, 1, "never starts in the draining phase");
    assert!(c.cwnd_pkts() <= c.inflight(2.0), "{} > {}", c.cwnd_pkts(), c.inflight(2.0));
}

#[test]
fn btl_bw_is_the_largest_sample_of_the_last_ten_rounds() {
    let mut c = BbrParams::default().build_windowed("bbr", 10.0, 1e9);
    ack(&mut c, 40, 1_000.0, true, 10);
    for r in 0..9 {
        ack(&mut c, 80 + 40 * r, 500.0, true, 10);
        assert_eq!(c.btl_bw_pps(), 1_000.0, "round {r}");
    }
    ack(&mut c, 80 + 40 * 9, 500.0, true, 10);
    assert_eq!(c.btl_bw_pps(), 500.0, "the 1,000 sample is 10 rounds old");
}

#[test]
fn probe_rtt_comes_ten_seconds_after_the_last_lower_rtt_and_holds_four_packets() {
    let mut c = BbrParams::default().build_windowed("bbr", 10.0, 1e9);
    c.full_bw_reached = true;
    c.enter_probe_bw(SimTime::ZERO);
    // RTprop 40 ms seen at the start, then a standing queue: every sample 45 ms.
    ack(&mut c, 0, 1_000.0, true, 80);
    let mut t = 0;
    while t < 10_000 {
        t += 40;
        ack_rtt(&mut c, t, 1_000.0, true, 80, 45);
        assert_ne!(c.mode(), Mode::ProbeRtt, "at {t} ms");
    }
    t += 40;
    ack_rtt(&mut c, t, 1_000.0, true, 80, 45);
    assert_eq!(c.mode(), Mode::ProbeRtt);
    assert_eq!(c.cwnd_pkts(), MIN_CWND_PKTS);
    // 4 in flight starts the 200 ms; a round later and past it, back to PROBE_BW.
    let start = t + 40;
    ack(&mut c, start, 1_000.0, false, 4);
    ack(&mut c, start + 100, 1_000.0, true, 4);
    assert_eq!(c.mode(), Mode::ProbeRtt, "200 ms not over");
    ack(&mut c, start + 240, 1_000.0, true, 4);
    assert_eq!(c.mode(), Mode::ProbeBw);
    assert!(c.cwnd_pkts() > 40.0, "the window before PROBE_RTT is restored: {}", c.cwnd_pkts());
}
