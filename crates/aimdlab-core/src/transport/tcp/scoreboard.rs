//! The sender's per-segment scoreboard (RFC 6675 §3): which outstanding segments are SACKed,
//! deemed lost, or retransmitted, with running counts so `pipe` is O(1):
//!
//! `pipe = (snd_nxt − snd_una) − sacked_out − lost_out + retrans_out`
//!
//! (RFC 6675 `SetPipe()` counts each un-SACKed segment once unless it is lost, plus once more
//! if it was retransmitted; the counts give the same number.) Flags live in a ring indexed by
//! sequence number that grows only when the window does; nothing else allocates.
//!
//! Loss marking (RFC 6675 `IsLost`): a segment is lost once `dupthresh` SACKed segments lie
//! above it. Marking moves a monotone pointer upward, so each segment is examined once.

use crate::units::SimTime;

const SACKED: u8 = 1;
const LOST: u8 = 2;
const RETRANS: u8 = 4;
/// Kept until the segment is acknowledged: it was sent more than once (Linux's
/// `TCPCB_EVER_RETRANS`), so no RTT sample is taken from it (Karn).
const EVER_RETRANS: u8 = 8;

/// Scoreboard of one sender.
pub struct Scoreboard {
    flags: Vec<u8>,
    /// Send time of each outstanding segment's latest transmission, when kept (RACK).
    sent_at: Vec<SimTime>,
    mask: u64,
    /// Outstanding segments SACKed.
    pub sacked_out: u64,
    /// Outstanding segments deemed lost (and not SACKed since).
    pub lost_out: u64,
    /// Lost segments retransmitted and not yet acknowledged.
    pub retrans_out: u64,
    /// Segments marked lost over the connection (a segment marked twice counts twice).
    pub lost_marked: u64,
    /// One past the highest SACKed segment.
    high_sacked: u64,
    /// Every segment below this was examined for loss.
    lost_scan: u64,
    /// The highest segment newly SACKed since the last `take_newest_sacked_original` that was
    /// sent only once (Linux's `last_sackt` candidate).
    newest_sacked_original: Option<u64>,
    /// No segment below this awaits retransmission.
    rxt_scan: u64,
}

impl Default for Scoreboard {
    fn default() -> Self {
        Self::new()
    }
}

impl Scoreboard {
    /// An empty scoreboard.
    pub fn new() -> Self {
        Scoreboard {
            flags: vec![0; 64],
            sent_at: Vec::new(),
            mask: 63,
            sacked_out: 0,
            lost_out: 0,
            retrans_out: 0,
            lost_marked: 0,
            high_sacked: 0,
            lost_scan: 0,
            rxt_scan: 0,
            newest_sacked_original: None,
        }
    }

    /// An empty scoreboard that also keeps each segment's send time (`stamp`, `sent_at`).
    pub fn with_send_times() -> Self {
        Scoreboard { sent_at: vec![SimTime::ZERO; 64], ..Self::new() }
    }

    /// Segment `seq` (outstanding) was sent, or sent again, at `now` (kept only by a board
    /// made `with_send_times`).
    #[inline]
    pub fn stamp(&mut self, seq: u64, now: SimTime) {
        if !self.sent_at.is_empty() {
            self.sent_at[(seq & self.mask) as usize] = now;
        }
    }

    /// When outstanding segment `seq` was last sent (board made `with_send_times`).
    #[inline]
    pub fn sent_at(&self, seq: u64) -> SimTime {
        self.sent_at[(seq & self.mask) as usize]
    }

    /// The newest segment in `[from, to)` sent only once, and not SACKed unless
    /// `sacked_count`; none if any segment in the range was ever retransmitted (Linux's
    /// `FLAG_RETRANS_DATA_ACKED` in `tcp_clean_rtx_queue`). Read before `advance(from, to)`.
    pub fn newest_original(&self, from: u64, to: u64, sacked_count: bool) -> Option<u64> {
        let mut newest = None;
        for s in from..to {
            let f = self.f(s);
            if f & EVER_RETRANS != 0 {
                return None;
            }
            if sacked_count || f & SACKED == 0 {
                newest = Some(s);
            }
        }
        newest
    }

    /// The highest segment newly SACKed since the last call that was sent only once.
    #[inline]
    pub fn take_newest_sacked_original(&mut self) -> Option<u64> {
        self.newest_sacked_original.take()
    }

    /// Whether `seq` is neither SACKed, nor deemed lost, nor retransmitted: an original
    /// transmission still in flight.
    #[inline]
    pub fn is_untouched(&self, seq: u64) -> bool {
        self.f(seq) == 0
    }

    /// Whether `seq` was retransmitted and that copy is neither SACKed nor deemed lost again.
    #[inline]
    pub fn is_retransmitted(&self, seq: u64) -> bool {
        self.f(seq) & (RETRANS | SACKED) == RETRANS
    }

    /// The retransmission of `seq` is deemed lost: it awaits another (RACK's detection of a
    /// lost retransmission).
    pub fn mark_retransmission_lost(&mut self, seq: u64) {
        let f = self.f(seq);
        if f & (RETRANS | SACKED) == RETRANS {
            self.set(seq, LOST | EVER_RETRANS);
            self.retrans_out -= 1;
            self.lost_out += (f & LOST == 0) as u64;
            self.lost_marked += 1;
            self.lost_scan = self.lost_scan.max(seq + 1);
            self.rxt_scan = self.rxt_scan.min(seq);
        }
    }

    /// Hints that the flags of segments from `seq` on will be read soon (one cache line).
    #[inline]
    pub fn prefetch_from(&self, seq: u64) {
        crate::prefetch::prefetch_bytes(self.flags.as_ptr().wrapping_add((seq & self.mask) as usize), 1);
    }

    #[inline]
    fn f(&self, seq: u64) -> u8 {
        self.flags[(seq & self.mask) as usize]
    }

    #[inline]
    fn set(&mut self, seq: u64, v: u8) {
        self.flags[(seq & self.mask) as usize] = v;
    }

    /// Segment `seq` (with `una` the oldest outstanding) is sent for the first time.
    #[inline]
    pub fn on_send_new(&mut self, una: u64, seq: u64) {
        if seq - una >= self.flags.len() as u64 {
            let new_len = ((seq - una + 1).next_power_of_two() * 2) as usize;
            let mut flags = vec![0u8; new_len];
            let new_mask = new_len as u64 - 1;
            for s in una..seq {
                flags[(s & new_mask) as usize] = self.f(s);
            }
            if !self.sent_at.is_empty() {
                let mut sent_at = vec![SimTime::ZERO; new_len];
                for s in una..seq {
                    sent_at[(s & new_mask) as usize] = self.sent_at(s);
                }
                self.sent_at = sent_at;
            }
            self.flags = flags;
            self.mask = new_mask;
        }
        self.set(seq, 0);
    }

    /// The cumulative ACK moved from `old_una` to `new_una`.
    #[inline]
    pub fn advance(&mut self, old_una: u64, new_una: u64) {
        for s in old_una..new_una {
            let f = self.f(s);
            if f != 0 {
                self.sacked_out -= (f & SACKED != 0) as u64;
                self.lost_out -= (f & LOST != 0) as u64;
                self.retrans_out -= (f & RETRANS != 0) as u64;
                self.set(s, 0);
            }
        }
        self.lost_scan = self.lost_scan.max(new_una);
        self.rxt_scan = self.rxt_scan.max(new_una);
    }

    /// Applies a SACK block `[start, end)` within the window `[una, nxt)`; returns how many
    /// segments it newly SACKed.
    #[inline]
    pub fn apply_sack(&mut self, start: u64, end: u64, una: u64, nxt: u64) -> u64 {
        let (a, b) = (start.max(una), end.min(nxt));
        let mut newly = 0;
        for s in a..b {
            let f = self.f(s);
            if f & SACKED == 0 {
                newly += 1;
                self.lost_out -= (f & LOST != 0) as u64;
                self.retrans_out -= (f & RETRANS != 0) as u64;
                self.set(s, SACKED | (f & EVER_RETRANS));
                if f & EVER_RETRANS == 0 {
                    self.newest_sacked_original = self.newest_sacked_original.max(Some(s));
                }
            }
        }
        self.sacked_out += newly;
        if b > a {
            self.high_sacked = self.high_sacked.max(b);
        }
        newly
    }

    /// Marks as lost every un-SACKed, not-yet-retransmitted segment with at least
    /// `dupthresh` SACKed segments above it (RFC 6675 `IsLost`).
    pub fn update_lost(&mut self, una: u64, dupthresh: u32) {
        if self.sacked_out < dupthresh as u64 {
            return;
        }
        let mut count = 0;
        let mut s = self.high_sacked;
        let floor = una.max(self.lost_scan);
        let mut bound = None;
        while s > floor {
            s -= 1;
            if self.f(s) & SACKED != 0 {
                count += 1;
                if count == dupthresh {
                    bound = Some(s);
                    break;
                }
            }
        }
        let Some(bound) = bound else { return };
        for s in floor..bound {
            if self.f(s) == 0 {
                self.set(s, LOST);
                self.lost_out += 1;
                self.lost_marked += 1;
            }
        }
        self.lost_scan = self.lost_scan.max(bound);
    }

    /// Marks one segment lost unless it is SACKed, already lost or retransmitted.
    pub fn mark_lost(&mut self, seq: u64) {
        if self.f(seq) == 0 {
            self.set(seq, LOST);
            self.lost_out += 1;
            self.lost_marked += 1;
            self.lost_scan = self.lost_scan.max(seq + 1);
            self.rxt_scan = self.rxt_scan.min(seq);
        }
    }

    /// Whether `seq` is deemed lost.
    pub fn is_lost(&self, seq: u64) -> bool {
        self.f(seq) & LOST != 0
    }

    /// Whether `seq` was SACKed.
    pub fn is_sacked(&self, seq: u64) -> bool {
        self.f(seq) & SACKED != 0
    }

    /// The first segment at or above `una` that is lost and not yet retransmitted
    /// (RFC 6675 `NextSeg()` rule 1).
    #[inline]
    pub fn next_lost(&mut self, una: u64) -> Option<u64> {
        if self.lost_out == self.retrans_out {
            return None;
        }
        let mut s = self.rxt_scan.max(una);
        while s < self.lost_scan {
            if self.f(s) & (LOST | RETRANS | SACKED) == LOST {
                self.rxt_scan = s;
                return Some(s);
            }
            s += 1;
        }
        self.rxt_scan = s;
        None
    }

    /// Where the scan for lost segments to resend stands: every lost segment below it has
    /// been resent (after a timeout, the go-back-N point).
    #[inline]
    pub fn resend_point(&self) -> u64 {
        self.rxt_scan
    }

    /// `seq` (a lost segment) was retransmitted.
    #[inline]
    pub fn mark_retransmitted(&mut self, seq: u64) {
        let f = self.f(seq);
        if f & RETRANS == 0 {
            self.set(seq, f | RETRANS | EVER_RETRANS);
            self.retrans_out += 1;
        }
        self.rxt_scan = self.rxt_scan.max(seq + 1);
    }

    /// The retransmission timer expired: every un-SACKed outstanding segment is lost and
    /// none counts as retransmitted any more (RFC 6675 §5.1). With `forget_sacks`, SACKed
    /// segments are lost too and resent (ns-2's Sack1 clears its scoreboard on a timeout).
    pub fn on_timeout(&mut self, una: u64, nxt: u64, forget_sacks: bool) {
        for s in una..nxt {
            let f = self.f(s);
            if f & SACKED != 0 {
                if !forget_sacks {
                    continue;
                }
                self.sacked_out -= 1;
            }
            if f & LOST == 0 {
                self.lost_out += 1;
                self.lost_marked += 1;
            }
            self.set(s, LOST | (f & EVER_RETRANS));
        }
        self.retrans_out = 0;
        self.lost_scan = nxt;
        self.rxt_scan = una;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(n: u64) -> Scoreboard {
        let mut sb = Scoreboard::new();
        for s in 0..n {
            sb.on_send_new(0, s);
        }
        sb
    }

    #[test]
    fn three_sacks_above_a_hole_mark_it_lost() {
        // Timeline: 0..10 sent; 2 lost; 3, 4, 5 arrive and are SACKed.
        let mut sb = board(10);
        sb.advance(0, 2);
        assert_eq!(sb.apply_sack(3, 4, 2, 10), 1);
        sb.update_lost(2, 3);
        assert_eq!(sb.lost_out, 0, "one SACK is not enough");
        sb.apply_sack(3, 6, 2, 10);
        sb.update_lost(2, 3);
        assert!(sb.is_lost(2));
        assert_eq!((sb.sacked_out, sb.lost_out), (3, 1));
        assert_eq!(sb.next_lost(2), Some(2));
        sb.mark_retransmitted(2);
        assert_eq!(sb.next_lost(2), None);
        // pipe = 8 outstanding − 3 sacked − 1 lost + 1 retransmitted = 5
        assert_eq!(8 - sb.sacked_out - sb.lost_out + sb.retrans_out, 5);
        sb.advance(2, 6);
        assert_eq!((sb.sacked_out, sb.lost_out, sb.retrans_out), (0, 0, 0));
    }

    #[test]
    fn timeout_marks_everything_unsacked_lost() {
        let mut sb = board(6);
        sb.apply_sack(4, 5, 0, 6);
        sb.on_timeout(0, 6, false);
        assert_eq!((sb.sacked_out, sb.lost_out), (1, 5));
        let order: Vec<u64> = std::iter::from_fn(|| {
            let s = sb.next_lost(0)?;
            sb.mark_retransmitted(s);
            Some(s)
        })
        .collect();
        assert_eq!(order, vec![0, 1, 2, 3, 5]);
    }

    #[test]
    fn a_timeout_that_forgets_sacks_resends_them_too() {
        let mut sb = board(6);
        sb.apply_sack(4, 5, 0, 6);
        sb.on_timeout(0, 6, true);
        assert_eq!((sb.sacked_out, sb.lost_out), (0, 6));
        let order: Vec<u64> = std::iter::from_fn(|| {
            let s = sb.next_lost(0)?;
            sb.mark_retransmitted(s);
            Some(s)
        })
        .collect();
        assert_eq!(order, vec![0, 1, 2, 3, 4, 5]);
        // A later SACK of the resent segment counts it as delivered again.
        assert_eq!(sb.apply_sack(4, 5, 0, 6), 1);
        assert_eq!((sb.sacked_out, sb.lost_out, sb.retrans_out), (1, 5, 5));
    }

    #[test]
    fn ring_grows_and_keeps_flags() {
        let mut sb = Scoreboard::new();
        for s in 0..50 {
            sb.on_send_new(0, s);
        }
        sb.apply_sack(10, 12, 0, 50);
        for s in 50..1000 {
            sb.on_send_new(0, s);
        }
        assert!(sb.is_sacked(10) && sb.is_sacked(11) && !sb.is_sacked(12));
        assert_eq!(sb.sacked_out, 2);
    }

    #[test]
    fn a_segment_sent_twice_is_never_an_original_again() {
        // Segment 2 is retransmitted, deemed lost again, and the timer expires; 5 is SACKed.
        let mut sb = Scoreboard::new();
        for s in 0..8 {
            sb.on_send_new(0, s);
        }
        sb.mark_lost(2);
        sb.mark_retransmitted(2);
        sb.mark_retransmission_lost(2);
        sb.on_timeout(0, 8, false);
        assert_eq!(sb.newest_original(0, 2, false), Some(1));
        assert_eq!(sb.newest_original(0, 3, false), None, "a cumulative ACK over a retransmission gives no sample");
        sb.apply_sack(5, 6, 0, 8);
        assert_eq!(sb.take_newest_sacked_original(), Some(5));
        assert_eq!(sb.take_newest_sacked_original(), None, "taken");
        sb.apply_sack(2, 3, 0, 8);
        assert_eq!(sb.take_newest_sacked_original(), None, "2 was sent twice");
        assert_eq!(sb.newest_original(3, 7, false), Some(6), "5 was SACKed before: 6.x skips it");
        assert_eq!(sb.newest_original(3, 6, true), Some(5), "2.6.31 counts it");
    }
}
