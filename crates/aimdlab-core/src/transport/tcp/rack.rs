//! RACK loss detection (RFC 8985 §6, "RACK-TLP: A Time-Based Efficient Loss Detection for
//! TCP") as Linux runs it (`net/ipv4/tcp_recovery.c`: `tcp_rack_advance`,
//! `tcp_rack_detect_loss`, `tcp_rack_reo_wnd`): a segment is lost once a segment sent after
//! it has been delivered and more than the latest RTT plus a reordering window has passed
//! since it was sent. Unlike duplicate-ACK counting this also finds lost retransmissions and
//! a lost tail with fewer than three segments after it.
//!
//! Candidates are kept in send-time order in two parts, so each ACK costs O(1) amortized:
//! original transmissions, whose send times grow with their segment numbers (a pointer walks
//! them), and retransmissions, in the order sent (a queue). Where RFC 8985 arms the reorder
//! timer for the latest candidate's deadline, so does this.
//!
//! The reordering window (`tcp_rack_reo_wnd`): min(min_RTT / 4, SRTT), or 0 in recovery or
//! once `dupthresh` segments are SACKed, as long as no reordering has been seen — and
//! aimdlab's paths (FIFO links, order-keeping send jitter) never reorder, so the DSACK-driven
//! growth of the window (`reo_wnd_steps`) is not modelled.

use super::scoreboard::Scoreboard;
use crate::units::{SimDuration, SimTime};
use std::collections::VecDeque;

/// RACK state of one sender.
#[derive(Default)]
pub struct Rack {
    /// Send time of the most recently sent segment known delivered (RACK.xmit_ts).
    xmit: SimTime,
    /// That segment's number, which orders segments sent at the same instant (RACK.end_seq).
    seq: u64,
    /// RTT of the latest delivery (RACK.rtt).
    rtt: SimDuration,
    /// Original transmissions below this are delivered, SACKed or deemed lost.
    scan: u64,
    /// Retransmissions not yet known delivered or lost, in the order sent: (segment, time).
    retransmitted: VecDeque<(u64, SimTime)>,
}

/// Whether a segment (`a_time`, `a_seq`) was sent before (`b_time`, `b_seq`).
#[inline]
fn sent_before(a_time: SimTime, a_seq: u64, b_time: SimTime, b_seq: u64) -> bool {
    a_time < b_time || (a_time == b_time && a_seq < b_seq)
}

/// RACK's reordering window (`tcp_rack_reo_wnd`) with no reordering seen: zero in a
/// recovery (fast or after a timeout) or once `dupthresh` segments are SACKed, else
/// min(min_RTT / 4, SRTT).
pub fn reo_wnd(recovering: bool, sacked_out: u64, dupthresh: u32, min_rtt: SimDuration, srtt: SimDuration) -> SimDuration {
    if recovering || sacked_out >= dupthresh as u64 {
        SimDuration::ZERO
    } else {
        SimDuration(min_rtt.0 / 4).min(srtt)
    }
}

impl Rack {
    /// A segment sent at `xmit` (segment `seq`) was delivered, seen at `now` (`tcp_rack_advance`;
    /// the ACK's timestamp echo names the copy that arrived, so there is no ambiguity).
    pub fn on_delivery(&mut self, xmit: SimTime, seq: u64, now: SimTime) {
        self.rtt = now.saturating_since(xmit);
        if sent_before(self.xmit, self.seq, xmit, seq) {
            self.xmit = xmit;
            self.seq = seq;
        }
    }

    /// Segment `seq` was retransmitted at `now`.
    pub fn on_retransmit(&mut self, seq: u64, now: SimTime) {
        self.retransmitted.push_back((seq, now));
    }

    /// A retransmission timeout: every segment up to `nxt` is deemed lost and will be resent.
    pub fn on_timeout(&mut self, nxt: u64) {
        self.scan = nxt;
        self.retransmitted.clear();
    }

    /// Marks lost every segment in [`una`, `nxt`) sent before RACK's segment whose send time
    /// plus RACK.rtt and `reo_wnd` has passed at `now`; returns when the reorder timer should
    /// fire for those still waiting, if any (RFC 8985 `RACK_detect_loss`).
    pub fn detect_loss(&mut self, sb: &mut Scoreboard, una: u64, nxt: u64, now: SimTime, reo_wnd: SimDuration) -> Option<SimTime> {
        let mut timer: Option<SimTime> = None;
        let wait = self.rtt + reo_wnd;
        // Original transmissions, oldest first.
        self.scan = self.scan.max(una);
        let mut at_front = true;
        let mut s = self.scan;
        while s < nxt {
            if sb.is_untouched(s) {
                let t = sb.sent_at(s);
                if !sent_before(t, s, self.xmit, self.seq) {
                    break;
                }
                if t + wait <= now {
                    sb.mark_lost(s);
                } else {
                    timer = timer.max(Some(t + wait));
                    at_front = false;
                }
            }
            s += 1;
            if at_front {
                self.scan = s;
            }
        }
        // Retransmissions, in the order sent; delivered or superseded entries are dropped.
        let mut i = 0;
        while i < self.retransmitted.len() {
            let (seq, t) = self.retransmitted[i];
            if seq < una || !sb.is_retransmitted(seq) || sb.sent_at(seq) != t {
                self.retransmitted.remove(i);
                continue;
            }
            if !sent_before(t, seq, self.xmit, self.seq) {
                break;
            }
            if t + wait <= now {
                sb.mark_retransmission_lost(seq);
                self.retransmitted.remove(i);
            } else {
                timer = timer.max(Some(t + wait));
                i += 1;
            }
        }
        timer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> SimTime {
        SimTime::from_millis(v)
    }

    /// Segments 0..n sent 1 ms apart from 0 ms.
    fn board(n: u64) -> Scoreboard {
        let mut sb = Scoreboard::with_send_times();
        for s in 0..n {
            sb.on_send_new(0, s);
            sb.stamp(s, ms(s));
        }
        sb
    }

    #[test]
    fn a_hole_is_lost_a_reordering_window_after_a_later_segment_is_delivered() {
        // 0 is lost; 1 arrives (sent at 1 ms, acknowledged at 101 ms): one SACK only, so
        // the window is min_RTT/4 = 25 ms and 0 is lost at 0 + 100 + 25 ms.
        let mut sb = board(10);
        let mut rack = Rack::default();
        sb.apply_sack(1, 2, 0, 10);
        rack.on_delivery(ms(1), 1, ms(101));
        let reo = reo_wnd(false, sb.sacked_out, 3, SimDuration::from_millis(100), SimDuration::from_millis(100));
        assert_eq!(reo, SimDuration::from_millis(25));
        assert_eq!(rack.detect_loss(&mut sb, 0, 10, ms(101), reo), Some(ms(125)));
        assert!(!sb.is_lost(0));
        assert_eq!(rack.detect_loss(&mut sb, 0, 10, ms(125), reo), None);
        assert!(sb.is_lost(0));
        assert!(!sb.is_lost(2), "sent after the delivered segment");
    }

    #[test]
    fn with_three_sacks_the_hole_is_lost_at_once_and_so_is_a_lost_retransmission() {
        let mut sb = board(10);
        let mut rack = Rack::default();
        sb.apply_sack(1, 4, 0, 10);
        rack.on_delivery(ms(3), 3, ms(103));
        let reo = reo_wnd(false, sb.sacked_out, 3, SimDuration::from_millis(100), SimDuration::from_millis(100));
        assert_eq!(rack.detect_loss(&mut sb, 0, 10, ms(103), reo), None);
        assert!(sb.is_lost(0));
        // 0 is resent at 103 ms and lost again; 4..=9 arrive and then a segment sent after
        // the retransmission (10, at 104 ms) is delivered at 204 ms.
        assert_eq!(sb.next_lost(0), Some(0));
        sb.mark_retransmitted(0);
        sb.stamp(0, ms(103));
        rack.on_retransmit(0, ms(103));
        sb.on_send_new(0, 10);
        sb.stamp(10, ms(104));
        sb.apply_sack(4, 11, 0, 11);
        rack.on_delivery(ms(104), 10, ms(204));
        assert_eq!(rack.detect_loss(&mut sb, 0, 11, ms(204), SimDuration::ZERO), None);
        assert_eq!(sb.next_lost(0), Some(0), "the retransmission is lost and 0 goes out again");
    }
}
