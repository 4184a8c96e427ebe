//! The sender driven by scripted ACKs: what leaves on each ACK of a fast recovery.

use super::*;
use crate::cc::reno::Reno;
use crate::net::packet::Packet;
use crate::net::packet::{AckOptions, PacketKind, SackBlocks};
use crate::transport::tcp::config::{CwndGrowth, LossDetection, Recovery, RecoveryRules};
use crate::transport::timer::TimerKind;
use crate::units::SimDuration;

/// A SACK sender of one flow with a Reno window of `cwnd` packets (in congestion avoidance).
fn sender(cfg: &TcpConfig, cwnd: f64) -> TcpSender {
    let mut s = TcpSender::new(FlowId(0), NodeId(1), cfg, SegmentSizes::new(1000, None), Controller::Reno(Reno::default()));
    s.window.set_window(cwnd, cwnd);
    s
}

/// An ACK of everything below `cum` that also SACKs [`sack_start`, `sack_end`).
fn ack(cum: u64, sack_start: u64, sack_end: u64, now: SimTime) -> Packet {
    let mut sack = SackBlocks::new(cum);
    if sack_end > sack_start {
        sack.push(sack_start, sack_end);
    }
    Packet {
        kind: PacketKind::Ack,
        seq: cum,
        options: AckOptions::sack(sack),
        echo_sent_at: SimTime::ZERO,
        ..Packet::data(FlowId(0), NodeId(0), cum, Bytes(40), now)
    }
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
    assert_eq!(s.window.ssthresh_pkts(), 50.0);
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
    assert_eq!(s.window.cwnd_pkts(), 10.0, "the ECN reduction");
    // The timer's event at 1 s finds its deadline moved to 1.05 s by the ACK, and fires then.
    s.on_rto_timer(SimTime::from_millis(1000), &mut out);
    assert_eq!(s.window.cwnd_pkts(), 10.0);
    s.on_rto_timer(SimTime::from_millis(1050), &mut out);
    assert_eq!(s.window.cwnd_pkts(), 1.0);
    let now = SimTime::from_millis(1100);
    s.on_ack(&ack(2, 0, 0, now), now, &mut out);
    assert_eq!(s.window.cwnd_pkts(), 2.0, "slow start after the timeout");
}

#[test]
fn a_loss_recovery_ends_an_earlier_cwr_for_good() {
    // An ECN reduction (CWR), then a loss: fast recovery takes over, and ends when the
    // cumulative ACK reaches `recover`. Then the sender is open (Linux: CA_Recovery → Open;
    // ns-3: CA_RECOVERY → CA_OPEN) and the window grows on that very ACK. Before, an ACK
    // reaching exactly `recover` counted as still in the old CWR and grew nothing.
    let (mut s, mut out) = after_ecn_echo(TcpConfig::default(), 20.0, 50);
    assert_eq!(s.window.cwnd_pkts(), 10.0, "the ECN reduction");
    for k in 2..=4u64 {
        let now = SimTime::from_millis(58 + k);
        s.on_ack(&ack(1, 2, k + 1, now), now, &mut out);
    }
    assert!(s.in_recovery(), "segment 1 lost: three duplicate ACKs");
    assert_eq!(s.window.cwnd_pkts(), 5.0, "the loss halves again");
    let now = SimTime::from_millis(80);
    s.on_ack(&ack(s.snd_nxt, 0, 0, now), now, &mut out);
    assert!(!s.in_recovery());
    assert_eq!(s.window.cwnd_pkts(), 5.0 + 1.0 / 5.0, "congestion avoidance on the ACK that ends the recovery");
}

/// A full window of 100 segments; the first ACK echoes ECN, then 98 more ACKs each
/// acknowledge one more segment, 1 ms apart. Returns the segments sent on each ACK after
/// the echo.
fn ecn_cut(prr: bool) -> Vec<usize> {
    let (mut s, mut out) = after_ecn_echo(TcpConfig { prr, ..TcpConfig::default() }, 100.0, 100);
    assert_eq!(s.window.cwnd_pkts(), 50.0);
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

/// What a scripted path did: every segment the sender sent, as (time, seq, retransmission).
struct PathLog {
    sent: Vec<(SimTime, u64, bool)>,
}

impl PathLog {
    fn retransmissions_of(&self, seq: u64) -> Vec<SimTime> {
        self.sent.iter().filter(|&&(_, s, r)| s == seq && r).map(|&(t, _, _)| t).collect()
    }
}

/// Runs a sender over a path of 50 ms each way and 1 ms per segment at the bottleneck, which
/// drops the first transmission of each segment in `lost` (the first two of a segment listed
/// twice); the receiver acknowledges every segment, with a SACK block for the run of segments
/// that holds it when `cfg.sack`. Runs to `until_ms`.
fn run_path(cfg: &TcpConfig, cwnd: f64, lost: &[u64], until_ms: u64) -> (TcpSender, PathLog) {
    run_transfer(cfg, cwnd, None, lost, until_ms)
}

/// `run_path` for a transfer of `segments` segments (`None`: bulk).
fn run_transfer(cfg: &TcpConfig, cwnd: f64, segments: Option<u64>, lost: &[u64], until_ms: u64) -> (TcpSender, PathLog) {
    use std::cmp::Reverse;
    use std::collections::{BTreeSet, BinaryHeap};
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    enum Ev {
        /// Cumulative ACK, SACK block, and the send time of the segment it answers.
        Ack(u64, u64, u64, SimTime),
        Rto,
    }
    let sizes = SegmentSizes::new(1000, segments.map(|n| n * 1000));
    let mut s = TcpSender::new(FlowId(0), NodeId(1), cfg, sizes, Controller::Reno(Reno::default()));
    s.window.set_window(cwnd, cwnd);
    let mut out = Outbox::default();
    let (mut events, mut order) = (BinaryHeap::new(), 0u64);
    let (mut received, mut dropped) = (BTreeSet::new(), Vec::new());
    let mut link_free = SimTime::ZERO;
    let mut log = PathLog { sent: Vec::new() };
    let mut now = SimTime::ZERO;
    s.start(now, &mut out);
    loop {
        for p in out.packets.drain(..) {
            log.sent.push((now, p.seq, p.is_retransmission));
            let drops = |d: &Vec<u64>| d.iter().filter(|&&q| q == p.seq).count();
            if drops(&lost.to_vec()) > drops(&dropped) {
                dropped.push(p.seq);
                continue;
            }
            let at = (now + SimDuration::from_millis(50)).max(link_free);
            link_free = at + SimDuration::from_millis(1);
            received.insert(p.seq);
            let cum = (0..).find(|q| !received.contains(q)).unwrap();
            let (mut a, mut b) = (p.seq, p.seq + 1);
            while a > cum && received.contains(&(a - 1)) {
                a -= 1;
            }
            while received.contains(&b) {
                b += 1;
            }
            let block = if cfg.sack() && p.seq > cum { (a, b) } else { (0, 0) };
            order += 1;
            events.push(Reverse((at + SimDuration::from_millis(50), order, Ev::Ack(cum, block.0, block.1, p.sent_at))));
        }
        if let Some(t) = out.timer_at(TimerKind::Retransmit) {
            order += 1;
            events.push(Reverse((t, order, Ev::Rto)));
        }
        out.clear();
        let Some(Reverse((t, _, ev))) = events.pop() else { break };
        if t > SimTime::from_millis(until_ms) {
            break;
        }
        now = t;
        match ev {
            Ev::Ack(cum, a, b, echo) => s.on_ack(&Packet { echo_sent_at: echo, ..ack(cum, a, b, now) }, now, &mut out),
            Ev::Rto => s.on_rto_timer(now, &mut out),
        }
    }
    (s, log)
}

/// ns-2's rules (`recovery_rules = "ns2"`) with `recovery` and a 200 ms minimum RTO.
fn ns2_rules(recovery: Recovery) -> TcpConfig {
    TcpConfig { recovery, recovery_rules: RecoveryRules::Ns2, min_rto: crate::units::SimDuration::from_millis(200), ..TcpConfig::default() }
}

#[test]
fn ns2_reno_recovers_a_second_loss_in_the_window_by_timeout_and_newreno_by_a_partial_ack() {
    // Segments 30 and 35 of a 20-segment window are lost.
    let (reno, log) = run_path(&ns2_rules(Recovery::Reno), 20.0, &[30, 35], 3000);
    assert_eq!((reno.stats.fast_retransmits, reno.stats.timeouts), (1, 1));
    let (newreno, nlog) = run_path(&ns2_rules(Recovery::Newreno), 20.0, &[30, 35], 3000);
    assert_eq!((newreno.stats.fast_retransmits, newreno.stats.timeouts), (1, 0));
    // NewReno resends 35 on the partial ACK, one round trip after 30; Reno a timeout later.
    let (t30, t35) = (nlog.retransmissions_of(30)[0], nlog.retransmissions_of(35)[0]);
    assert!(t35.saturating_since(t30) < SimDuration::from_millis(150), "{t30} {t35}");
    assert!(log.retransmissions_of(35)[0].saturating_since(log.retransmissions_of(30)[0]) > SimDuration::from_millis(200));
}

#[test]
fn ns2_newreno_restarts_the_timer_on_the_first_partial_ack_only() {
    // Six losses in one window: a partial ACK each round trip. ns-2 (`newreno_changes1_ 1`)
    // lets the timer run from the first partial ACK and times out; RFC 6582's
    // "Slow-but-Steady" restarts it on each one and recovers all six by partial ACKs.
    let lost = [30, 32, 34, 36, 38, 40];
    let (ns2, _) = run_path(&ns2_rules(Recovery::Newreno), 20.0, &lost, 3000);
    assert_eq!(ns2.stats.timeouts, 1);
    let rfc = TcpConfig { recovery_rules: RecoveryRules::Rfc, ..ns2_rules(Recovery::Newreno) };
    let (rfc, _) = run_path(&rfc, 20.0, &lost, 3000);
    assert_eq!((rfc.stats.fast_retransmits, rfc.stats.timeouts), (1, 0));
}

#[test]
fn sack1_counts_one_segment_out_of_the_pipe_per_ack_however_many_it_sacks() {
    // A window of 100 with segment 1 lost; every later ACK SACKs two more segments (a
    // delayed-ACK receiver). RFC 6675's pipe falls by two per ACK and new segments leave
    // from the middle of the round trip; Sack1's pipe_ falls by one per ACK (Fall & Floyd
    // assume an ACK per segment), so it sends almost nothing more in this round trip.
    let sent_after_entry = |rules| {
        let cfg = TcpConfig { recovery_rules: rules, ..TcpConfig::default() };
        let mut s = sender(&cfg, 100.0);
        let mut out = Outbox::default();
        s.start(SimTime::ZERO, &mut out);
        s.on_ack(&ack(1, 0, 0, SimTime::from_millis(100)), SimTime::from_millis(100), &mut out);
        let mut sent = 0;
        for k in 1..=49u64 {
            out.clear();
            let now = SimTime::from_millis(100 + k);
            s.on_ack(&ack(1, 2, 2 + 2 * k, now), now, &mut out);
            if s.in_recovery() {
                sent += out.packets.iter().filter(|p| !p.is_retransmission).count();
            }
        }
        assert!(s.in_recovery());
        sent
    };
    let (rfc, sack1) = (sent_after_entry(RecoveryRules::Rfc), sent_after_entry(RecoveryRules::Ns2));
    assert!(rfc >= 40, "RFC 6675 sent {rfc}");
    assert!(sack1 <= 3, "Sack1 sent {sack1}");
}

/// Runs the retransmission timer from its event at `at`, each event asking for the next,
/// until it expires (once; at most 100 events); `out` holds what the expiry sent. Returns
/// the timer's next event.
fn expire_rto(s: &mut TcpSender, out: &mut Outbox, mut at: SimTime) -> SimTime {
    for _ in 0..100 {
        if s.stats.timeouts > 0 {
            break;
        }
        out.clear();
        s.on_rto_timer(at, out);
        at = out.timer_at(TimerKind::Retransmit).unwrap_or(at);
    }
    assert_eq!(s.stats.timeouts, 1, "the timer expired once");
    at
}

#[test]
fn a_sack1_timeout_forgets_the_sacks_and_resends_from_the_cumulative_ack() {
    // Segments 30 and 40 are lost and so are their retransmissions: the timer fires with
    // 31..40 and 41..50 SACKed. The retransmission of 30 brings an ACK of 40 that SACKs
    // 41..50. RFC 6675 then resends 40 and goes on with new data; Sack1's cleared
    // scoreboard resends in order from the cumulative ACK (`t_seqno_ = last_ack_ + 1`).
    let after_timeout = |rules| {
        let cfg = TcpConfig { recovery_rules: rules, ..ns2_rules(Recovery::Sack) };
        let mut s = sender(&cfg, 20.0);
        let mut out = Outbox::default();
        let mut timer_event = SimTime::ZERO;
        let mut deliver = |s: &mut TcpSender, out: &mut Outbox, p: Packet, now| {
            out.clear();
            s.on_ack(&p, now, out);
            timer_event = out.timer_at(TimerKind::Retransmit).unwrap_or(timer_event);
        };
        s.start(SimTime::ZERO, &mut out);
        for k in 1..=30u64 {
            let now = SimTime::from_millis(100 + k);
            deliver(&mut s, &mut out, ack(k, 0, 0, now), now);
        }
        for k in (31..=49u64).filter(|&k| k != 40) {
            let now = SimTime::from_millis(100 + k);
            let block = if k < 40 { (31, k + 1) } else { (41, k + 1) };
            deliver(&mut s, &mut out, ack(30, block.0, block.1, now), now);
        }
        assert_eq!(s.stats.fast_retransmits, 1);
        let timer_event = expire_rto(&mut s, &mut out, timer_event);
        assert_eq!(out.packets.iter().map(|p| p.seq).collect::<Vec<_>>(), [30]);
        out.clear();
        let now = timer_event + SimDuration::from_millis(100);
        s.on_ack(&ack(40, 41, 50, now), now, &mut out);
        out.packets.iter().map(|p| p.seq).collect::<Vec<u64>>()
    };
    assert_eq!(after_timeout(RecoveryRules::Rfc), [40, 50]);
    assert_eq!(after_timeout(RecoveryRules::Ns2), [40, 41]);
}

#[test]
fn per_segment_growth_counts_what_an_ack_delivers_not_data_sacked_before() {
    // Segment 0 and its fast retransmission are lost; 1..20 arrive and are SACKed, then the
    // timer fires (cwnd 1). The retransmission of 0 brings an ACK of all 20: under
    // "per_segment" it delivers one segment (the other 19 were reported before), so slow
    // start adds one, as Linux's `acked` does — not 20, a window's burst in one ACK.
    // "per_ack" (RFC 5681) adds min(N, 1) = 1 either way.
    let after_timeout = |growth| {
        let cfg = TcpConfig { cwnd_growth: growth, ..TcpConfig::default() };
        let mut s = sender(&cfg, 20.0);
        let mut out = Outbox::default();
        s.start(SimTime::ZERO, &mut out);
        let mut timer_event = out.timer_at(TimerKind::Retransmit).unwrap_or(SimTime::ZERO);
        for k in 1..20u64 {
            let now = SimTime::from_millis(100 + k);
            out.clear();
            s.on_ack(&ack(0, 1, k + 1, now), now, &mut out);
            timer_event = out.timer_at(TimerKind::Retransmit).unwrap_or(timer_event);
        }
        assert_eq!(s.stats.fast_retransmits, 1);
        let timer_event = expire_rto(&mut s, &mut out, timer_event);
        assert_eq!(s.window.cwnd_pkts(), 1.0);
        let now = timer_event + SimDuration::from_millis(100);
        out.clear();
        s.on_ack(&ack(20, 0, 0, now), now, &mut out);
        (s.window.cwnd_pkts(), out.packets.len())
    };
    assert_eq!(after_timeout(CwndGrowth::PerSegment), (2.0, 2));
    assert_eq!(after_timeout(CwndGrowth::PerAck), (2.0, 2));
}

/// RACK-TLP with SACK and a 200 ms minimum RTO (the linux profile's loss detection).
fn rack_tlp() -> TcpConfig {
    TcpConfig { loss_detection: LossDetection::RackTlp, min_rto: SimDuration::from_millis(200), ..TcpConfig::default() }
}

#[test]
fn rack_resends_a_lost_retransmission_without_waiting_for_the_timer() {
    // Segment 30 and its fast retransmission are both lost. Duplicate ACKs cannot tell that
    // the retransmission is gone: the timer resends it. RACK resends it once a segment sent
    // after it is delivered — at least a round trip later, and before the timer.
    let dupack = TcpConfig { loss_detection: LossDetection::Dupack, ..rack_tlp() };
    let (s, log) = run_path(&dupack, 20.0, &[30, 30], 3000);
    assert_eq!((s.stats.fast_retransmits, s.stats.timeouts), (1, 1));
    let by_timer = log.retransmissions_of(30);
    let (s, log) = run_path(&rack_tlp(), 20.0, &[30, 30], 3000);
    assert_eq!((s.stats.fast_retransmits, s.stats.timeouts), (1, 0));
    let by_rack = log.retransmissions_of(30);
    assert_eq!((by_timer.len(), by_rack.len()), (2, 2));
    let first_sent_after = log.sent.iter().find(|&&(t, seq, _)| t > by_rack[0] && seq > 30).unwrap().0;
    assert!(by_rack[1] >= first_sent_after + SimDuration::from_millis(100), "{by_rack:?} {first_sent_after}");
    assert!(by_rack[1] < by_timer[1], "RACK {by_rack:?}, timer {by_timer:?}");
}

#[test]
fn a_tail_loss_probe_recovers_the_last_segment_of_a_transfer_before_the_timer() {
    // A 20-segment transfer whose last segment is lost: no later segment makes duplicate
    // ACKs, so without TLP the timer (at least 200 ms, after RTT samples of 100 ms) resends
    // it. The probe, two SRTTs after the last send (plus 200 ms for a lone segment, which
    // the RTO caps), resends it with no timeout counted.
    let dupack = TcpConfig { loss_detection: LossDetection::Dupack, ..rack_tlp() };
    let (s, _) = run_transfer(&dupack, 20.0, Some(20), &[19], 3000);
    assert!(s.is_done());
    assert_eq!(s.stats.timeouts, 1);
    let (s, log) = run_transfer(&rack_tlp(), 20.0, Some(20), &[19], 3000);
    assert!(s.is_done());
    assert_eq!((s.stats.timeouts, s.stats.fast_retransmits), (0, 0));
    assert_eq!(log.retransmissions_of(19).len(), 1);
}

#[test]
fn rack_finds_a_hole_with_a_single_segment_after_it() {
    // Segment 18 of a 20-segment transfer is lost: one duplicate ACK only. RACK deems it
    // lost a quarter of min_RTT after segment 19 is delivered and starts a fast recovery;
    // duplicate ACKs wait for the timer.
    let dupack = TcpConfig { loss_detection: LossDetection::Dupack, ..rack_tlp() };
    let (s, _) = run_transfer(&dupack, 20.0, Some(20), &[18], 3000);
    assert_eq!((s.stats.timeouts, s.stats.fast_retransmits), (1, 0));
    let (s, log) = run_transfer(&rack_tlp(), 20.0, Some(20), &[18], 3000);
    assert!(s.is_done());
    assert_eq!((s.stats.timeouts, s.stats.fast_retransmits), (0, 1));
    assert_eq!(log.retransmissions_of(18).len(), 1);
}

#[test]
fn sack1_after_a_timeout_does_not_count_segments_sacked_above_the_resend_point_as_in_flight() {
    // 0..20 sent, all but 15..20 lost: the timer fires, Sack1 clears its scoreboard and
    // resends in order from the cumulative ACK (ns-2's t_seqno_ = highest_ack_ + 1). Its
    // window counts t_seqno_ - highest_ack_: the receiver's SACK of 15..20 says nothing
    // about what is in flight below the resend point. Counting those five as in flight
    // would keep a window of up to five shut; ACKs would stop and every backed-off timeout
    // would move the transfer on by a segment or three (a 15 Mbit/s RED run stalled a SACK
    // flow for 60 s this way).
    let mut s = sender(&ns2_rules(Recovery::Sack), 20.0);
    let mut out = Outbox::default();
    s.start(SimTime::ZERO, &mut out);
    assert_eq!(out.packets.len(), 20);
    let deadline = out.timer_at(TimerKind::Retransmit).expect("the timer is armed");
    out.clear();
    s.on_rto_timer(deadline, &mut out);
    assert_eq!(out.packets.iter().map(|p| p.seq).collect::<Vec<_>>(), [0], "one segment after the timeout");
    let mut now = deadline;
    let mut resent = Vec::new();
    for cum in [1u64, 2, 3, 4, 5] {
        now += SimDuration::from_millis(100);
        out.clear();
        s.on_ack(&ack(cum, 15, 20, now), now, &mut out);
        resent.extend(out.packets.iter().map(|p| p.seq));
    }
    // Slow start from one segment: each ACK of a resent segment lets two more out.
    assert_eq!(resent[..5], [1, 2, 3, 4, 5], "resent {resent:?}");
    assert!(resent.len() >= 8, "the window stayed shut: {resent:?}");
}

/// What a controller heard: (`on_ack`'s `newly_acked_pkts`, its RTT sample) per ACK,
/// `cong_avoid`'s `acked_pkts` per growth step, and each change of state.
#[derive(Default)]
struct Heard {
    acks: Vec<(u64, Option<SimDuration>)>,
    steps: Vec<u64>,
    changes: Vec<(crate::cc::CaPhase, crate::cc::CaPhase)>,
}

/// A Reno that writes down what it hears.
struct Listening(std::sync::Arc<std::sync::Mutex<Heard>>);

/// A sender under `cfg` whose controller is a `Listening`, with what it hears.
fn listening_sender(cfg: &TcpConfig) -> (TcpSender, std::sync::Arc<std::sync::Mutex<Heard>>) {
    let log = std::sync::Arc::new(std::sync::Mutex::new(Heard::default()));
    let s = TcpSender::new(FlowId(0), NodeId(1), cfg, SegmentSizes::new(1000, None), Controller::Custom(Box::new(Listening(log.clone()))));
    (s, log)
}

impl crate::cc::CongestionControl for Listening {
    fn name(&self) -> &'static str {
        "listening"
    }
    fn on_ack(&mut self, _w: &mut crate::cc::Window, ev: &crate::cc::AckEvent) {
        self.0.lock().unwrap().acks.push((ev.newly_acked_pkts, ev.rtt_sample));
    }
    fn cong_avoid(&mut self, w: &mut crate::cc::Window, _ev: &crate::cc::AckEvent, acked_pkts: u64) {
        self.0.lock().unwrap().steps.push(acked_pkts);
        w.aimd_step(1.0);
    }
    fn ssthresh(&mut self, w: &crate::cc::Window, _ev: &crate::cc::CongestionEvent) -> f64 {
        w.cwnd_pkts / 2.0
    }
    fn on_state_change(&mut self, _w: &mut crate::cc::Window, from: crate::cc::CaPhase, to: crate::cc::CaPhase, _now: SimTime) {
        self.0.lock().unwrap().changes.push((from, to));
    }
}

#[test]
fn a_controller_hears_an_ack_once_whatever_the_growth_counts() {
    // A delayed ACK of 2 segments: the controller hears it once, with the 2 segments and the
    // RTT sample, under either rule; the window grows one step (RFC 5681, per ACK) or a step
    // a segment (Linux, per segment).
    let heard = |growth| {
        let (mut s, log) = listening_sender(&TcpConfig { cwnd_growth: growth, ..TcpConfig::default() });
        let mut out = Outbox::default();
        s.start(SimTime::ZERO, &mut out);
        let now = SimTime::from_millis(100);
        s.on_ack(&ack(2, 0, 0, now), now, &mut out);
        let h = std::mem::take(&mut *log.lock().unwrap());
        (h.acks.iter().map(|&(n, rtt)| (n, rtt.is_some())).collect::<Vec<_>>(), h.steps)
    };
    assert_eq!(heard(CwndGrowth::PerAck), (vec![(2, true)], vec![2]));
    assert_eq!(heard(CwndGrowth::PerSegment), (vec![(2, true)], vec![1, 1]));
}

#[test]
fn the_controller_is_told_the_rtt_its_stack_hands_over() {
    // Ten segments leave at 0 ms; the ACK at 40 ms covers 0..=8 and the receiver holds 9 (a
    // delayed ACK); the next segment leaves at 40 ms and the ACK at 80 ms covers 9 and 10,
    // echoing 9's send time. The echo times the hold (80 ms); Linux times the newest
    // segment (10: 40 ms); ns-3 hands over SRTT (40, then 40 + (80 − 40)/8 = 45 ms).
    use crate::transport::tcp::config::ControllerRtt;
    let told = |rule| {
        let (mut s, log) = listening_sender(&TcpConfig { controller_rtt: rule, ..TcpConfig::default() });
        let mut out = Outbox::default();
        s.start(SimTime::ZERO, &mut out);
        assert_eq!(out.packets.len(), 10);
        let (t40, t80) = (SimTime::from_millis(40), SimTime::from_millis(80));
        s.on_ack(&ack(9, 0, 0, t40), t40, &mut out);
        s.on_ack(&ack(11, 0, 0, t80), t80, &mut out);
        let acks = std::mem::take(&mut log.lock().unwrap().acks);
        acks.iter().map(|&(_, rtt)| rtt.map(|d| d.as_secs_f64() * 1e3)).collect::<Vec<_>>()
    };
    assert_eq!(told(ControllerRtt::Echo), [Some(40.0), Some(80.0)]);
    assert_eq!(told(ControllerRtt::Linux), [Some(40.0), Some(40.0)]);
    assert_eq!(told(ControllerRtt::Linux26), [Some(40.0), Some(40.0)]);
    assert_eq!(told(ControllerRtt::Ns3), [Some(40.0), Some(45.0)]);
}

#[test]
fn the_controller_hears_every_change_of_state() {
    // An ECN echo (Open → CWR), a loss in its window (CWR → Recovery), the recovery's end
    // (Recovery → Open), a timeout (Open → Loss) and the ACK of its data (Loss → Open): the
    // controller hears each, as Linux's `set_state` and `CA_EVENT_COMPLETE_CWR` tell it.
    use crate::cc::CaPhase::{Cwr, Loss, Open, Recovery};
    let (mut s, log) = listening_sender(&TcpConfig { ecn: true, cwr_freeze: true, ..TcpConfig::default() });
    s.window.set_window(20.0, 20.0);
    let mut out = Outbox::default();
    s.start(SimTime::ZERO, &mut out);
    let mut echo = ack(1, 0, 0, SimTime::from_millis(50));
    echo.ece = true;
    s.on_ack(&echo, SimTime::from_millis(50), &mut out);
    for k in 2..=4u64 {
        let now = SimTime::from_millis(58 + k);
        s.on_ack(&ack(1, 2, k + 1, now), now, &mut out);
    }
    let (now, all) = (SimTime::from_millis(80), s.snd_nxt);
    s.on_ack(&ack(all, 0, 0, now), now, &mut out);
    assert!(s.snd_nxt > s.snd_una, "new data is out");
    // The timer's last event (a later request replaces an earlier one in the outbox).
    let timer = out.timer_at(TimerKind::Retransmit).expect("the timer is armed");
    let at = expire_rto(&mut s, &mut out, timer);
    let (now, all) = (at + SimDuration::from_millis(10), s.snd_nxt);
    s.on_ack(&ack(all, 0, 0, now), now, &mut out);
    let changes = std::mem::take(&mut log.lock().unwrap().changes);
    assert_eq!(changes, [(Open, Cwr), (Cwr, Recovery), (Recovery, Open), (Open, Loss), (Loss, Open)]);
}
