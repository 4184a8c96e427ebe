//! What a loss recovery variant decides, as one trait: each variant's file implements it, and
//! a default is what most variants do (RFC 6675's and NewReno's rules), so a variant's file
//! holds only where it differs. The sender calls these hooks at fixed points of ACK and timer
//! processing (`super::LossRecovery` dispatches to the flow's variant).

use super::dupack_sacked::DupackSacked;
use super::partial_ack::PartialAck;
use crate::transport::tcp::scoreboard::Scoreboard;
use crate::units::SimTime;

/// A loss recovery's rules.
pub trait RecoveryVariant {
    /// Whether the receiver's SACK blocks are used.
    fn uses_sack(&self) -> bool;

    /// A partial ACK in fast recovery; `first` if it is the recovery's first.
    fn on_partial_ack(&mut self, sb: &mut Scoreboard, snd_una: u64, first: bool) -> PartialAck;

    /// The segments duplicate ACKs stand for, in a recovery without SACK (NewReno, Reno).
    fn dupack_sacked(&self) -> Option<&DupackSacked> {
        None
    }

    /// `dupack_sacked`, to change.
    fn dupack_sacked_mut(&mut self) -> Option<&mut DupackSacked> {
        None
    }

    /// Segments counted in flight outside fast recovery with limited transmit on (RFC 3042),
    /// `pipe` being RFC 6675's count and `dupacks` the duplicate ACKs since the last new ACK.
    fn limited_transmit_in_flight(&self, pipe: u64, _sb: &Scoreboard, _snd_una: u64, _snd_nxt: u64, _dupacks: u64, _dupthresh: u32) -> u64 {
        pipe
    }

    /// Whether fast recovery's window (`cwnd`) has room for one more segment, `pipe` being
    /// RFC 6675's count.
    fn recovery_window_open(&self, pipe: u64, cwnd: u64) -> bool {
        pipe < cwnd
    }

    /// A segment was sent in fast recovery.
    fn on_send_in_recovery(&mut self) {}

    /// A segment `seq` left at `now`.
    fn on_send(&mut self, _seq: u64, _is_retransmission: bool, _now: SimTime) {}

    /// Whether a loss is known that starts fast recovery: `dupthresh` duplicate ACKs.
    fn loss_detected(&self, _sb: &Scoreboard, _snd_una: u64, dupacks: u32, dupthresh: u32) -> bool {
        dupacks >= dupthresh
    }

    /// Fast recovery starts, before the controller is told (classic Reno's window inflation
    /// counts in the `pipe` the controller sees).
    fn before_recovery(&mut self, _dupacks: u32, _snd_una: u64, _snd_nxt: u64) {}

    /// Fast recovery has started (the controller has cut its window): mark what is lost — the
    /// first outstanding segment.
    fn on_recovery_start(&mut self, sb: &mut Scoreboard, snd_una: u64, _snd_nxt: u64, _dupthresh: u32) {
        sb.mark_lost(snd_una);
    }

    /// Whether this ACK's SACK blocks are read.
    fn reads_sack_blocks(&self) -> bool {
        self.uses_sack()
    }

    /// After an ACK's SACK blocks are read: the holes they show marked lost. Default: none.
    fn mark_lost_from_sacks(&self, _sb: &mut Scoreboard, _snd_una: u64, _dupthresh: u32, _in_recovery: bool) {}

    /// Whether duplicate ACKs are counted now.
    fn counts_duplicates(&self) -> bool {
        true
    }

    /// A duplicate ACK was counted, `outstanding` segments being out.
    fn on_duplicate(&mut self, _in_recovery: bool, _outstanding: u64) {}

    /// An ACK of new data has been processed (its SACK blocks read or not).
    fn after_new_ack(&mut self) {}

    /// An ACK arrived in fast recovery (not the one that started it).
    fn on_ack_in_recovery(&mut self) {}

    /// Whether the ACK that ends fast recovery also grows the window (RFC 5681 and RFC 6675
    /// senders: yes).
    fn exit_ack_grows_window(&self) -> bool {
        true
    }

    /// Whether a timeout forgets every SACK (ns-2's `ClearScoreBoard`).
    fn clears_sacks_at_timeout(&self) -> bool {
        false
    }

    /// The retransmission timer expired with `snd_nxt` the next new segment (after the
    /// scoreboard has deemed every un-SACKed outstanding segment lost).
    fn on_timeout_marked(&mut self, _snd_nxt: u64) {}
}
