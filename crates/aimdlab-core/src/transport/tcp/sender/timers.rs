//! The sender's timers: the one retransmission timer, which runs to the RTO, a tail loss
//! probe or RACK's reorder timer (`XmitTimer`), and the pacing timer.

use super::xmit_timer::XmitTimer;
use super::TcpSender;
use crate::cc::CongestionKind;
use crate::transport::outbox::Outbox;
use crate::transport::tcp::rack::reo_wnd;
use crate::transport::tcp::state::CaState;
use crate::transport::timer::TimerKind;
use crate::units::{SimDuration, SimTime};

impl TcpSender {
    /// Runs the retransmission timer to one RTO from `now`.
    pub(super) fn arm_rto(&mut self, now: SimTime, out: &mut Outbox) {
        self.xmit_timer = XmitTimer::Rto;
        self.rto.arm(TimerKind::Retransmit, now + self.rtt.rto(), out);
    }

    /// Runs the retransmission timer to RACK's reorder deadline `at`.
    pub(super) fn arm_reorder(&mut self, at: SimTime, out: &mut Outbox) {
        self.xmit_timer = XmitTimer::Reorder;
        self.rto.arm(TimerKind::Retransmit, at, out);
    }

    /// Replaces the RTO by a tail loss probe where RACK-TLP allows one
    /// (`tcp_schedule_loss_probe`): outside recovery with data outstanding, 2·SRTT from now
    /// (plus 200 ms with a single segment out, for a delayed ACK; 1 s before any RTT
    /// sample), no later than the RTO — counted from now when an ACK `advancing` the window
    /// restarts it, else from when the oldest outstanding segment was sent.
    pub(super) fn schedule_probe(&mut self, now: SimTime, advancing: bool, out: &mut Outbox) {
        if !self.recovery.is_rack_tlp() || self.state.repairing() || self.snd_nxt == self.snd_una {
            return;
        }
        let mut pto = match self.rtt.srtt() {
            Some(srtt) => srtt + srtt + SimDuration::from_millis(if self.snd_nxt - self.snd_una == 1 { 200 } else { 2 }),
            None => SimDuration::from_secs(1),
        };
        let rto_left = if advancing { self.rtt.rto() } else { (self.sb.sent_at(self.snd_una) + self.rtt.rto()).saturating_since(now) };
        if rto_left > SimDuration::ZERO {
            pto = pto.min(rto_left);
        }
        self.xmit_timer = XmitTimer::Probe;
        self.rto.arm(TimerKind::Retransmit, now + pto, out);
    }

    /// The tail loss probe (`tcp_send_loss_probe`): one new segment whatever cwnd, or else the
    /// last segment again; then the RTO. One probe per flight.
    fn send_probe(&mut self, now: SimTime, out: &mut Outbox) {
        if self.recovery.rack_tlp().is_some_and(|r| r.tlp_high_seq.is_none()) {
            let sent = if self.has_new_data() && self.snd_nxt - self.snd_una < self.rwnd_pkts {
                self.send_new_segment(now, out);
                true
            } else if !self.sb.is_sacked(self.snd_nxt - 1) {
                let seq = self.snd_nxt - 1;
                self.sb.mark_retransmitted(seq);
                self.send_segment(seq, true, now, out);
                true
            } else {
                false
            };
            if let (true, Some(r)) = (sent, self.recovery.rack_tlp()) {
                r.tlp_high_seq = Some(self.snd_nxt);
            }
        }
        self.arm_rto(now, out);
    }

    /// Runs RACK's loss detection at `now` (after an ACK, or on its reorder timer); returns
    /// when the reorder timer should fire, if a segment is still within its window.
    pub(super) fn rack_detect(&mut self, now: SimTime) -> Option<SimTime> {
        let srtt = self.rtt.srtt_or_rto();
        let recovering = self.state.repairing();
        let reo = reo_wnd(recovering, self.sb.sacked_out, self.dupthresh, self.rtt.min_rtt().unwrap_or(srtt), srtt);
        let r = self.recovery.rack_tlp()?;
        r.rack.detect_loss(&mut self.sb, self.snd_una, self.snd_nxt, now, reo)
    }

    /// RACK's reorder timer fired at `now`: losses it now finds may start a recovery.
    fn on_reorder_timer(&mut self, now: SimTime, out: &mut Outbox) {
        let next = self.rack_detect(now);
        if !self.state.in_recovery() {
            self.maybe_enter_recovery(now, out);
        }
        self.try_send(now, out);
        match next {
            Some(at) => self.arm_reorder(at, out),
            None => self.arm_rto(now, out),
        }
    }

    /// The pacing-timer event fired at `now`: the next packet may leave.
    pub fn on_pacing_timer(&mut self, now: SimTime, out: &mut Outbox) {
        if self.pacing.take_event(now) {
            self.try_send(now, out);
        }
    }

    /// The retransmission-timer event fired at `now`; acts only if the deadline has passed.
    pub fn on_rto_timer(&mut self, now: SimTime, out: &mut Outbox) {
        if !self.rto.fire(TimerKind::Retransmit, now, out) || self.snd_una == self.snd_nxt {
            return;
        }
        match std::mem::replace(&mut self.xmit_timer, XmitTimer::Rto) {
            XmitTimer::Probe => return self.send_probe(now, out),
            XmitTimer::Reorder => return self.on_reorder_timer(now, out),
            XmitTimer::Rto => {}
        }
        self.stats.timeouts += 1;
        if self.rtt.backoff() == 0 {
            self.stats.timeout_sequences += 1;
            self.stats.rto_first_sum_ps += self.rtt.rto().0 as u128;
        }
        self.congestion(CongestionKind::Timeout, now);
        self.rtt.on_timeout();
        self.rtt.restart_timing_after_timeout(self.snd_nxt);
        // Loss replaces fast recovery and CWR (Linux's CA_Loss, ns-3's CA_LOSS): the window
        // grows from one segment, not frozen until the data outstanding now is acknowledged.
        self.set_state(CaState::Loss, now);
        self.recover = self.snd_nxt;
        self.ecn_recover = self.snd_nxt;
        self.dupacks = 0;
        self.recovery.on_timeout(&mut self.sb, self.snd_una, self.snd_nxt);
        self.try_send(now, out);
        if !self.rto.is_armed() {
            self.arm_rto(now, out);
        }
    }
}
