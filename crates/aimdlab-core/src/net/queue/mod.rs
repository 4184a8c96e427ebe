//! Egress queue disciplines. Built-ins are dispatched through an enum on the hot path.

pub mod droptail;

use crate::net::packet::Packet;
use crate::units::parse::PacketsOrBytes;
use crate::units::SimTime;
pub use droptail::DropTail;

/// A resolved queue configuration.
#[derive(Clone, Debug, PartialEq)]
pub enum QueueConfig {
    /// DropTail with a capacity in packets or bytes.
    DropTail {
        /// Capacity, not counting the packet in transmission.
        limit: PacketsOrBytes,
    },
}

/// Why a queue refused a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropCause {
    /// The buffer was full.
    Overflow,
}

/// An egress queue.
pub enum Queue {
    /// DropTail FIFO.
    DropTail(DropTail),
}

impl Queue {
    /// A new empty queue of the configured kind.
    pub fn new(cfg: &QueueConfig) -> Self {
        match cfg {
            QueueConfig::DropTail { limit } => Queue::DropTail(DropTail::new(*limit)),
        }
    }

    /// Offers `p` arriving at `now`; on refusal returns the packet and the cause.
    #[inline]
    pub fn enqueue(&mut self, p: Packet, _now: SimTime) -> Result<(), (Packet, DropCause)> {
        match self {
            Queue::DropTail(q) => q.enqueue(p).map_err(|p| (p, DropCause::Overflow)),
        }
    }

    /// Takes the next packet to transmit at `now`.
    #[inline]
    pub fn dequeue(&mut self, _now: SimTime) -> Option<Packet> {
        match self {
            Queue::DropTail(q) => q.dequeue(),
        }
    }

    /// Packets waiting.
    #[inline]
    pub fn len_pkts(&self) -> u64 {
        match self {
            Queue::DropTail(q) => q.len_pkts(),
        }
    }

    /// Bytes waiting.
    #[inline]
    pub fn len_bytes(&self) -> u64 {
        match self {
            Queue::DropTail(q) => q.len_bytes(),
        }
    }
}
