//! Classic Reno (RFC 5681 §3.2; ns-2's Agent/TCP/Reno with its default `bugfix_`).
//!
//! Duplicate ACKs inflate the window only in fast recovery (the `dupthresh` that start it
//! count at once, ns-2's `dupwnd_`), and any new ACK ends it (step 6); the sender's
//! `recover` rule keeps a second fast retransmit out of the same window, so a second loss
//! waits for the timer. Limited transmit sends one new segment on each of the first
//! `dupthresh` − 1 duplicate ACKs (ns-2's `singledup_`).

use super::dupack_sacked::DupackSacked;
use super::partial_ack::PartialAck;
use super::variant::RecoveryVariant;
use crate::transport::tcp::scoreboard::Scoreboard;

/// Classic Reno's state.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reno {
    /// The segments duplicate ACKs stand for, in fast recovery.
    pub dupack_sacked: DupackSacked,
}

impl RecoveryVariant for Reno {
    fn uses_sack(&self) -> bool {
        false
    }

    /// Any new ACK ends fast recovery (RFC 5681 §3.2 step 6).
    fn on_partial_ack(&mut self, _sb: &mut Scoreboard, _snd_una: u64, _first: bool) -> PartialAck {
        PartialAck::EndsRecovery
    }

    fn dupack_sacked(&self) -> Option<&DupackSacked> {
        Some(&self.dupack_sacked)
    }

    fn dupack_sacked_mut(&mut self) -> Option<&mut DupackSacked> {
        Some(&mut self.dupack_sacked)
    }

    #[inline]
    fn limited_transmit_in_flight(&self, pipe: u64, _sb: &Scoreboard, _snd_una: u64, _snd_nxt: u64, dupacks: u64, dupthresh: u32) -> u64 {
        limited_transmit_in_flight(pipe, dupacks, dupthresh)
    }

    /// Fast recovery starts: the duplicate ACKs that triggered it inflate the window.
    #[inline]
    fn before_recovery(&mut self, dupacks: u32, snd_una: u64, snd_nxt: u64) {
        self.dupack_sacked.pkts = (dupacks as u64).min(snd_nxt - snd_una - 1);
    }

    /// A duplicate ACK inflates the window in fast recovery only.
    #[inline]
    fn on_duplicate(&mut self, in_recovery: bool, outstanding: u64) {
        if in_recovery {
            self.dupack_sacked.on_duplicate(outstanding);
        }
    }
}

/// Outside recovery no duplicate ACK counts as a segment gone; limited transmit lets one new
/// segment out for each of the first `dupthresh` − 1 (ns-2's `singledup_`; Sack1 counts
/// `in_flight` its own way and shares this rule).
#[inline]
pub fn limited_transmit_in_flight(in_flight: u64, dupacks: u64, dupthresh: u32) -> u64 {
    in_flight.saturating_sub(dupacks.min(dupthresh as u64 - 1))
}
