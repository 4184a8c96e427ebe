//! SACK-based loss recovery (RFC 2018, RFC 6675) with NewReno's partial ACK rule.
//!
//! - Fast retransmit on `dupthresh` duplicate ACKs or when the first outstanding segment is
//!   deemed lost (RFC 6675 §5, `IsLost`: `dupthresh` SACKed segments above it).
//! - In recovery the window is run as `pipe` against cwnd: lost segments first (`NextSeg`
//!   rule 1), then new data.
//! - A partial ACK marks the new first outstanding segment lost (RFC 6582 §3.2 step 3). This
//!   stands in for RFC 6675's rescue retransmission (rule 4 of `NextSeg`, not otherwise
//!   implemented): it recovers a lost tail without waiting for the timer.

use super::partial_ack::PartialAck;
use crate::transport::tcp::scoreboard::Scoreboard;

/// Whether a loss is known: `dupthresh` duplicate ACKs, or the first outstanding segment
/// deemed lost by the SACKs above it.
#[inline]
pub fn loss_detected(sb: &Scoreboard, snd_una: u64, dupacks: u32, dupthresh: u32) -> bool {
    dupacks >= dupthresh || sb.is_lost(snd_una)
}

/// A partial ACK: the next hole is lost (RFC 6582 §3.2 step 3).
#[inline]
pub fn on_partial_ack(sb: &mut Scoreboard, snd_una: u64) -> PartialAck {
    sb.mark_lost(snd_una);
    PartialAck::Continues { restart_timer: true }
}
