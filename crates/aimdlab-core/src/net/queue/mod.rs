//! Egress queue disciplines: DropTail, RED (with ECN marking), CoDel, FQ-CoDel and PIE.
//! Built-ins are dispatched through an enum on the hot path. A discipline records what it
//! dropped or marked in the link's `QueueLog`.

pub mod codel;
pub mod droptail;
pub mod fifo;
pub mod fq_codel;
pub mod pie;
pub mod red;

use crate::net::packet::Packet;
use crate::rng::RngStream;
use crate::units::parse::PacketsOrBytes;
use crate::units::{Rate, SimTime};
pub use codel::{Codel, CodelParams};
pub use droptail::DropTail;
pub use fq_codel::{FqCodel, FqCodelParams};
pub use pie::{Pie, PieParams};
pub use red::{Red, RedConfig};

/// A resolved queue configuration.
#[derive(Clone, Debug, PartialEq)]
pub enum QueueConfig {
    /// DropTail with a capacity in packets or bytes.
    DropTail {
        /// Capacity, not counting the packet in transmission.
        limit: PacketsOrBytes,
    },
    /// RED.
    Red(RedConfig),
    /// CoDel with a tail-drop limit.
    Codel {
        /// Capacity.
        limit: PacketsOrBytes,
        /// CoDel parameters.
        params: CodelParams,
    },
    /// FQ-CoDel.
    FqCodel(FqCodelParams),
    /// PIE.
    Pie(PieParams),
}

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

/// An egress queue.
pub enum Queue {
    /// DropTail FIFO.
    DropTail(DropTail),
    /// RED.
    Red(Box<Red>),
    /// CoDel.
    Codel(Box<Codel>),
    /// FQ-CoDel.
    FqCodel(Box<FqCodel>),
    /// PIE.
    Pie(Box<Pie>),
}

impl Queue {
    /// A new empty queue of the configured kind on a link of `rate`; `salt` seeds what a
    /// discipline fixes at start (FQ-CoDel's hash perturbation).
    pub fn new(cfg: &QueueConfig, rate: Rate, salt: u64) -> Self {
        match cfg {
            QueueConfig::DropTail { limit } => Queue::DropTail(DropTail::new(*limit)),
            QueueConfig::Red(c) => Queue::Red(Box::new(Red::new(c, rate))),
            QueueConfig::Codel { limit, params } => Queue::Codel(Box::new(Codel::new(*limit, params))),
            QueueConfig::FqCodel(p) => Queue::FqCodel(Box::new(FqCodel::new(p, salt))),
            QueueConfig::Pie(p) => Queue::Pie(Box::new(Pie::new(p))),
        }
    }

    /// Whether a packet arriving at an idle link with an empty queue may skip the queue
    /// (true only where that changes nothing: DropTail).
    #[inline]
    pub fn is_passive(&self) -> bool {
        matches!(self, Queue::DropTail(_))
    }

    /// Offers `p` arriving at `now`; returns whether it was queued (drops and marks are
    /// recorded in `log`).
    #[inline]
    pub fn enqueue(&mut self, p: Packet, now: SimTime, rng: &mut RngStream, log: &mut QueueLog) -> bool {
        match self {
            Queue::DropTail(q) => q.enqueue(p, log),
            Queue::Red(q) => q.enqueue(p, now, rng, log),
            Queue::Codel(q) => q.enqueue(p, log),
            Queue::FqCodel(q) => q.enqueue(p, log),
            Queue::Pie(q) => q.enqueue(p, now, rng, log),
        }
    }

    /// Takes the next packet to transmit at `now` (AQMs may drop or mark on the way).
    #[inline]
    pub fn dequeue(&mut self, now: SimTime, log: &mut QueueLog) -> Option<Packet> {
        match self {
            Queue::DropTail(q) => q.dequeue(),
            Queue::Red(q) => q.dequeue(now),
            Queue::Codel(q) => q.dequeue(now, log),
            Queue::FqCodel(q) => q.dequeue(now, log),
            Queue::Pie(q) => q.dequeue(now),
        }
    }

    /// Packets waiting.
    #[inline]
    pub fn len_pkts(&self) -> u64 {
        match self {
            Queue::DropTail(q) => q.fifo().len_pkts(),
            Queue::Red(q) => q.fifo().len_pkts(),
            Queue::Codel(q) => q.fifo().len_pkts(),
            Queue::FqCodel(q) => q.len_pkts(),
            Queue::Pie(q) => q.fifo().len_pkts(),
        }
    }

    /// Bytes waiting.
    #[inline]
    pub fn len_bytes(&self) -> u64 {
        match self {
            Queue::DropTail(q) => q.fifo().len_bytes(),
            Queue::Red(q) => q.fifo().len_bytes(),
            Queue::Codel(q) => q.fifo().len_bytes(),
            Queue::FqCodel(q) => q.len_bytes(),
            Queue::Pie(q) => q.fifo().len_bytes(),
        }
    }

    /// RED's average queue (packets or bytes), if this is RED.
    pub fn red_avg(&self) -> Option<f64> {
        match self {
            Queue::Red(q) => Some(q.avg()),
            _ => None,
        }
    }
}
