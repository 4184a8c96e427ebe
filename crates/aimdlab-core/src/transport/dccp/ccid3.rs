//! CCID-3, TFRC congestion control for DCCP (RFC 4342): the sender half. A rate controller
//! (`cc::rate_control`, TFRC by default) sets the allowed rate X from the receiver's
//! feedback; this half paces packets at X — the next may leave one packet time `s/X` after
//! the previous (RFC 5348 §4.6, without its burst allowance) — turns feedback packets into
//! RTT samples and reports, and runs the nofeedback timer (RFC 5348 §4.4). Data packets
//! carry the sender's RTT estimate (see `ccid3_receiver`).

use super::ccid3_receiver::{read_feedback, RTT_UNIT};
use crate::cc::rate_control::{RateControl, RateFeedback};
use crate::net::packet::Packet;
use crate::transport::lazy_timer::LazyTimer;
use crate::transport::outbox::Outbox;
use crate::transport::rtt::RttEstimator;
use crate::transport::timer::TimerKind;
use crate::units::{SimDuration, SimTime};

/// The CCID-3 half of a DCCP sender.
pub struct Ccid3 {
    /// The rate controller.
    pub rc: Box<dyn RateControl>,
    s_bytes: u64,
    next_send_at: SimTime,
    pacing: LazyTimer,
    nofeedback: LazyTimer,
    sent_since_nofeedback_set: bool,
}

impl Ccid3 {
    /// A CCID-3 sender half of `s_bytes`-byte packets run by `rc`.
    pub fn new(rc: Box<dyn RateControl>, s_bytes: u64) -> Self {
        Ccid3 { rc, s_bytes, next_send_at: SimTime::ZERO, pacing: LazyTimer::default(), nofeedback: LazyTimer::default(), sent_since_nofeedback_set: false }
    }

    /// Whether the rate lets a packet go at `now`; if not, the pacing timer is armed.
    pub fn may_send(&mut self, now: SimTime, out: &mut Outbox) -> bool {
        if now >= self.next_send_at {
            return true;
        }
        self.pacing.wake_at(TimerKind::Pacing, self.next_send_at, out);
        false
    }

    /// The pacing timer event at `now`; true if it is the live one.
    pub fn on_pacing_timer(&mut self, now: SimTime) -> bool {
        self.pacing.take_event(now)
    }

    /// A packet left at `now`.
    pub fn on_send(&mut self, now: SimTime, out: &mut Outbox) {
        let gap = SimDuration::from_secs_f64(self.s_bytes as f64 / self.rc.rate_bytes_per_s());
        self.next_send_at = self.next_send_at.max(now) + gap;
        self.sent_since_nofeedback_set = true;
        if !self.nofeedback.is_armed() {
            self.arm_nofeedback(now, out);
        }
    }

    /// The CCVal-like value for the next data packet: the RTT estimate in `RTT_UNIT`s,
    /// rounded up (so the receiver's once-per-RTT feedback comes no sooner than one of the
    /// sender's RTTs, and slow start can double at every report, RFC 5348 §4.3); 0: none yet.
    pub fn ccid_value(&self) -> u16 {
        self.rc.rtt().map_or(0, |r| r.0.div_ceil(RTT_UNIT.0).clamp(1, u16::MAX as u64) as u16)
    }

    fn arm_nofeedback(&mut self, now: SimTime, out: &mut Outbox) {
        self.nofeedback.arm(TimerKind::NoFeedback, now + self.rc.nofeedback_timeout(), out);
        self.sent_since_nofeedback_set = false;
    }

    /// A feedback packet arrived at `now`.
    pub fn on_feedback(&mut self, p: &Packet, now: SimTime, rtt: &mut RttEstimator, out: &mut Outbox) {
        let (x_recv, loss, elapsed) = read_feedback(p);
        let sample = now.saturating_since(p.echo_sent_at).0.saturating_sub(elapsed.0);
        let sample = SimDuration(sample.max(1));
        rtt.on_sample(sample);
        self.rc.on_feedback(&RateFeedback { now, rtt_sample: sample, x_recv_bytes_per_s: x_recv, p: loss });
        // The rate may have risen: the next packet need not wait out the old, longer gap.
        let gap = SimDuration::from_secs_f64(self.s_bytes as f64 / self.rc.rate_bytes_per_s());
        self.next_send_at = self.next_send_at.min(now + gap);
        self.arm_nofeedback(now, out);
    }

    /// The nofeedback timer event at `now`.
    pub fn on_nofeedback_timer(&mut self, now: SimTime, out: &mut Outbox) {
        if self.nofeedback.fire(TimerKind::NoFeedback, now, out) {
            self.rc.on_no_feedback(now, !self.sent_since_nofeedback_set);
            self.arm_nofeedback(now, out);
        }
    }
}
