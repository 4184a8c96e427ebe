//! NewReno without SACK (RFC 6582).
//!
//! Each duplicate ACK counts one segment as having left the network, and a partial ACK of k
//! segments removes k − 1 of those counts (Linux's `tcp_remove_reno_sacks`): RFC 6582's
//! window inflation and deflation in `pipe` form. A partial ACK retransmits the next hole
//! and stays in recovery (§3.2 step 3). Under ns-2's rules (`newreno_changes1_ 1`) only the
//! first partial ACK of a recovery restarts the timer, so a window with many losses ends in
//! a timeout. Not modelled: ns-2's partial window deflation past the inflation, and its
//! burst limit of 2 in recovery, which the deflation leaves little to bind.

use super::dupack_sacked::DupackSacked;
use super::partial_ack::PartialAck;
use super::variant::RecoveryVariant;
use crate::transport::tcp::scoreboard::Scoreboard;

/// NewReno's state.
#[derive(Clone, Copy, Debug, Default)]
pub struct NewReno {
    /// The segments duplicate ACKs stand for.
    pub dupack_sacked: DupackSacked,
    /// ns-2's timer rule: restart only on the first partial ACK.
    ns2: bool,
}

impl NewReno {
    /// NewReno, with ns-2's timer rule if `ns2`.
    pub fn new(ns2: bool) -> Self {
        NewReno { dupack_sacked: DupackSacked::default(), ns2 }
    }
}

impl RecoveryVariant for NewReno {
    fn uses_sack(&self) -> bool {
        false
    }

    /// A partial ACK: the next hole is lost; the timer restarts (under ns-2's rules, on the
    /// `first` partial ACK of the recovery only).
    #[inline]
    fn on_partial_ack(&mut self, sb: &mut Scoreboard, snd_una: u64, first: bool) -> PartialAck {
        sb.mark_lost(snd_una);
        PartialAck::Continues { restart_timer: !self.ns2 || first }
    }

    fn dupack_sacked(&self) -> Option<&DupackSacked> {
        Some(&self.dupack_sacked)
    }

    fn dupack_sacked_mut(&mut self) -> Option<&mut DupackSacked> {
        Some(&mut self.dupack_sacked)
    }

    /// Every duplicate ACK stands for a segment gone.
    #[inline]
    fn on_duplicate(&mut self, _in_recovery: bool, outstanding: u64) {
        self.dupack_sacked.on_duplicate(outstanding);
    }
}
