//! The congestion state of a sender as its controller hears of it (Linux's `tcp_ca_state`,
//! ns-3's `TcpCongState_t`): the transport tells the controller of every change
//! (`CongestionControl::on_state_change`), as Linux's `set_state` hook and its
//! `CA_EVENT_COMPLETE_CWR` do. The transport's own state carries each state's data.

/// Where a sender stands with congestion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaPhase {
    /// No reduction under way.
    Open,
    /// The window of an ECN reduction (RFC 3168 §6.1.2).
    Cwr,
    /// Fast recovery.
    Recovery,
    /// After a retransmission timeout, until its data is acknowledged.
    Loss,
}
