//! The timers of transport endpoints. One event kind, `Event::Timer(flow, kind)`, carries
//! them all; the flow's endpoint that owns the kind handles it (and checks it against its own
//! deadline: a timer event may be stale).

/// A transport timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TimerKind {
    /// The sender's retransmission timer (RFC 6298).
    Retransmit = 0,
    /// The receiver's delayed-ACK timer (RFC 1122 §4.2.3.2).
    DelayedAck = 1,
    /// The sender's pacing timer: the next packet may leave (when the controller paces).
    Pacing = 2,
}

impl TimerKind {
    /// Number of kinds.
    pub const COUNT: usize = 3;
    /// Every kind, in the order their requests are scheduled.
    pub const ALL: [TimerKind; TimerKind::COUNT] = [TimerKind::Retransmit, TimerKind::DelayedAck, TimerKind::Pacing];

    /// Whether the sender owns this timer (otherwise the receiver does).
    pub fn at_sender(self) -> bool {
        match self {
            TimerKind::Retransmit | TimerKind::Pacing => true,
            TimerKind::DelayedAck => false,
        }
    }
}
