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

/// Drops by cause and ECN marks of one link, counted once over the whole run (a measurement
/// window is the difference of two snapshots: `since`).
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
    /// What happened since `base` (an earlier snapshot of the same log).
    pub fn since(&self, base: &QueueLog) -> QueueLog {
        QueueLog {
            overflow: self.overflow - base.overflow,
            early: self.early - base.early,
            forced: self.forced - base.forced,
            link_error: self.link_error - base.link_error,
            ecn_marks: self.ecn_marks - base.ecn_marks,
        }
    }
}
