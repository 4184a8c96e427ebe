//! What leaves and when: the window (lost segments first, then new data), pacing, and each
//! segment's way out.

use super::xmit_timer::XmitTimer;
use super::TcpSender;
use crate::net::packet::{Ecn, Packet};
use crate::transport::outbox::Outbox;
use crate::transport::tcp::recovery::RecoveryVariant;
use crate::transport::timer::TimerKind;
use crate::units::{Bytes, SimDuration, SimTime};

impl TcpSender {
    /// Sends whatever the window allows: lost segments first, then new data; with a pacing
    /// rate from the controller, packets leave no faster than that rate.
    pub(super) fn try_send(&mut self, now: SimTime, out: &mut Outbox) {
        let cwnd = self.window.cwnd_pkts().max(1.0) as u64;
        let nxt_before = self.snd_nxt;
        let sent_before = self.stats.data_pkts_sent;
        self.send_window(cwnd, now, out);
        if self.cwnd_use.records_sends() {
            let sent = self.stats.data_pkts_sent > sent_before;
            let (pipe, packets_out) = (self.pipe(), self.snd_nxt - self.snd_una);
            self.cwnd_use.after_send(self.window.cwnd_pkts(), pipe, packets_out, self.snd_una, self.snd_nxt, sent);
        }
        if self.rate.is_some() && !self.has_new_data() && self.pipe() < cwnd && self.sb.lost_out <= self.sb.retrans_out {
            // The delivery-rate draft §3.4: the application leaves the window unused.
            let pipe = self.pipe();
            if let Some(rate) = self.rate.as_deref_mut() {
                rate.on_app_limited(pipe);
            }
        }
        if self.snd_nxt > nxt_before && self.xmit_timer != XmitTimer::Reorder {
            self.schedule_probe(now, false, out);
        }
    }

    /// Sends what the window `cwnd` allows now.
    fn send_window(&mut self, cwnd: u64, now: SimTime, out: &mut Outbox) {
        while self.window_open(cwnd) {
            if self.paced_out(now, out) {
                break;
            }
            if let Some(seq) = self.sb.next_lost(self.snd_una) {
                self.sb.mark_retransmitted(seq);
                self.send_segment(seq, true, now, out);
            } else if self.has_new_data() && self.snd_nxt - self.snd_una < self.rwnd_pkts {
                self.send_new_segment(now, out);
            } else {
                break;
            }
            if self.state.in_recovery() {
                self.recovery.on_send_in_recovery();
            }
        }
    }

    /// Sends the next new segment.
    pub(super) fn send_new_segment(&mut self, now: SimTime, out: &mut Outbox) {
        let seq = self.snd_nxt;
        self.sb.on_send_new(self.snd_una, seq);
        self.snd_nxt += 1;
        self.send_segment(seq, false, now, out);
    }

    /// Segment `seq` leaves at `now` (again, if `is_retransmission`).
    pub(super) fn send_segment(&mut self, seq: u64, is_retransmission: bool, now: SimTime, out: &mut Outbox) {
        let payload = self.sizes.payload(seq);
        let size = Bytes(payload + self.header.0);
        out.packets.push(Packet {
            is_retransmission,
            // RFC 3168 §6.1.5: retransmissions are not ECN-capable.
            ecn: if self.ecn && !is_retransmission { Ecn::Ect0 } else { Ecn::NotEct },
            cwr: std::mem::take(&mut self.cwr_pending),
            ..Packet::data(self.flow, self.dst, seq, size, now)
        });
        self.stats.data_pkts_sent += 1;
        self.stats.data_bytes_sent += size.0;
        if !is_retransmission {
            self.stats.payload_bytes_sent += payload;
        }
        self.sb.stamp(seq, now);
        self.recovery.on_send(seq, is_retransmission, now);
        if self.rate.is_some() {
            let (una, in_flight_before) = (self.snd_una, self.pipe().saturating_sub(1));
            if let Some(rate) = self.rate.as_deref_mut() {
                rate.on_send(una, seq, in_flight_before, now);
            }
        }
        if is_retransmission {
            self.stats.retransmitted_pkts += 1;
        }
        if self.prr_paced() {
            if let Some(prr) = self.state.prr_mut() {
                prr.on_send();
            }
        }
        self.pace(size, now);
        // RFC 6298 (5.1); and, as Linux does, restart the timer when the first outstanding
        // segment is retransmitted, so the retransmission gets a full RTO to be acknowledged
        // (ns-2's `output` never restarts a running timer).
        if !self.rto.is_armed() || (is_retransmission && seq == self.snd_una && !self.ns2_rules) {
            self.arm_rto(now, out);
        }
    }

    /// Whether pacing holds the next packet back at `now`; if so, the pacing timer is armed.
    fn paced_out(&mut self, now: SimTime, out: &mut Outbox) -> bool {
        if now >= self.next_send_at || (self.window.pacing_rate().is_none() && self.window.pacing_rate_pps().is_none()) {
            return false;
        }
        self.pacing.wake_at(TimerKind::Pacing, self.next_send_at, out);
        true
    }

    /// After a packet of `size` left at `now`: when the next may leave, if the controller
    /// paces (one packet's serialization time at its pacing rate).
    fn pace(&mut self, size: Bytes, now: SimTime) {
        if let Some(rate) = self.window.pacing_rate() {
            self.next_send_at = now + rate.serialization_time(size);
        } else if let Some(pps) = self.window.pacing_rate_pps().filter(|r| *r > 0.0) {
            self.next_send_at = now + SimDuration::from_secs_f64(1.0 / pps);
        }
    }
}
