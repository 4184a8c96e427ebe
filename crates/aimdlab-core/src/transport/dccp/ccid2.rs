//! CCID-2, TCP-like congestion control for DCCP (RFC 4341): the sender half. The window is
//! run by a controller of the `cc` registry (Reno by default, which makes this RFC 4341's
//! TCP-like; TCP-like TW is the `tw` controller); this file is the part TCP's sender does
//! elsewhere: which packets arrived, which were lost, and the Ack Ratio.
//!
//! - Every acknowledged packet is one `on_ack` of the controller with one packet newly
//!   acknowledged: RFC 4341 §5 counts packets, so Reno's slow start adds one packet per
//!   packet acknowledged and its congestion avoidance one per window of packets, whatever
//!   the Ack Ratio. (RFC 4341 §5 also caps slow-start growth at ⌈R/2⌉ per ACK; not modelled.)
//! - `pipe` counts packets sent and neither acknowledged nor deemed lost. A packet is lost
//!   once `numdupack` (NUMDUPACK = 3) packets sent after it are acknowledged (§5). Nothing
//!   is retransmitted.
//! - At most one window reduction per round trip: a loss or ECN mark of a packet sent
//!   before the last reduction is part of that congestion event (§5).
//! - Retransmission timeout as TCP's (RFC 6298) with DCCP's own floor (`dccp.min_rto`): on
//!   expiry the controller's timeout rule (cwnd = 1), every outstanding packet forgotten.
//! - Ack Ratio (§6.1.2): the sender asks the receiver for one ACK per R data packets, with
//!   R ≤ ⌈cwnd/2⌉. With adaptation, ACK loss in a window of data (a gap in the ACKs' own
//!   sequence numbers) doubles R; cwnd/(R² − R) windows in a row without ACK loss lower it
//!   by one (Appendix A's K), never below the configured R.
//! - ECN: an ACK with ECN-Echo (a CE-marked packet among those it newly reports) is a
//!   congestion event like a loss.

use super::params::DccpConfig;
use crate::cc::{AckEvent, CongestionEvent, CongestionKind, Controller};
use crate::net::packet::Packet;
use crate::transport::congestion_window::CongestionWindow;
use crate::transport::cwnd_trace::{CwndCause, CwndState, CwndTrace};
use crate::transport::rtt::RttEstimator;
use crate::transport::sender_stats::SenderStats;
use crate::units::{Bytes, SimTime};
use std::collections::VecDeque;

/// One packet sent and not yet resolved.
#[derive(Clone, Copy, Debug)]
struct Sent {
    sent_at: SimTime,
    acked: bool,
}

/// The CCID-2 half of a DCCP sender.
pub struct Ccid2 {
    /// The window controller.
    pub window: CongestionWindow,
    /// Packets from `history_base` on: sent, not yet deemed lost, the acknowledged ones kept
    /// while an older one is unresolved.
    history: VecDeque<Sent>,
    history_base: u64,
    acked_in_history: u64,
    pipe: u64,
    /// No new window reduction for a packet sent before this sequence number.
    recover: u64,
    numdupack: u64,
    /// Ack Ratio as adapted (before the ⌈cwnd/2⌉ cap), and its floor.
    ack_ratio: u32,
    ack_ratio_floor: u32,
    adapt: bool,
    last_ack_seq: Option<u64>,
    ack_lost_in_window: bool,
    clean_windows: u64,
    window_end: u64,
    /// Every change of cwnd and ssthresh with its cause (`cwnd_trace`), if traced.
    pub cwnd_trace: Option<Box<CwndTrace>>,
}

impl Ccid2 {
    /// A CCID-2 sender half with settings `cfg` and window controller `cc`.
    pub fn new(cfg: &DccpConfig, cc: Controller, mss: Bytes) -> Self {
        Ccid2 {
            window: CongestionWindow::new(cc, cfg.initial_cwnd_pkts(mss) as f64, cfg.initial_ssthresh_pkts()),
            history: VecDeque::new(),
            history_base: 0,
            acked_in_history: 0,
            pipe: 0,
            recover: 0,
            numdupack: cfg.numdupack as u64,
            ack_ratio: cfg.ack_ratio,
            ack_ratio_floor: cfg.ack_ratio,
            adapt: cfg.ack_ratio_adapt,
            last_ack_seq: None,
            ack_lost_in_window: false,
            clean_windows: 0,
            window_end: 0,
            cwnd_trace: None,
        }
    }

    /// Packets in flight (RFC 4341 `pipe`).
    pub fn pipe(&self) -> u64 {
        self.pipe
    }

    /// Whether the window lets one more packet go.
    #[inline]
    pub fn may_send(&self) -> bool {
        self.pipe < self.window.cwnd_pkts().max(1.0) as u64
    }

    /// The Ack Ratio in force: as adapted, capped at ⌈cwnd/2⌉ (RFC 4341 §6.1.2).
    pub fn ack_ratio(&self) -> u16 {
        let cap = (self.window.cwnd_pkts().max(1.0) as u64).div_ceil(2).max(1);
        (self.ack_ratio as u64).min(cap).min(u16::MAX as u64) as u16
    }

    /// Packet `seq` was sent at `now`.
    #[inline]
    pub fn on_send(&mut self, seq: u64, now: SimTime) {
        if self.history.is_empty() {
            self.history_base = seq;
        }
        debug_assert_eq!(self.history_base + self.history.len() as u64, seq);
        self.history.push_back(Sent { sent_at: now, acked: false });
        self.pipe += 1;
    }

    /// An ACK arrived at `now` (`next_seq`: the next data sequence number); returns how many
    /// packets it newly acknowledged.
    pub fn on_ack(&mut self, p: &Packet, now: SimTime, next_seq: u64, rtt: &mut RttEstimator, stats: &mut SenderStats) -> u64 {
        self.note_ack_seq(p.seq);
        let end = self.history_base + self.history.len() as u64;
        let mut newly = 0;
        let mut newest: Option<u64> = None;
        for (s, e) in p.options.ranges().iter() {
            for seq in s.max(self.history_base)..e.min(end) {
                let sent = &mut self.history[(seq - self.history_base) as usize];
                if !sent.acked {
                    sent.acked = true;
                    newly += 1;
                    newest = Some(newest.map_or(seq, |n: u64| n.max(seq)));
                }
            }
        }
        self.acked_in_history += newly;
        self.pipe -= newly;
        let mut sample = None;
        if let Some(n) = newest {
            let r = now.saturating_since(self.history[(n - self.history_base) as usize].sent_at);
            rtt.on_sample(r);
            sample = Some(r);
        }
        let ev = AckEvent {
            now,
            newly_acked_pkts: newly,
            rtt_sample: sample,
            srtt: rtt.srtt_or_rto(),
            min_rtt: rtt.min_rtt(),
            ece: p.ece,
            in_recovery: false,
            cwnd_limited: true,
            pkts_in_flight: self.pipe,
            snd_una: newest.map_or(0, |n| n + 1),
            snd_nxt: next_seq,
            rate: None,
        };
        let cause = self.cwnd_trace.is_some().then(|| CwndState::of(self.window.window()).ack_cause(false));
        if newly > 0 {
            // RFC 4341 §5: growth per packet acknowledged.
            self.window.on_ack_in_steps(&ev, newly);
        }
        if let Some(cause) = cause {
            self.traced(now, cause);
        }
        let greatest = p.options.ranges().iter().next().map(|(_, e)| e - 1);
        if p.ece && greatest.is_some_and(|g| g >= self.recover) {
            stats.ecn_reductions += 1;
            self.reduce(CongestionKind::Ecn, now, next_seq, rtt);
        }
        self.detect_losses(now, next_seq, rtt, stats);
        if greatest.is_some_and(|g| g >= self.window_end) {
            self.end_window(next_seq);
        }
        newly
    }

    /// Deems lost every unresolved packet with `numdupack` acknowledged packets after it.
    fn detect_losses(&mut self, now: SimTime, next_seq: u64, rtt: &RttEstimator, stats: &mut SenderStats) {
        loop {
            match self.history.front() {
                Some(s) if s.acked => {
                    self.acked_in_history -= 1;
                }
                Some(_) if self.acked_in_history >= self.numdupack => {
                    self.pipe -= 1;
                    stats.lost_pkts += 1;
                    if self.history_base >= self.recover {
                        stats.loss_reductions += 1;
                        self.reduce(CongestionKind::Loss, now, next_seq, rtt);
                    }
                }
                _ => return,
            }
            self.history.pop_front();
            self.history_base += 1;
        }
    }

    fn reduce(&mut self, kind: CongestionKind, now: SimTime, next_seq: u64, rtt: &RttEstimator) {
        let ev = CongestionEvent { now, kind, pkts_in_flight: self.pipe, srtt: rtt.srtt_or_rto() };
        self.window.on_congestion(&ev);
        self.recover = next_seq;
        self.traced(now, kind.into());
    }

    /// Records every change of cwnd and ssthresh from now on (`cwnd_trace`).
    pub fn trace_cwnd(&mut self) {
        self.cwnd_trace = Some(Box::new(CwndTrace::new(CwndState::of(self.window.window()))));
    }

    /// Writes the window into the trace, if traced and changed, as caused by `cause`.
    fn traced(&mut self, now: SimTime, cause: CwndCause) {
        let (state, pipe) = (CwndState::of(self.window.window()), self.pipe);
        if let Some(t) = self.cwnd_trace.as_deref_mut() {
            t.observe(now, cause, state, pipe);
        }
    }

    /// Ack Ratio adaptation: the ACK's own sequence number reveals lost ACKs.
    fn note_ack_seq(&mut self, ack_seq: u64) {
        if let Some(last) = self.last_ack_seq {
            if ack_seq > last + 1 {
                self.ack_lost_in_window = true;
                if self.adapt {
                    let cap = (self.window.cwnd_pkts().max(1.0) as u32).div_ceil(2).max(1);
                    self.ack_ratio = (self.ack_ratio * 2).min(cap.max(self.ack_ratio_floor)).min(u16::MAX as u32);
                    self.clean_windows = 0;
                }
            }
        }
        self.last_ack_seq = Some(self.last_ack_seq.map_or(ack_seq, |l| l.max(ack_seq)));
    }

    /// A window of data was acknowledged: counts it towards lowering the Ack Ratio.
    fn end_window(&mut self, next_seq: u64) {
        if self.ack_lost_in_window {
            self.clean_windows = 0;
        } else if self.adapt && self.ack_ratio > self.ack_ratio_floor {
            self.clean_windows += 1;
            let r = self.ack_ratio as f64;
            let k = (self.window.cwnd_pkts() / (r * r - r)).ceil().max(1.0) as u64;
            if self.clean_windows >= k {
                self.ack_ratio -= 1;
                self.clean_windows = 0;
            }
        }
        self.ack_lost_in_window = false;
        self.window_end = next_seq;
    }

    /// The retransmission timer expired at `now` with packets outstanding: the controller's
    /// timeout rule, and every outstanding packet is forgotten (none will be resent).
    pub fn on_timeout(&mut self, now: SimTime, next_seq: u64, rtt: &RttEstimator, stats: &mut SenderStats) {
        let unresolved = self.history.iter().filter(|s| !s.acked).count() as u64;
        stats.lost_pkts += unresolved;
        self.reduce(CongestionKind::Timeout, now, next_seq, rtt);
        self.history.clear();
        self.history_base = next_seq;
        self.acked_in_history = 0;
        self.pipe = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::CcConfig;
    use crate::ids::{FlowId, NodeId};
    use crate::net::packet::{AckOptions, PacketKind, SackBlocks};
    use crate::units::{Bytes, SimDuration};

    fn ack(ack_seq: u64, runs: &[(u64, u64)]) -> Packet {
        let mut sack = SackBlocks::new(runs.iter().map(|r| r.0).min().unwrap_or(0));
        for &(s, e) in runs {
            sack.push(s, e);
        }
        Packet {
            kind: PacketKind::Ack,
            options: AckOptions::ack_vector(sack),
            ..Packet::data(FlowId(0), NodeId(0), ack_seq, Bytes(48), SimTime::from_millis(0))
        }
    }

    fn sender(cwnd: f64) -> (Ccid2, RttEstimator, SenderStats) {
        let cfg = DccpConfig { ack_ratio_adapt: false, ..DccpConfig::default() };
        let mut c = Ccid2::new(&cfg, Controller::new(&CcConfig::External), Bytes(1000));
        c.window.set_window(cwnd, 4.0);
        (c, RttEstimator::new(SimDuration::from_secs(1), SimDuration::from_millis(200), SimDuration::from_secs(60)), SenderStats::default())
    }

    #[test]
    fn a_packet_is_lost_once_three_later_ones_are_acknowledged_and_the_window_halves_once() {
        let (mut c, mut rtt, mut stats) = sender(8.0);
        for seq in 0..8 {
            c.on_send(seq, SimTime::from_millis(0));
        }
        // 1 and 2 missing; 0 and 3..5 arrive: 1 and 2 each have three acknowledged after them.
        assert_eq!(c.on_ack(&ack(0, &[(3, 6), (0, 1)]), SimTime::from_millis(50), 8, &mut rtt, &mut stats), 4);
        assert_eq!(stats.lost_pkts, 2, "both holes are lost");
        assert_eq!(stats.loss_reductions, 1, "two losses in one window are one congestion event");
        // Congestion avoidance took 8 to 8.488 over four packets; one halving, not two.
        assert!((c.window.cwnd_pkts() - 4.244).abs() < 0.01, "{}", c.window.cwnd_pkts());
        assert_eq!(c.pipe(), 2, "6 and 7 are still out");
        assert_eq!(rtt.srtt(), Some(SimDuration::from_millis(50)));
        // A later loss of a packet sent after the cut is a new event.
        for seq in 8..12 {
            c.on_send(seq, SimTime::from_millis(60));
        }
        c.on_ack(&ack(1, &[(9, 12), (6, 8)]), SimTime::from_millis(110), 12, &mut rtt, &mut stats);
        assert_eq!((stats.lost_pkts, stats.loss_reductions), (3, 2));
    }

    #[test]
    fn fewer_than_numdupack_later_acknowledgements_lose_nothing() {
        let (mut c, mut rtt, mut stats) = sender(8.0);
        for seq in 0..4 {
            c.on_send(seq, SimTime::from_millis(0));
        }
        c.on_ack(&ack(0, &[(1, 3)]), SimTime::from_millis(50), 4, &mut rtt, &mut stats);
        assert_eq!((stats.lost_pkts, c.pipe()), (0, 2));
        // 0 arrives late (reordered): acknowledged, not lost.
        c.on_ack(&ack(1, &[(0, 4)]), SimTime::from_millis(60), 4, &mut rtt, &mut stats);
        assert_eq!((stats.lost_pkts, c.pipe(), stats.loss_reductions), (0, 0, 0));
    }
}
