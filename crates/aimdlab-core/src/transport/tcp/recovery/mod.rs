//! Loss recovery: how the sender finds lost segments before its timer does, how it runs the
//! window while it repairs them, and what a partial ACK or a timeout does — one variant per
//! file behind [`LossRecovery`]; the sender (`super::sender`) calls its hooks at fixed points
//! of ACK and timer processing.
//!
//! - [`rfc6675`]: SACK-based recovery (RFC 2018, RFC 6675), NewReno's partial ACK rule.
//! - [`newreno`]: NewReno without SACK (RFC 6582).
//! - [`reno`]: classic Reno (RFC 5681 §3.2; ns-2's Agent/TCP/Reno).
//! - [`sack1`]: ns-2.35's Sack1 (Fall & Floyd 1996), `recovery_rules = "ns2"` with SACK.
//! - [`rack_tlp`]: RACK-TLP (RFC 8985) as Linux runs it.
//!
//! What a variant decides is the trait [`RecoveryVariant`] (`variant`), whose defaults are what
//! most variants do; each variant's file implements only where it differs.

pub mod dupack_sacked;
pub mod newreno;
pub mod partial_ack;
pub mod rack_tlp;
pub mod reno;
pub mod rfc6675;
pub mod sack1;
pub mod variant;

use super::config::{LossDetection, Recovery, RecoveryRules, TcpConfig};
use super::scoreboard::Scoreboard;
use newreno::NewReno;
pub use partial_ack::PartialAck;
use rack_tlp::RackTlp;
use reno::Reno;
use rfc6675::Rfc6675;
use sack1::Sack1;
pub use variant::RecoveryVariant;

/// The loss recovery of one flow, with the state it keeps: the variants, dispatched
/// statically to their `RecoveryVariant`.
pub enum LossRecovery {
    /// SACK with RFC 6675's rules.
    Rfc6675(Rfc6675),
    /// NewReno without SACK.
    NewReno(NewReno),
    /// Classic Reno.
    Reno(Reno),
    /// ns-2's Sack1.
    Sack1(Sack1),
    /// RACK-TLP with SACK.
    RackTlp(Box<RackTlp>),
}

/// Applies one expression to whichever variant `$self` holds.
macro_rules! each {
    ($self:expr, $r:ident => $e:expr) => {
        match $self {
            LossRecovery::Rfc6675($r) => $e,
            LossRecovery::NewReno($r) => $e,
            LossRecovery::Reno($r) => $e,
            LossRecovery::Sack1($r) => $e,
            LossRecovery::RackTlp($r) => $e,
        }
    };
}

impl LossRecovery {
    /// The recovery `cfg` asks for. RACK needs SACK (without it, duplicate ACKs find losses).
    pub fn new(cfg: &TcpConfig) -> Self {
        let ns2 = cfg.recovery_rules == RecoveryRules::Ns2;
        match cfg.recovery {
            Recovery::Sack if cfg.loss_detection == LossDetection::RackTlp => LossRecovery::RackTlp(Box::default()),
            Recovery::Sack if ns2 => LossRecovery::Sack1(Sack1::default()),
            Recovery::Sack => LossRecovery::Rfc6675(Rfc6675),
            Recovery::Newreno => LossRecovery::NewReno(NewReno::new(ns2)),
            Recovery::Reno => LossRecovery::Reno(Reno::default()),
        }
    }

    /// RACK-TLP's state, if this is RACK-TLP.
    #[inline]
    pub fn rack_tlp(&mut self) -> Option<&mut RackTlp> {
        match self {
            LossRecovery::RackTlp(r) => Some(r),
            _ => None,
        }
    }

    /// Whether this is RACK-TLP.
    #[inline]
    pub fn is_rack_tlp(&self) -> bool {
        matches!(self, LossRecovery::RackTlp(_))
    }

    /// Segments above the cumulative ACK known to have arrived: SACKed, or (without SACK)
    /// stood for by duplicate ACKs.
    #[inline]
    pub fn sacked_pkts(&self, sb: &Scoreboard) -> u64 {
        self.dupack_sacked().map_or(sb.sacked_out, |d| d.pkts)
    }

    /// The cumulative ACK moved on by `newly_cum` segments.
    #[inline]
    pub fn on_cumulative_ack(&mut self, newly_cum: u64, in_recovery: bool) {
        if let Some(d) = self.dupack_sacked_mut() {
            d.on_cumulative_ack(newly_cum, in_recovery);
        }
    }

    /// Fast recovery ended.
    pub fn on_recovery_exit(&mut self) {
        if let Some(d) = self.dupack_sacked_mut() {
            d.pkts = 0;
        }
    }

    /// The retransmission timer expired: every un-SACKed outstanding segment is deemed lost.
    pub fn on_timeout(&mut self, sb: &mut Scoreboard, snd_una: u64, snd_nxt: u64) {
        sb.on_timeout(snd_una, snd_nxt, self.clears_sacks_at_timeout());
        self.on_recovery_exit();
        each!(self, r => r.on_timeout_marked(snd_nxt));
    }
}

impl RecoveryVariant for LossRecovery {
    fn uses_sack(&self) -> bool {
        each!(self, r => r.uses_sack())
    }
    #[inline]
    fn on_partial_ack(&mut self, sb: &mut Scoreboard, snd_una: u64, first: bool) -> PartialAck {
        each!(self, r => r.on_partial_ack(sb, snd_una, first))
    }
    #[inline]
    fn dupack_sacked(&self) -> Option<&dupack_sacked::DupackSacked> {
        each!(self, r => r.dupack_sacked())
    }
    #[inline]
    fn dupack_sacked_mut(&mut self) -> Option<&mut dupack_sacked::DupackSacked> {
        each!(self, r => r.dupack_sacked_mut())
    }
    #[inline]
    fn limited_transmit_in_flight(&self, pipe: u64, sb: &Scoreboard, snd_una: u64, snd_nxt: u64, dupacks: u64, dupthresh: u32) -> u64 {
        each!(self, r => r.limited_transmit_in_flight(pipe, sb, snd_una, snd_nxt, dupacks, dupthresh))
    }
    #[inline]
    fn recovery_window_open(&self, pipe: u64, cwnd: u64) -> bool {
        each!(self, r => r.recovery_window_open(pipe, cwnd))
    }
    #[inline]
    fn on_send_in_recovery(&mut self) {
        each!(self, r => r.on_send_in_recovery())
    }
    #[inline]
    fn on_send(&mut self, seq: u64, is_retransmission: bool, now: crate::units::SimTime) {
        each!(self, r => r.on_send(seq, is_retransmission, now))
    }
    fn loss_detected(&self, sb: &Scoreboard, snd_una: u64, dupacks: u32, dupthresh: u32) -> bool {
        each!(self, r => r.loss_detected(sb, snd_una, dupacks, dupthresh))
    }
    fn before_recovery(&mut self, dupacks: u32, snd_una: u64, snd_nxt: u64) {
        each!(self, r => r.before_recovery(dupacks, snd_una, snd_nxt))
    }
    fn on_recovery_start(&mut self, sb: &mut Scoreboard, snd_una: u64, snd_nxt: u64, dupthresh: u32) {
        each!(self, r => r.on_recovery_start(sb, snd_una, snd_nxt, dupthresh))
    }
    #[inline]
    fn reads_sack_blocks(&self) -> bool {
        each!(self, r => r.reads_sack_blocks())
    }
    #[inline]
    fn mark_lost_from_sacks(&self, sb: &mut Scoreboard, snd_una: u64, dupthresh: u32, in_recovery: bool) {
        each!(self, r => r.mark_lost_from_sacks(sb, snd_una, dupthresh, in_recovery))
    }
    #[inline]
    fn counts_duplicates(&self) -> bool {
        each!(self, r => r.counts_duplicates())
    }
    #[inline]
    fn on_duplicate(&mut self, in_recovery: bool, outstanding: u64) {
        each!(self, r => r.on_duplicate(in_recovery, outstanding))
    }
    #[inline]
    fn after_new_ack(&mut self) {
        each!(self, r => r.after_new_ack())
    }
    #[inline]
    fn on_ack_in_recovery(&mut self) {
        each!(self, r => r.on_ack_in_recovery())
    }
    fn exit_ack_grows_window(&self) -> bool {
        each!(self, r => r.exit_ack_grows_window())
    }
    fn clears_sacks_at_timeout(&self) -> bool {
        each!(self, r => r.clears_sacks_at_timeout())
    }
    fn on_timeout_marked(&mut self, snd_nxt: u64) {
        each!(self, r => r.on_timeout_marked(snd_nxt))
    }
}
