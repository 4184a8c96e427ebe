//! Classic Reno (RFC 5681 §3.2; ns-2's Agent/TCP/Reno with its default `bugfix_`).
//!
//! Duplicate ACKs inflate the window only in fast recovery (the `dupthresh` that start it
//! count at once, ns-2's `dupwnd_`), and any new ACK ends it (step 6); the sender's
//! `recover` rule keeps a second fast retransmit out of the same window, so a second loss
//! waits for the timer. Limited transmit sends one new segment on each of the first
//! `dupthresh` − 1 duplicate ACKs (ns-2's `singledup_`).

use super::newreno::DupackSacked;

/// Classic Reno's state.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reno {
    /// The segments duplicate ACKs stand for, in fast recovery.
    pub dupack_sacked: DupackSacked,
}

impl Reno {
    /// Fast recovery starts: the duplicate ACKs that triggered it inflate the window.
    #[inline]
    pub fn before_recovery(&mut self, dupacks: u32, snd_una: u64, snd_nxt: u64) {
        self.dupack_sacked.pkts = (dupacks as u64).min(snd_nxt - snd_una - 1);
    }
}

/// Outside recovery no duplicate ACK counts as a segment gone; limited transmit lets one new
/// segment out for each of the first `dupthresh` − 1 (ns-2's `singledup_`; Sack1 counts
/// `in_flight` its own way and shares this rule).
#[inline]
pub fn limited_transmit_in_flight(in_flight: u64, dupacks: u64, dupthresh: u32) -> u64 {
    in_flight.saturating_sub(dupacks.min(dupthresh as u64 - 1))
}
