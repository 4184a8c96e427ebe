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
use super::variant::RecoveryVariant;
use crate::transport::tcp::scoreboard::Scoreboard;

/// RFC 6675's recovery (it keeps no state of its own: the scoreboard is the sender's).
#[derive(Clone, Copy, Debug, Default)]
pub struct Rfc6675;

impl RecoveryVariant for Rfc6675 {
    fn uses_sack(&self) -> bool {
        true
    }

    /// A partial ACK: the next hole is lost (RFC 6582 §3.2 step 3).
    #[inline]
    fn on_partial_ack(&mut self, sb: &mut Scoreboard, snd_una: u64, _first: bool) -> PartialAck {
        sb.mark_lost(snd_una);
        PartialAck::Continues { restart_timer: true }
    }

    /// `dupthresh` duplicate ACKs, or the first outstanding segment deemed lost by the SACKs
    /// above it.
    #[inline]
    fn loss_detected(&self, sb: &Scoreboard, snd_una: u64, dupacks: u32, dupthresh: u32) -> bool {
        dupacks >= dupthresh || sb.is_lost(snd_una)
    }

    /// `IsLost`: a hole with `dupthresh` SACKed segments above it.
    #[inline]
    fn mark_lost_from_sacks(&self, sb: &mut Scoreboard, snd_una: u64, dupthresh: u32, _in_recovery: bool) {
        sb.update_lost(snd_una, dupthresh);
    }
}
