//! What duplicate ACKs stand for in a recovery without SACK (NewReno, classic Reno): one
//! segment gone each, taken back by partial ACKs.

/// Segments that duplicate ACKs stand for (the SACK count of a sender without SACK).
#[derive(Clone, Copy, Debug, Default)]
pub struct DupackSacked {
    /// Segments above the cumulative ACK deemed arrived.
    pub pkts: u64,
}

impl DupackSacked {
    /// One more duplicate ACK: one more segment has left (at most all but the first of the
    /// `outstanding` ones).
    #[inline]
    pub fn on_duplicate(&mut self, outstanding: u64) {
        self.pkts = (self.pkts + 1).min(outstanding - 1);
    }

    /// The cumulative ACK moved on by `newly_cum`: in recovery a partial ACK of k segments
    /// takes back k − 1 counts; outside, none is left.
    #[inline]
    pub fn on_cumulative_ack(&mut self, newly_cum: u64, in_recovery: bool) {
        self.pkts = if in_recovery { self.pkts.saturating_sub(newly_cum - 1) } else { 0 };
    }
}
