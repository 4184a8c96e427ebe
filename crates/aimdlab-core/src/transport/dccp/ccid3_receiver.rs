//! The DCCP receiver for CCID-3 (RFC 4342 with RFC 5348 §5–6): it detects losses (a packet
//! is lost once three later ones have arrived, §5.1; an ECN-marked packet counts as lost),
//! keeps the loss-interval history (`loss_intervals`), and sends feedback — its receive rate
//! X_recv since the previous report, the loss-event rate p, a Timestamp Echo of the newest
//! data packet with the time elapsed since it arrived — once per RTT (the RTT the sender
//! writes in each data packet), at once when a new loss event raises p, and for the first
//! data packet. Feedback sizes count RFC 4342 §8's options: Loss Event Rate (6 bytes),
//! Receive Rate (6), Loss Intervals (3 + 9 per interval) and Timestamp Echo with elapsed
//! time (10), padded to 4.
//!
//! RFC 4342 carries the RTT to the receiver as a quarter-RTT window counter (CCVal); we
//! carry the sender's estimate itself, in units of 100 µs (RFC 5348 §3.2.1's form), so the
//! receiver groups losses by the RTT without the counter's quarter-RTT rounding.

use super::loss_intervals::LossIntervals;
use super::params::DccpConfig;
use crate::ids::{FlowId, NodeId};
use crate::net::packet::{AckOptions, Ecn, Packet, PacketKind, TfrcFeedback};
use crate::transport::arrival::DataArrival;
use crate::transport::lazy_timer::LazyTimer;
use crate::transport::outbox::Outbox;
use crate::transport::timer::TimerKind;
use crate::units::{Bytes, SimDuration, SimTime};
use std::collections::VecDeque;

/// RTT units of a data packet's `ccid_value` under CCID-3.
pub const RTT_UNIT: SimDuration = SimDuration::from_micros(100);
/// Packets after a hole that make it a loss (RFC 5348 §5.1, NDUPACK).
pub const NDUPACK: u64 = 3;

/// A hole in the arrivals: packets `[start, end)` missing, the arrival before and after them,
/// and how many packets arrived after.
#[derive(Clone, Copy, Debug)]
struct Hole {
    start: u64,
    end: u64,
    before: (u64, SimTime),
    after: (u64, SimTime),
    later: u64,
}

/// One CCID-3 flow's receiver.
pub struct Ccid3Receiver {
    flow: FlowId,
    src: NodeId,
    ack_header: Bytes,
    s: f64,
    ack_seq: u64,
    /// Greatest sequence number received, and when.
    highest: Option<(u64, SimTime)>,
    holes: VecDeque<Hole>,
    intervals: LossIntervals,
    rtt: SimDuration,
    newest_sent_at: SimTime,
    newest_arrival: SimTime,
    bytes_since_feedback: u64,
    last_feedback: Option<SimTime>,
    feedback: LazyTimer,
    p_reported: f64,
    events_at_window_start: u64,
}

impl Ccid3Receiver {
    /// A receiver of `flow` whose feedback goes back to `src`; data packets carry `mss`
    /// payload bytes.
    pub fn new(flow: FlowId, src: NodeId, cfg: &DccpConfig, mss: Bytes) -> Self {
        Ccid3Receiver {
            flow,
            src,
            ack_header: cfg.ack_header.0,
            s: (mss.0 + cfg.data_header.0 .0) as f64,
            ack_seq: 0,
            highest: None,
            holes: VecDeque::new(),
            intervals: LossIntervals::default(),
            rtt: SimDuration::ZERO,
            newest_sent_at: SimTime::ZERO,
            newest_arrival: SimTime::ZERO,
            bytes_since_feedback: 0,
            last_feedback: None,
            feedback: LazyTimer::default(),
            p_reported: 0.0,
            events_at_window_start: 0,
        }
    }

    /// The loss-event rate the receiver computes now.
    pub fn p(&self) -> f64 {
        self.highest.map_or(0.0, |(h, _)| self.intervals.p(h))
    }

    /// Loss events counted in the measurement window.
    pub fn loss_events(&self) -> u64 {
        self.intervals.events - self.events_at_window_start
    }

    /// Starts the measurement window.
    pub fn start_window(&mut self) {
        self.events_at_window_start = self.intervals.events;
    }

    fn x_recv(&self, now: SimTime) -> f64 {
        let since = self.last_feedback.map_or(SimDuration::ZERO, |t| now.saturating_since(t));
        let span = since.max(self.rtt).as_secs_f64().max(1e-3);
        self.bytes_since_feedback as f64 / span
    }

    /// A data packet arrived at `now`.
    pub fn on_data(&mut self, p: &Packet, now: SimTime, out: &mut Outbox) -> DataArrival {
        if p.ccid_value > 0 {
            self.rtt = SimDuration(RTT_UNIT.0 * p.ccid_value as u64);
        }
        self.bytes_since_feedback += p.size.0;
        let mut first_arrival = true;
        let mut new_event = false;
        match self.highest {
            None => {
                self.highest = Some((p.seq, now));
            }
            Some((h, t)) if p.seq > h => {
                if p.seq > h + 1 {
                    self.holes.push_back(Hole { start: h + 1, end: p.seq, before: (h, t), after: (p.seq, now), later: 0 });
                }
                self.highest = Some((p.seq, now));
            }
            Some(_) => first_arrival = self.fill(p.seq),
        }
        if p.seq >= self.highest.map_or(0, |h| h.0) {
            self.newest_sent_at = p.sent_at;
            self.newest_arrival = now;
        }
        // Holes with NDUPACK packets after them are losses, oldest first.
        for h in self.holes.iter_mut() {
            if p.seq >= h.end {
                h.later += 1;
            }
        }
        while self.holes.front().is_some_and(|h| h.later >= NDUPACK) {
            let h = self.holes.pop_front().expect("checked");
            for seq in h.start..h.end {
                let at = interpolate(h.before, h.after, seq);
                new_event |= self.intervals.on_loss(seq, at, self.rtt, self.x_recv(now), self.s);
            }
        }
        if p.ecn == Ecn::Ce {
            new_event |= self.intervals.on_loss(p.seq, now, self.rtt, self.x_recv(now), self.s);
        }
        // §6.1/§6.3: feedback at once for the first packet and when a new loss event
        // raises p (p is computed only then: it is the one per-packet cost worth avoiding).
        if self.last_feedback.is_none() || (new_event && self.p() > self.p_reported) {
            self.emit_feedback(now, out);
        } else if !self.feedback.is_armed() {
            self.arm(now, out);
        }
        DataArrival { first_arrival, in_order_advance: 0 }
    }

    /// A late packet fills (part of) a hole; false if it had arrived already.
    fn fill(&mut self, seq: u64) -> bool {
        let Some(i) = self.holes.iter().position(|h| seq >= h.start && seq < h.end) else {
            return false;
        };
        let h = self.holes[i];
        self.holes.remove(i);
        if seq + 1 < h.end {
            self.holes.insert(i, Hole { start: seq + 1, ..h });
        }
        if h.start < seq {
            self.holes.insert(i, Hole { end: seq, ..h });
        }
        true
    }

    fn arm(&mut self, now: SimTime, out: &mut Outbox) {
        let period = if self.rtt > SimDuration::ZERO { self.rtt } else { SimDuration::from_millis(100) };
        let due = self.last_feedback.unwrap_or(now) + period;
        self.feedback.arm(TimerKind::Feedback, due.max(now), out);
    }

    /// The feedback timer event at `now`.
    pub fn on_feedback_timer(&mut self, now: SimTime, out: &mut Outbox) {
        if self.feedback.fire(TimerKind::Feedback, now, out) && self.bytes_since_feedback > 0 {
            self.emit_feedback(now, out);
        }
    }

    fn emit_feedback(&mut self, now: SimTime, out: &mut Outbox) {
        let p = self.p();
        let x_recv = self.x_recv(now);
        let inverse_p = if p > 0.0 { (1.0 / p).round().min(u32::MAX as f64 - 1.0) as u32 } else { u32::MAX };
        let elapsed_us = now.saturating_since(self.newest_arrival).0 / 1_000_000;
        let feedback =
            TfrcFeedback { x_recv_bytes_per_s: x_recv.round().min(u32::MAX as f64) as u32, inverse_p, elapsed_us: elapsed_us.min(u32::MAX as u64) as u32 };
        let options = 6 + 6 + (3 + 9 * self.intervals.count() as u64) + 10;
        out.packets.push(Packet {
            kind: PacketKind::Ack,
            seq: self.ack_seq,
            echo_sent_at: self.newest_sent_at,
            options: AckOptions::TfrcFeedback(feedback),
            ..Packet::data(self.flow, self.src, 0, Bytes(self.ack_header.0 + options.div_ceil(4) * 4), now)
        });
        self.ack_seq += 1;
        self.bytes_since_feedback = 0;
        self.last_feedback = Some(now);
        self.p_reported = p;
        self.arm(now, out);
    }
}

/// The nominal arrival time of lost packet `seq` between the arrivals `before` and `after`
/// (RFC 5348 §5.2).
fn interpolate(before: (u64, SimTime), after: (u64, SimTime), seq: u64) -> SimTime {
    let span = after.1.saturating_since(before.1).0 as u128;
    let frac_num = (seq - before.0) as u128;
    let frac_den = (after.0 - before.0) as u128;
    before.1 + SimDuration((span * frac_num / frac_den) as u64)
}

/// What a CCID-3 feedback packet says: (X_recv bytes/s, p, elapsed time).
pub fn read_feedback(p: &Packet) -> (f64, f64, SimDuration) {
    let TfrcFeedback { x_recv_bytes_per_s: x_recv, inverse_p, elapsed_us } = p.options.tfrc_feedback().unwrap_or_default();
    let loss = if inverse_p == u32::MAX { 0.0 } else { 1.0 / inverse_p.max(1) as f64 };
    (x_recv as f64, loss, SimDuration::from_micros(elapsed_us as u64))
}
