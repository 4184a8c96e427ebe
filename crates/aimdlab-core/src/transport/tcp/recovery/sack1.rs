//! ns-2.35's Sack1 (`tcp-sack1.cc`, `scoreboard-rq.cc`; Fall & Floyd, "Simulation-based
//! Comparisons of Tahoe, Reno, and SACK TCP", 1996): `recovery = "sack"` under
//! `recovery_rules = "ns2"`.
//!
//! Recovery starts on `dupthresh` duplicate ACKs only. In it the window is a counter `pipe_`:
//! outstanding − dupthresh on entry (not counting the first retransmission), −1 per ACK, −1
//! more per partial ACK, +1 per segment sent; any hole below a SACKed segment is
//! retransmitted once (`ScoreBoardRQ::GetNextRetran`). Outside recovery no SACK or duplicate
//! ACK counts as a segment gone (limited transmit: one new segment for each of the first
//! `dupthresh` − 1). A timeout forgets every SACK (`ClearScoreBoard`), resends from the
//! cumulative ACK, and ignores SACK blocks and duplicate ACKs until a new cumulative ACK
//! (`timeout_`) — whose own SACK blocks go unread too (ns-2 reads SACK blocks from duplicate
//! ACKs only outside recovery).

use super::partial_ack::PartialAck;
use super::variant::RecoveryVariant;
use crate::transport::tcp::scoreboard::Scoreboard;

/// Sack1's state.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sack1 {
    /// `pipe_`: segments it deems in flight during fast recovery.
    pipe: i64,
    /// After a timeout, until a new cumulative ACK: SACK blocks and duplicate ACKs ignored.
    pub after_timeout: bool,
}

impl RecoveryVariant for Sack1 {
    fn uses_sack(&self) -> bool {
        true
    }

    /// A partial ACK (`partial_ack_ 0`): `pipe_` falls once more; the holes below SACKed
    /// segments are already marked.
    #[inline]
    fn on_partial_ack(&mut self, _sb: &mut Scoreboard, _snd_una: u64, _first: bool) -> PartialAck {
        self.pipe -= 1;
        PartialAck::Continues { restart_timer: true }
    }

    /// Segments in flight outside recovery, ns-2's `t_seqno_ - highest_ack_`, less one for
    /// each of the first `dupthresh` − 1 duplicate ACKs (limited transmit).
    #[inline]
    fn limited_transmit_in_flight(&self, _pipe: u64, sb: &Scoreboard, snd_una: u64, snd_nxt: u64, dupacks: u64, dupthresh: u32) -> u64 {
        super::reno::limited_transmit_in_flight(outstanding(sb, snd_una, snd_nxt), dupacks, dupthresh)
    }

    /// Whether `pipe_` leaves room under `cwnd`.
    #[inline]
    fn recovery_window_open(&self, _pipe: u64, cwnd: u64) -> bool {
        self.pipe < cwnd as i64
    }

    /// A segment was sent in recovery.
    #[inline]
    fn on_send_in_recovery(&mut self) {
        self.pipe += 1;
    }

    /// Recovery starts: the first outstanding segment and every hole below a SACK are lost;
    /// `numdupacks(cwnd_)` segments have left.
    fn on_recovery_start(&mut self, sb: &mut Scoreboard, snd_una: u64, snd_nxt: u64, dupthresh: u32) {
        sb.mark_lost(snd_una);
        self.pipe = (snd_nxt - snd_una) as i64 - dupthresh as i64;
        sb.update_lost(snd_una, 1);
    }

    fn reads_sack_blocks(&self) -> bool {
        !self.after_timeout
    }

    /// Holes are marked only in recovery, each below any SACKed segment.
    #[inline]
    fn mark_lost_from_sacks(&self, sb: &mut Scoreboard, snd_una: u64, _dupthresh: u32, in_recovery: bool) {
        if in_recovery {
            sb.update_lost(snd_una, 1);
        }
    }

    fn counts_duplicates(&self) -> bool {
        !self.after_timeout
    }

    fn after_new_ack(&mut self) {
        self.after_timeout = false;
    }

    /// An ACK arrived in recovery (not the one that started it).
    #[inline]
    fn on_ack_in_recovery(&mut self) {
        self.pipe -= 1;
    }

    /// ns-2.35's Sack1 hands the ACK that ends recovery to `newack()` alone (`tcp-sack1.cc`,
    /// `recv`: "ACK indicates fast recovery is over"), not to `recv_newack_helper()`, so it
    /// does not `opencwnd()`.
    fn exit_ack_grows_window(&self) -> bool {
        false
    }

    fn clears_sacks_at_timeout(&self) -> bool {
        true
    }

    fn on_timeout_marked(&mut self, _snd_nxt: u64) {
        self.after_timeout = true;
    }
}

/// From the cumulative ACK to the next segment to send. That is the highest sent, except after
/// a timeout, when Sack1 resends in order from the cumulative ACK (go-back-N) and the window
/// counts up to the resend point only: segments SACKed above it are not in flight by this
/// count (ns-2 cleared its scoreboard and will send them again).
fn outstanding(sb: &Scoreboard, snd_una: u64, snd_nxt: u64) -> u64 {
    if sb.lost_out > sb.retrans_out {
        sb.resend_point().clamp(snd_una, snd_nxt) - snd_una
    } else {
        snd_nxt - snd_una
    }
}
