//! DropTail: a FIFO that drops arrivals once it holds `limit` packets or bytes.

use crate::net::packet::Packet;
use crate::units::parse::PacketsOrBytes;
use std::collections::VecDeque;

/// A DropTail FIFO.
pub struct DropTail {
    fifo: VecDeque<Packet>,
    bytes: u64,
    limit: PacketsOrBytes,
}

impl DropTail {
    /// An empty queue that holds at most `limit` (packets or bytes) waiting packets.
    pub fn new(limit: PacketsOrBytes) -> Self {
        let capacity = match limit {
            PacketsOrBytes::Packets(n) => n.min(1 << 16) as usize,
            PacketsOrBytes::Bytes(b) => (b.0 / 1000).min(1 << 16) as usize,
        };
        DropTail { fifo: VecDeque::with_capacity(capacity + 1), bytes: 0, limit }
    }

    /// Appends `p` if it fits; otherwise gives it back.
    #[inline]
    pub fn enqueue(&mut self, p: Packet) -> Result<(), Packet> {
        let fits = match self.limit {
            PacketsOrBytes::Packets(n) => (self.fifo.len() as u64) < n,
            PacketsOrBytes::Bytes(b) => self.bytes + p.size.0 <= b.0,
        };
        if fits {
            self.bytes += p.size.0;
            self.fifo.push_back(p);
            Ok(())
        } else {
            Err(p)
        }
    }

    /// Removes the packet at the head.
    #[inline]
    pub fn dequeue(&mut self) -> Option<Packet> {
        let p = self.fifo.pop_front()?;
        self.bytes -= p.size.0;
        Some(p)
    }

    /// Packets waiting.
    #[inline]
    pub fn len_pkts(&self) -> u64 {
        self.fifo.len() as u64
    }

    /// Bytes waiting.
    #[inline]
    pub fn len_bytes(&self) -> u64 {
        self.bytes
    }
}
