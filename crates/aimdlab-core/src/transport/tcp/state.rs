//! Where a TCP sender stands with congestion: Linux's `icsk_ca_state`, ns-3's
//! `TcpCongState_t`, each state with the data that lives as long as it does (a reduction's
//! PRR). The sender changes it in one place (`TcpSender::set_state`), which tells the
//! controller of every change. The points the states end at (`recover`, the ECN reduction's
//! `ecn_recover`) are the sender's, since they outlive the states (RFC 6582's `recover`
//! also gates the next fast retransmit).

use super::prr::Prr;
use crate::cc::CaPhase;

/// The sender's congestion state.
#[derive(Clone, Copy, Debug)]
pub enum CaState {
    /// No reduction under way. Duplicate ACKs may be counting towards one (Linux's Disorder
    /// is not a state of its own here: the sender's `dupacks`).
    Open,
    /// The window of an ECN reduction (RFC 3168 §6.1.2), until the cumulative ACK passes what
    /// was sent at the reduction; with `cwr_freeze` the window holds still meanwhile.
    Cwr {
        /// PRR's run over the reduction (with `prr` and `cwr_freeze` on).
        prr: Prr,
    },
    /// Fast recovery, until the cumulative ACK reaches `recover`.
    Recovery {
        /// A partial ACK has arrived in this recovery.
        partial_acked: bool,
        /// PRR's run over the recovery (with `prr` on).
        prr: Prr,
    },
    /// After a retransmission timeout, until the cumulative ACK reaches `recover` (Linux's
    /// CA_Loss: RACK's reordering window widens, no tail loss probe).
    Loss,
}

impl CaState {
    /// The state as the controller hears of it.
    pub fn phase(&self) -> CaPhase {
        match self {
            CaState::Open => CaPhase::Open,
            CaState::Cwr { .. } => CaPhase::Cwr,
            CaState::Recovery { .. } => CaPhase::Recovery,
            CaState::Loss => CaPhase::Loss,
        }
    }

    /// PRR's run, in a reduction.
    #[inline]
    pub fn prr(&self) -> Option<&Prr> {
        match self {
            CaState::Cwr { prr } | CaState::Recovery { prr, .. } => Some(prr),
            CaState::Open | CaState::Loss => None,
        }
    }

    /// PRR's run, to change.
    #[inline]
    pub fn prr_mut(&mut self) -> Option<&mut Prr> {
        match self {
            CaState::Cwr { prr } | CaState::Recovery { prr, .. } => Some(prr),
            CaState::Open | CaState::Loss => None,
        }
    }

    /// Whether this is fast recovery.
    #[inline]
    pub fn in_recovery(self) -> bool {
        matches!(self, CaState::Recovery { .. })
    }

    /// Whether the sender is repairing losses: in fast recovery or after a timeout (Linux's
    /// CA_Recovery or CA_Loss; RACK widens its reordering window then, and sends no probe).
    #[inline]
    pub fn repairing(self) -> bool {
        matches!(self, CaState::Recovery { .. } | CaState::Loss)
    }
}
