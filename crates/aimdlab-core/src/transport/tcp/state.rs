//! Where a TCP sender stands with congestion: Linux's `icsk_ca_state`, ns-3's
//! `TcpCongState_t`. The points the states end at (`recover`, the ECN reduction's
//! `ecn_recover`) are the sender's, since they outlive the states (RFC 6582's `recover`
//! also gates the next fast retransmit).

/// The sender's congestion state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaState {
    /// No reduction under way. Duplicate ACKs may be counting towards one (Linux's Disorder
    /// is not a state of its own here: the sender's `dupacks`).
    Open,
    /// The window of an ECN reduction (RFC 3168 §6.1.2), until the cumulative ACK passes what
    /// was sent at the reduction; with `cwr_freeze` the window holds still meanwhile.
    Cwr,
    /// Fast recovery, until the cumulative ACK reaches `recover`.
    Recovery {
        /// A partial ACK has arrived in this recovery.
        partial_acked: bool,
    },
    /// After a retransmission timeout, until the cumulative ACK reaches `recover` (Linux's
    /// CA_Loss: RACK's reordering window widens, no tail loss probe).
    Loss,
}

impl CaState {
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
