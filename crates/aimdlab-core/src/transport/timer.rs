//! The timers of transport endpoints. One event kind, `Event::Timer(flow, kind)`, carries
//! them all (the kind's index rides in the event beside the flow); the flow's endpoint that
//! owns the kind handles it. A transport adds a timer here and nowhere else.
//!
//! Two sorts: a *lazy* timer (retransmission, pacing, CCID-3's) is an ordinary event that may be stale —
//! the endpoint checks it against its own deadline and asks again for a later one; an *exact*
//! timer (delayed ACK) always runs for the same delay, is cancelled when no longer needed, and
//! runs only if still set (it lives in a timer lane of the event queue).

/// A transport timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TimerKind {
    /// The sender's retransmission timer (RFC 6298).
    Retransmit = 0,
    /// The receiver's delayed-ACK timer (RFC 1122 §4.2.3.2).
    DelayedAck = 1,
    /// The sender's pacing timer: the next packet may leave (when the controller paces, and
    /// DCCP CCID-3's inter-packet interval).
    Pacing = 2,
    /// DCCP CCID-3 sender's nofeedback timer (RFC 5348 §4.4).
    NoFeedback = 3,
    /// DCCP CCID-3 receiver's feedback timer, once per RTT (RFC 5348 §6.2).
    Feedback = 4,
}

impl TimerKind {
    /// Number of kinds.
    pub const COUNT: usize = 5;
    /// Every kind, in the order their requests are scheduled (and of their indices).
    pub const ALL: [TimerKind; TimerKind::COUNT] =
        [TimerKind::Retransmit, TimerKind::DelayedAck, TimerKind::Pacing, TimerKind::NoFeedback, TimerKind::Feedback];

    /// The kind of index `i` (`kind as usize`), if there is one.
    pub fn from_index(i: usize) -> Option<TimerKind> {
        TimerKind::ALL.get(i).copied()
    }

    /// What the timer is, in words, with the settings that set its delay (for error messages).
    pub fn describe(self) -> &'static str {
        match self {
            TimerKind::Retransmit => "retransmission timer (check tcp.min_rto / max_rto)",
            TimerKind::DelayedAck => "delayed-ACK timer (check tcp.delayed_ack_timeout)",
            TimerKind::Pacing => "pacing timer (check the controller's pacing rate)",
            TimerKind::NoFeedback => "CCID-3 nofeedback timer",
            TimerKind::Feedback => "CCID-3 feedback timer",
        }
    }

    /// Whether this is an exact timer (fixed delay, cancelled when not needed, never stale).
    pub fn is_exact(self) -> bool {
        matches!(self, TimerKind::DelayedAck)
    }

    /// Whether the sender owns this timer (otherwise the receiver does).
    pub fn at_sender(self) -> bool {
        match self {
            TimerKind::Retransmit | TimerKind::Pacing | TimerKind::NoFeedback => true,
            TimerKind::DelayedAck | TimerKind::Feedback => false,
        }
    }
}
