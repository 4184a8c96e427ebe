//! What a partial ACK does to fast recovery, as each recovery variant answers it.

/// What a partial ACK (new data acknowledged, short of `recover`) does to fast recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartialAck {
    /// It ends fast recovery (classic Reno).
    EndsRecovery,
    /// Recovery goes on; whether the retransmission timer restarts.
    Continues {
        /// The timer restarts (RFC 6298 (5.3)).
        restart_timer: bool,
    },
}
