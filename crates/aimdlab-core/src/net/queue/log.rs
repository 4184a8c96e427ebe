//! What a queue discipline (or the wire) did to packets: drops by cause and ECN marks, kept
//! per link.

/// Why a packet was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropCause {
    /// The buffer was full.
    Overflow,
    /// An AQM dropped it early (RED's random drop, CoDel, PIE).
    Early,
    /// RED's forced drop above the maximum threshold.
    Forced,
    /// The link corrupted it (random or bursty loss).
    LinkError,
}

/// Drops by cause and ECN marks of one link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueLog {
    /// Buffer overflows.
    pub overflow: u64,
    /// Early (AQM) drops.
    pub early: u64,
    /// RED forced drops.
    pub forced: u64,
    /// Losses on the wire.
    pub link_error: u64,
    /// Packets marked CE instead of dropped.
    pub ecn_marks: u64,
}

impl QueueLog {
    /// Records one drop.
    #[inline]
    pub fn drop(&mut self, cause: DropCause) {
        match cause {
            DropCause::Overflow => self.overflow += 1,
            DropCause::Early => self.early += 1,
            DropCause::Forced => self.forced += 1,
            DropCause::LinkError => self.link_error += 1,
        }
    }
    /// Drops of every cause.
    pub fn dropped(&self) -> u64 {
        self.overflow + self.early + self.forced + self.link_error
    }
}
