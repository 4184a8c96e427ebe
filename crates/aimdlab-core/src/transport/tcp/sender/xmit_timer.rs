//! What the sender's one retransmission timer runs to.

/// What the retransmission timer's deadline is for (Linux's `icsk_pending`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum XmitTimer {
    /// The retransmission timeout.
    Rto,
    /// RACK-TLP's tail loss probe.
    Probe,
    /// RACK's reorder timer.
    Reorder,
}
