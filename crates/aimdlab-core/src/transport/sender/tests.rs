//! The sender driven by scripted ACKs: what leaves on each ACK of a fast recovery.

use super::*;
use crate::cc::reno::Reno;
use crate::net::packet::{PacketKind, SackBlocks};

/// A SACK sender of one flow with a Reno window of `cwnd` packets (in congestion avoidance).
fn sender(cfg: &TcpConfig, cwnd: f64) -> TcpSender {
    TcpSender::new(FlowId(0), NodeId(1), cfg, SegmentSizes::new(1000, None), Controller::Reno(Reno::new(cwnd, cwnd)))
}

/// An ACK of everything below `cum` that also SACKs [`sack_start`, `sack_end`).
fn ack(cum: u64, sack_start: u64, sack_end: u64, now: SimTime) -> Packet {
    let mut sack = SackBlocks::new(cum);
    if sack_end > sack_start {
        sack.push(sack_start, sack_end);
    }
    Packet { kind: PacketKind::Ack, seq: cum, sack, echo_sent_at: SimTime::ZERO, ..Packet::data(FlowId(0), NodeId(0), cum, Bytes(40), now) }
}

/// A window of 100 segments with segment 0 lost: the 99 ACKs that SACK 1..=99 arrive 1 ms
/// apart. Returns the segments sent on each ACK and the sender after the last one.
fn single_loss(prr: bool) -> (Vec<usize>, TcpSender) {
    let cfg = TcpConfig { prr, ..TcpConfig::default() };
    let mut s = sender(&cfg, 100.0);
    let mut out = Outbox::default();
    s.start(SimTime::ZERO, &mut out);
    assert_eq!(out.packets.len(), 100);
    let mut sent = Vec::new();
    for k in 1..=99u64 {
        out.clear();
        s.on_ack(&ack(0, 1, k + 1, SimTime::from_millis(100 + k)), SimTime::from_millis(100 + k), &mut out);
        sent.push(out.packets.len());
    }
    (sent, s)
}

#[test]
fn prr_spreads_a_single_loss_recovery_over_the_round_trip_without_a_burst() {
    let (sent, s) = single_loss(true);
    assert!(s.in_recovery());
    // Limited transmit on the first two duplicate ACKs, fast retransmit on the third; from
    // then on ⌈delivered · 50/100⌉ − out.
    assert_eq!(sent[..2], [1, 1]);
    assert_eq!(sent[2], 1, "the retransmission");
    assert!(sent.iter().all(|&n| n <= 1), "no ACK releases more than one segment: {sent:?}");
    let first_half: usize = sent[..50].iter().sum();
    assert!((26..=28).contains(&first_half), "PRR sends through the first half of the round trip: {first_half}");
    // Recovery ends near ssthresh: 50 in flight for a threshold of 50.
    assert_eq!(s.cc.ssthresh_pkts(), 50.0);
    assert!((49..=51).contains(&s.pipe()), "pipe {}", s.pipe());
}

#[test]
fn rfc_6675_waits_half_a_round_trip_then_sends_one_per_ack() {
    let (sent, s) = single_loss(false);
    let first_half: usize = sent[..50].iter().sum();
    // Only the retransmission (plus limited transmit's two on the first duplicate ACKs)
    // until pipe falls below cwnd = 50.
    assert_eq!(sent[..3], [1, 1, 1]);
    assert!(first_half <= 3, "first half {first_half}: {sent:?}");
    assert!((49..=51).contains(&s.pipe()), "pipe {}", s.pipe());
}

#[test]
fn without_limited_transmit_the_first_duplicate_acks_send_nothing() {
    for (limited_transmit, expected) in [(true, [1, 1]), (false, [0, 0])] {
        let cfg = TcpConfig { limited_transmit, ..TcpConfig::default() };
        let mut s = sender(&cfg, 10.0);
        let mut out = Outbox::default();
        s.start(SimTime::ZERO, &mut out);
        let mut sent = [0; 2];
        for k in 1..=2u64 {
            out.clear();
            s.on_ack(&ack(0, 1, k + 1, SimTime::from_millis(100 + k)), SimTime::from_millis(100 + k), &mut out);
            sent[k as usize - 1] = out.packets.len();
        }
        assert_eq!(sent, expected, "limited_transmit = {limited_transmit}");
    }
}

/// An ECN sender with `cwr_freeze` and the rest of `cfg`, a full window of `cwnd` segments
/// sent at 0, after the first ACK, at `at_ms`, echoes ECN.
fn after_ecn_echo(cfg: TcpConfig, cwnd: f64, at_ms: u64) -> (TcpSender, Outbox) {
    let cfg = TcpConfig { ecn: true, cwr_freeze: true, ..cfg };
    let mut s = sender(&cfg, cwnd);
    let mut out = Outbox::default();
    s.start(SimTime::ZERO, &mut out);
    let mut echo = ack(1, 0, 0, SimTime::from_millis(at_ms));
    echo.ece = true;
    s.on_ack(&echo, SimTime::from_millis(at_ms), &mut out);
    (s, out)
}

#[test]
fn a_timeout_ends_cwr_so_the_window_grows_again_from_one_segment() {
    // An ECN reduction starts CWR (no growth until its window is acknowledged); the timer
    // then expires. Linux's CA_Loss and ns-3's CA_LOSS replace CWR: slow start from one
    // segment. Held in CWR instead, the window stayed at 1 until all 20 segments
    // outstanding at the timeout were acknowledged one delayed ACK at a time.
    let (mut s, mut out) = after_ecn_echo(TcpConfig::default(), 20.0, 50);
    assert_eq!(s.cc.cwnd_pkts(), 10.0, "the ECN reduction");
    // The timer's event at 1 s finds its deadline moved to 1.05 s by the ACK, and fires then.
    s.on_rto_timer(SimTime::from_millis(1000), &mut out);
    assert_eq!(s.cc.cwnd_pkts(), 10.0);
    s.on_rto_timer(SimTime::from_millis(1050), &mut out);
    assert_eq!(s.cc.cwnd_pkts(), 1.0);
    let now = SimTime::from_millis(1100);
    s.on_ack(&ack(2, 0, 0, now), now, &mut out);
    assert_eq!(s.cc.cwnd_pkts(), 2.0, "slow start after the timeout");
}

/// A full window of 100 segments; the first ACK echoes ECN, then 98 more ACKs each
/// acknowledge one more segment, 1 ms apart. Returns the segments sent on each ACK after
/// the echo.
fn ecn_cut(prr: bool) -> Vec<usize> {
    let (mut s, mut out) = after_ecn_echo(TcpConfig { prr, ..TcpConfig::default() }, 100.0, 100);
    assert_eq!(s.cc.cwnd_pkts(), 50.0);
    (2..=99u64)
        .map(|k| {
            out.clear();
            s.on_ack(&ack(k, 0, 0, SimTime::from_millis(100 + k)), SimTime::from_millis(100 + k), &mut out);
            out.packets.len()
        })
        .collect()
}

#[test]
fn prr_spreads_an_ecn_reduction_over_the_round_trip() {
    // PRR in CWR (Linux, ns-3): half a segment per acknowledged one from the first ACK on.
    let sent = ecn_cut(true);
    assert!(sent.iter().all(|&n| n <= 1), "{sent:?}");
    let first_half: usize = sent[..50].iter().sum();
    assert!((24..=26).contains(&first_half), "first half {first_half}: {sent:?}");
    // Without PRR: silence until pipe falls below the cut window of 50, then one per ACK.
    let sent = ecn_cut(false);
    assert_eq!(sent[..48].iter().sum::<usize>(), 0, "{sent:?}");
    assert!(sent[50..].iter().all(|&n| n == 1), "{sent:?}");
}
