//! An acknowledgement's way through the sender: a short pipeline of named steps, and fast
//! recovery's entry and exit.

use super::TcpSender;
use crate::cc::{AckArrival, AckEvent, CongestionKind};
use crate::net::packet::Packet;
use crate::transport::cwnd_trace::{CwndCause, CwndState};
use crate::transport::outbox::Outbox;
use crate::transport::tcp::controller_rtt::RttCandidates;
use crate::transport::tcp::prr::Prr;
use crate::transport::tcp::recovery::{PartialAck, RecoveryVariant};
use crate::transport::tcp::state::CaState;
use crate::units::{SimDuration, SimTime};

impl TcpSender {
    /// Processes an acknowledgement arriving at `now`.
    pub fn on_ack(&mut self, ack: &Packet, now: SimTime, out: &mut Outbox) {
        self.stats.acks_received += 1;
        let before = (self.sb.lost_marked, self.pipe());
        let delivered_before = self.snd_una + self.sacked_pkts();
        let cum = ack.seq.min(self.snd_nxt);
        let newest_cumulative_sent_at = self.newest_cumulative_sent_at(cum);
        let newly_cum = self.advance_cumulative(cum, now);
        let (newly_sacked, newest_delivered) = self.read_sack_blocks(ack, cum, now);
        let newest_sacked_sent_at = self.sb.take_newest_sacked_original().filter(|_| self.controller_rtt.reads_send_times()).map(|s| self.sb.sent_at(s));
        let reorder_at = self.rack_on_ack(ack, now, newly_cum + newly_sacked > 0, newest_delivered);
        self.count_duplicate(cum, newly_cum, newly_sacked);
        let echo = self.sample_rtt(ack, now, newly_cum + newly_sacked > 0, newly_cum > 0);
        let rtt = RttCandidates { echo, srtt: self.rtt.srtt(), newest_cumulative_sent_at, newest_sacked_sent_at };
        self.window.on_ack_arrival(&AckArrival { now, delivered_pkts: newly_cum + newly_sacked, ece: ack.ece, snd_una: self.snd_una, snd_nxt: self.snd_nxt });
        let was_in_recovery = self.state.in_recovery();
        let restart_timer = self.recovery_on_ack(now, newly_cum, out);
        // (ns-2's Sack1: the ACK that ends recovery leaves the window as the recovery left it)
        let hold = was_in_recovery && !self.state.in_recovery() && !self.recovery.exit_ack_grows_window();
        self.ecn_on_ack(ack, now);
        // Segments this ACK newly reports delivered, cumulatively or selectively (RFC 6937's
        // DeliveredData; Linux's `acked`): a cumulative advance over data SACKed before counts
        // only what had not been reported.
        let delivered = (self.snd_una + self.sacked_pkts()).saturating_sub(delivered_before);
        if self.prr_paced() {
            let (pipe, ssthresh) = (self.pipe(), self.window.ssthresh_pkts());
            if let Some(prr) = self.state.prr_mut() {
                prr.on_ack(delivered, pipe, ssthresh);
            }
        }
        self.controller_on_ack(ack, now, (newly_cum, delivered), &rtt, before, hold);
        if newly_cum > 0 {
            // RFC 6298 (5.2), (5.3): stop the timer when all is acknowledged, else restart.
            if self.snd_una == self.snd_nxt {
                self.rto.stop();
            } else if restart_timer {
                self.arm_rto(now, out);
                self.schedule_probe(now, true, out);
            }
        }
        self.try_send(now, out);
        if let Some(at) = reorder_at {
            self.arm_reorder(at, out);
        }
    }

    /// Before step 1, for a controller told the newest segment's RTT (`tcp.controller_rtt`):
    /// the send time of the newest segment the cumulative ACK `cum` newly covers that counts.
    #[inline]
    fn newest_cumulative_sent_at(&self, cum: u64) -> Option<SimTime> {
        if !self.controller_rtt.reads_send_times() || cum <= self.snd_una {
            return None;
        }
        self.sb.newest_original(self.snd_una, cum, self.controller_rtt.cumulative_counts_sacked()).map(|s| self.sb.sent_at(s))
    }

    /// Step 1: the cumulative ACK `cum` moves `snd_una` on, and ends a timeout's Loss state
    /// or a CWR whose window it passes; returns the segments it newly acknowledges.
    #[inline]
    fn advance_cumulative(&mut self, cum: u64, now: SimTime) -> u64 {
        let newly_cum = cum.saturating_sub(self.snd_una);
        if newly_cum > 0 {
            if let Some(rate) = self.rate.as_deref_mut() {
                for s in (self.snd_una..cum).filter(|&s| !self.sb.is_sacked(s)) {
                    rate.on_delivered(s, now);
                }
            }
            self.sb.advance(self.snd_una, cum);
            self.snd_una = cum;
            self.dupacks = 0;
            self.recovery.on_cumulative_ack(newly_cum, self.state.in_recovery());
            match self.state {
                CaState::Loss if self.snd_una >= self.recover => self.set_state(CaState::Open, now),
                CaState::Cwr { .. } if self.snd_una > self.ecn_recover => self.set_state(CaState::Open, now),
                _ => {}
            }
        }
        newly_cum
    }

    /// Step 2: the ACK's SACK blocks into the scoreboard, and the holes they show marked lost
    /// by the recovery in use; returns the segments newly SACKed and the newest segment the
    /// ACK reports delivered (RACK.end_seq's candidate).
    #[inline]
    fn read_sack_blocks(&mut self, ack: &Packet, cum: u64, now: SimTime) -> (u64, u64) {
        let mut newly_sacked = 0;
        let mut newest_delivered = cum.saturating_sub(1);
        if self.recovery.reads_sack_blocks() {
            for (s, e) in ack.options.ranges().iter() {
                if let Some(rate) = self.rate.as_deref_mut() {
                    for seq in (s.max(self.snd_una)..e.min(self.snd_nxt)).filter(|&q| !self.sb.is_sacked(q)) {
                        rate.on_delivered(seq, now);
                    }
                }
                let n = self.sb.apply_sack(s, e, self.snd_una, self.snd_nxt);
                if n > 0 {
                    newest_delivered = newest_delivered.max(e.min(self.snd_nxt) - 1);
                }
                newly_sacked += n;
            }
            self.recovery.mark_lost_from_sacks(&mut self.sb, self.snd_una, self.dupthresh, self.state.in_recovery());
        }
        (newly_sacked, newest_delivered)
    }

    /// Step 3 (RACK-TLP only): the delivery for RACK, the end of a tail loss probe, and losses
    /// detected by time; returns when the reordering timer should fire, if a segment may yet
    /// be lost.
    #[inline]
    fn rack_on_ack(&mut self, ack: &Packet, now: SimTime, delivered_any: bool, newest_delivered: u64) -> Option<SimTime> {
        let snd_una = self.snd_una;
        let r = self.recovery.rack_tlp()?;
        if delivered_any {
            r.rack.on_delivery(ack.echo_sent_at, newest_delivered, now);
        }
        if r.tlp_high_seq.is_some_and(|h| snd_una >= h) {
            r.tlp_high_seq = None;
        }
        self.rack_detect(now)
    }

    /// Step 4: a duplicate ACK counted. It acknowledges nothing new cumulatively; with SACK it
    /// must also SACK something new (RFC 6675 §2), so ACKs of duplicated segments do not count.
    #[inline]
    fn count_duplicate(&mut self, cum: u64, newly_cum: u64, newly_sacked: u64) {
        let outstanding = self.snd_nxt - self.snd_una;
        if newly_cum == 0 && cum == self.snd_una && outstanding > 0 && (!self.recovery.uses_sack() || newly_sacked > 0) && self.recovery.counts_duplicates() {
            self.dupacks += 1;
            self.recovery.on_duplicate(self.state.in_recovery(), outstanding);
        }
        if newly_cum > 0 {
            self.recovery.after_new_ack();
        }
    }

    /// Step 5: an RTT sample from the echoed send time, when the ACK delivered something and
    /// the echo is not of a retransmission (Karn) — unless timestamps say which transmission
    /// it answers.
    #[inline]
    fn sample_rtt(&mut self, ack: &Packet, now: SimTime, delivered_any: bool, advanced: bool) -> Option<SimDuration> {
        if !delivered_any || (ack.echo_is_retransmission && !self.rtt_from_retransmissions) {
            return None;
        }
        let r = now.saturating_since(ack.echo_sent_at);
        self.rtt.on_sample_in_flight(r, now, self.snd_una, self.snd_nxt, advanced);
        Some(r)
    }

    /// Step 6: fast recovery entered, left, or moved on by a partial ACK, as the recovery in
    /// use says; returns whether the retransmission timer restarts.
    fn recovery_on_ack(&mut self, now: SimTime, newly_cum: u64, out: &mut Outbox) -> bool {
        let mut restart_timer = newly_cum > 0;
        let CaState::Recovery { partial_acked, .. } = self.state else {
            self.maybe_enter_recovery(now, out);
            return restart_timer;
        };
        self.recovery.on_ack_in_recovery();
        if self.snd_una >= self.recover {
            self.exit_recovery(now);
        } else if newly_cum > 0 {
            match self.recovery.on_partial_ack(&mut self.sb, self.snd_una, !partial_acked) {
                PartialAck::EndsRecovery => self.exit_recovery(now),
                PartialAck::Continues { restart_timer: restart } => {
                    restart_timer = restart;
                    if let CaState::Recovery { partial_acked, .. } = &mut self.state {
                        *partial_acked = true;
                    }
                }
            }
        }
        restart_timer
    }

    /// Step 7: an ECN echo cuts the window, once per window of data (RFC 3168 §6.1.2), and
    /// starts CWR. Strictly above: the ACK that covers exactly the data outstanding at the
    /// last reduction was sent before the receiver saw our CWR, so its echo is stale.
    fn ecn_on_ack(&mut self, ack: &Packet, now: SimTime) {
        if self.ecn && ack.ece && !self.state.in_recovery() && self.snd_una > self.ecn_recover {
            self.ecn_recover = self.snd_nxt;
            // PRR runs over the reduction when CWR holds the window (`cwr_freeze`).
            let prr = if self.prr_on && self.cwr_freeze { Prr::enter_cwr(self.snd_nxt - self.snd_una) } else { Prr::default() };
            self.set_state(CaState::Cwr { prr }, now);
            self.stats.ecn_reductions += 1;
            self.congestion(CongestionKind::Ecn, now);
            self.cwr_pending = true;
        }
    }

    /// Step 8: the controller told of the ACK, the window grown (a step per segment it newly
    /// delivers under `cwnd_growth = "per_segment"`), and a traced flow's change recorded.
    /// `acked`: (the cumulative advance, the segments newly delivered); `rtt`: what the ACK
    /// offers for the controller's RTT (`tcp.controller_rtt` picks); `before`: the
    /// segments marked lost so far and in flight when the ACK arrived; `hold`: the ACK ended
    /// a recovery whose exit does not grow the window (ns-2's Sack1).
    fn controller_on_ack(&mut self, ack: &Packet, now: SimTime, acked: (u64, u64), rtt: &RttCandidates, before: (u64, u64), hold: bool) {
        let (newly_cum, delivered) = acked;
        let (lost_before, in_flight_before) = before;
        let (rtt_sample, min_rtt) = self.controller_rtt.on_ack(rtt, now, self.rtt.min_rtt());
        let rate = self.rate.as_deref_mut().map(|r| r.sample(min_rtt, self.sb.lost_marked - lost_before, in_flight_before, now));
        let ev = AckEvent {
            now,
            newly_acked_pkts: newly_cum,
            rtt_sample,
            srtt: self.rtt.srtt_or_rto(),
            min_rtt,
            ece: ack.ece,
            // In CWR (after an ECN cut, until its window is acknowledged) the window
            // holds still as in recovery, when `cwr_freeze` is on.
            in_recovery: self.state.in_recovery() || self.in_cwr() || hold,
            cwnd_limited: self.cwnd_use.allows_growth(self.window.cwnd_pkts(), in_flight_before, self.window.window().in_slow_start()),
            pkts_in_flight: self.pipe(),
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt,
            rate,
        };
        // Only a traced flow asks what the change will be called.
        let cause = self.cwnd_trace.is_some().then(|| CwndState::of(self.window.window()).ack_cause(ev.in_recovery));
        // Linux counts the segments an ACK delivers (`tcp_ack`: `acked` from `tp->delivered`),
        // so a cumulative ACK over data SACKed earlier — the end of a recovery, or a hole
        // filled after a timeout with the rest already held by the receiver — grows the window
        // by what it newly delivered, not by the whole advance (that would be a slow-start jump
        // of a window's worth in one ACK). Only an ACK that advances snd.una grows it
        // (`tcp_may_raise_cwnd` at the default reordering).
        let steps = if self.per_segment && newly_cum > 0 { delivered.max(1) } else { 1 };
        self.window.on_ack_in_steps(&ev, steps);
        if let Some(cause) = cause {
            self.traced(now, cause);
        }
    }

    /// Starts fast recovery if a loss is known and the last recovery is over.
    pub(super) fn maybe_enter_recovery(&mut self, now: SimTime, out: &mut Outbox) {
        let loss = self.recovery.loss_detected(&self.sb, self.snd_una, self.dupacks, self.dupthresh);
        // ns-2: `highest_ack_ > recover_`, the cumulative ACK covers a segment sent after.
        let recovered = if self.ns2_rules { self.snd_una > self.recover } else { self.snd_una >= self.recover };
        if loss && recovered && self.snd_nxt > self.snd_una {
            self.enter_recovery(now, out);
        }
    }

    /// Fast recovery starts at `now`: the controller cuts, the recovery marks what is lost,
    /// and the first retransmission leaves (or PRR's first allowance sends it).
    fn enter_recovery(&mut self, now: SimTime, out: &mut Outbox) {
        let prr = if self.prr_on { Prr::enter(self.snd_nxt - self.snd_una) } else { Prr::default() };
        self.set_state(CaState::Recovery { partial_acked: false, prr }, now);
        self.recover = self.snd_nxt;
        self.ecn_recover = self.snd_nxt;
        self.stats.fast_retransmits += 1;
        self.recovery.before_recovery(self.dupacks, self.snd_una, self.snd_nxt);
        self.congestion(CongestionKind::Loss, now);
        self.recovery.on_recovery_start(&mut self.sb, self.snd_una, self.snd_nxt, self.dupthresh);
        if self.ns2_rules {
            // `reset_rtx_timer(1, 0)`: a fresh timer for the recovery.
            self.arm_rto(now, out);
        }
        if self.prr_on {
            // PRR's first allowance (at least one segment) sends the retransmission.
            return;
        }
        // RFC 6675 step 4.3 / RFC 5681 §3.2 step 2: retransmit the first lost segment now.
        if let Some(seq) = self.sb.next_lost(self.snd_una) {
            self.sb.mark_retransmitted(seq);
            self.send_segment(seq, true, now, out);
        }
    }

    /// Fast recovery ends at `now`.
    fn exit_recovery(&mut self, now: SimTime) {
        self.set_state(CaState::Open, now);
        self.recovery.on_recovery_exit();
        self.traced(now, CwndCause::RecoveryExit);
    }
}
