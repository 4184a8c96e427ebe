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

pub mod newreno;
pub mod partial_ack;
pub mod rack_tlp;
pub mod reno;
pub mod rfc6675;
pub mod sack1;

use super::config::{LossDetection, Recovery, RecoveryRules, TcpConfig};
use super::scoreboard::Scoreboard;
use crate::units::SimTime;
use newreno::{DupackSacked, NewReno};
pub use partial_ack::PartialAck;
use rack_tlp::RackTlp;
use reno::Reno;
use sack1::Sack1;

/// The loss recovery of one flow, with the state it keeps.
pub enum LossRecovery {
    /// SACK with RFC 6675's rules.
    Rfc6675,
    /// NewReno without SACK.
    NewReno(NewReno),
    /// Classic Reno.
    Reno(Reno),
    /// ns-2's Sack1.
    Sack1(Sack1),
    /// RACK-TLP with SACK.
    RackTlp(Box<RackTlp>),
}

impl LossRecovery {
    /// The recovery `cfg` asks for. RACK needs SACK (without it, duplicate ACKs find losses).
    pub fn new(cfg: &TcpConfig) -> Self {
        let ns2 = cfg.recovery_rules == RecoveryRules::Ns2;
        match cfg.recovery {
            Recovery::Sack if cfg.loss_detection == LossDetection::RackTlp => LossRecovery::RackTlp(Box::default()),
            Recovery::Sack if ns2 => LossRecovery::Sack1(Sack1::default()),
            Recovery::Sack => LossRecovery::Rfc6675,
            Recovery::Newreno => LossRecovery::NewReno(NewReno::new(ns2)),
            Recovery::Reno => LossRecovery::Reno(Reno::default()),
        }
    }

    /// Whether the receiver's SACK blocks are used.
    pub fn uses_sack(&self) -> bool {
        matches!(self, LossRecovery::Rfc6675 | LossRecovery::Sack1(_) | LossRecovery::RackTlp(_))
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

    /// The segments duplicate ACKs stand for, in a recovery without SACK (NewReno, Reno).
    #[inline]
    fn dupack_sacked(&self) -> Option<&DupackSacked> {
        match self {
            LossRecovery::NewReno(r) => Some(&r.dupack_sacked),
            LossRecovery::Reno(r) => Some(&r.dupack_sacked),
            _ => None,
        }
    }

    /// `dupack_sacked`, to change.
    #[inline]
    fn dupack_sacked_mut(&mut self) -> Option<&mut DupackSacked> {
        match self {
            LossRecovery::NewReno(r) => Some(&mut r.dupack_sacked),
            LossRecovery::Reno(r) => Some(&mut r.dupack_sacked),
            _ => None,
        }
    }

    /// Segments counted in flight outside fast recovery with limited transmit on (RFC 3042),
    /// `pipe` being RFC 6675's count and `dupacks` the duplicate ACKs since the last new ACK.
    #[inline]
    pub fn limited_transmit_in_flight(&self, pipe: u64, sb: &Scoreboard, snd_una: u64, snd_nxt: u64, dupacks: u64, dupthresh: u32) -> u64 {
        match self {
            LossRecovery::Reno(_) => reno::limited_transmit_in_flight(pipe, dupacks, dupthresh),
            LossRecovery::Sack1(_) => sack1::limited_transmit_in_flight(sb, snd_una, snd_nxt, dupacks, dupthresh),
            _ => pipe,
        }
    }

    /// Whether fast recovery's window (`cwnd`) has room for one more segment, `pipe` being
    /// RFC 6675's count.
    #[inline]
    pub fn recovery_window_open(&self, pipe: u64, cwnd: u64) -> bool {
        match self {
            LossRecovery::Sack1(s) => s.window_open(cwnd),
            _ => pipe < cwnd,
        }
    }

    /// A segment was sent in fast recovery.
    #[inline]
    pub fn on_send_in_recovery(&mut self) {
        if let LossRecovery::Sack1(s) = self {
            s.on_send();
        }
    }

    /// A segment `seq` left at `now`.
    #[inline]
    pub fn on_send(&mut self, sb: &mut Scoreboard, seq: u64, is_retransmission: bool, now: SimTime) {
        if let LossRecovery::RackTlp(r) = self {
            r.on_send(sb, seq, is_retransmission, now);
        }
    }

    /// Whether a loss is known that starts fast recovery.
    pub fn loss_detected(&self, sb: &Scoreboard, snd_una: u64, dupacks: u32, dupthresh: u32) -> bool {
        match self {
            LossRecovery::Rfc6675 => rfc6675::loss_detected(sb, snd_una, dupacks, dupthresh),
            LossRecovery::RackTlp(_) => sb.lost_out > 0,
            _ => dupacks >= dupthresh,
        }
    }

    /// Fast recovery starts, before the controller is told (classic Reno's window inflation
    /// counts in the `pipe` the controller sees).
    pub fn before_recovery(&mut self, dupacks: u32, snd_una: u64, snd_nxt: u64) {
        if let LossRecovery::Reno(r) = self {
            r.before_recovery(dupacks, snd_una, snd_nxt);
        }
    }

    /// Fast recovery has started (the controller has cut its window): mark what is lost.
    pub fn on_recovery_start(&mut self, sb: &mut Scoreboard, snd_una: u64, snd_nxt: u64, dupthresh: u32) {
        match self {
            LossRecovery::RackTlp(r) => r.on_recovery_start(),
            LossRecovery::Sack1(s) => {
                sb.mark_lost(snd_una);
                s.on_recovery_start(sb, snd_una, snd_nxt, dupthresh);
            }
            _ => sb.mark_lost(snd_una),
        }
    }

    /// The cumulative ACK moved on by `newly_cum` segments.
    #[inline]
    pub fn on_cumulative_ack(&mut self, newly_cum: u64, in_recovery: bool) {
        if let Some(d) = self.dupack_sacked_mut() {
            d.on_cumulative_ack(newly_cum, in_recovery);
        }
    }

    /// Whether this ACK's SACK blocks are read.
    #[inline]
    pub fn reads_sack_blocks(&self) -> bool {
        match self {
            LossRecovery::Sack1(s) => !s.after_timeout,
            other => other.uses_sack(),
        }
    }

    /// After an ACK's SACK blocks are read: the holes they show marked lost.
    #[inline]
    pub fn mark_lost_from_sacks(&self, sb: &mut Scoreboard, snd_una: u64, dupthresh: u32, in_recovery: bool) {
        match self {
            LossRecovery::Rfc6675 => sb.update_lost(snd_una, dupthresh),
            LossRecovery::Sack1(_) => sack1::mark_lost_from_sacks(sb, snd_una, in_recovery),
            _ => {}
        }
    }

    /// Whether duplicate ACKs are counted now.
    #[inline]
    pub fn counts_duplicates(&self) -> bool {
        !matches!(self, LossRecovery::Sack1(s) if s.after_timeout)
    }

    /// A duplicate ACK was counted, `outstanding` segments being out.
    #[inline]
    pub fn on_duplicate(&mut self, in_recovery: bool, outstanding: u64) {
        match self {
            LossRecovery::NewReno(r) => r.dupack_sacked.on_duplicate(outstanding),
            LossRecovery::Reno(r) if in_recovery => r.dupack_sacked.on_duplicate(outstanding),
            _ => {}
        }
    }

    /// An ACK of new data has been processed (its SACK blocks read or not).
    #[inline]
    pub fn after_new_ack(&mut self) {
        if let LossRecovery::Sack1(s) = self {
            s.after_timeout = false;
        }
    }

    /// An ACK arrived in fast recovery (not the one that started it).
    #[inline]
    pub fn on_ack_in_recovery(&mut self) {
        if let LossRecovery::Sack1(s) = self {
            s.on_ack();
        }
    }

    /// A partial ACK in fast recovery; `first` if it is the recovery's first.
    pub fn on_partial_ack(&mut self, sb: &mut Scoreboard, snd_una: u64, first: bool) -> PartialAck {
        match self {
            LossRecovery::Reno(_) => PartialAck::EndsRecovery,
            LossRecovery::Sack1(s) => s.on_partial_ack(),
            LossRecovery::NewReno(r) => r.on_partial_ack(sb, snd_una, first),
            LossRecovery::Rfc6675 => rfc6675::on_partial_ack(sb, snd_una),
            LossRecovery::RackTlp(_) => PartialAck::Continues { restart_timer: true },
        }
    }

    /// Whether the ACK that ends fast recovery also grows the window. ns-2.35's Sack1 hands
    /// that ACK to `newack()` alone (`tcp-sack1.cc`, `recv`: "ACK indicates fast recovery is
    /// over"), not to `recv_newack_helper()`, so it does not `opencwnd()`; its Reno and Newreno
    /// agents do, as RFC 5681 and RFC 6675 senders do.
    pub fn exit_ack_grows_window(&self) -> bool {
        !matches!(self, LossRecovery::Sack1(_))
    }

    /// Fast recovery ended.
    pub fn on_recovery_exit(&mut self) {
        if let Some(d) = self.dupack_sacked_mut() {
            d.pkts = 0;
        }
    }

    /// The retransmission timer expired: every un-SACKed outstanding segment is deemed lost.
    pub fn on_timeout(&mut self, sb: &mut Scoreboard, snd_una: u64, snd_nxt: u64) {
        let sack1 = matches!(self, LossRecovery::Sack1(_));
        sb.on_timeout(snd_una, snd_nxt, sack1);
        self.on_recovery_exit();
        match self {
            LossRecovery::Sack1(s) => s.after_timeout = true,
            LossRecovery::RackTlp(r) => r.on_timeout(snd_nxt),
            LossRecovery::NewReno(_) | LossRecovery::Reno(_) | LossRecovery::Rfc6675 => {}
        }
    }
}
