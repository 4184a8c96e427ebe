//! RACK-TLP (RFC 8985) as Linux runs it (`loss_detection = "rack_tlp"`, with SACK).
//!
//! Losses are found by RACK (§6, `super::super::rack`) instead of duplicate ACKs and
//! `IsLost` — lost retransmissions included — and recovery starts once RACK deems a segment
//! lost; a partial ACK needs no rule of its own (RACK finds the next hole by time). The
//! sender's one retransmission timer runs to one of three deadlines, as Linux's
//! `icsk_pending` does: the RTO, a tail loss probe (§7, `tcp_schedule_loss_probe`), or
//! RACK's reorder timer (the sender's `timers` module). One probe per flight
//! (`tlp_high_seq`). Not modelled: TLP's loss-repair reduction after a probe that resent the
//! last segment (it needs DSACK; bulk senders always have new data to probe with).

use super::partial_ack::PartialAck;
use super::variant::RecoveryVariant;
use crate::transport::tcp::rack::Rack;
use crate::transport::tcp::scoreboard::Scoreboard;
use crate::units::SimTime;

/// RACK-TLP's state.
#[derive(Default)]
pub struct RackTlp {
    /// RACK's state.
    pub rack: Rack,
    /// A tail loss probe is out: `snd_nxt` when it was sent.
    pub tlp_high_seq: Option<u64>,
}

impl RecoveryVariant for RackTlp {
    fn uses_sack(&self) -> bool {
        true
    }

    /// RACK finds the next hole by time: recovery goes on.
    fn on_partial_ack(&mut self, _sb: &mut Scoreboard, _snd_una: u64, _first: bool) -> PartialAck {
        PartialAck::Continues { restart_timer: true }
    }

    /// A segment `seq` left at `now` (the sender stamped its send time for RACK).
    #[inline]
    fn on_send(&mut self, seq: u64, is_retransmission: bool, now: SimTime) {
        if is_retransmission {
            self.rack.on_retransmit(seq, now);
        }
    }

    /// A segment RACK deems lost.
    #[inline]
    fn loss_detected(&self, sb: &Scoreboard, _snd_una: u64, _dupacks: u32, _dupthresh: u32) -> bool {
        sb.lost_out > 0
    }

    /// Recovery starts: a probe out is forgotten (RACK has marked what is lost).
    #[inline]
    fn on_recovery_start(&mut self, _sb: &mut Scoreboard, _snd_una: u64, _snd_nxt: u64, _dupthresh: u32) {
        self.tlp_high_seq = None;
    }

    fn on_timeout_marked(&mut self, snd_nxt: u64) {
        self.rack.on_timeout(snd_nxt);
        self.tlp_high_seq = None;
    }
}
